#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
@testable import TodoFileSystem

@Suite struct FileLockTests {
    @Test func secondLockTimesOutThenSucceedsAfterRelease() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        let first = try FileLock(for: path)
        #expect(first.target == .sidecar(dir.file(".todo.txt.lock")))

        let clock = ContinuousClock()
        let start = clock.now
        let second = outcome { () throws(FileSystemError) in _ = try FileLock(for: path, timeout: .milliseconds(150)) }
        let elapsed = start.duration(to: clock.now)

        guard case .failure(let error) = second, case .locked(let lockedPath, let waited) = error else {
            Issue.record("expected a lock timeout")
            return
        }
        #expect(lockedPath == path)
        #expect(waited >= .milliseconds(150))
        #expect(elapsed >= .milliseconds(150))
        #expect(elapsed < .seconds(2))
        #expect(error.description.hasPrefix("\(path) is locked by another todo process (waited 1"))
        #expect(error.description.hasSuffix(" ms)"))

        first.release()
        let third = try FileLock(for: path, timeout: .zero)
        #expect(third.target == .sidecar(dir.file(".todo.txt.lock")))
        #expect(Posix.text(path) == "a\n", "the data file is never touched")
    }

    @Test func lockIsReleasedWhenTheValueGoesAway() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        do { _ = try FileLock(for: path) }
        _ = try FileLock(for: path, timeout: .zero)
    }

    @Test func waiterGetsTheLockWhenTheHolderReleasesIt() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        // Another process holds the lock for ~100 ms; flock is per open file description, so a raw
        // descriptor in this process stands in for it.
        let fd = open(dir.file(".todo.txt.lock"), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        #expect(flock(fd, LOCK_EX) == 0)
        let releaser = Thread { usleep(100_000); close(fd) }
        releaser.start()
        let lock = try FileLock(for: path, timeout: .seconds(5))
        #expect(lock.target == .sidecar(dir.file(".todo.txt.lock")))
        releaser.join()
    }

    @Test func symlinkedFilesShareOneLock() throws {
        let dir = TemporaryDirectory()
        mkdir(dir.file("sync"), 0o755)
        Posix.write(dir.file("sync/todo.txt"), "a\n")
        symlink("sync/todo.txt", dir.file("todo.txt"))
        let viaLink = try FileLock(for: dir.file("todo.txt"))
        #expect(viaLink.target == .sidecar(dir.file("sync/.todo.txt.lock")))
        let direct = outcome { () throws(FileSystemError) in _ = try FileLock(for: dir.file("sync/todo.txt"), timeout: .zero) }
        #expect(direct.failure != nil)
    }

    @Test func readOnlyDirectoryFallsBackToLockingTheDirectory() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        let injector = FaultInjector([Fault(.open, occurrence: nil, .fail(.readOnlyFileSystem))])
        var syscalls = injector.syscalls()
        // Only the lock file is unavailable; the directory can still be opened.
        let live = Syscalls.live
        let failing = syscalls.open
        syscalls.open = { path, flags, mode in path.hasSuffix(".lock") ? failing(path, flags, mode) : live.open(path, flags, mode) }
        let fs = FileSystem(syscalls: syscalls)
        let first = try FileLock(for: path, fileSystem: fs)
        #expect(first.target == .directory(dir.path))
        let second = outcome { () throws(FileSystemError) in _ = try FileLock(for: path, timeout: .zero, fileSystem: fs) }
        guard case .locked(let lockedPath, _)? = second.failure else {
            Issue.record("expected a lock timeout, got \(second)")
            return
        }
        #expect(lockedPath == path)
        #expect(dir.entries() == ["todo.txt"])
    }
}

/// A minimal thread for the one test that needs a second actor on a blocking lock.
final class Thread: @unchecked Sendable {
    private let body: @Sendable () -> Void
    private var handle = pthread_t()

    init(_ body: @escaping @Sendable () -> Void) { self.body = body }

    func start() {
        let box = Unmanaged.passRetained(self).toOpaque()
        pthread_create(&handle, nil, { raw in
            let thread = Unmanaged<Thread>.fromOpaque(raw!).takeRetainedValue()
            thread.body()
            return nil
        }, box)
    }

    func join() { pthread_join(handle, nil) }
}
