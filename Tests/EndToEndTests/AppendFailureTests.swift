import Foundation
import XCTest
import TodoTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `todo add` at the file size limit and under SIGKILL never leaves part of a line (docs/files.md,
/// "Appending").
final class AppendFailureTests: XCTestCase {
    /// `(ulimit -f 5; todo add "…1000 characters…")` in bash (5 KiB) on a file of 4,532 bytes: the add would pass the
    /// 5,120-byte limit, so it is refused with one line and nothing written (it used to die of
    /// SIGXFSZ leaving 588 bytes of the task); the next `>>` starts a line of its own.
    func testAddBeyondTheFileSizeLimitIsRefusedWithNothingWritten() throws {
        let directory = Spawn.makeTemporaryDirectory()
        let path = directory + "/todo.txt"
        let old = String(repeating: "an existing task uid:abcdef\n", count: 161) + String(repeating: "y", count: 23) + "\n"
        XCTAssertEqual(old.utf8.count, 4532)
        Files.write(path, old)
        let text = String(repeating: "z", count: 1000)
        let limited = Spawn.run(["/bin/bash", "-c", "ulimit -f 5; exec \"$@\"", "bash", Spawn.todo, "-f", path, "add", text])
        XCTAssertEqual(limited.status, 1, limited.err)
        XCTAssertEqual(limited.err.split(separator: "\n").count, 1, limited.err)
        XCTAssertTrue(limited.err.contains("cannot append to \(path): it would grow to "), limited.err)
        XCTAssertTrue(limited.err.hasSuffix("beyond the file size limit of 5120 bytes (ulimit -f); nothing was written\n"), limited.err)
        XCTAssertEqual(Files.text(path), old)
        // Within the limit the same command adds the task.
        let fits = Spawn.run(["/bin/bash", "-c", "ulimit -f 5; exec \"$@\"", "bash", Spawn.todo, "-f", path, "add", "short"])
        XCTAssertEqual(fits.status, 0, fits.err)
        XCTAssertTrue(Files.text(path).hasPrefix(old))
        XCTAssertTrue(Files.text(path).hasSuffix("\n"))
    }

    /// SIGKILL at random instants of a large `todo add` (100,000 characters, so the append crosses
    /// many pages and goes through replacement): the file afterwards holds the old lines and either
    /// the whole new task or none of it, never a part. 1.5 s, or `TODO_SOAK_SECONDS`.
    func testSigkillDuringALargeAddNeverLeavesPartOfALine() throws {
        let seed = propertySeed("AppendKill")
        var random = SplitMix64(seed: seed)
        let directory = Spawn.makeTemporaryDirectory()
        let path = directory + "/todo.txt"
        let old = (0..<20_000).map { "task \($0) +project @ctx uid:t\($0)" }.joined(separator: "\n") + "\n"
        let text = "big " + String(repeating: "w", count: 100_000) + " end"
        Files.write(path, old)
        let started = Date()
        XCTAssertEqual(Spawn.todo(["-f", path, "add", text]).status, 0)
        let runMicroseconds = UInt32(max(1_000, Date().timeIntervalSince(started) * 1_200_000))
        let deadline = Date().addingTimeInterval(Spawn.soakSeconds(default: 1.5))
        var kills = 0, completed = 0
        while Date() < deadline {
            Files.write(path, old)
            guard let pid = Spawn.startTodo(["-f", path, "add", text]) else { return XCTFail("spawn failed") }
            usleep(UInt32.random(in: 0..<runMicroseconds, using: &random))
            kill(pid, SIGKILL)
            if Spawn.wait(pid) == 128 + SIGKILL { kills += 1 } else { completed += 1 }
            let now = Files.text(path)
            XCTAssertTrue(now.hasPrefix(old), "seed \(seed): an old line changed")
            let added = now.dropFirst(old.utf8.count)
            // The whole task is `DATE TEXT uid:XXXXXX` and a newline.
            let whole = added.isEmpty || (added.utf8.count == 11 + text.utf8.count + 12
                                          && added.dropFirst(11).hasPrefix(text + " uid:") && added.hasSuffix("\n"))
            XCTAssertTrue(whole, "seed \(seed): part of a line left (\(added.utf8.count) bytes)")
            if !whole { break }
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name != "todo.txt" {
                try FileManager.default.removeItem(atPath: directory + "/" + name)
            }
        }
        print("AppendKill: \(kills) kills, \(completed) completed runs")
    }
}
