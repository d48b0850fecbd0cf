import Testing
import TodoTestSupport
@testable import TodoTxt

/// docs/format.md section 3: what `todo` writes. Each edit rewrites only its line.
@Suite struct TodoItemEditingTests {
    let today = d("2026-03-01")

    /// Applies `edit` to line `index` of `file` and checks that every other line is byte-identical.
    func edited(_ file: String, line index: Int, _ edit: (inout TodoDocument) -> Bool,
                sourceLocation: SourceLocation = #_sourceLocation) -> (changed: Bool, line: String, file: [UInt8]) {
        let before = parseRoundTrip(b(file), sourceLocation: sourceLocation)
        var after = before
        let changed = edit(&after)
        #expect(after.lineCount == before.lineCount, sourceLocation: sourceLocation)
        for other in 0..<before.lineCount where other != index {
            #expect(after.content(at: other).elementsEqual(before.content(at: other)), sourceLocation: sourceLocation)
            #expect(after.terminator(at: other) == before.terminator(at: other), sourceLocation: sourceLocation)
        }
        #expect(after.terminator(at: index) == before.terminator(at: index), sourceLocation: sourceLocation)
        return (changed, after.text(at: index), after.rendered())
    }

    static let file = "\u{FEFF}(B) first +p\r\n(A) 2026-01-01 call mom due:2026-03-05\r\n\r\nx 2026-02-01 done pri:C\r\nlast"

    @Test func completeTouchesOnlyItsLine() {
        let result = edited(Self.file, line: 1) { $0.complete(at: 1, on: today) }
        #expect(result.changed)
        #expect(result.line == "x 2026-03-01 2026-01-01 call mom due:2026-03-05 pri:A")
        #expect(result.file == b("\u{FEFF}(B) first +p\r\nx 2026-03-01 2026-01-01 call mom due:2026-03-05 pri:A\r\n\r\nx 2026-02-01 done pri:C\r\nlast"))
    }

    @Test func completeWithoutPriority() {
        let result = edited(Self.file, line: 4) { $0.complete(at: 4, on: today) }
        #expect(result.line == "x 2026-03-01 last")
        #expect(result.file.suffix(17) == b("x 2026-03-01 last")[...])
    }

    @Test func completeRefusesBlankAndDone() {
        #expect(!edited(Self.file, line: 2) { $0.complete(at: 2, on: today) }.changed)
        #expect(!edited(Self.file, line: 3) { $0.complete(at: 3, on: today) }.changed)
    }

    @Test func completedNeverWritesPriorityHeader() {
        let line = try! #require(parseLine("(A) task").completed(on: today))
        #expect(line == b("x 2026-03-01 task pri:A"))
        #expect(parseLine(line).priority == nil)
        #expect(parseLine(line).keptPriority == .valid(Priority("A")!))
    }

    @Test func uncompleteRestoresPriority() {
        let result = edited(Self.file, line: 3) { $0.uncomplete(at: 3) }
        #expect(result.line == "(C) done")
    }

    @Test func uncompleteRefusesOpenTask() {
        #expect(!edited(Self.file, line: 0) { $0.uncomplete(at: 0) }.changed)
    }

    @Test(arguments: [
        ("x 2026-02-01 2026-01-01 task", "2026-01-01 task"),
        ("x task", "task"),
        ("x (A) 2026-02-01 2026-01-01 task", "(A) 2026-01-01 task"),
        ("x (A) task pri:B", "(A) task pri:B"),
        ("x 2026-02-01 (A) 2026-01-01 task", "(A) 2026-01-01 task"),
        ("x 2026-02-01 pri:B task", "(B) task"),
        ("x 2026-02-01 task pri:b", "task pri:b"),
        ("x 2026-02-01 task pri:B pri:C", "(B) task pri:C"),
    ])
    func uncompleteForms(_ line: String, _ expected: String) {
        #expect(parseLine(line).uncompleted() == b(expected))
    }

    @Test(arguments: [
        "(A) task", "(A) 2026-01-01 task +p @c due:2026-02-01", "task", "2026-01-01 task", "(Z)  two spaces",
        "(A) ", "(A) 2026-01-01", "(A) (B)", "(A) (B) 2026-01-01", "(B) (A) task", "(A) trailing ", "(A) tab\t",
        "xylophone", "x", "X 2026-01-01 a", " x a", "(A) x 2026-01-01 b", "2026-01-01", "(A) 2026-01-01 2026-01-02",
    ])
    func completeThenUncompleteRestoresTheLine(_ line: String) {
        let completed = try! #require(parseLine(line).completed(on: today))
        #expect(parseLine(completed).isCompleted)
        #expect(parseLine(completed).completionDate == today)
        #expect(parseLine(completed).uncompleted() == b(line), "\(line) → \(show(completed))")
    }

    @Test func completeKeepsCreationDate() {
        let item = parseLine(parseLine("(A) 2026-01-01 task").completed(on: today)!)
        #expect(item.creationDate == d("2026-01-01"))
        #expect(item.completionDate == today)
    }

    @Test func setPriority() {
        #expect(parseLine("(A) task").settingPriority(Priority("C")) == b("(C) task"))
        #expect(parseLine("(A) task").settingPriority(nil) == b("task"))
        #expect(parseLine("2026-01-01 task").settingPriority(Priority("B")) == b("(B) 2026-01-01 task"))
        #expect(parseLine("task").settingPriority(nil) == b("task"))
        #expect(parseLine("x 2026-01-01 task").settingPriority(Priority("B")) == b("x 2026-01-01 task pri:B"))
        #expect(parseLine("x 2026-01-01 task pri:A").settingPriority(Priority("B")) == b("x 2026-01-01 task pri:B"))
        #expect(parseLine("x 2026-01-01 task pri:A end").settingPriority(nil) == b("x 2026-01-01 task end"))
        #expect(parseLine("x (A) task").settingPriority(Priority("D")) == b("x (D) task"))
    }

    @Test func setPriorityTouchesOnlyItsLine() {
        let result = edited(Self.file, line: 0) { $0.setPriority(Priority("D"), at: 0) }
        #expect(result.line == "(D) first +p")
        #expect(!edited(Self.file, line: 0) { $0.setPriority(Priority("B"), at: 0) }.changed)
    }

    @Test func setTagReplacesFirstValueInPlace() {
        #expect(parseLine("a due:2026-01-01  b due:x").settingTag("due", to: "2026-02-02") == b("a due:2026-02-02  b due:x"))
        #expect(parseLine("a\tb").settingTag("t", to: "2026-02-02") == b("a\tb t:2026-02-02"))
        let result = edited(Self.file, line: 1) { $0.setTag("due", to: "2026-04-01", at: 1) }
        #expect(result.line == "(A) 2026-01-01 call mom due:2026-04-01")
    }

    @Test func removeTagTakesOneSpaceEach() {
        #expect(parseLine("a k:1 b k:2").removingTag("k") == b("a b"))
        #expect(parseLine("k:1 a").removingTag("k") == b("a"))
        #expect(parseLine("(A) k:1  a").removingTag("k") == b("(A)  a"))
        #expect(parseLine("a  k:1").removingTag("k") == b("a "))
    }

    @Test func removeAdjacentTags() {
        #expect(parseLine("k:1 k:2 a").removingTag("k") == b("a"))
        #expect(parseLine("a k:1 k:2").removingTag("k") == b("a"))
        #expect(parseLine("k:1 k:2").removingTag("k") == b(""))
        #expect(parseLine("(A) k:1 k:2 k:3 end").removingTag("k") == b("(A) end"))
    }

    @Test func appendAndPrepend() {
        #expect(parseLine("a").appending(b("b")) == b("a b"))
        #expect(parseLine("a").appending(b(", b"), joinDirectlyBefore: b(",.:;")) == b("a, b"))
        #expect(parseLine("(A) 2026-01-01 task").prepending(b("new")) == b("(A) 2026-01-01 new task"))
        #expect(parseLine("x 2026-01-02 task").prepending(b("new")) == b("x 2026-01-02 new task"))
        let result = edited(Self.file, line: 0) { (try? $0.appendText(b("more\r\nlines"), at: 0)) ?? false }
        #expect(result.line == "(B) first +p more  lines")
    }

    @Test func documentEditsTouchOnlyTheirLine() {
        #expect(edited(Self.file, line: 1) { $0.removeTag("due", at: 1) }.line == "(A) 2026-01-01 call mom")
        #expect(edited(Self.file, line: 1) { (try? $0.prependText(b("please"), at: 1)) ?? false }.line
                == "(A) 2026-01-01 please call mom due:2026-03-05")
        #expect(edited(Self.file, line: 1) { (try? $0.replaceText(b("ring dad"), at: 1)) ?? false }.line == "(A) 2026-01-01 ring dad")
        #expect(edited(Self.file, line: 4) { $0.setTag("uid", to: "abcdef", at: 4) }.file.suffix(15) == b("last uid:abcdef")[...])
        #expect(!edited(Self.file, line: 0) { $0.removeTag("due", at: 0) }.changed)
    }

    @Test func replaceBodyKeepsHeader() throws {
        #expect(try parseLine("(A) 2026-01-01 old").replacingDescription(with: b("new")) == b("(A) 2026-01-01 new"))
        #expect(try parseLine("(A) 2026-01-01 old").replacingDescription(with: b("(B) new")) == b("(B) 2026-01-01 new"))
    }

    // MARK: add

    @Test func addUppercasesLowercasePriority() {
        #expect(TodoItem.newTaskLine(b("(a) call"), creationDate: nil, uid: nil) == b("(A) call"))
        #expect(TodoItem.newTaskLine(b("(a)call"), creationDate: nil, uid: nil) == b("(a)call"))
    }

    @Test func addTurnsCRAndLFIntoSpaces() {
        #expect(TodoItem.newTaskLine(b("a\r\nb\rc\nd"), creationDate: nil, uid: nil) == b("a  b c d"))
    }

    @Test func addPutsDateAfterPriority() {
        #expect(TodoItem.newTaskLine(b("(a) call"), creationDate: today, uid: nil) == b("(A) 2026-03-01 call"))
        #expect(TodoItem.newTaskLine(b("call"), creationDate: today, uid: nil) == b("2026-03-01 call"))
        #expect(TodoItem.newTaskLine(b("2026-01-01 call"), creationDate: today, uid: nil) == b("2026-01-01 call"))
    }

    @Test func addAppendsUID() {
        #expect(TodoItem.newTaskLine(b("(B) call"), creationDate: today, uid: "k3f9qz") == b("(B) 2026-03-01 call uid:k3f9qz"))
        #expect(TodoItem.newTaskLine(b("call uid:mine"), creationDate: nil, uid: "k3f9qz") == b("call uid:mine"))
    }

    @Test func addTaskToDocument() {
        var document = parseRoundTrip(b("a\r\nb"))
        let index = document.addTask(b("(c) new\nline"), creationDate: today, uid: "abcdef")
        #expect(index == 2)
        #expect(document.rendered() == b("a\r\nb\r\n(C) 2026-03-01 new line uid:abcdef\r\n"))
    }

    // MARK: property

    /// Seeded property: completing any task line without its own `pri:` tag and un-completing it
    /// gives back the original bytes.
    @Test func completeUncompleteRoundTripProperty() {
        let settings = PropertySettings(defaultSeed: 0x5EED_0003, defaultCount: 20_000)
        var generator = TodoTextGenerator(rng: SplitMix64(seed: settings.seed))
        var failures = 0
        for _ in 0..<settings.count {
            let line = generator.line()
            let item = TodoItem(line)
            guard item.isTask, !item.isCompleted, item.firstValue(forTag: "pri") == nil else { continue }
            guard let done = item.completed(on: today) else {
                Issue.record("seed \(settings.seed): complete refused \(show(line))")
                failures += 1
                continue
            }
            let back = TodoItem(done).uncompleted()
            if back != line {
                failures += 1
                if failures <= 5 {
                    Issue.record("seed \(settings.seed): \(show(line)) → \(show(done)) → \(show(back ?? []))")
                }
            }
        }
        #expect(failures == 0, "seed \(settings.seed)")
    }
}
