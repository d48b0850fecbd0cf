#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Testing
import TodoTestSupport
@testable import TodoFileSystem

/// The polling interval used by the polling variants: short, so the tests stay fast.
private let fastPoll = FileWatcherBackend.polling(interval: .milliseconds(50))

/// Which mechanism `.automatic` must pick on this platform.
private var nativeMechanism: FileWatcherMechanism {
    #if os(Linux)
    .inotify
    #else
    .kqueue
    #endif
}

/// Starts a watcher on `dir/todo.txt` holding `initial`, runs `body`, stops it, removes the directory.
private func withWatchedFile<T>(
    _ initial: String? = "one\ntwo\n", backend: FileWatcherBackend = .automatic,
    settle: Duration = FileWatcher.defaultSettle, readBack: Bool = false, siblings: Bool = false,
    _ body: (_ watcher: FileWatcher, _ path: String, _ log: WatchEventLog, _ dir: TemporaryDirectory) async throws -> T
) async throws -> T {
    let dir = TemporaryDirectory("watch")
    let path = dir.file("todo.txt")
    if let initial { writeFile(path, initial) }
    let log = WatchEventLog(reading: readBack ? path : nil)
    let watcher = FileWatcher(path: path, backend: backend, settle: settle)
    try watcher.start(onSibling: siblings ? log.siblingHandler : nil, handler: log.handler)
    defer { watcher.stop() }
    return try await body(watcher, path, log, dir)
}

/// Saves once with `pattern` and checks: one `.changed`, within 1 s of the save's end, not before it,
/// with the complete new content visible to the handler, and nothing else for 400 ms after.
private func checkSingleSave(_ pattern: SavePattern, backend: FileWatcherBackend,
                             mechanism: FileWatcherMechanism) async throws {
    let initial = "one\ntwo\n"
    let content = "one\ntwo\nthree\n"
    try await withWatchedFile(initial, backend: backend, readBack: true) { watcher, path, log, _ in
        #expect(watcher.status?.mechanism == mechanism)
        let started = ContinuousClock.now
        pattern.save(path, content)
        let saved = ContinuousClock.now
        let events = await log.wait(for: 1)
        try #require(events.count >= 1, "no event within 2 s for \(pattern)")
        #expect(events[0].event == .changed)
        #expect(events[0].at - saved < .seconds(1), "took \(events[0].at - saved)")
        #expect(events[0].at > started)
        #expect(log.contentsAtEvents.first == pattern.expected(initial: initial, content: content))
        try await Task.sleep(for: .milliseconds(400))
        #expect(log.kinds == [.changed], "one burst must give exactly one event")
    }
}

@Suite("Watching: save patterns")
struct WatchingSavePatternTests {
    @Test("inotify: each save pattern gives exactly one .changed with the full content", arguments: SavePattern.allCases)
    func nativeSave(_ pattern: SavePattern) async throws {
        try await checkSingleSave(pattern, backend: .automatic, mechanism: nativeMechanism)
    }

    @Test("polling: each save pattern gives exactly one .changed with the full content", arguments: SavePattern.allCases)
    func pollingSave(_ pattern: SavePattern) async throws {
        try await checkSingleSave(pattern, backend: fastPoll, mechanism: .polling)
    }

    @Test("two bursts 600 ms apart give two events", arguments: [FileWatcherBackend.automatic, fastPoll])
    func twoBursts(_ backend: FileWatcherBackend) async throws {
        try await withWatchedFile(backend: backend) { _, path, log, _ in
            SavePattern.tempThenRename.save(path, "a\n")
            try await Task.sleep(for: .milliseconds(600))
            SavePattern.inPlaceTruncateWrite.save(path, "b\nb\n")
            await log.wait(for: 2)
            try await Task.sleep(for: .milliseconds(300))
            #expect(log.kinds == [.changed, .changed])
        }
    }

    @Test("saves ~50 ms apart for ~600 ms (longer than settle) give one event, after the last",
          arguments: [FileWatcherBackend.automatic, .polling(interval: .milliseconds(20))])
    func longBurst(_ backend: FileWatcherBackend) async throws {
        try await withWatchedFile(backend: backend, settle: .milliseconds(250), readBack: true) { _, path, log, _ in
            // Blocking sleeps on purpose: the gaps must not depend on when the test task is resumed.
            for round in 1...12 {
                SavePattern.tempThenRename.save(path, String(repeating: "line\n", count: round))
                sleepFor(.milliseconds(30))
            }
            let last = ContinuousClock.now
            await log.wait(for: 1)
            try await Task.sleep(for: .milliseconds(500))
            #expect(log.kinds == [.changed])
            #expect(log.recorded.first.map { $0.at > last } == true, "fired before the burst ended")
            #expect(log.contentsAtEvents == [String(repeating: "line\n", count: 12)])
        }
    }

    @Test("inotify: a slow writer (pauses longer than settle) is reported once, after it closes",
          arguments: ["recreate", "in place"])
    func slowWriter(_ how: String) async throws {
        try await withWatchedFile(readBack: true) { _, path, log, _ in
            if how == "recreate" { #expect(unlink(path) == 0) }
            let flags = how == "recreate" ? O_WRONLY | O_CREAT | O_EXCL : O_WRONLY | O_TRUNC
            writeFile(path, "one\ntwo\nthree\n", flags: flags, chunks: 3, pause: .milliseconds(250))
            await log.wait(for: 1)
            try await Task.sleep(for: .milliseconds(300))
            #expect(log.kinds == [.changed])
            #expect(log.contentsAtEvents == ["one\ntwo\nthree\n"])
        }
    }

    @Test("inotify: a creation never closed for writing (a hard link) is reported after the create timeout")
    func hardLinkIn() async throws {
        try await withWatchedFile(nil, settle: .milliseconds(100), readBack: true) { _, path, log, dir in
            let other = dir.file("elsewhere.txt")
            writeFile(other, "linked\n")
            #expect(link(other, path) == 0)
            let linked = ContinuousClock.now
            let events = await log.wait(for: 1, timeout: .seconds(4))
            #expect(events.map(\.event) == [.changed])
            #expect(log.contentsAtEvents == ["linked\n"])
            if let first = events.first { #expect(first.at - linked >= .seconds(2), "reported before the timeout") }
        }
    }

    @Test("handlers run on the given queue")
    func handlerQueue() async throws {
        let dir = TemporaryDirectory("watch")
        let key = DispatchSpecificKey<Int>()
        let queue = DispatchQueue(label: "test.watch.handlers")
        queue.setSpecific(key: key, value: 42)
        let seen = WatchEventLog()
        let record = seen.handler
        let watcher = FileWatcher(path: dir.file("todo.txt"), queue: queue)
        try watcher.start { event in
            record(DispatchQueue.getSpecific(key: key) == 42 ? event : .error("wrong queue"))
        }
        defer { watcher.stop() }
        writeFile(dir.file("todo.txt"), "a\n")
        await seen.wait(for: 1)
        #expect(seen.kinds == [.changed])
    }

    @Test("a symlinked file: the target's directory is watched", arguments: ["absolute", "relative"])
    func symlinkedFile(_ kind: String) async throws {
        let real = TemporaryDirectory("watch-real")
        let links = TemporaryDirectory("watch-links")
        let target = real.file("todo.txt")
        writeFile(target, "one\n")
        let link = links.file("todo.txt")
        let linkText = kind == "absolute" ? target : "../" + String(real.path.split(separator: "/").last!) + "/todo.txt"
        try #require(symlink(linkText, link) == 0)
        let log = WatchEventLog(reading: link)
        let watcher = FileWatcher(path: link)
        try watcher.start(handler: log.handler)
        defer { watcher.stop() }
        let status = try #require(watcher.status)
        #expect(status.directory == real.path)
        #expect(status.name == "todo.txt")
        SavePattern.tempThenRename.save(target, "two\n")
        let events = await log.wait(for: 1)
        #expect(events.map(\.event) == [.changed])
        #expect(log.contentsAtEvents == ["two\n"])
        #expect(readFile(link) == "two\n")
    }

    @Test("metadata-only changes (chmod) are not reported")
    func chmodIsQuiet() async throws {
        try await withWatchedFile { _, path, log, _ in
            #expect(chmod(path, 0o600) == 0)
            try await Task.sleep(for: .milliseconds(500))
            #expect(log.kinds == [])
            SavePattern.appendOnly.save(path, "x\n")
            await log.wait(for: 1)
            #expect(log.kinds == [.changed])
        }
    }
}

@Suite("Watching: removal, directories, errors")
struct WatchingLifecycleTests {
    @Test("removed for 2 s, then restored: .removed then .changed", arguments: [FileWatcherBackend.automatic, fastPoll])
    func removeThenRestore(_ backend: FileWatcherBackend) async throws {
        try await withWatchedFile(backend: backend) { watcher, path, log, _ in
            #expect(unlink(path) == 0)
            let removed = ContinuousClock.now
            try await Task.sleep(for: .seconds(2))
            let first = log.recorded
            try #require(first.count == 1, "expected one .removed, got \(first.map(\.event))")
            #expect(first[0].event == .removed)
            #expect(first[0].at - removed < .seconds(1))
            #expect(watcher.isRunning)
            writeFile(path, "back\n")
            await log.wait(for: 2)
            try await Task.sleep(for: .milliseconds(300))
            #expect(log.kinds == [.removed, .changed])
        }
    }

    @Test("a file that does not exist yet is reported when it appears")
    func appearsLater() async throws {
        try await withWatchedFile(nil) { _, path, log, _ in
            writeFile(path, "new\n")
            await log.wait(for: 1)
            try await Task.sleep(for: .milliseconds(300))
            #expect(log.kinds == [.changed])
        }
    }

    @Test("the directory removed: .directoryGone, and the watcher stops", arguments: [FileWatcherBackend.automatic, fastPoll])
    func directoryRemoved(_ backend: FileWatcherBackend) async throws {
        try await withWatchedFile(backend: backend) { watcher, _, log, dir in
            #expect(spawnWait(["rm", "-rf", dir.path]) == 0)
            await log.wait(for: 1)
            try await Task.sleep(for: .milliseconds(300))
            #expect(log.kinds == [.directoryGone])
            #expect(!watcher.isRunning)
            #expect(watcher.status == nil)
        }
    }

    @Test("the directory renamed: .directoryGone", arguments: [FileWatcherBackend.automatic, fastPoll])
    func directoryRenamed(_ backend: FileWatcherBackend) async throws {
        try await withWatchedFile(backend: backend) { watcher, _, log, dir in
            let moved = dir.path + "-moved"
            #expect(rename(dir.path, moved) == 0)
            defer { _ = spawnWait(["rm", "-rf", moved]) }
            await log.wait(for: 1)
            #expect(log.kinds == [.directoryGone])
            #expect(!watcher.isRunning)
        }
    }

    @Test("the path becomes a directory: .error naming it", arguments: [FileWatcherBackend.automatic, fastPoll])
    func becomesDirectory(_ backend: FileWatcherBackend) async throws {
        try await withWatchedFile(backend: backend) { watcher, path, log, _ in
            #expect(unlink(path) == 0)
            #expect(mkdir(path, 0o755) == 0)
            await log.wait(for: 1)
            try await Task.sleep(for: .milliseconds(300))
            let kinds = log.kinds
            // Polling may catch the removal first; the end state must be the error.
            guard case .error(let message)? = kinds.last else {
                Issue.record("expected .error last, got \(kinds)")
                return
            }
            #expect(message.contains(path) && message.contains("directory"), "\(message)")
            #expect(!watcher.isRunning)
        }
    }

    @Test("start fails clearly on a missing directory, a directory path, an empty path, a second start")
    func startErrors() throws {
        let dir = TemporaryDirectory("watch")
        let missing = FileWatcher(path: dir.file("nope/todo.txt"))
        #expect(throws: FileWatcherError.self) { try missing.start { _ in } }
        #expect(!missing.isRunning)
        do {
            try FileWatcher(path: dir.path).start { _ in }
            Issue.record("watching a directory must fail")
        } catch {
            #expect(error.message.contains("is a directory"), "\(error)")
        }
        #expect(throws: FileWatcherError.self) { try FileWatcher(path: "").start { _ in } }
        let twice = FileWatcher(path: dir.file("todo.txt"))
        try twice.start { _ in }
        defer { twice.stop() }
        #expect(throws: FileWatcherError.self) { try twice.start { _ in } }
        #expect(twice.isRunning)
    }

    @Test("stop() from inside the handler, stop() twice, restart after stop")
    func stopFromHandler() async throws {
        let dir = TemporaryDirectory("watch")
        let path = dir.file("todo.txt")
        writeFile(path, "a\n")
        let log = WatchEventLog()
        let watcher = FileWatcher(path: path, settle: .milliseconds(50))
        let record = log.handler
        try watcher.start { event in
            record(event)
            watcher.stop()
        }
        SavePattern.appendOnly.save(path, "b\n")
        await log.wait(for: 1)
        #expect(log.kinds == [.changed])
        #expect(!watcher.isRunning)
        watcher.stop()
        SavePattern.appendOnly.save(path, "c\n")
        try await Task.sleep(for: .milliseconds(300))
        #expect(log.kinds == [.changed], "no event after stop")
        try watcher.start(handler: log.handler)
        SavePattern.appendOnly.save(path, "d\n")
        await log.wait(for: 2)
        watcher.stop()
        #expect(log.kinds == [.changed, .changed])
    }
}

@Suite("Watching: sibling names")
struct WatchingSiblingTests {
    @Test("inotify: complete new names are reported, temporaries renamed away are not")
    func siblingsInotify() async throws {
        try await withWatchedFile(siblings: true) { _, path, log, dir in
            SavePattern.sedInPlace.save(path, "")
            SavePattern.tempThenRename.save(path, "x\n")
            let conflictTemp = dir.file(".syncthing.todo.tmp")
            writeFile(conflictTemp, "theirs\n")
            #expect(rename(conflictTemp, dir.file("todo.sync-conflict-20260101-000000-ABC.txt")) == 0)
            writeFile(dir.file("notes.txt"), "n\n", chunks: 2, pause: .milliseconds(20))
            #expect(mkdir(dir.file("subdir"), 0o755) == 0)
            try await Task.sleep(for: .milliseconds(600))
            #expect(Set(log.siblings) == ["todo.sync-conflict-20260101-000000-ABC.txt", "notes.txt"])
            #expect(log.siblings.count == 2)
        }
    }

    @Test("polling: a name renamed in is reported")
    func siblingsPolling() async throws {
        try await withWatchedFile(backend: fastPoll, siblings: true) { _, _, log, dir in
            let temp = dir.file(".tmp-conflict")
            writeFile(temp, "theirs\n")
            #expect(rename(temp, dir.file("todo.sync-conflict.txt")) == 0)
            try await Task.sleep(for: .milliseconds(600))
            #expect(log.siblings == ["todo.sync-conflict.txt"])
            #expect(log.kinds == [])
        }
    }

    @Test("without a sibling handler nothing is tracked and the main handler is not called")
    func noSiblingHandler() async throws {
        try await withWatchedFile { _, _, log, dir in
            writeFile(dir.file("other.txt"), "o\n")
            try await Task.sleep(for: .milliseconds(400))
            #expect(log.kinds == [])
            #expect(log.siblings == [])
        }
    }
}

/// A native backend that cannot be set up, like inotify past `max_user_instances`.
private final class UnavailableBackend: WatchBackend, @unchecked Sendable {
    let mechanism = FileWatcherMechanism.inotify
    func start() throws(FileWatcherError) { throw FileWatcherError("inotify_init1: Too many open files") }
    func stop() {}
}

@Suite("Watching: fallback and overflow")
struct WatchingFallbackTests {
    @Test(".automatic falls back to polling when the native backend fails, and says why")
    func fallback() async throws {
        let dir = TemporaryDirectory("watch")
        let path = dir.file("todo.txt")
        writeFile(path, "a\n")
        let log = WatchEventLog()
        let watcher = FileWatcher(path: path, backend: .automatic, settle: .milliseconds(50), queue: nil,
                                  nativeBackend: { _ in UnavailableBackend() })
        try watcher.start(handler: log.handler)
        defer { watcher.stop() }
        let status = try #require(watcher.status)
        #expect(status.mechanism == .polling)
        #expect(status.fallbackReason == "inotify_init1: Too many open files")
        SavePattern.tempThenRename.save(path, "b\nb\n")
        // The fallback polls every second.
        let events = await log.wait(for: 1, timeout: .seconds(3))
        #expect(events.map(\.event) == [.changed])
    }

    #if os(Linux)
    @Test("inotify: a queue overflow is treated as a change")
    func overflow() async throws {
        let dir = TemporaryDirectory("watch")
        let path = dir.file("todo.txt")
        writeFile(path, "a\n")
        let limit = Int(readFile("/proc/sys/fs/inotify/max_queued_events")?.split(separator: "\n").first ?? "") ?? 16384
        try #require(limit <= 100_000, "max_queued_events \(limit) is too large to overflow quickly")
        let delivery = DispatchQueue(label: "test.watch.overflow")
        let log = WatchEventLog()
        let watcher = FileWatcher(path: path, settle: .milliseconds(50), queue: delivery)
        try watcher.start(handler: log.handler)
        defer { watcher.stop() }
        // Hold the watcher's queue so the kernel queue fills: each file gives CREATE + CLOSE_WRITE
        // (siblings, not our file, so without the overflow nothing would be reported).
        delivery.suspend()
        for index in 0..<(limit / 2 + 100) { writeFile(dir.file("f\(index)"), "") }
        delivery.resume()
        let events = await log.wait(for: 1)
        #expect(events.map(\.event) == [.changed])
    }
    #endif
}
