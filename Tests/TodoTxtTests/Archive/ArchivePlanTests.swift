import Testing
@testable import TodoTxt

/// The archive planner: which lines move, what stays, and that a rerun after an interrupted archive
/// appends nothing twice.
@Suite struct ArchivePlanTests {
    func b(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func completedLinesMoveAndTheRestStaysByteForByte() {
        let file = b("open one\r\nx 2026-01-02 paid uid:r7p4cd\r\n\r\n(A) open two\r\nx 2026-01-03 called\r\n")
        let plan = ArchivePlan(file)
        #expect(plan.lines.map { Array($0) } == [b("x 2026-01-02 paid uid:r7p4cd"), b("x 2026-01-03 called")])
        #expect(plan.terminator == .crlf)
        // The kept ranges, joined, are the file without the completed lines; blank lines stay.
        if let kept = plan.kept {
            #expect(kept.flatMap { Array(file[$0]) } == b("open one\r\n\r\n(A) open two\r\n"))
        }
        #expect(ArchivePlan.removing(plan.lines, from: file) == b("open one\r\n\r\n(A) open two\r\n"))
    }

    @Test func aRerunAfterAnInterruptedArchiveAppendsNothingTwice() {
        let lines = [b("x 2026-01-02 paid uid:r7p4cd")[...], b("x 2026-01-03 called")[...]]
        // The done file already ends with the batch (the todo file was not rewritten yet).
        let done = b("x 2025-12-01 old\nx 2026-01-02 paid uid:r7p4cd\nx 2026-01-03 called\n")
        #expect(ArchivePlan.notYetArchived(lines, doneBytes: done).isEmpty)
        // Only half of it made it: the other half is still to append.
        let half = b("x 2025-12-01 old\nx 2026-01-02 paid uid:r7p4cd\n")
        #expect(ArchivePlan.notYetArchived(lines, doneBytes: half).map { Array($0) } == [b("x 2026-01-03 called")])
        // A done file that ends elsewhere: everything is appended.
        #expect(ArchivePlan.notYetArchived(lines, doneBytes: b("x 2025-12-01 old\n")).count == 2)
    }

    @Test func removingTakesOneLinePerArchivedCopy() {
        let file = b("x 2026-01-02 same\nopen\nx 2026-01-02 same\n")
        #expect(ArchivePlan.removing([b("x 2026-01-02 same")[...]], from: file) == b("open\nx 2026-01-02 same\n"))
    }
}

/// The plan with blank lines dropped: todo.sh's archive (`grep '^x '`, `sed '/./!d'`).
struct TodoShArchivePlanTests {
    @Test(arguments: ["", "\n", "a\n\nx b\nc", "\u{FEFF}x a\r\nb\r\n\r\nc\r", "x \nx\nX a\n \n", "a\r\r\nx y\r\nz\n", "\r\n\r\nlast"])
    func archiveFilterMatchesDocument(text: String) {
        var document = TodoDocument(bytes: Array(text.utf8))
        let originalLines = (0..<document.lineCount).map { Array(document.content(at: $0)) }
        var archived: [[UInt8]: Int] = [:]
        for index in 0..<document.lineCount where document.item(at: index).isCompleted {
            archived[Array(document.content(at: index)), default: 0] += 1
        }
        document.removeLines { line in line.isEmpty || (line.count >= 2 && line[0] == 0x78 && line[1] == 0x20) }
        #expect(ArchivePlan.removingTodoShArchived(archived, from: Array(text.utf8)) == document.rendered())
        let plan = ArchivePlan(Array(text.utf8), blankLines: .dropped)
        #expect(plan.keptBytes(of: Array(text.utf8)) == document.rendered())
        #expect(plan.lines.map { Array($0) } == originalLines.filter { TodoShDialect.isDone($0) })
    }

    @Test func archiveFilterKeepsDoneLinesItDidNotArchive() {
        let text = "x 2026-01-01 archived\nopen\nx 2026-01-02 completed meanwhile\nx 2026-01-01 archived\n"
        let kept = ArchivePlan.removingTodoShArchived([Array("x 2026-01-01 archived".utf8): 1], from: Array(text.utf8))
        #expect(String(decoding: kept, as: UTF8.self) == "open\nx 2026-01-02 completed meanwhile\nx 2026-01-01 archived\n")
    }
}
