import Foundation
import TodoTestSupport
import XCTest

/// `todo ui` in a pseudo-terminal, for the two ways input used to lose or misread a user's work:
/// an edit field that overwrote what changed elsewhere in its task meanwhile, and a paste whose
/// line breaks ran as keys.
final class UIEditAndPasteTests: XCTestCase {
    private var directory = ""
    private var path: String { directory + "/todo.txt" }
    private let pasteStart = "\u{1B}[200~", pasteEnd = "\u{1B}[201~"

    override func setUp() {
        directory = Spawn.makeTemporaryDirectory("ui-edit")
    }

    override func tearDown() {
        try? FileManager.default.removeItem(atPath: directory)
    }

    private func start(_ text: String) throws -> PseudoTerminalProcess {
        try UITerminal.start(text, home: directory, todoFile: path, columns: 100, rows: 10)
    }

    private func quit(_ ui: PseudoTerminalProcess) {
        UITerminal.quit(ui)
        XCTAssertFalse(ui.screen.bracketedPaste, "bracketed paste is off again")
    }

    /// Runs `todo ARGUMENTS` elsewhere, on the same file.
    private func todo(_ arguments: String...) {
        let run = Spawn.todo(arguments, environment: ["TODO_FILE": path, "TODO_TEST_TIME": "1764410000", "TZ": "UTC"])
        XCTAssertEqual(run.status, 0, "todo \(arguments): \(run.err)")
    }

    private func waitForFile(_ expected: String, line: UInt = #line) {
        XCTAssertTrue(waitFor { Files.text(self.path) == expected }, Files.text(path), line: line)
    }

    private func waitFor(_ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(3)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    // MARK: - The edit field and changes made elsewhere

    func testAnEditKeepsWhatTodoAppendAndTodoPriChangedMeanwhile() throws {
        let ui = try start("buy milk uid:milk01\n")
        ui.send("e")
        XCTAssertTrue(ui.waitFor { $0.lines.last == "edit: buy milk" }, ui.screen.text)
        ui.send(" today")
        todo("append", "milk01", "+shop due:2026-12-05")
        todo("pri", "milk01", "A")
        // The list shows the change; the field keeps what the user typed.
        XCTAssertTrue(ui.waitForText("1 (A) buy milk +shop due:2026-12-05 uid:milk01", timeout: 3), ui.screen.text)
        XCTAssertEqual(ui.screen.lines.last, "edit: buy milk today")
        ui.send("\r")
        waitForFile("(A) buy milk today uid:milk01 due:2026-12-05 +shop\n")
        XCTAssertTrue(ui.waitFor { $0.lines.last == "edited; what changed elsewhere meanwhile is kept" }, ui.screen.text)
        // u takes back the edit only: the task as the others left it.
        ui.send("u")
        waitForFile("(A) buy milk +shop due:2026-12-05 uid:milk01\n")
        quit(ui)
    }

    func testAnEditKeepsWhatASyncClientsRenameBroughtMeanwhile() throws {
        let ui = try start("call mom\nbuy milk uid:milk01\n")
        ui.send("je")
        XCTAssertTrue(ui.waitFor { $0.lines.last == "edit: buy milk" }, ui.screen.text)
        ui.send([0x15])
        ui.send("buy oat milk")
        // A sync client replaces the whole file by rename: the task got a priority and a context,
        // and the other task was completed.
        Files.write(directory + "/.sync-tmp", "x 2025-11-28 call mom\n(B) buy milk @store uid:milk01\n")
        XCTAssertEqual(rename(directory + "/.sync-tmp", path), 0)
        XCTAssertTrue(ui.waitForText("(B) buy milk @store uid:milk01", timeout: 3), ui.screen.text)
        ui.send("\r")
        waitForFile("x 2025-11-28 call mom\n(B) buy oat milk uid:milk01 @store\n")
        quit(ui)
    }

    func testAnUntouchedEditFieldFollowsTheTaskAsItChanges() throws {
        let ui = try start("buy milk uid:milk01\n")
        ui.send("e")
        XCTAssertTrue(ui.waitFor { $0.lines.last == "edit: buy milk" }, ui.screen.text)
        todo("append", "milk01", "+shop")
        XCTAssertTrue(ui.waitFor { $0.lines.last == "edit: buy milk +shop" }, "refilled: \(ui.screen.text)")
        ui.send(" today\r")
        waitForFile("buy milk +shop today uid:milk01\n")
        quit(ui)
    }

    func testBothChangingTheTextAsksAndWritesNothingUntilAnswered() throws {
        let ui = try start("call mom uid:k1\n")
        let question = "task changed elsewhere too (text): y save yours, n keep that, e edit again"
        // n: the other change stays, the edit is dropped.
        ui.send("e")
        XCTAssertTrue(ui.waitFor { $0.lines.last == "edit: call mom" }, ui.screen.text)
        ui.send(" tonight")
        Files.write(path, "call dad uid:k1 +family\n")
        XCTAssertTrue(ui.waitForText("1 call dad uid:k1 +family", timeout: 3), ui.screen.text)
        ui.send("\r")
        XCTAssertTrue(ui.waitFor { $0.lines.last == question }, ui.screen.text)
        // A paste never answers the question, and other keys leave it open.
        ui.send(pasteStart + "y" + pasteEnd + "j")
        usleep(200_000)
        XCTAssertEqual(ui.screen.lines.last, question)
        ui.send("n")
        XCTAssertTrue(ui.waitFor { $0.lines.last == "kept the change made elsewhere; your edit is not saved" }, ui.screen.text)
        XCTAssertEqual(Files.text(path), "call dad uid:k1 +family\n")
        // e: the field again, with the user's text and what merged cleanly (their new context).
        ui.send("e")
        XCTAssertTrue(ui.waitFor { $0.lines.last == "edit: call dad +family" }, ui.screen.text)
        ui.send([0x01])
        ui.send("please ")
        Files.write(path, "call grandma uid:k1 +family @phone\n")
        XCTAssertTrue(ui.waitForText("1 call grandma uid:k1 +family @phone", timeout: 3), ui.screen.text)
        ui.send("\r")
        XCTAssertTrue(ui.waitFor { $0.lines.last == question }, ui.screen.text)
        ui.send("e")
        XCTAssertTrue(ui.waitFor { $0.lines.last == "edit: please call dad +family @phone" }, ui.screen.text)
        XCTAssertEqual(Files.text(path), "call grandma uid:k1 +family @phone\n")
        ui.send("\r")
        waitForFile("please call dad +family @phone uid:k1\n")
        quit(ui)
    }

    func testYesSavesTheEditOverTheConflictingFieldAndKeepsTheRest() throws {
        let ui = try start("(B) pay rent due:2025-12-01 uid:r1\n")
        ui.send("e")
        XCTAssertTrue(ui.waitFor { $0.lines.last == "edit: pay rent due:2025-12-01" }, ui.screen.text)
        ui.send([0x15])
        ui.send("pay rent due:2025-12-03")
        // Elsewhere: another due date (the same field) and priority A (another field).
        todo("pri", "r1", "A")
        Files.write(path, Files.text(path).replacingOccurrences(of: "due:2025-12-01", with: "due:2025-12-02"))
        XCTAssertTrue(ui.waitForText("(A) pay rent due:2025-12-02 uid:r1", timeout: 3), ui.screen.text)
        ui.send("\r")
        XCTAssertTrue(ui.waitFor { $0.lines.last?.hasPrefix("task changed elsewhere too (tag due:)") == true }, ui.screen.text)
        XCTAssertEqual(Files.text(path), "(A) pay rent due:2025-12-02 uid:r1\n")
        ui.send("y")
        waitForFile("(A) pay rent due:2025-12-03 uid:r1\n")
        quit(ui)
    }

    // MARK: - Bracketed paste

    func testAPasteIntoTheAddFieldIsTextOnly() throws {
        let ui = try start("call mom\n")
        XCTAssertTrue(ui.screen.bracketedPaste, "bracketed paste is on while the UI runs")
        ui.send("a")
        XCTAssertTrue(ui.waitFor { $0.lines.last == "add:" }, ui.screen.text)
        // What the issue saw run as keys: add, then x (done), then Enter (edit).
        ui.send(pasteStart + "buy milk\rxday\r" + pasteEnd)
        XCTAssertTrue(ui.waitFor { $0.lines.last == "add: buy milk xday" }, ui.screen.text)
        XCTAssertEqual(Files.text(path), "call mom\n", "nothing is added before Enter")
        ui.send("\r")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path).hasPrefix("call mom\n2025-11-29 buy milk xday uid:") }, Files.text(path))
        XCTAssertEqual(Files.text(path).split(separator: "\n").count, 2, Files.text(path))
        XCTAssertTrue(ui.waitFor { $0.lines.last == "added" }, "no edit opened: \(ui.screen.text)")
        quit(ui)
    }

    func testAPasteInTheListOpensTheAddFieldAndIntoTheEditFieldIsText() throws {
        let ui = try start("call mom\n")
        ui.send(pasteStart + "water plants\n" + pasteEnd)
        XCTAssertTrue(ui.waitFor { $0.lines.last == "add: water plants" }, ui.screen.text)
        XCTAssertEqual(Files.text(path), "call mom\n")
        ui.send("\r")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path).hasPrefix("call mom\n2025-11-29 water plants uid:") }, Files.text(path))
        let afterAdd = Files.text(path)
        // At a question a paste is ignored: a pasted y does not delete.
        ui.send("gd")
        XCTAssertTrue(ui.waitFor { $0.lines.last == "delete this task? (y/n)" }, ui.screen.text)
        ui.send(pasteStart + "y" + pasteEnd)
        usleep(200_000)
        XCTAssertEqual(ui.screen.lines.last, "delete this task? (y/n)")
        ui.send("n")
        XCTAssertTrue(ui.waitFor { !$0.text.contains("delete this task") }, ui.screen.text)
        XCTAssertEqual(Files.text(path), afterAdd)
        // Into the edit field: text at the cursor, its line breaks spaces.
        ui.send("e")
        XCTAssertTrue(ui.waitFor { $0.lines.last == "edit: call mom" }, ui.screen.text)
        ui.send(pasteStart + " tonight\r\n@phone\r\n" + pasteEnd + "\r")
        XCTAssertTrue(ui.waitFor { _ in Files.text(self.path).hasPrefix("call mom tonight @phone\n") }, Files.text(path))
        quit(ui)
    }

    func testSIGTERMTurnsBracketedPasteOff() throws {
        let ui = try start("call mom\n")
        XCTAssertTrue(ui.screen.bracketedPaste)
        kill(ui.pid, SIGTERM)
        XCTAssertEqual(ui.waitForExit(), 0)
        XCTAssertFalse(ui.screen.bracketedPaste)
        XCTAssertFalse(ui.screen.alternateScreen)
    }
}
