import Foundation
import TodoTestSupport
import XCTest

/// `todo ls` marks a blocked task (waiting for an open task, docs/todo-command.md, "Dependencies")
/// on a terminal only: one run in a pseudo-terminal, the same listing through a pipe in the
/// transcript (dependencies.txt) has no marker. `todo ui` marks it too, and the mark goes when the
/// task it waits for is done.
final class DependencyTerminalTests: XCTestCase {
    func testLsMarksBlockedTasksOnATerminal() throws {
        let directory = Spawn.makeTemporaryDirectory("deps-terminal")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "paint walls uid:pw0001\nbuy paint after:pw0001\nx 2026-12-01 sand after:pw0001\nhang art after:zz9999\n")
        let environment = ["HOME": directory, "TODO_FILE": path, "TERM": "xterm", "NO_COLOR": "1", "TZ": "UTC", "LC_ALL": "C.UTF-8"]
        let ls = try XCTUnwrap(PseudoTerminalProcess([Spawn.todo, "ls"], environment: environment, columns: 80, rows: 12))
        XCTAssertTrue(ls.waitForText("TODO: 4 of 4 tasks shown"), ls.screen.text)
        XCTAssertEqual(ls.waitForExit(), 0)
        let lines = ls.screen.lines
        XCTAssertTrue(lines.contains("2 buy paint after:pw0001  [blocked]"), ls.screen.text)
        XCTAssertTrue(lines.contains("4 hang art after:zz9999"), "a link to no task does not block: \(ls.screen.text)")
        XCTAssertTrue(lines.contains("1 paint walls uid:pw0001"), ls.screen.text)
        XCTAssertTrue(lines.contains("3 x 2026-12-01 sand after:pw0001"), "a done task is never blocked: \(ls.screen.text)")
    }

    func testTheUIMarksBlockedTasksUntilWhatTheyWaitForIsDone() throws {
        let directory = Spawn.makeTemporaryDirectory("deps-ui")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "paint walls uid:pw0001\nbuy paint after:pw0001\nhang art after:zz9999\n")
        let environment = ["HOME": directory, "TODO_FILE": path, "TERM": "xterm", "NO_COLOR": "1", "TZ": "UTC",
                           "TODO_TEST_TIME": "1764410000", "LC_ALL": "C.UTF-8"]
        let ui = try XCTUnwrap(PseudoTerminalProcess([Spawn.todo, "ui"], environment: environment, columns: 80, rows: 12))
        XCTAssertTrue(ui.waitFor { $0.lines.contains { $0.hasPrefix("2 buy paint after:pw0001  [blocked]") } }, ui.screen.text)
        XCTAssertTrue(ui.screen.lines.contains { $0.hasPrefix("3 hang art after:zz9999") && !$0.contains("[blocked]") },
                      "a link to no task does not block: \(ui.screen.text)")
        XCTAssertFalse(ui.screen.lines.contains { $0.hasPrefix("1 ") && $0.contains("[blocked]") }, ui.screen.text)
        // Done with the task it waits for (the first row): the mark goes.
        ui.send("x")
        XCTAssertTrue(ui.waitFor { screen in
            screen.lines.contains { $0.hasPrefix("2 buy paint after:pw0001") && !$0.contains("[blocked]") }
        }, ui.screen.text)
        ui.send("q")
        XCTAssertEqual(ui.waitForExit(), 0)
    }
}
