#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import XCTest
import TodoTestSupport
@testable import TodoFileSystem

/// Process-wide measurements (open descriptors, CPU time, context switches). These are XCTest cases
/// on purpose: XCTest runs its cases one at a time and before any Swift Testing test starts (and
/// `swift test --parallel` gives each case its own process), so nothing else in the process opens
/// descriptors or burns CPU while they measure.
final class WatchingResourceTests: XCTestCase {
    private var dir: TemporaryDirectory!

    override func setUp() {
        dir = TemporaryDirectory("watch-res")
        writeFile(dir.file("todo.txt"), "one\n")
    }

    override func tearDown() {
        dir = nil
    }

    /// Start and stop once so Dispatch's own process-wide descriptors (epoll, eventfd), created
    /// lazily on first use and kept for the life of the process, exist before we count.
    private func warmUp() throws {
        let warm = FileWatcher(path: dir.file("todo.txt"))
        try warm.start { _ in }
        warm.stop()
        let poll = FileWatcher(path: dir.file("todo.txt"), backend: .polling(interval: .milliseconds(10)))
        try poll.start { _ in }
        poll.stop()
    }

    func testStopClosesEveryDescriptor() throws {
        #if os(Linux)
        try warmUp()
        let before = openDescriptorCount()
        XCTAssertGreaterThan(before, 2)
        for round in 0..<5 {
            let watcher = FileWatcher(path: dir.file("todo.txt"))
            try watcher.start { _ in }
            XCTAssertEqual(openDescriptorCount(), before + 1, "round \(round): the inotify descriptor is open")
            watcher.stop()
            XCTAssertEqual(openDescriptorCount(), before, "round \(round): stop() closed it")
            watcher.stop()
            XCTAssertEqual(openDescriptorCount(), before, "round \(round): a second stop() is harmless")
        }
        let polling = FileWatcher(path: dir.file("todo.txt"), backend: .polling(interval: .milliseconds(20)))
        try polling.start { _ in }
        polling.stop()
        XCTAssertEqual(openDescriptorCount(), before, "polling leaves no descriptor either")
        #else
        throw XCTSkip("counts /proc/self/fd")
        #endif
    }

    func testDescriptorsClosedWhenWatchEndsOnItsOwn() throws {
        #if os(Linux)
        try warmUp()
        let before = openDescriptorCount()
        let log = WatchEventLog()
        let watcher = FileWatcher(path: dir.file("todo.txt"))
        try watcher.start(handler: log.handler)
        XCTAssertEqual(openDescriptorCount(), before + 1)
        XCTAssertEqual(spawnWait(["rm", "-rf", dir.path]), 0)
        log.waitBlocking(for: 1)
        XCTAssertEqual(log.kinds, [.directoryGone])
        usleep(100_000)
        XCTAssertEqual(openDescriptorCount(), before, "the watcher closed its descriptor after .directoryGone")
        watcher.stop()
        XCTAssertEqual(openDescriptorCount(), before)
        #else
        throw XCTSkip("counts /proc/self/fd")
        #endif
    }

    func testReleasingARunningWatcherClosesItsDescriptor() throws {
        #if os(Linux)
        try warmUp()
        let before = openDescriptorCount()
        do {
            let watcher = FileWatcher(path: dir.file("todo.txt"))
            try watcher.start { _ in }
            XCTAssertEqual(openDescriptorCount(), before + 1)
        }
        let deadline = ContinuousClock.now + .seconds(1)
        while openDescriptorCount() != before && ContinuousClock.now < deadline { usleep(10_000) }
        XCTAssertEqual(openDescriptorCount(), before, "deinit cancels the source, which closes the descriptor")
        #else
        throw XCTSkip("counts /proc/self/fd")
        #endif
    }

    /// CPU time (user + system) and voluntary context switches of the whole process.
    private func usage() -> (cpu: Duration, switches: Int) {
        var usage = rusage()
        getrusage(0, &usage)  // RUSAGE_SELF (0 on Linux and macOS; an enum in Glibc's import)
        let micros = Int64(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) * 1_000_000
            + Int64(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec)
        return (.microseconds(micros), Int(usage.ru_nvcsw))
    }

    /// Sleeps `seconds` with a watcher running and returns what the process spent meanwhile.
    private func idleCost(_ backend: FileWatcherBackend, seconds: UInt32 = 2) throws
        -> (cpu: Duration, switches: Int, events: [FileWatchEvent]) {
        let log = WatchEventLog()
        let watcher = FileWatcher(path: dir.file("todo.txt"), backend: backend)
        try watcher.start(handler: log.handler)
        defer { watcher.stop() }
        usleep(200_000)
        let start = usage()
        sleep(seconds)
        let end = usage()
        return (end.cpu - start.cpu, end.switches - start.switches, log.kinds)
    }

    func testIdleWatcherDoesNotWakeUp() throws {
        let native = try idleCost(.automatic)
        // Control: a 10 ms poll wakes up ~200 times in 2 s. If it did not register here, the
        // measurement could not tell an idle watcher from a busy one.
        let busy = try idleCost(.polling(interval: .milliseconds(10)))
        print("idle 2 s: native cpu \(native.cpu), \(native.switches) switches; "
              + "10 ms polling cpu \(busy.cpu), \(busy.switches) switches")
        XCTAssertEqual(native.events, [], "no change, no handler call")
        XCTAssertEqual(busy.events, [])
        XCTAssertLessThan(native.cpu, .milliseconds(20), "an idle watcher must not burn CPU")
        XCTAssertLessThanOrEqual(native.switches, 10, "an idle watcher must not wake up")
        XCTAssertGreaterThanOrEqual(busy.switches, 100, "control: the measurement sees a polling loop")
    }
}
