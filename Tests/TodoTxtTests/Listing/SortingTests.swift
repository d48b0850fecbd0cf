import Testing
@testable import TodoTxt

/// docs/format.md section 5: completed tasks sink, stably; keyed orders of the open group.
@Suite struct SortingTests {
    func sorted(_ text: String, by keys: [SortKey] = [], sourceLocation: SourceLocation = #_sourceLocation) -> String {
        parseRoundTrip(b(text), sourceLocation: sourceLocation)
        let bytes = TodoDocument.sort(b(text), by: keys)
        #expect(TodoDocument(bytes: b(text)).sorted(by: keys).rendered() == bytes, sourceLocation: sourceLocation)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func stablePartition() {
        #expect(sorted("x 1\na\nx 2\n\nb\n# c\n") == "a\n\nb\n# c\nx 1\nx 2\n")
    }

    @Test func onlyLowercaseXSpaceCounts() {
        #expect(sorted("x done\nX not\nxylophone\nx\n(A) x no\n") == "X not\nxylophone\nx\n(A) x no\nx done\n")
    }

    @Test func lastLineMovesUpAndGetsATerminator() {
        #expect(sorted("x done\r\nopen") == "open\r\nx done")
        #expect(sorted("x done\nopen\r\nother") == "open\r\nother\nx done")
    }

    @Test func finalNewlineKept() {
        #expect(sorted("x a\nb\n") == "b\nx a\n")
    }

    @Test func bomStaysInFront() {
        #expect(sorted("\u{FEFF}x a\n(A) b") == "\u{FEFF}(A) b\nx a")
    }

    @Test func alreadySortedReturnsTheSameBytes() {
        let text = "a\r\nb\nx c\r\nx d"
        #expect(sorted(text) == text)
    }

    @Test func sortKeysParse() {
        #expect(SortKey.parseList("priority,due") == [.priority, .due])
        #expect(SortKey.parseList("") == nil)
        #expect(SortKey.parseList("priority,bogus") == nil)
    }

    @Test func byPriority() {
        #expect(sorted("c\n(B) b\nx (A) done\n(A) a\n\n(B) b2\n", by: [.priority])
                == "(A) a\n(B) b\n(B) b2\nc\n\nx (A) done\n")
    }

    @Test func byDueThenPriority() {
        let input = "none\n(B) due:2026-01-02\n(A) due:2026-01-02\nd due:2026-01-01\nbad due:someday\n"
        #expect(sorted(input, by: [.due, .priority])
                == "d due:2026-01-01\n(A) due:2026-01-02\n(B) due:2026-01-02\nnone\nbad due:someday\n")
    }

    @Test func byThresholdCreatedText() {
        #expect(sorted("b t:2026-02-01\na t:2026-01-01\nc\n", by: [.threshold]) == "a t:2026-01-01\nb t:2026-02-01\nc\n")
        #expect(sorted("2026-02-01 b\n2026-01-01 a\nc\n", by: [.created]) == "2026-01-01 a\n2026-02-01 b\nc\n")
        #expect(sorted("(A) beta\nAlpha\n(C) alpha\n", by: [.text]) == "Alpha\n(C) alpha\n(A) beta\n")
    }

    @Test func keyedSortPutsBlankLinesAtTheEndOfTheOpenGroup() {
        #expect(sorted("(B) b\n\n(A) a\nx done\n", by: [.priority]) == "(A) a\n(B) b\n\nx done\n")
    }

    /// Decision (docs/format.md is silent): when a keyed sort moves an empty line to the very end of a file
    /// without a final newline, that line keeps its terminator so it is not lost.
    @Test func keyedSortNeverDropsAnEmptyLine() {
        let result = sorted("(B) b\n\n(A) a", by: [.priority])
        #expect(result == "(A) a\n(B) b\n\n")
        #expect(TodoDocument(result).lineCount == 3)
    }

    @Test func sortedOrderIsAPermutation() {
        let document = parseRoundTrip(b("x 1\na\nx 2\nb"))
        #expect(document.sortedOrder() == [1, 3, 0, 2])
    }
}

@Suite struct StrayByteOrderMarkTests {
    @Test func aLinesOwnBOMIsReadPastLikeTheFilesBOM() {
        let bom = "\u{FEFF}"
        let midFile = TodoItem(bom + "x 2026-01-02 (A) done")
        let firstLine = TodoDocument(bom + "x 2026-01-02 (A) done\n").item(at: 0)
        #expect(midFile.isCompleted == firstLine.isCompleted)
        #expect(midFile.priority == firstLine.priority)
        #expect(midFile.completionDate == firstLine.completionDate)
        #expect(midFile.body == firstLine.body)
    }

    @Test func sortingALineWithItsOwnBOMToTheTopIsIdempotent() {
        // Found by the fuzzer: `EF BB BF x b` mid-file used to be open, moved to the top, then read back
        // as the file's BOM plus a completed task, so a second sort moved it again.
        let input = Array("x a\n\u{FEFF}x b\nc\n".utf8)
        let once = TodoDocument.sort(input)
        #expect(TodoDocument(bytes: once).rendered() == once)
        #expect(TodoDocument.sort(once) == once)
        #expect(String(decoding: once, as: UTF8.self) == "c\nx a\n\u{FEFF}x b\n")
        let openFirst = Array("x a\n\u{FEFF}c\n".utf8)
        let sorted = TodoDocument.sort(openFirst)
        #expect(String(decoding: sorted, as: UTF8.self) == "\u{FEFF}c\nx a\n")
        #expect(TodoDocument.sort(sorted) == sorted)
    }

    @Test func editsKeepALinesOwnBOMInFront() {
        let item = TodoItem("\u{FEFF}(B) call mom")
        let done = TodoItem(item.completed(on: TodoDate(year: 2026, month: 1, day: 2)!)!)
        #expect(String(decoding: done.content, as: UTF8.self) == "\u{FEFF}x 2026-01-02 call mom pri:B")
        #expect(done.uncompleted().map { String(decoding: $0, as: UTF8.self) } == "\u{FEFF}(B) call mom")
    }
}
