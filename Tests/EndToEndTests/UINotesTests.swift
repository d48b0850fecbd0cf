import Foundation
import TodoTestSupport
import XCTest

/// `n` and `o` in `todo ui`: the selected task's note in the editor and its link in the opener,
/// each run with the terminal out of raw mode (docs/todo-command.md, "Notes and links").
final class UINotesTests: XCTestCase {
    private var directory = ""
    private var path: String { directory + "/todo.txt" }

    override func setUp() {
        directory = Spawn.makeTemporaryDirectory("ui-notes")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func start(_ text: String, _ extra: [String: String]) throws -> PseudoTerminalProcess {
        let search = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        return try UITerminal.start(text, home: directory, todoFile: path, columns: 100, rows: 12,
                                    environment: search.merging(extra) { $1 })
    }

    private func quit(_ ui: PseudoTerminalProcess) { UITerminal.quit(ui) }

    private func script(_ name: String, _ body: String) -> String {
        let script = directory + "/" + name
        Files.write(script, body)
        return "sh " + script
    }

    func testNTagsTheTaskOnceAndRunsTheEditorOutOfRawMode() throws {
        // The editor records the terminal's mode (canonical input means raw mode was left) and
        // writes to the note; it exits 7 when the note was not empty, so that each run's end shows
        // on the status line (keys typed while the editor runs are the editor's, not the list's).
        let editor = script("edit.sh", "[ -s \"$1\" ] && s=7 || s=0\nstty -a > \"\(directory)/mode\"\necho written >> \"$1\"\nexit $s\n")
        let ui = try start("call mom\nbuy milk uid:milk01\n", ["VISUAL": editor])
        ui.send("jn")
        XCTAssertTrue(ui.waitForText("note notes/milk01.md", timeout: 5), ui.screen.text)
        XCTAssertEqual(Files.text(path), "call mom\nbuy milk note:milk01.md uid:milk01\n")
        XCTAssertEqual(Files.text(directory + "/notes/milk01.md"), "written\n")
        let mode = Files.text(directory + "/mode")
        XCTAssertTrue(mode.contains(" icanon") && !mode.contains("-icanon"), mode)
        // Again: the tag stays one, the note is kept and added to.
        ui.send("n")
        XCTAssertTrue(ui.waitForText("the editor exited with status 7", timeout: 5), ui.screen.text)
        XCTAssertEqual(Files.text(directory + "/notes/milk01.md"), "written\nwritten\n")
        XCTAssertEqual(Files.text(path), "call mom\nbuy milk note:milk01.md uid:milk01\n")
        // A task without a uid gets one, and a note named by it.
        ui.send("kn")
        XCTAssertTrue(ui.waitFor(timeout: 5) { $0.lines.last?.hasPrefix("note notes/") == true }, ui.screen.text)
        let first = Files.text(path).split(separator: "\n")[0]
        let uid = try XCTUnwrap(first.split(separator: " ").last).dropFirst("uid:".count)
        XCTAssertEqual(uid.count, 6)
        XCTAssertEqual(first, "call mom note:\(uid).md uid:\(uid)")
        XCTAssertEqual(Files.text(directory + "/notes/\(uid).md"), "written\n")
        quit(ui)
    }

    func testOOpensTheURLAndSaysWhenThereIsNothingToOpen() throws {
        let opener = script("open.sh", "echo \"$1\" > \"\(directory)/opened\"\n")
        let ui = try start("read https://example.org/a now\nplain\n", ["TODO_OPENER": opener])
        ui.send("o")
        XCTAssertTrue(ui.waitForText("opened https://example.org/a", timeout: 5), ui.screen.text)
        XCTAssertEqual(Files.text(directory + "/opened"), "https://example.org/a\n")
        ui.send("jo")
        XCTAssertTrue(ui.waitForText("no URL and no note to open", timeout: 5), ui.screen.text)
        quit(ui)
    }
}
