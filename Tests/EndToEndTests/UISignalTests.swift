import Foundation
import TodoTestSupport
import XCTest

/// `todo ui` and the signals it must answer, many times over: a signal that reached a thread with
/// it unblocked met `SIG_IGN` and was lost (about one SIGTERM in six on a loaded machine, the UI then
/// running on with nobody at the terminal).
final class UISignalTests: XCTestCase {
    func testEverySIGTERMEndsTheUIAndRestoresTheTerminal() throws {
        let directory = Spawn.makeTemporaryDirectory("ui-signals")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "call mom\n")
        let environment = ["HOME": directory, "TODO_FILE": path, "TERM": "xterm", "NO_COLOR": "1", "LC_ALL": "C.UTF-8"]
        for round in 1...20 {
            let ui = try XCTUnwrap(PseudoTerminalProcess([Spawn.todo, "ui"], environment: environment, columns: 80, rows: 10))
            XCTAssertTrue(ui.waitFor { $0.alternateScreen && $0.lines.last?.isEmpty == false }, "round \(round)")
            kill(ui.pid, SIGTERM)
            let status = ui.waitForExit(timeout: 5)
            XCTAssertEqual(status, 0, "round \(round): the SIGTERM was answered")
            if status == nil {
                kill(ui.pid, SIGKILL)
                _ = ui.waitForExit(timeout: 3)
                continue
            }
            XCTAssertFalse(ui.screen.alternateScreen, "round \(round)")
            XCTAssertFalse(ui.screen.bracketedPaste, "round \(round)")
            XCTAssertTrue(ui.screen.cursorVisible, "round \(round)")
        }
        XCTAssertEqual(Files.text(path), "call mom\n")
    }
}
