import Foundation
import TodoTestSupport
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// `todo sort` on a large file (read in halves, compared on a second thread, written as pieces) while
/// another process keeps appending lines with `>>` (`echo … >> todo.txt`, no lock): no line is ever
/// lost or duplicated. Runs for a few seconds; `TODO_SOAK_SECONDS` makes it longer.
final class ConcurrentAppendTests: XCTestCase {
    /// Appends one line the way a shell's `>>` does: open with O_APPEND, write, close. Returns whether
    /// the write may have gone to a file already replaced: the path named another inode right after
    /// the write, so the rename happened between this open and this write. No rename-based writer
    /// can carry such a line over once it has finished (docs/files.md section 1, the post-rename window);
    /// the test reports those instead of counting them as lost.
    static func appendLikeShell(_ path: String, _ line: String) -> (written: Bool, raced: Bool) {
        let fd = open(path, O_WRONLY | O_APPEND)
        guard fd >= 0 else { return (false, false) }
        defer { close(fd) }
        let bytes = Array(line.utf8)
        let wrote = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        var opened = stat(), named = stat()
        let raced = fstat(fd, &opened) == 0 && (stat(path, &named) != 0 || named.st_ino != opened.st_ino)
        return (wrote == bytes.count, raced)
    }

    func testAppendsDuringSortsAreNeverLost() throws {
        let seed = propertySeed("ConcurrentAppend")
        var random = SplitMix64(seed: seed)
        let directory = Spawn.makeTemporaryDirectory("concurrent-append")
        let path = directory + "/todo.txt"
        // About 9 MB: above both the parallel-read and the early-check thresholds of the file layer.
        var original: [String] = []
        var size = 0
        while size < 9_000_000 {
            let done = random.next() % 10 < 3
            let line = (done ? "x 2026-01-02 " : "(C) ") + "original \(original.count) +project @context due:2026-02-01"
            original.append(line)
            size += line.utf8.count + 1
        }
        Files.write(path, original.joined(separator: "\n") + "\n")

        let appender = Appender(path: path, seed: random.next())
        let thread = Thread { appender.run() }
        thread.start()
        let deadline = Date().addingTimeInterval(Spawn.soakSeconds(default: 3))
        var sorts = 0
        while Date() < deadline {
            let result = Spawn.todo(["sort", path])
            XCTAssertEqual(result.status, 0, "seed \(seed): \(result.err)")
            sorts += 1
        }
        appender.stop()
        while !appender.finished { usleep(1_000) }
        XCTAssertEqual(Spawn.todo(["sort", path]).status, 0)

        let lines = Files.text(path).split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
        var counts: [String: Int] = [:]
        for line in lines { counts[line, default: 0] += 1 }
        let (appended, raced) = appender.results
        // Since writers wait for appenders to close the old file (docs/notes/file-layer.md, "Late
        // appends"), a line written into the replaced file is carried over too: none is excused.
        let lost = (original + appended).filter { counts[$0] == nil }
        let duplicated = counts.filter { $0.value > 1 }.map(\.key)
        print("ConcurrentAppend: \(sorts) sorts, \(appended.count) appends, \(raced.count) in the post-rename window, "
              + "\(raced.filter { counts[$0] == nil }.count) of those not carried over")
        XCTAssertEqual(lost, [], "seed \(seed): lines lost")
        let text = Files.text(path)
        for line in lost.prefix(3) {
            if let range = text.range(of: String(line.prefix(14))) {
                let start = text.index(range.lowerBound, offsetBy: -60, limitedBy: text.startIndex) ?? text.startIndex
                let end = text.index(range.upperBound, offsetBy: 60, limitedBy: text.endIndex) ?? text.endIndex
                print("ConcurrentAppend: around a lost line: \(String(reflecting: String(text[start..<end])))")
            } else {
                print("ConcurrentAppend: \(line) is nowhere in the file")
            }
        }
        XCTAssertEqual(duplicated, [], "seed \(seed): lines duplicated")
        XCTAssertEqual(lines.count, counts.count, "seed \(seed)")
        let firstDone = lines.firstIndex { $0.hasPrefix("x ") } ?? lines.count
        XCTAssertFalse(lines[firstDone...].contains { !$0.hasPrefix("x ") }, "seed \(seed): not sorted after the last sort")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: directory).filter { $0 != "todo.txt" }
        XCTAssertEqual(leftovers, [], "no temporary file may be left")
    }

    /// A write descriptor `todo` inherited from whoever started it (here a shell that opened the file
    /// for appending and then became `todo`) is its own, not another writer's: the sort must not wait
    /// for itself until the timeout and refuse. (The appender above, opening without close-on-exec,
    /// leaked such descriptors into a spawned sort now and then.)
    func testAnInheritedWriteDescriptorDoesNotMakeTodoWaitForItself() {
        let directory = Spawn.makeTemporaryDirectory("inherited-writer")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/todo.txt"
        Files.write(path, "x 2026-01-02 done first\nopen task\n")
        let script = "exec 3>>\"$1\"; exec \"$2\" sort \"$1\""
        let result = Spawn.run(["/bin/sh", "-c", script, "sh", path, Spawn.todo],
                               extraEnvironment: ["TODO_LOCK_TIMEOUT": "2"])
        XCTAssertEqual(result.status, 0, result.err)
        XCTAssertEqual(Files.text(path), "open task\nx 2026-01-02 done first\n")
    }
}

/// The concurrent appender: one line every 0.2–2 ms, open and done lines mixed, until stopped.
private final class Appender: @unchecked Sendable {
    private let path: String
    private let lock = NSLock()
    private var random: SplitMix64
    private var stopping = false
    private var appended: [String] = []
    private var raced: Set<String> = []
    private var done = false

    init(path: String, seed: UInt64) {
        self.path = path
        random = SplitMix64(seed: seed)
    }

    var finished: Bool { lock.withLock { done } }
    var results: (appended: [String], raced: Set<String>) { lock.withLock { (appended, raced) } }
    func stop() { lock.withLock { stopping = true } }

    func run() {
        var index = 0
        while !lock.withLock({ stopping }) {
            let line = (random.next() % 3 == 0 ? "x 2026-01-03 " : "") + "appended \(index) @shell"
            let outcome = ConcurrentAppendTests.appendLikeShell(path, line + "\n")
            lock.withLock {
                if outcome.written { appended.append(line) }
                if outcome.raced { raced.insert(line) }
            }
            index += 1
            usleep(200 + UInt32(random.next() % 1_800))
        }
        lock.withLock { done = true }
    }
}
