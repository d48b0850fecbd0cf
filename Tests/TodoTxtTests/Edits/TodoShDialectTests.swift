import Testing
@testable import TodoTxt

/// todo.sh's byte-level reading of a line (Sources/TodoTxt/TodoShDialect.swift): each edit as
/// todo.txt-cli's sed expressions make it, checked on the cases where todo.sh and the format's own
/// fields disagree.
struct TodoShDialectTests {
    func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    @Test(arguments: [
        ("(A) call", "x 2026-12-02 call"),
        ("(é) call", "x 2026-12-02 call"),
        ("(a) call", "x 2026-12-02 call"),
        ("call (A) ", "x 2026-12-02 call (A) "),
        ("x 2026-01-01 done", "x 2026-12-02 x 2026-01-01 done"),
    ])
    func markedDoneDropsAnyLeadingPriority(line: String, expected: String) {
        #expect(text(TodoShDialect.markedDone(bytes(line), today: bytes("2026-12-02"))) == expected)
    }

    @Test func isDoneIsTheLeadingXAndSpace() {
        #expect(TodoShDialect.isDone(bytes("x a")))
        #expect(TodoShDialect.isDone(bytes("x ")))
        #expect(!TodoShDialect.isDone(bytes("x")))
        #expect(!TodoShDialect.isDone(bytes("X a")))
        #expect(!TodoShDialect.isDone(bytes(" x a")))
    }

    @Test func appendJoinsWithASpaceUnlessTheTextStartsASentenceMark() {
        let delimiters = bytes(",.:;")
        #expect(text(TodoShDialect.appending(bytes("milk"), to: bytes("buy"), sentenceDelimiters: delimiters)) == "buy milk")
        #expect(text(TodoShDialect.appending(bytes(", milk"), to: bytes("buy"), sentenceDelimiters: delimiters)) == "buy, milk")
    }

    @Test(arguments: [
        ("(B) 2026-01-02 call mum", "(B) 2026-01-02 URGENT call mum"),
        ("(b) 2026-01-02 call mum", "URGENT (b) 2026-01-02 call mum"),
        ("26-01-02 call", "26-01-02 URGENT call"),
        ("x 2026-01-02 call", "URGENT x 2026-01-02 call"),
    ])
    func prependKeepsAnUppercasePriorityAndADateInFront(line: String, expected: String) {
        #expect(text(TodoShDialect.prepending(bytes("URGENT"), to: bytes(line))) == expected)
    }

    @Test(arguments: [
        ("(B) 2026-01-02 old", "new", "(B) 2026-01-02 new"),
        ("(B) 2026-01-02 old", "(c) new", "(C) 2026-01-02 new"),
        ("(B) 2026-01-02 old", "2026-05-06 new", "(B) 2026-05-06 new"),
        ("old", "(a) 2026-05-06 new", "(A) 2026-05-06 new"),
    ])
    func replaceKeepsPriorityAndDateUnlessGiven(line: String, replacement: String, expected: String) {
        #expect(text(TodoShDialect.replacing(bytes(line), with: bytes(replacement))) == expected)
    }

    @Test func priorityPrefixCountsAMultiByteCharacterAsOne() {
        #expect(TodoShDialect.priorityPrefixLength(bytes("(A) a")) == 4)
        #expect(TodoShDialect.priorityPrefixLength(bytes("(é) a")) == 5)
        #expect(TodoShDialect.priorityPrefixLength(bytes("(AB) a")) == nil)
        #expect(TodoShDialect.priorityPrefixLength(bytes("(A)a")) == nil)
        #expect(text(TodoShDialect.prioritizing(bytes("(é) a"), letter: UInt8(ascii: "C"))) == "(C) a")
        #expect(text(TodoShDialect.deprioritizing(bytes("(é) a"))) == "a")
        #expect(text(TodoShDialect.deprioritizing(bytes("a (A) "))) == "a (A) ")
    }

    @Test func removingATaskEmptiesItOrSqueezesEveryEmptyLine() {
        let document = TodoDocument(bytes: bytes("a\n\nb\nc\n"))
        #expect(text(TodoShDialect.removingTask(at: 2, from: document, preserveLineNumbers: true).rendered()) == "a\n\n\nc\n")
        #expect(text(TodoShDialect.removingTask(at: 2, from: document, preserveLineNumbers: false).rendered()) == "a\nc\n")
    }

    @Test func deduplicateCountsTheNonEmptyLinesRemoved() {
        let document = TodoDocument(bytes: bytes("a\nb\na\n\n\na\n"))
        let kept = TodoShDialect.deduplicating(document, preserveLineNumbers: true)
        #expect(kept.removed == 2)
        #expect(text(kept.document.rendered()) == "a\nb\n\n\n\n\n")
        let squeezed = TodoShDialect.deduplicating(document, preserveLineNumbers: false)
        #expect(squeezed.removed == 2)
        #expect(text(squeezed.document.rendered()) == "a\nb\n\n")
    }

    @Test func deleteTermTidiesSpaces() {
        func remove(_ term: String, _ line: String) -> String {
            String(decoding: TodoShDialect.removingTerm(bytes(term), from: bytes(line)), as: UTF8.self)
        }
        #expect(remove("smell", "(A) smell the roses") == "(A) the roses")
        #expect(remove("roses", "(A) smell the roses") == "(A) smell the")
        #expect(remove("the", "(A) smell the roses") == "(A) smell roses")
        #expect(remove("m", "smell") == "sell")
    }
}
