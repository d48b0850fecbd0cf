import Foundation
import TodoTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// The race version of `ReconcileRaceTests` (TodoCLITests), beside ReconcileCommandTests (which is
/// near the file-size limit): the built `todo reconcile` runs again and again while another process
/// appends to the conflict copy the way a shell's `>>` does (open, write, close), with no pause
/// between rounds. Every appended line ends up in todo.txt exactly once (docs/sync.md section 2, "A
/// copy that changes while it is merged"). Runs for 2 s; `TODO_SOAK_SECONDS` makes it longer.
final class ReconcileRaceSoakTests: XCTestCase {
    func testLinesAppendedToACopyDuringReconcilesAreNeverLost() throws {
        let seed = propertySeed("ReconcileRace")
        let directory = Spawn.makeTemporaryDirectory("reconcile-race")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let todo = directory + "/todo.txt"
        let copy = directory + "/todo (conflicted copy 2026-11-29).txt"
        Files.write(todo, "base task uid:b0\n")
        let appender = CopyAppender(path: copy, seed: seed)
        let thread = Thread { appender.run() }
        thread.start()
        var written: [String] = []
        var rounds = 0, leftInPlace = 0
        let deadline = Date().addingTimeInterval(Spawn.soakSeconds(default: 2))
        while Date() < deadline {
            // A new copy when the last one is gone, as a sync client writes one (created, then written).
            let line = "round \(rounds) uid:r\(rounds)"
            let fd = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o644)
            if fd >= 0 {
                let bytes = Array((line + "\n").utf8)
                if bytes.withUnsafeBytes({ write(fd, $0.baseAddress, $0.count) }) == bytes.count { written.append(line) }
                close(fd)
            }
            let run = Spawn.todo(["reconcile", todo])
            // Exit 1 only when the appender kept the copy open past the lock timeout (put back).
            if run.status != 0 { leftInPlace += 1 }
            XCTAssertTrue(run.status == 0 || run.err.contains("kept it open for writing"), "seed \(seed): \(run.err)")
            rounds += 1
        }
        appender.stop()
        while !appender.finished { usleep(1_000) }
        let last = Spawn.todo(["reconcile", todo])
        XCTAssertEqual(last.status, 0, last.err)

        let lines = Files.text(todo).split(separator: "\n").map(String.init)
        var counts: [String: Int] = [:]
        for line in lines { counts[line, default: 0] += 1 }
        let appended = appender.appended
        let lost = (written + appended).filter { counts[$0] == nil }
        let duplicated = counts.filter { $0.value > 1 }.map(\.key)
        print("ReconcileRace: seed \(seed), \(rounds) reconciles, \(appended.count) appends to the copy, "
              + "\(leftInPlace) copies put back, \(lost.count) lines lost")
        XCTAssertEqual(lost.count, 0, "seed \(seed): lines lost, the first: \(lost.prefix(10))")
        XCTAssertEqual(duplicated, [], "seed \(seed): lines duplicated")
        XCTAssertGreaterThan(appended.count, 0, "the appender must have written to a copy")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0 != "todo.txt" }
        XCTAssertEqual(leftovers, [], "no copy and no set-aside file may be left")
    }
}

/// Appends `late N` lines to the copy while it exists, one every 0.1–1 ms, until stopped; a line
/// counts as written only when its open and write succeeded (no copy: nothing written).
private final class CopyAppender: @unchecked Sendable {
    private let path: String
    private let lock = NSLock()
    private var random: SplitMix64
    private var stopping = false
    private var lines: [String] = []
    private var done = false

    init(path: String, seed: UInt64) {
        self.path = path
        random = SplitMix64(seed: seed)
    }

    var finished: Bool { lock.withLock { done } }
    var appended: [String] { lock.withLock { lines } }
    func stop() { lock.withLock { stopping = true } }

    func run() {
        var count = 0
        while !lock.withLock({ stopping }) {
            let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
            if fd >= 0 {
                let line = "late \(count)"
                let bytes = Array((line + "\n").utf8)
                let wrote = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                close(fd)
                if wrote == bytes.count { lock.withLock { lines.append(line) } }
                count += 1
            }
            usleep(UInt32(100 + random.next() % 900))
        }
        lock.withLock { done = true }
    }
}
