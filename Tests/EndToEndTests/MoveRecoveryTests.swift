import Foundation
import TodoTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `todo move` stopped between its two writes (the task appended to the destination, the source not
/// yet rewritten) leaves the task in both files; running it again must finish the move without a
/// second copy, while another program keeps appending to both files. (Before: the task was
/// appended to the destination again, two lines with one uid.)
final class MoveRecoveryTests: XCTestCase {
    /// Appends numbered lines to two files the way a shell's `>>` does (open O_APPEND, write, close),
    /// on its own thread, until stopped; records what it wrote.
    final class TwoFileAppender: @unchecked Sendable {
        private let paths: [String]
        private let lock = NSLock()
        private var stopping = false
        private var written: [[String]]
        private var done = false

        init(_ paths: [String]) {
            self.paths = paths
            written = paths.map { _ in [] }
        }

        /// Starts the thread.
        func start() { Thread { self.run() }.start() }

        /// Stops the thread and returns, per file, the lines it wrote completely.
        func stop() -> [[String]] {
            lock.withLock { stopping = true }
            while !lock.withLock({ done }) { usleep(1_000) }
            return lock.withLock { written }
        }

        private func run() {
            var index = 0
            while !lock.withLock({ stopping }) {
                for (fileIndex, path) in paths.enumerated() {
                    let line = "appended \(index) to file \(fileIndex) @shell"
                    let descriptor = open(path, O_WRONLY | O_APPEND)
                    guard descriptor >= 0 else { continue }
                    let bytes = Array((line + "\n").utf8)
                    let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
                    close(descriptor)
                    if count == bytes.count { lock.withLock { written[fileIndex].append(line) } }
                }
                index += 1
                usleep(300)
            }
            lock.withLock { done = true }
        }
    }

    static let todoLines = ["(A) 2026-01-01 call mom +family uid:k3f9qz", "pay rent uid:r7p4cd", "water plants",
                            "x 2026-01-02 paid the bill uid:p4idaa", "buy milk @shop uid:m2x8ab"]
    static let somedayLines = ["learn the banjo uid:b4nj0a", "visit Lisbon"]
    static let moved = "pay rent uid:r7p4cd"

    static func lines(_ path: String) -> [String] {
        Files.text(path).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// After the move and the appender: the moved task once in someday.txt and nowhere in todo.txt;
    /// every other line, the appender's included, exactly once in the file it was written to.
    func assertMovedOnce(todo: String, someday: String, appended: [[String]], _ context: String,
                         file: StaticString = #filePath, line: UInt = #line) {
        let todoNow = Self.lines(todo), somedayNow = Self.lines(someday)
        var problems: [String] = []
        if somedayNow.filter({ $0 == Self.moved }).count != 1 { problems.append("someday.txt holds the task \(somedayNow.filter { $0 == Self.moved }.count) times") }
        if todoNow.contains(Self.moved) { problems.append("todo.txt still holds the task") }
        for (name, now, expected) in [("todo.txt", todoNow, Self.todoLines.filter { $0 != Self.moved } + appended[0]),
                                      ("someday.txt", somedayNow, Self.somedayLines + appended[1])] {
            for expectedLine in expected where now.filter({ $0 == expectedLine }).count != 1 {
                problems.append("\(name): '\(expectedLine)' \(now.filter { $0 == expectedLine }.count) times")
            }
            let unexpected = now.filter { !$0.isEmpty && $0 != Self.moved && !expected.contains($0) }
            if !unexpected.isEmpty { problems.append("\(name): unexpected \(unexpected.prefix(3))") }
        }
        if !problems.isEmpty {
            // Where a missing line went (a temporary or displaced file beside them), for the report.
            let directory = (todo as NSString).deletingLastPathComponent
            var holders: [String] = []
            for name in (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [] {
                let text = Files.text(directory + "/" + name)
                for problem in problems {
                    if let line = problem.split(separator: "'").dropFirst().first, text.contains(line) { holders.append("\(name) holds '\(line)'") }
                }
            }
            XCTFail("\(context): \(problems.prefix(5).joined(separator: "; ")) \(holders.prefix(3))", file: file, line: line)
        }
    }

    func makeFiles(_ directory: String) -> (todo: String, someday: String) {
        let todo = directory + "/todo.txt", someday = directory + "/someday.txt"
        Files.write(todo, Self.todoLines.joined(separator: "\n") + "\n")
        Files.write(someday, Self.somedayLines.joined(separator: "\n") + "\n")
        return (todo, someday)
    }

    /// The source cannot be rewritten (`chattr +a`: appends still work, a rename over it does not),
    /// so the move fails after its first write, deterministically, while the appender writes to both
    /// files; the failure says the task is in both and that running the move again finishes it.
    /// Fixed and run again: the task once in the destination. Needs root and a file system with
    /// attributes (skipped otherwise).
    func testASourceThatCannotBeRewrittenThenFixedMovesTheTaskOnce() throws {
        let directory = Spawn.makeTemporaryDirectory("move-append-only")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (todo, someday) = makeFiles(directory)
        let locked = Spawn.run(["chattr", "+a", todo])
        try XCTSkipUnless(locked.status == 0, "cannot set the append-only attribute here: \(locked.err)")
        defer { _ = Spawn.run(["chattr", "-a", todo]) }
        let appender = TwoFileAppender([todo, someday])
        appender.start()
        let failed = Spawn.todo(["-f", todo, "--force", "move", "r7p4cd", "someday.txt"])
        XCTAssertEqual(failed.status, 1, failed.err)
        XCTAssertEqual(failed.err.filter { $0 == "\n" }.count, 1, failed.err)
        XCTAssertTrue(failed.err.contains("is in \(directory)/someday.txt and still in \(todo)")
                      && failed.err.contains("run the move again"), failed.err)
        XCTAssertEqual(failed.out, "", "nothing is reported moved")
        usleep(20_000)
        XCTAssertEqual(Spawn.run(["chattr", "-a", todo]).status, 0)
        let again = Spawn.todo(["-f", todo, "--force", "move", "r7p4cd", "someday.txt"])
        XCTAssertEqual(again.status, 0, again.err)
        XCTAssertEqual(again.err, "todo: task 2 was already in \(directory)/someday.txt; removed from \(todo)\n")
        usleep(20_000)
        let appended = appender.stop()
        XCTAssertGreaterThan(appended[0].count, 0, "the appender must have run meanwhile")
        assertMovedOnce(todo: todo, someday: someday, appended: appended, "after the failed move and a second one")
        // A third run finds nothing left to move, and writes nothing.
        let before = (Files.read(todo), Files.read(someday))
        let third = Spawn.todo(["-f", todo, "--force", "move", "r7p4cd", "someday.txt"])
        XCTAssertEqual(third.status, 1)
        XCTAssertEqual(third.err, "todo: \(todo): no task with uid r7p4cd\n")
        XCTAssertTrue(Files.read(todo) == before.0 && Files.read(someday) == before.1)
    }

    /// The race version: moves killed (SIGKILL) at random instants, before, between or after their
    /// two writes, while the appender writes to both files; then the move is run again. Every round:
    /// the task once in the destination, every other line once. `TODO_SOAK_SECONDS` runs it longer.
    func testMovesKilledAtRandomInstantsThenRunAgainMoveTheTaskOnce() throws {
        let seed = propertySeed("MoveKill")
        var random = SplitMix64(seed: seed)
        let directory = Spawn.makeTemporaryDirectory("move-kill")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let arguments = ["--force", "move", "r7p4cd", "someday.txt"]
        // One undisturbed run sets the range of kill instants: the whole of a run.
        var (todo, someday) = makeFiles(directory)
        let started = Date()
        XCTAssertEqual(Spawn.todo(["-f", todo] + arguments).status, 0)
        let runMicroseconds = UInt32(max(2_000, Date().timeIntervalSince(started) * 1_300_000))
        var kills = 0, rounds = 0, finishedByTheRetry = 0, inBoth = 0
        let deadline = Date().addingTimeInterval(Spawn.soakSeconds(default: 1))
        while rounds < 30 || Date() < deadline {
            rounds += 1
            (todo, someday) = makeFiles(directory)
            let appender = TwoFileAppender([todo, someday])
            appender.start()
            guard let pid = Spawn.startTodo(["-f", todo] + arguments) else { return XCTFail("spawn failed") }
            usleep(UInt32.random(in: 0..<runMicroseconds, using: &random))
            kill(pid, SIGKILL)
            if Spawn.wait(pid) == 128 + SIGKILL { kills += 1 }
            if Self.lines(todo).contains(Self.moved) && Self.lines(someday).contains(Self.moved) { inBoth += 1 }
            let again = Spawn.todo(["-f", todo] + arguments)
            // The killed run may have finished: then there is nothing left to move.
            if again.status == 0 {
                finishedByTheRetry += 1
            } else {
                XCTAssertEqual(again.err, "todo: \(todo): no task with uid r7p4cd\n", "seed \(seed) round \(rounds)")
            }
            let appended = appender.stop()
            // A run killed after its rename leaves the lines appended to the old file meanwhile for the
            // next writer of that file, which puts them back before it reads (docs/files.md section 1,
            // "A writer killed after its swap"): any transaction will do, even one that changes nothing.
            for (path, uid) in [(todo, "m2x8ab"), (someday, "b4nj0a")] { _ = Spawn.todo(["-f", path, "depri", uid]) }
            assertMovedOnce(todo: todo, someday: someday, appended: appended, "seed \(seed) round \(rounds)")
            if testRun?.failureCount ?? 0 > 0 { break }
        }
        print("MoveKill: \(kills) kills in \(rounds) rounds, \(inBoth) left the task in both files, "
              + "\(finishedByTheRetry) moves finished by the second run")
        XCTAssertGreaterThan(kills, 0)
    }

    /// A destination that is the source under another name (a hard link) already "holds" every task:
    /// the move is refused, or the rule above would only remove the task.
    func testAHardLinkToTheSourceIsRefusedAsTheSameFile() {
        let directory = Spawn.makeTemporaryDirectory("move-hard-link")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (todo, _) = makeFiles(directory)
        XCTAssertEqual(link(todo, directory + "/linked.txt"), 0)
        let before = Files.read(todo)
        let refused = Spawn.todo(["-f", todo, "--force", "move", "r7p4cd", "linked.txt"])
        XCTAssertEqual(refused.status, 1)
        XCTAssertEqual(refused.err, "todo: \(todo): \(directory)/linked.txt is this same file; nothing moved\n")
        XCTAssertEqual(Files.read(todo), before)
    }
}
