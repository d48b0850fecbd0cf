// What the watcher tests of TodoFileSystemTests and TodoFileSystemResourceTests share: an event log
// safe to read from any thread, raw file operations (no Foundation), the descriptor count.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import TodoFileSystem

/// One handler call and when it happened.
public struct RecordedEvent: Sendable {
    public let event: FileWatchEvent
    public let at: ContinuousClock.Instant
}

/// Collects handler calls; safe to append from the watcher's queue and read from the test.
public final class WatchEventLog: Sendable {
    private let events = Mutex<[RecordedEvent]>([])
    private let siblingNames = Mutex<[String]>([])
    private let contents = Mutex<[String?]>([])
    /// If set, the handler reads this file at each event, to show what a reader would have seen.
    public let readPath: String?

    public init(reading readPath: String? = nil) { self.readPath = readPath }

    public var handler: @Sendable (FileWatchEvent) -> Void {
        { [self] event in
            let content = readPath.flatMap(readFile)
            contents.withLock { $0.append(content) }
            events.withLock { $0.append(RecordedEvent(event: event, at: .now)) }
        }
    }

    /// The content of `readPath` as read inside each handler call.
    public var contentsAtEvents: [String?] { contents.withLock { $0 } }

    public var siblingHandler: @Sendable (String) -> Void {
        { [self] name in siblingNames.withLock { $0.append(name) } }
    }

    public var recorded: [RecordedEvent] { events.withLock { $0 } }
    public var kinds: [FileWatchEvent] { recorded.map(\.event) }
    public var siblings: [String] { siblingNames.withLock { $0 } }

    /// Waits (sleeping in 10 ms steps) until at least `count` events arrived or `timeout` passed.
    @discardableResult
    public func wait(for count: Int, timeout: Duration = .seconds(2)) async -> [RecordedEvent] {
        let deadline = ContinuousClock.now + timeout
        while recorded.count < count && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(10))
        }
        return recorded
    }

    /// Blocking variant for XCTest.
    @discardableResult
    public func waitBlocking(for count: Int, timeout: Duration = .seconds(2)) -> [RecordedEvent] {
        let deadline = ContinuousClock.now + timeout
        while recorded.count < count && ContinuousClock.now < deadline { usleep(10_000) }
        return recorded
    }
}

/// Writes `content` to `path` with the given open flags, in `chunks` writes `pause` apart.
public func writeFile(_ path: String, _ content: String, flags: Int32 = O_WRONLY | O_CREAT | O_TRUNC,
               chunks: Int = 1, pause: Duration = .zero) {
    let fd = open(path, flags | O_CLOEXEC, 0o644)
    precondition(fd >= 0, "open \(path): errno \(errno)")
    let bytes = Array(content.utf8)
    let size = max(1, (bytes.count + chunks - 1) / chunks)
    var offset = 0
    while offset < bytes.count {
        let end = min(offset + size, bytes.count)
        let written = bytes[offset..<end].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        precondition(written == end - offset, "write \(path): errno \(errno)")
        offset = end
        if offset < bytes.count && pause > .zero { sleepFor(pause) }
    }
    close(fd)
}

/// Reads a whole small file as a string.
public func readFile(_ path: String) -> String? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var result: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        result += buffer[0..<count]
    }
    return String(decoding: result, as: UTF8.self)
}

public func sleepFor(_ duration: Duration) {
    let (seconds, attoseconds) = duration.components
    usleep(UInt32(seconds * 1_000_000 + attoseconds / 1_000_000_000_000))
}

/// Runs a program found on PATH, output discarded, and returns its exit status.
@discardableResult
public func spawnWait(_ argv: [String]) -> Int32 { Subprocess.run(argv).status }

/// The number of open descriptors of this process (entries of /proc/self/fd, minus the one
/// `opendir` itself uses).
public func openDescriptorCount() -> Int {
    guard let names = FileSystem().directoryEntries("/proc/self/fd") else { return -1 }
    return names.count - 1
}
