import Foundation
import TodoTestSupport
import XCTest

/// Uids and file names come from files and from other devices (a conflict copy's name carries the
/// other machine's user name): on a terminal none of them may drive it. Each place that prints one,
/// run on a pseudo-terminal (`script(1)`: stdout and stderr both on it) with a uid or a name holding
/// CSI (`ESC [ 31 m`, `ESC [ 2 J`) or OSC (`ESC ] 0 ; … BEL`, retitles the window) bytes: escaped in
/// caret notation, no raw ESC or BEL (docs/todo-command.md, "Text from files on a terminal").
final class TerminalEscapeTests: XCTestCase {
    static let osc = "\u{1B}]0;pwned\u{07}"
    static let csi = "\u{1B}[31m"

    private var directory = ""

    override func setUp() { directory = Spawn.makeTemporaryDirectory("terminal-escape") }
    override func tearDown() { try? FileManager.default.removeItem(atPath: directory) }

    /// Runs `todo ARGUMENTS` (a shell word list; `$TODO_BIN`, `$EVIL` available) on a pseudo-terminal.
    private func onTerminal(_ command: String, todoFile: String, evil: String = "") throws -> ProcessResult {
        try XCTSkipUnless(FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), "script(1) is needed for a pty")
        var environment = ProcessInfo.processInfo.environment
        for (key, value) in ["HOME": directory, "TODO_FILE": todoFile, "TODO_TEST_TIME": "1764410000", "TZ": "UTC",
                             "NO_COLOR": "1", "TERM": "dumb", "SHELL": "/bin/sh", "TODO_BIN": Spawn.todo, "EVIL": evil] {
            environment[key] = value
        }
        return Spawn.run(["/usr/bin/script", "-qec", "\"$TODO_BIN\" " + command, "/dev/null"], environment: environment)
    }

    private func assertNoRawControls(_ result: ProcessResult, _ what: String, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertFalse(result.stdout.contains(0x1B) || result.stdout.contains(0x07),
                       "\(what) printed raw control bytes: \(result.out.debugDescription)", file: file, line: line)
    }

    func testUIDListingEscapesUIDs() throws {
        let todo = directory + "/todo.txt"
        Files.write(todo, "buy milk uid:ab\(Self.csi)cd\n")
        let result = try onTerminal("uid", todoFile: todo)
        XCTAssertEqual(result.status, 0, result.out)
        XCTAssertTrue(result.out.contains("1 ab^[[31mcd"), result.out.debugDescription)
        assertNoRawControls(result, "todo uid")
        let piped = Spawn.todo(["uid"], environment: ["TODO_FILE": todo, "HOME": directory])
        XCTAssertEqual(piped.out, "1 ab\(Self.csi)cd\n", "a pipe gets the raw bytes")
    }

    func testAmbiguousUIDPrefixErrorEscapesTheCandidates() throws {
        let todo = directory + "/todo.txt"
        Files.write(todo, "one uid:ab\(Self.osc)x\ntwo uid:ab\(Self.osc)y\n")
        let result = try onTerminal("do ab", todoFile: todo)
        XCTAssertEqual(result.status, 1, result.out)
        XCTAssertTrue(result.out.contains("uid prefix 'ab' is ambiguous: ab^[]0;pwned^Gx (line 1), ab^[]0;pwned^Gy (line 2)"),
                      result.out.debugDescription)
        assertNoRawControls(result, "the ambiguous-prefix error")
    }

    func testFileNamesInErrorsAreEscaped() throws {
        // A "todo file" that is a directory: the error names it.
        let todo = directory + "/evil\(Self.osc).txt"
        try FileManager.default.createDirectory(atPath: todo, withIntermediateDirectories: false)
        let result = try onTerminal("ls", todoFile: todo)
        XCTAssertEqual(result.status, 1, result.out)
        XCTAssertTrue(result.out.contains("evil^[]0;pwned^G.txt"), result.out.debugDescription)
        XCTAssertTrue(result.out.contains("is a directory"), result.out.debugDescription)
        assertNoRawControls(result, "the error")
        let piped = Spawn.todo(["ls"], environment: ["TODO_FILE": todo, "HOME": directory])
        XCTAssertTrue(piped.err.contains("evil\(Self.osc).txt"), "stderr on a pipe is raw: \(piped.err.debugDescription)")
        // Standard error alone on the terminal (standard output to a file): still escaped.
        let errorOnly = try onTerminal("ls >/dev/null", todoFile: todo)
        XCTAssertTrue(errorOnly.out.contains("evil^[]0;pwned^G.txt: is a directory"), errorOnly.out.debugDescription)
        assertNoRawControls(errorOnly, "the error with only stderr on the terminal")
    }

    func testReportLinesNamedAfterTheFileAreEscaped() throws {
        // The edits' report prefix (`TODO:`) is the file's name, upper-cased.
        let todo = directory + "/evil\(Self.osc).txt"
        Files.write(todo, "")
        let result = try onTerminal("add \"buy milk\"", todoFile: todo)
        XCTAssertEqual(result.status, 0, result.out)
        XCTAssertTrue(result.out.contains("EVIL^[]0;PWNED^G: 1 added."), result.out.debugDescription)
        assertNoRawControls(result, "todo add's report")
    }

    func testReconcileReportEscapesCopyNamesAndTaskText() throws {
        let todo = directory + "/todo.txt"
        Files.write(todo, "buy milk uid:a1\n")
        // Dropbox's name carries the other machine's user name; the copy's text differs (a report line).
        let copy = "todo (\(Self.osc)'s conflicted copy 2026-11-29).txt"
        Files.write(directory + "/" + copy, "buy oat milk uid:a1\nnew \(Self.csi)task uid:c1\n")
        let result = try onTerminal("reconcile", todoFile: todo)
        XCTAssertEqual(result.status, 0, result.out)
        XCTAssertTrue(result.out.contains("merged todo (^[]0;pwned^G's conflicted copy 2026-11-29).txt into todo.txt"),
                      result.out.debugDescription)
        XCTAssertTrue(result.out.contains("added from the conflict copy: new ^[[31mtask uid:c1"),
                      "the report quotes the task escaped: \(result.out.debugDescription)")
        assertNoRawControls(result, "todo reconcile")
        XCTAssertTrue(Files.text(todo).contains("new \(Self.csi)task uid:c1"), "the file keeps the bytes")
    }

    func testSortDryRunEscapesTheFileLineByLine() throws {
        let todo = directory + "/todo.txt"
        Files.write(todo, "x 2026-01-01 done \(Self.osc)\r\nopen \(Self.csi)task\r\n")
        let result = try onTerminal("sort --dry-run", todoFile: todo)
        XCTAssertEqual(result.status, 0, result.out)
        // The file's CRLF stays; the terminal adds its own CR before each LF (onlcr).
        XCTAssertTrue(result.out.contains("open ^[[31mtask\r\r\nx 2026-01-01 done ^[]0;pwned^G\r\r\n"), result.out.debugDescription)
        assertNoRawControls(result, "sort --dry-run")
    }

    func testUIStatusLineEscapesTheFileName() throws {
        let folder = directory + "/evil\(Self.osc)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        let todo = folder + "/todo.txt"
        Files.write(todo, "buy milk\n")
        let environment = ["HOME": directory, "TODO_FILE": todo, "TERM": "xterm", "NO_COLOR": "1",
                           "TODO_TEST_TIME": "1764410000", "TZ": "UTC", "LC_ALL": "C.UTF-8"]
        let ui = try XCTUnwrap(PseudoTerminalProcess([Spawn.todo, "ui"], environment: environment, columns: 100, rows: 8))
        XCTAssertTrue(ui.waitFor { $0.lines.last?.contains("1 open") == true }, ui.screen.text)
        XCTAssertTrue(ui.screen.lines.last?.hasPrefix("~/evil^[]0;pwned^G/todo.txt") == true, ui.screen.text)
        ui.send("q")
        XCTAssertEqual(ui.waitForExit(), 0)
        let output = String(decoding: ui.output, as: UTF8.self)
        XCTAssertFalse(output.contains("\u{1B}]0;pwned"), "the status line sent the OSC sequence raw")
        XCTAssertFalse(ui.output.contains(0x07), "a raw BEL reached the terminal")
    }
}
