import XCTest
import TodoTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `todo archive` stopped between its two writes (appending to done.txt, then rewriting todo.txt)
/// leaves the tasks in both files; a rerun must finish the job without a second copy. (Before: a
/// kill or a full disk in between, then a rerun, appended every task again.)
final class ArchiveRecoveryTests: XCTestCase {
    /// A todo file of `count` tasks, a third of them completed, each with its own uid.
    static func todoFile(_ count: Int, _ random: inout SplitMix64) -> [String] {
        (0..<count).map { index in
            Int.random(in: 0..<3, using: &random) == 0
                ? "x 2026-01-0\(1 + index % 9) task \(index) +p\(index % 7) uid:t\(index)"
                : "(B) task \(index) @c\(index % 5) uid:t\(index)"
        }
    }

    /// After any sequence of interrupted runs and one complete run: every completed task is in the
    /// done file exactly once, every open task is in the todo file exactly once, nothing else.
    func assertArchivedExactlyOnce(_ lines: [String], todo: String, done: String, _ context: String,
                                   file: StaticString = #filePath, line: UInt = #line) {
        let todoLines = Files.text(todo).split(separator: "\n").map(String.init)
        let doneLines = Files.text(done).split(separator: "\n").map(String.init)
        XCTAssertEqual(todoLines, lines.filter { !$0.hasPrefix("x ") }, "open tasks, \(context)", file: file, line: line)
        XCTAssertEqual(doneLines, lines.filter { $0.hasPrefix("x ") }, "done tasks, \(context)", file: file, line: line)
    }

    func testKilledAtRandomInstantsThenRerunArchivesEachTaskOnce() throws {
        let seed = propertySeed("ArchiveKill")
        var random = SplitMix64(seed: seed)
        let directory = Spawn.makeTemporaryDirectory("archive-kill")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let todo = directory + "/todo.txt", done = directory + "/done.txt"
        let lines = Self.todoFile(30_000, &random)
        let original = lines.joined(separator: "\n") + "\n"
        // One undisturbed run sets the range of kill instants: the whole of a run.
        Files.write(todo, original)
        let started = Date()
        XCTAssertEqual(Spawn.todo(["archive", todo]).status, 0)
        let runMicroseconds = UInt32(max(2_000, Date().timeIntervalSince(started) * 1_300_000))
        assertArchivedExactlyOnce(lines, todo: todo, done: done, "seed \(seed): undisturbed run")
        var kills = 0, rounds = 0
        let deadline = Date().addingTimeInterval(Spawn.soakSeconds(default: 3))
        while rounds < 100 || Date() < deadline {
            rounds += 1
            try? FileManager.default.removeItem(atPath: done)
            Files.write(todo, original)
            // One or two interrupted runs, then one to completion.
            for _ in 0..<Int.random(in: 1...2, using: &random) {
                guard let pid = Spawn.startTodo(["archive", todo]) else { return XCTFail("spawn failed") }
                usleep(UInt32.random(in: 0..<runMicroseconds, using: &random))
                kill(pid, SIGKILL)
                if Spawn.wait(pid) == 128 + SIGKILL { kills += 1 }
            }
            let rerun = Spawn.todo(["archive", todo])
            XCTAssertEqual(rerun.status, 0, "seed \(seed) round \(rounds): \(rerun.err)")
            assertArchivedExactlyOnce(lines, todo: todo, done: done, "seed \(seed) round \(rounds)")
            if testRun?.failureCount ?? 0 > 0 { break }
        }
        print("ArchiveKill: \(kills) kills in \(rounds) rounds")
        XCTAssertGreaterThanOrEqual(rounds, 100)
    }

    /// The todo file's rewrite fails (the file-size limit, as a full disk would: the write returns
    /// an error) after the done file was appended: one line names both files and their state, exit
    /// 1; a rerun without the limit finishes with no duplicate.
    func testRewriteFailingAfterTheAppendThenRerunLeavesNoDuplicate() throws {
        var random = SplitMix64(seed: 7)
        let directory = Spawn.makeTemporaryDirectory("archive-full")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let todo = directory + "/todo.txt", done = directory + "/done.txt"
        let lines = Self.todoFile(3_000, &random)
        Files.write(todo, lines.joined(separator: "\n") + "\n")
        let doneSize = lines.filter { $0.hasPrefix("x ") }.joined(separator: "\n").utf8.count + 1
        let keptSize = lines.filter { !$0.hasPrefix("x ") }.joined(separator: "\n").utf8.count + 1
        XCTAssertLessThan(doneSize, keptSize, "the limit must let the append through and stop the rewrite")
        // bash's `ulimit -f` counts 1024-byte blocks; SIGXFSZ ignored, so the write fails with EFBIG.
        let blocks = (doneSize + keptSize) / 2 / 1024
        let limited = Spawn.run(["bash", "-c", "trap '' XFSZ; ulimit -f \(blocks); exec \"$0\" archive \"$1\"", Spawn.todo, todo])
        XCTAssertEqual(limited.status, 1, limited.err)
        XCTAssertEqual(limited.err.filter { $0 == "\n" }.count, 1, limited.err)
        XCTAssertTrue(limited.err.contains(done) && limited.err.contains("still in") && limited.err.contains("run archive again"),
                      limited.err)
        XCTAssertEqual(Files.text(todo), lines.joined(separator: "\n") + "\n", "todo.txt must be as it was")
        let rerun = Spawn.todo(["archive", todo])
        XCTAssertEqual(rerun.status, 0, rerun.err)
        assertArchivedExactlyOnce(lines, todo: todo, done: done, "after the failed rewrite and a rerun")
        // And a second rerun has nothing left to do.
        XCTAssertEqual(Spawn.todo(["archive", todo]).status, 0)
        assertArchivedExactlyOnce(lines, todo: todo, done: done, "after a second rerun")
    }

    /// A task edited after an interrupted archive (same uid, other text) is matched by its uid.
    func testATaskEditedBetweenRunsIsMatchedByItsUID() {
        let directory = Spawn.makeTemporaryDirectory("archive-uid")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let todo = directory + "/todo.txt", done = directory + "/done.txt"
        Files.write(done, "x 2026-01-01 old\nx 2026-01-02 pay rent uid:aaaaaa\n")
        Files.write(todo, "open uid:bbbbbb\nx 2026-01-02 pay the rent uid:aaaaaa\n")
        XCTAssertEqual(Spawn.todo(["archive", todo]).status, 0)
        XCTAssertEqual(Files.text(todo), "open uid:bbbbbb\n")
        XCTAssertEqual(Files.text(done), "x 2026-01-01 old\nx 2026-01-02 pay rent uid:aaaaaa\n")
    }
}
