import TodoTestSupport
import XCTest

/// Runs the README's walk-through exactly as written, in a fresh HOME, and checks the results it
/// describes. If the README changes, this test runs the new commands.
final class ReadmeWalkthroughTests: XCTestCase {
    /// The commands of the ```sh walkthrough block of README.md.
    private func walkthroughCommands() throws -> [String] {
        let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        let start = try XCTUnwrap(text.range(of: "```sh walkthrough\n"), "README has no walk-through block")
        let end = try XCTUnwrap(text.range(of: "\n```", range: start.upperBound..<text.endIndex))
        return text[start.upperBound..<end.lowerBound].split(separator: "\n").map(String.init)
    }

    func testWalkthroughWorksAsWritten() throws {
        let commands = try walkthroughCommands()
        XCTAssertGreaterThanOrEqual(commands.count, 8)
        let home = Spawn.makeTemporaryDirectory("walkthrough")
        let path = Spawn.productsDirectory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        let environment = ["HOME": home, "PATH": path, "TODO_TEST_TIME": "1764410000", "TZ": "UTC"]
        var outputs: [String] = []
        for command in commands {
            let result = Spawn.run(["bash", "-c", "cd \"$HOME\" && " + command], environment: environment)
            XCTAssertEqual(result.status, 0, "`\(command)` failed: \(result.err)")
            outputs.append(result.out)
        }
        // `todo ls` (the 5th command) hides the future-threshold passport task.
        XCTAssertFalse(outputs[4].contains("passport"), outputs[4])
        XCTAssertTrue(outputs[4].contains("Call the plumber"), outputs[4])
        // `todo ls +house` (the 10th command) lists exactly the +house tasks: the plumber, and the
        // done and the new plants task (plain terms filter; they were once ignored).
        let house = try XCTUnwrap(commands.firstIndex(of: "todo ls +house"))
        let listed = outputs[house].split(separator: "\n").filter { !$0.hasPrefix("--") && !$0.hasPrefix("TODO:") }
        XCTAssertEqual(listed.count, 3, outputs[house])
        XCTAssertTrue(listed.allSatisfy { $0.contains("+house") }, outputs[house])
        XCTAssertTrue(outputs[house].contains("3 of 5 tasks shown"), outputs[house])
        let todo = Files.text(home + "/todo.txt").split(separator: "\n").map(String.init)
        let done = Files.text(home + "/done.txt").split(separator: "\n").map(String.init)
        // Archived: the milk task and the first plants instance, completed with their kept priority.
        XCTAssertEqual(done.count, 2, done.joined(separator: "\n"))
        XCTAssertTrue(done.contains { $0.hasPrefix("x 2025-11-29 2025-11-29 Water the plants +house rec:1w") && $0.hasSuffix("pri:B") })
        XCTAssertTrue(done.contains { $0.hasPrefix("x 2025-11-29 2025-11-29 Buy milk @shop uid:milk") })
        // Open: plumber, passport, the next plants instance (priority kept) due a week later with a fresh
        // uid, and the rent task added last.
        XCTAssertEqual(todo.count, 4, todo.joined(separator: "\n"))
        XCTAssertTrue(todo[0].hasPrefix("(A) 2025-11-29 Call the plumber +house @phone due:2026-12-01 uid:"))
        XCTAssertTrue(todo[1].hasPrefix("2025-11-29 Renew passport +travel t:2027-01-15 uid:"))
        XCTAssertTrue(todo[2].hasPrefix("(B) 2025-11-29 Water the plants +house rec:1w uid:"), todo[2])
        XCTAssertTrue(todo[2].contains("due:2025-12-06"), todo[2])
        // Every task has a uid; `todo uid` lists them all (before the rent task is added).
        let uids = try XCTUnwrap(commands.firstIndex(of: "todo uid"))
        XCTAssertEqual(outputs[uids].split(separator: "\n").count, 3)
        // The rent task's relative due date was written as tomorrow's date.
        XCTAssertTrue(todo[3].hasPrefix("2025-11-29 Pay the rent +house due:2025-11-30 uid:"), todo[3])
        // The agenda: tomorrow (a Sunday), the plants a week from today, the plumber later; the
        // passport waits for its threshold.
        let agenda = try XCTUnwrap(commands.firstIndex(of: "todo agenda"))
        let sections = outputs[agenda].split(separator: "\n").filter { $0.first?.isNumber != true }
        XCTAssertEqual(sections, ["Sun 2025-11-30", "Sat 2025-12-06", "Later"], outputs[agenda])
        XCTAssertTrue(outputs[agenda].contains("4 2025-11-29 Pay the rent +house due:2025-11-30"), outputs[agenda])
        XCTAssertFalse(outputs[agenda].contains("passport"), outputs[agenda])
        // The typed query: due within a week (the rent tomorrow, the plants in a week), not the
        // plumber later, each with its line number.
        let query = try XCTUnwrap(commands.firstIndex(of: "todo ls 'due:<=1w'"))
        let due = outputs[query].split(separator: "\n").filter { $0.first?.isNumber == true }
        XCTAssertEqual(due.count, 2, outputs[query])
        XCTAssertTrue(due.contains { $0.hasPrefix("4 ") && $0.contains("Pay the rent") }, outputs[query])
        XCTAssertTrue(due.contains { $0.contains("due:2025-12-06") }, outputs[query])
    }
}
