#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import TodoFileSystem
import TodoTestSupport

private let fastPoll = FileWatcherBackend.polling(interval: .milliseconds(50))

/// The watcher follows its path (docs/notes/watch.md, "Following the path"): a folder above moved is
/// `.directoryGone`, a re-pointed symlink is `.relocated` and then watched at its new target.
@Suite("Watching: following the path")
struct FileWatcherRouteTests {
    @Test("a folder above the file renamed: .directoryGone, and the watcher stops", arguments: [FileWatcherBackend.automatic, fastPoll])
    func folderAboveRenamed(_ backend: FileWatcherBackend) async throws {
        let dir = TemporaryDirectory("watch-route")
        #expect(mkdir(dir.file("Sync"), 0o755) == 0 && mkdir(dir.file("Sync/todo"), 0o755) == 0)
        let path = dir.file("Sync/todo/todo.txt")
        writeFile(path, "one\n")
        let log = WatchEventLog()
        let watcher = FileWatcher(path: path, backend: backend, settle: .milliseconds(30))
        try watcher.start(handler: log.handler)
        defer { watcher.stop() }
        #expect(rename(dir.file("Sync"), dir.file("Sync.old")) == 0)
        await log.wait(for: 1)
        try await Task.sleep(for: .milliseconds(200))
        #expect(log.kinds == [.directoryGone])
        #expect(!watcher.isRunning)
    }

    @Test("a re-pointed symlink: .relocated, .changed, then the new target's writes", arguments: [FileWatcherBackend.automatic, fastPoll])
    func symlinkRepointed(_ backend: FileWatcherBackend) async throws {
        let dir = TemporaryDirectory("watch-route-link")
        #expect(mkdir(dir.file("a"), 0o755) == 0 && mkdir(dir.file("b"), 0o755) == 0)
        writeFile(dir.file("a/real.txt"), "a\n")
        writeFile(dir.file("b/real.txt"), "b\n")
        let path = dir.file("todo.txt")
        #expect(symlink("a/real.txt", path) == 0)
        let log = WatchEventLog()
        let watcher = FileWatcher(path: path, backend: backend, settle: .milliseconds(30))
        try watcher.start(handler: log.handler)
        defer { watcher.stop() }
        #expect(watcher.status?.directory.hasSuffix("/a") == true)

        #expect(symlink("b/real.txt", dir.file(".todo.new")) == 0 && rename(dir.file(".todo.new"), path) == 0)
        await log.wait(for: 2)
        #expect(log.kinds == [.relocated, .changed])
        #expect(watcher.status?.directory.hasSuffix("/b") == true)
        writeFile(dir.file("b/real.txt"), "b\nmore\n")
        await log.wait(for: 3)
        try await Task.sleep(for: .milliseconds(200))
        #expect(log.kinds == [.relocated, .changed, .changed])
    }
}
