#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TodoTestSupport
@testable import TodoFileSystem

/// The writers' lock: a write lock on the real file itself, which only a process that can write the
/// file can take (issue 24), nothing created (issue 12); `flock` on the directory while the file does
/// not exist or cannot be opened for writing; the sidecar `.NAME.lock` only where a directory cannot
/// be locked either; earlier versions' sidecars removed once no older process holds them.
@Suite struct FileLockTests {
    @Test func secondLockTimesOutThenSucceedsAfterRelease() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        let first = try FileLock(for: path)
        #expect(first.target == .file(path))

        let clock = ContinuousClock()
        let start = clock.now
        let second = outcome { () throws(FileSystemError) in _ = try FileLock(for: path, timeout: .milliseconds(150)) }
        let elapsed = start.duration(to: clock.now)

        guard case .failure(let error) = second, case .locked(let lockedPath, let waited, let holder) = error else {
            Issue.record("expected a lock timeout")
            return
        }
        #expect(lockedPath == path)
        #expect(holder == .writer)
        #expect(waited >= .milliseconds(150))
        #expect(elapsed >= .milliseconds(150))
        #expect(elapsed < .seconds(2))
        #expect(error.description.hasPrefix("\(path) is locked by another process that can write it (waited 1"))
        #expect(error.description.hasSuffix(" ms)"))

        first.release()
        let third = try FileLock(for: path, timeout: .zero)
        #expect(third.target == .file(path))
        #expect(Posix.text(path) == "a\n", "the data file is never touched")
        #expect(dir.entries() == ["todo.txt"], "nothing is created beside the file")
    }

    @Test func locksInDifferentDirectoriesAreIndependent() throws {
        let dir = TemporaryDirectory()
        mkdir(dir.file("a"), 0o755)
        mkdir(dir.file("b"), 0o755)
        let first = try FileLock(for: dir.file("a/todo.txt"))
        let second = try FileLock(for: dir.file("b/todo.txt"), timeout: .zero)
        #expect(first.target == .directory(dir.file("a")))
        #expect(second.target == .directory(dir.file("b")))
    }

    @Test func lockIsReleasedWhenTheValueGoesAway() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        do { _ = try FileLock(for: path) }
        _ = try FileLock(for: path, timeout: .zero)
        #expect(dir.entries() == [])
    }

    @Test func waiterGetsTheLockWhenTheHolderReleasesIt() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        // Another process holds the directory's lock for ~100 ms; flock is per open file description,
        // so a raw descriptor in this process stands in for it.
        let fd = try #require(Self.lockDirectory(dir.path))
        let releaser = Thread { usleep(100_000); close(fd) }
        releaser.start()
        let clock = ContinuousClock()
        let start = clock.now
        let lock = try FileLock(for: path, timeout: .seconds(5))
        #expect(start.duration(to: clock.now) >= .milliseconds(90))
        #expect(lock.target == .directory(dir.path))
        releaser.join()
    }

    @Test func symlinkedFileLocksTheTarget() throws {
        let dir = TemporaryDirectory()
        mkdir(dir.file("sync"), 0o755)
        Posix.write(dir.file("sync/todo.txt"), "a\n")
        symlink("sync/todo.txt", dir.file("todo.txt"))
        let viaLink = try FileLock(for: dir.file("todo.txt"))
        #expect(viaLink.target == .file(dir.file("sync/todo.txt")))
        let direct = outcome { () throws(FileSystemError) in _ = try FileLock(for: dir.file("sync/todo.txt"), timeout: .zero) }
        #expect(direct.failure != nil)
        // Neither directory is what is locked.
        let linkDirectory = try #require(Self.lockDirectory(dir.path, blocking: false))
        close(linkDirectory)
        let targetDirectory = try #require(Self.lockDirectory(dir.file("sync"), blocking: false))
        close(targetDirectory)
        #expect(dir.entries() == ["sync", "todo.txt"])
        #expect(dir.entries("sync") == ["todo.txt"])
    }

    /// On a read-only file system the file cannot be opened for writing, so the directory is locked,
    /// which needs read access only: nothing is created.
    @Test func readOnlyDirectoryIsLockedWithoutCreatingAnything() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        chmod(dir.path, 0o555)
        let opened = Recorder<OpenFlags>()
        var syscalls = Syscalls.live
        // A read-only file system: anything that would create or write fails as it would there.
        syscalls.open = { path, flags, mode in
            opened.append(flags)
            if flags.contains(.create) || flags.contains(.readWrite) || flags.contains(.writeOnly) {
                return .failure(.readOnlyFileSystem)
            }
            return Syscalls.live.open(path, flags, mode)
        }
        syscalls.createExclusive = { _, _ in .failure(.readOnlyFileSystem) }
        let fs = FileSystem(syscalls: syscalls)
        let first = try FileLock(for: path, fileSystem: fs)
        #expect(first.target == .directory(dir.path))
        let second = outcome { () throws(FileSystemError) in _ = try FileLock(for: path, timeout: .zero, fileSystem: fs) }
        guard case .locked(let lockedPath, _, _)? = second.failure else {
            Issue.record("expected a lock timeout, got \(second)")
            return
        }
        #expect(lockedPath == path)
        #expect(opened.values.allSatisfy { !$0.contains(.create) })
        #expect(dir.entries() == ["todo.txt"])
    }

    // MARK: - the sidecar fallback

    /// File systems that cannot `flock` a directory (NFS without flock emulation answers EBADF for a
    /// read-only descriptor) fall back to the sidecar of earlier versions, which still excludes.
    @Test(arguments: [EBADF, ENOLCK, EOPNOTSUPP, EINVAL])
    func directoryThatCannotBeLockedFallsBackToTheSidecar(_ code: Int32) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        let fs = FileSystem(syscalls: Self.failingDirectoryLocks(with: Errno(rawValue: code)))
        let first = try FileLock(for: path, fileSystem: fs)
        #expect(first.target == .sidecar(dir.file(".todo.txt.lock")))
        #expect(dir.entries() == [".todo.txt.lock", "todo.txt"], "only in the fallback a file is left")
        let second = outcome { () throws(FileSystemError) in _ = try FileLock(for: path, timeout: .zero, fileSystem: fs) }
        guard case .locked(let lockedPath, _, _)? = second.failure else {
            Issue.record("expected a lock timeout, got \(second)")
            return
        }
        #expect(lockedPath == path)
        first.release()
        let third = try FileLock(for: path, timeout: .zero, fileSystem: fs)
        #expect(third.target == .sidecar(dir.file(".todo.txt.lock")))
        #expect(dir.entries() == [".todo.txt.lock", "todo.txt"], "the fallback never removes its own sidecar")
    }

    @Test func fallbackInAReadOnlyDirectoryUsesAnExistingSidecarReadOnly() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        Posix.write(dir.file(".todo.txt.lock"), "")
        var syscalls = Self.failingDirectoryLocks(with: .badFileDescriptor)
        let base = syscalls.open
        syscalls.open = { path, flags, mode in flags.contains(.create) ? .failure(.readOnlyFileSystem) : base(path, flags, mode) }
        let fs = FileSystem(syscalls: syscalls)
        let lock = try FileLock(for: path, fileSystem: fs)
        #expect(lock.target == .sidecar(dir.file(".todo.txt.lock")))
        let noSidecar = TemporaryDirectory()
        let failed = outcome { () throws(FileSystemError) in _ = try FileLock(for: noSidecar.file("todo.txt"), fileSystem: fs) }
        guard case .failed(_, let failedPath, let error)? = failed.failure else {
            Issue.record("expected an open failure, got \(failed)")
            return
        }
        #expect(failedPath == noSidecar.file(".todo.txt.lock"))
        #expect(error == .readOnlyFileSystem)
    }

    @Test func unreadableDirectoryFallsBackToTheSidecar() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        var syscalls = Syscalls.live
        syscalls.open = { path, flags, mode in
            flags.contains(.directory) ? .failure(.permissionDenied) : Syscalls.live.open(path, flags, mode)
        }
        let lock = try FileLock(for: path, fileSystem: FileSystem(syscalls: syscalls))
        #expect(lock.target == .sidecar(dir.file(".todo.txt.lock")))
    }

    @Test func otherDirectoryLockFailuresAreReported() throws {
        let dir = TemporaryDirectory()
        let fs = FileSystem(syscalls: Self.failingDirectoryLocks(with: .ioError))
        let failed = outcome { () throws(FileSystemError) in _ = try FileLock(for: dir.file("todo.txt"), fileSystem: fs) }
        guard case .failed(.lock, let failedPath, let error)? = failed.failure else {
            Issue.record("expected a lock failure, got \(failed)")
            return
        }
        #expect(failedPath == dir.path)
        #expect(error == .ioError)
        #expect(dir.entries() == [])
    }

    // MARK: - migrating earlier versions' sidecars

    @Test func earlierVersionsSidecarIsRemoved() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        Posix.write(dir.file(".todo.txt.lock"), "")
        Posix.write(dir.file(".done.txt.lock"), "")
        let lock = try FileLock(for: path)
        #expect(lock.target == .file(path))
        #expect(dir.entries() == [".done.txt.lock", "todo.txt"], "only the locked file's sidecar goes")
        lock.release()
        _ = try FileLock(for: dir.file("done.txt"))
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func symlinkedFilesSidecarIsRemovedBesideTheTarget() throws {
        let dir = TemporaryDirectory()
        mkdir(dir.file("sync"), 0o755)
        Posix.write(dir.file("sync/todo.txt"), "a\n")
        Posix.write(dir.file("sync/.todo.txt.lock"), "")
        symlink("sync/todo.txt", dir.file("todo.txt"))
        _ = try FileLock(for: dir.file("todo.txt"))
        #expect(dir.entries("sync") == ["todo.txt"])
    }

    /// An older todo process holding its sidecar is waited for, within the same bounded wait, and the
    /// sidecar is removed only once it has let go.
    @Test func earlierVersionsSidecarIsWaitedForWhileHeld() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        let older = open(dir.file(".todo.txt.lock"), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        #expect(older >= 0)
        #expect(flock(older, LOCK_EX) == 0)

        let clock = ContinuousClock()
        let start = clock.now
        let blocked = outcome { () throws(FileSystemError) in _ = try FileLock(for: path, timeout: .milliseconds(150)) }
        let elapsed = start.duration(to: clock.now)
        guard case .locked(let lockedPath, let waited, _)? = blocked.failure else {
            Issue.record("expected a lock timeout, got \(blocked)")
            close(older)
            return
        }
        #expect(lockedPath == path)
        #expect(waited >= .milliseconds(150))
        #expect(elapsed < .seconds(2))
        #expect(dir.entries() == [".todo.txt.lock", "todo.txt"], "a held sidecar stays")
        // The timeout released the file's lock too.
        #expect(!FileLockOnTheFileTests.fileIsWriteLocked(path))

        let releaser = Thread { usleep(100_000); close(older) }
        releaser.start()
        let lock = try FileLock(for: path, timeout: .seconds(5))
        #expect(start.duration(to: clock.now) >= .milliseconds(240))
        #expect(lock.target == .file(path))
        #expect(dir.entries() == ["todo.txt"])
        releaser.join()
    }

    /// The directory and the sidecar share one deadline: the wait is `timeout` in all, not per lock.
    @Test func directoryAndSidecarShareOneTimeout() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        let holder = try #require(Self.lockDirectory(dir.path))
        let older = open(dir.file(".todo.txt.lock"), O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        #expect(flock(older, LOCK_EX) == 0)
        defer { close(older) }
        let releaser = Thread { usleep(200_000); close(holder) }
        releaser.start()
        let clock = ContinuousClock()
        let start = clock.now
        let blocked = outcome { () throws(FileSystemError) in _ = try FileLock(for: path, timeout: .milliseconds(250)) }
        let elapsed = start.duration(to: clock.now)
        releaser.join()
        guard case .locked(_, let waited, _)? = blocked.failure else {
            Issue.record("expected a lock timeout, got \(blocked)")
            return
        }
        #expect(waited >= .milliseconds(250))
        // Separate budgets would wait 200 ms for the directory, then 250 ms more for the sidecar.
        #expect(elapsed < .milliseconds(400), "waited \(elapsed): the sidecar got a budget of its own")
    }

    @Test func sidecarThatCannotBeRemovedIsLeftSilently() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        Posix.write(dir.file(".todo.txt.lock"), "")
        let injector = FaultInjector([Fault(.unlink, occurrence: nil, .fail(.permissionDenied))])
        let fs = FileSystem(syscalls: injector.syscalls())
        let lock = try FileLock(for: path, fileSystem: fs)
        #expect(lock.target == .file(path))
        #expect(injector.calls.contains(.unlink))
        #expect(dir.entries() == [".todo.txt.lock", "todo.txt"])
        // Its lock is kept with the directory's, so an older process using it stays excluded.
        let older = open(dir.file(".todo.txt.lock"), O_RDONLY | O_CLOEXEC)
        defer { close(older) }
        #expect(flock(older, LOCK_EX | LOCK_NB) == -1)
        lock.release()
        #expect(flock(older, LOCK_EX | LOCK_NB) == 0, "released with the main lock")
    }

    @Test func somethingElseNamedLikeASidecarIsLeftAlone() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("notes"), "mine\n")
        symlink("notes", dir.file(".todo.txt.lock"))
        mkdir(dir.file(".done.txt.lock"), 0o755)
        _ = try FileLock(for: dir.file("todo.txt"))
        _ = try FileLock(for: dir.file("done.txt"))
        #expect(dir.entries() == [".done.txt.lock", ".todo.txt.lock", "notes"])
        #expect(Posix.text(dir.file("notes")) == "mine\n")
    }

    // MARK: - helpers

    /// Opens `directory` as another todo process would and `flock`s it; `nil` if that fails (or, when
    /// not `blocking`, if someone else holds it).
    static func lockDirectory(_ directory: String, blocking: Bool = true) -> Int32? {
        let fd = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard flock(fd, blocking ? LOCK_EX : LOCK_EX | LOCK_NB) == 0 else {
            close(fd)
            return nil
        }
        return fd
    }

    /// The live calls, except that `flock` on a directory fails with `error` (a file system without
    /// directory locks), and so does the lock on the file itself; other descriptors lock normally.
    static func failingDirectoryLocks(with error: Errno) -> Syscalls {
        var syscalls = Syscalls.live
        syscalls.writerLock = { _, _ in .failure(error) }
        syscalls.flock = { fd, operation in
            if case .success(let status) = Syscalls.live.fstat(fd), status.kind == .directory { return .failure(error) }
            return Syscalls.live.flock(fd, operation)
        }
        return syscalls
    }
}

/// Values appended from `@Sendable` closures (the seam's), read back by the test.
final class Recorder<Value: Sendable>: @unchecked Sendable {
    private let mutex = PlatformMutex()
    private var stored: [Value] = []

    func append(_ value: Value) { mutex.withLock { stored.append(value) } }
    var values: [Value] { mutex.withLock { stored } }
}

/// A minimal thread for the tests that need a second actor on a blocking lock.
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
