import Testing
@testable import TodoCLI

/// `TODO_WATCH_SETTLE` refused: the message names the value and the range that would be accepted
/// (issue 12), and that range is the one `WatchAction.seconds(_:allowingZero: true)` really accepts.
///
/// Every run points at a file in a directory that does not exist, so that if a value were ever
/// accepted by mistake the watch would end at once (exit 1) instead of running forever.
@Suite struct WatchSettleTests {
    static let unwatchablePath = "/nonexistent-directory-for-todo-tests/todo.txt"

    static func run(settle: String) -> CapturedRun {
        CapturedRun(["watch", unwatchablePath], environment: ["TODO_WATCH_SETTLE": settle])
    }

    @Test(arguments: ["0.005", "0.0099", "-1", "-0.5", "86400.5", "1e9", "inf"])
    func outOfRangeNamesTheRange(_ settle: String) {
        let run = Self.run(settle: settle)
        #expect(run.status == 2)
        #expect(run.err == "todo: TODO_WATCH_SETTLE: '\(settle)' is out of range; give 0 or seconds from 0.01 to 86400\n")
        #expect(run.out.isEmpty)
    }

    @Test(arguments: ["abc", "1s", "nan", " 1", "0,5"])
    func notANumberNamesTheRange(_ settle: String) {
        let run = Self.run(settle: settle)
        #expect(run.status == 2)
        #expect(run.err == "todo: TODO_WATCH_SETTLE: '\(settle)' is not a number; give 0 or seconds from 0.01 to 86400\n")
    }

    /// The bounds the message states are the parser's: each accepted, and just past each refused.
    @Test func statedRangeIsTheAcceptedRange() throws {
        let message = Self.run(settle: "0.005").err
        let range = try #require(message.split(separator: "from ").last).dropLast()  // "0.01 to 86400"
        let bounds = range.split(separator: " to ").map(String.init)
        try #require(bounds.count == 2, "no range in \(message)")
        let lower = try #require(Double(bounds[0])), upper = try #require(Double(bounds[1]))
        #expect(WatchAction.seconds(bounds[0], allowingZero: true) == .milliseconds(10))
        #expect(WatchAction.seconds(bounds[1], allowingZero: true) == .seconds(86_400))
        #expect(WatchAction.seconds(String(lower * 0.99), allowingZero: true) == nil)
        #expect(WatchAction.seconds(String(upper * 1.0001), allowingZero: true) == nil)
        #expect(message.contains("give 0 or "))
        #expect(WatchAction.seconds("0", allowingZero: true) == .zero)
    }
}
