import Foundation
import TodoTestSupport
import XCTest

/// `todo ui`'s `/` filter reads typed terms as `todo ls` does (docs/todo-command.md, "Typed terms"):
/// one run in a pseudo-terminal on a fixed day (2025-11-29).
final class UIQueryTests: XCTestCase {
    func testTheFilterReadsTypedTermsOrAndNegation() throws {
        let directory = Spawn.makeTemporaryDirectory("ui-query")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "call mom due:2025-11-28\n(A) pay rent due:2025-12-06\nbuy milk\n(B) fix bike due:2025-11-29\n")
        let environment = UITerminal.environment(home: directory, todoFile: path)
        let ui = try XCTUnwrap(PseudoTerminalProcess([Spawn.todo, "ui"], environment: environment, columns: 80, rows: 12))
        XCTAssertTrue(ui.waitFor { $0.lines.first == "1 call mom due:2025-11-28" }, ui.screen.text)
        ui.send("/due:<=today")
        XCTAssertTrue(ui.waitFor { Array($0.lines.prefix(3)) == ["1 call mom due:2025-11-28", "4 (B) fix bike due:2025-11-29", ""] },
                      ui.screen.text)
        ui.send("|pri:A")
        XCTAssertTrue(ui.waitFor { $0.lines.contains("2 (A) pay rent due:2025-12-06") && !$0.text.contains("buy milk") },
                      ui.screen.text)
        ui.send([0x1B])
        ui.send("/-due:any")
        XCTAssertTrue(ui.waitFor { $0.lines.first == "3 buy milk" && !$0.text.contains("call mom") }, ui.screen.text)
        ui.send([0x1B])
        XCTAssertTrue(ui.waitForText("call mom"), ui.screen.text)
        ui.send("q")
        XCTAssertEqual(ui.waitForExit(), 0)
        XCTAssertEqual(Files.text(path), "call mom due:2025-11-28\n(A) pay rent due:2025-12-06\nbuy milk\n(B) fix bike due:2025-11-29\n",
                       "filtering writes nothing")
    }
}
