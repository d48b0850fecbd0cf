import XCTest
import TodoTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `todo sort` killed with SIGKILL at random instants leaves the file wholly old or wholly new
/// (docs/files.md section 1). Runs for a few seconds; `TODO_SOAK_SECONDS` makes it longer.
final class CrashSafetyTests: XCTestCase {
    func testSigkillAtRandomInstantsNeverLeavesAPartialFile() throws {
        let seed = propertySeed("CrashSafety")
        var random = SplitMix64(seed: seed)
        let directory = Spawn.makeTemporaryDirectory()
        let path = directory + "/todo.txt"
        // About 6 MB: big enough that a sort takes tens of milliseconds, so kills land mid-write.
        var lines: [String] = []
        for index in 0..<100_000 {
            let done = Int.random(in: 0..<10, using: &random) < 3
            lines.append((done ? "x 2026-01-\(10 + index % 18) " : "(B) ") + "task \(index) +project\(index % 40) @ctx due:2026-02-01")
        }
        let old = Array((lines.joined(separator: "\n") + "\n").utf8)
        let new = TodoSortReference.sorted(lines)
        // Time one undisturbed run, so kills are spread over the whole of a run (read, sort, write, rename).
        Files.write(path, old)
        let started = Date()
        XCTAssertEqual(Spawn.todo(["sort", path]).status, 0)
        let runMicroseconds = UInt32(max(1_000, Date().timeIntervalSince(started) * 1_200_000))
        XCTAssertEqual(Files.read(path), new, "the oracle and todo sort disagree")
        let deadline = Date().addingTimeInterval(Spawn.soakSeconds(default: 3))
        var kills = 0, completed = 0
        while Date() < deadline {
            Files.write(path, old)
            guard let pid = Spawn.startTodo(["sort", path]) else { return XCTFail("spawn failed") }
            usleep(UInt32.random(in: 0..<runMicroseconds, using: &random))
            kill(pid, SIGKILL)
            let status = Spawn.wait(pid)
            if status == 128 + SIGKILL { kills += 1 } else { completed += 1 }
            let now = Files.read(path)
            XCTAssertTrue(now == old || now == new, "seed \(seed): partial file after kill (\(now.count) bytes)")
            if now != old && now != new { break }
            // Temp files of a killed writer may remain; they are never the target.
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) where name != "todo.txt" {
                try FileManager.default.removeItem(atPath: directory + "/" + name)
            }
        }
        print("CrashSafety: \(kills) kills, \(completed) completed runs")
        XCTAssertGreaterThan(kills + completed, 0)
    }
}

/// An independent oracle for the partition sort: open lines then completed lines, each in order.
enum TodoSortReference {
    static func sorted(_ lines: [String]) -> [UInt8] {
        let open = lines.filter { !$0.hasPrefix("x ") }, done = lines.filter { $0.hasPrefix("x ") }
        return Array(((open + done).joined(separator: "\n") + "\n").utf8)
    }
}
