import Foundation
import TodoTestSupport
import XCTest

/// `todo ui`'s time tracking (docs/todo-command.md, "Time tracking", "`todo ui`"): `t` starts and
/// stops, switching from the task tracked before in one write; the tracked task shows its minutes;
/// `x` of a tracked task stops it first.
final class UITimeTrackingTests: XCTestCase {
    func testTStartsSwitchesAndTheTrackedTaskShowsItsMinutes() throws {
        let directory = Spawn.makeTemporaryDirectory("ui-tracking")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        // The clock is 2025-11-29T09:53:20Z: task 1 has been tracked for 25 minutes.
        Files.write(path, "write report tracking:2025-11-29T09:28:20Z uid:aaa111\nbuy milk\n")
        let environment = UITerminal.environment(home: directory, todoFile: path)
        let ui = try XCTUnwrap(PseudoTerminalProcess([Spawn.todo, "ui"], environment: environment, columns: 80, rows: 12))
        XCTAssertTrue(ui.waitForText("1 [25m] write report"), ui.screen.text)
        ui.send("j")
        ui.send("t")
        XCTAssertTrue(ui.waitFor { _ in
            Files.text(path) == "write report uid:aaa111 spent:25m\nbuy milk tracking:2025-11-29T09:53:20Z\n"
        }, Files.text(path))
        XCTAssertTrue(ui.waitFor { $0.lines.last == "tracking switched from task 1" }, ui.screen.text)
        XCTAssertTrue(ui.waitForText("2 [0m] buy milk"), ui.screen.text)
        ui.send("x")
        XCTAssertTrue(ui.waitFor { _ in
            Files.text(path) == "write report uid:aaa111 spent:25m\nx 2025-11-29 buy milk spent:0m\n"
        }, Files.text(path))
        ui.send("q")
        XCTAssertEqual(ui.waitForExit(), 0)
    }
}
