import Foundation
import Synchronization
import Testing
import TodoTestSupport
@testable import TodoCLI
@testable import TodoFileSystem

/// `todo do` reads the done file only when a `rec:` task needs a fresh uid (issue 23: a plain `do`
/// does not open it).
struct DoDoneFileTests {
    /// Runs `todo -f DIR/todo.txt do ADDRESS` in process; returns its status and every path opened.
    func run(_ address: String, in directory: TemporaryDirectory) -> (status: Int32, opened: [String]) {
        let opened = OpenedPaths()
        var calls = Syscalls.live
        let liveOpen = Syscalls.live.open
        calls.open = { path, flags, permissions in
            opened.paths.withLock { $0.append(path) }
            return liveOpen(path, flags, permissions)
        }
        let io = CommandIO(writeOutput: { _ in }, writeError: { _ in }, outputIsTerminal: false)
        let status = TodoCommand.run(arguments: ["todo", "-f", directory.file("todo.txt"), "do", address],
                                     environment: ["TODO_TEST_TIME": "1764410000", "TZ": "UTC"], io: io,
                                     fileSystem: FileSystem(syscalls: calls))
        return (status, opened.paths.withLock { $0 })
    }

    @Test func onlyARecurringTaskOpensTheDoneFile() throws {
        let directory = TemporaryDirectory("todo-do-done")
        try Data("buy milk uid:m2x8ab\nwater plants rec:1w uid:w4t3rp\n".utf8).write(to: URL(fileURLWithPath: directory.file("todo.txt")))
        try Data("x 2025-01-01 old uid:zzzzzz\n".utf8).write(to: URL(fileURLWithPath: directory.file("done.txt")))
        let plain = run("m2x8ab", in: directory)
        #expect(plain.status == 0)
        #expect(!plain.opened.contains { $0.hasSuffix("/done.txt") }, "\(plain.opened)")
        let recurring = run("w4t3rp", in: directory)
        #expect(recurring.status == 0)
        #expect(recurring.opened.contains { $0.hasSuffix("/done.txt") }, "\(recurring.opened)")
        let text = try String(contentsOfFile: directory.file("todo.txt"), encoding: .utf8)
        #expect(text.hasPrefix("x 2025-11-29 buy milk uid:m2x8ab\nx 2025-11-29 water plants rec:1w uid:w4t3rp\nwater plants rec:1w uid:"))
    }
}

/// The paths a test's `open` saw.
private final class OpenedPaths: Sendable {
    let paths = Mutex<[String]>([])
}
