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
        for (name, actual, expected) in [("todo.txt", todoLines, lines.filter { !$0.hasPrefix("x ") }),
                                         ("done.txt", doneLines, lines.filter { $0.hasPrefix("x ") })] where actual != expected {
            let firstDifference = (0..<min(actual.count, expected.count)).first { actual[$0] != expected[$0] } ?? min(actual.count, expected.count)
            XCTFail("\(name): \(actual.count) lines, expected \(expected.count); first difference at line \(firstDifference + 1): "
                    + "\(actual.dropFirst(firstDifference).first ?? "(end)") instead of \(expected.dropFirst(firstDifference).first ?? "(end)"); "
                    + "\(context)", file: file, line: line)
        }
    }

    /// Kills at random instants of `archive` on 4,000 tasks; at least ten kills per second of
    /// `TODO_SOAK_SECONDS` (30 at CI's setting), and until the soak time is up.
    func testKilledAtRandomInstantsThenRerunArchivesEachTaskOnce() throws {
        let seed = propertySeed("ArchiveKill")
        var random = SplitMix64(seed: seed)
        let directory = Spawn.makeTemporaryDirectory("archive-kill")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let todo = directory + "/todo.txt", done = directory + "/done.txt"
        let lines = Self.todoFile(4_000, &random)
        let original = lines.joined(separator: "\n") + "\n"
        // One undisturbed run sets the range of kill instants: the whole of a run.
        Files.write(todo, original)
        let started = Date()
        XCTAssertEqual(Spawn.todo(["archive", todo]).status, 0)
        let runMicroseconds = UInt32(max(2_000, Date().timeIntervalSince(started) * 1_300_000))
        assertArchivedExactlyOnce(lines, todo: todo, done: done, "seed \(seed): undisturbed run")
        var kills = 0, rounds = 0
        let soakSeconds = Spawn.soakSeconds(default: 3)
        let minimumKills = max(10, Int(soakSeconds * 10))
        let deadline = Date().addingTimeInterval(soakSeconds)
        while (kills < minimumKills && rounds < 4 * minimumKills) || Date() < deadline {
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
        XCTAssertGreaterThanOrEqual(kills, minimumKills)
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

    /// A real full disk: a small tmpfs where the done file's append fits but the todo file's new copy
    /// does not (ENOSPC). Then more room and a rerun: no duplicate. Needs root to mount (skipped
    /// otherwise).
    func testDiskFullDuringTheRewriteThenRerunLeavesNoDuplicate() throws {
        var lines: [String] = []
        for index in 0..<800 {
            lines.append(index % 6 == 0 ? "x 2026-01-01 done \(index) uid:d\(index)" : "open task number \(index) +proj @ctx uid:o\(index)")
        }
        let text = lines.joined(separator: "\n") + "\n"
        // Room for todo.txt, the new done.txt and half of todo.txt's new copy (in 4 KiB pages).
        func pages(_ bytes: Int) -> Int { (bytes + 4095) / 4096 }
        let doneBytes = lines.filter { $0.hasPrefix("x ") }.joined(separator: "\n").utf8.count + 1
        let keptBytes = text.utf8.count - doneBytes
        let size = 4 * (pages(text.utf8.count) + pages(doneBytes) + pages(keptBytes) / 2)
        let mountPoint = Spawn.makeTemporaryDirectory("archive-enospc")
        defer { try? FileManager.default.removeItem(atPath: mountPoint) }
        let mounted = Spawn.run(["mount", "-t", "tmpfs", "-o", "size=\(size)k", "tmpfs", mountPoint])
        try XCTSkipUnless(mounted.status == 0, "cannot mount a tmpfs here: \(mounted.err)")
        defer { _ = Spawn.run(["umount", mountPoint]) }
        let todo = mountPoint + "/todo.txt", done = mountPoint + "/done.txt"
        Files.write(todo, text)
        let full = Spawn.todo(["archive", todo])
        XCTAssertEqual(full.status, 1, full.err)
        XCTAssertTrue(full.err.contains("No space left on device"), full.err)
        XCTAssertTrue(full.err.contains("still in") && full.err.contains(done), full.err)
        XCTAssertEqual(Files.text(todo), text, "todo.txt must be as it was")
        XCTAssertEqual(Spawn.run(["mount", "-o", "remount,size=1m", mountPoint]).status, 0)
        let rerun = Spawn.todo(["archive", todo])
        XCTAssertEqual(rerun.status, 0, rerun.err)
        assertArchivedExactlyOnce(lines, todo: todo, done: done, "after a full disk and a rerun")
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
