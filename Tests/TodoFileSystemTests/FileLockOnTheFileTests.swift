#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TodoTestSupport
@testable import TodoFileSystem

/// The writers' lock on the file itself (issue 24): only a process that can write the file can take
/// it, what a reader can hold does not block it (a read lock does, and is named), a file renamed over
/// is locked anew, a missing file is locked through its directory until it exists.
@Suite struct FileLockOnTheFileTests {
    /// A file that does not exist yet is locked through its directory, so two writers creating it
    /// still exclude each other.
    @Test func missingFileLocksTheDirectory() throws {
        let dir = TemporaryDirectory()
        let first = try FileLock(for: dir.file("done.txt"))
        #expect(first.target == .directory(dir.path))
        let second = outcome { () throws(FileSystemError) in _ = try FileLock(for: dir.file("done.txt"), timeout: .milliseconds(50)) }
        guard case .locked(let lockedPath, _, let holder)? = second.failure else {
            Issue.record("expected a lock timeout, got \(second)")
            return
        }
        #expect(lockedPath == dir.file("done.txt"))
        #expect(holder == .directory(dir.path))
        #expect(second.failure?.description.contains("any process that can read the directory can take") == true)
        #expect(dir.entries() == [])
    }

    /// A writer that waited for the directory while another created the file locks the file once it
    /// gets the directory: from then on the file's writers lock the file.
    @Test func fileCreatedWhileWaitingForTheDirectoryIsLockedItself() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        let holder = try #require(FileLockTests.lockDirectory(dir.path))
        let creator = Thread { usleep(100_000); Posix.write(path, "a\n"); close(holder) }
        creator.start()
        let lock = try FileLock(for: path, timeout: .seconds(5))
        creator.join()
        #expect(lock.target == .file(path))
        #expect(Self.fileIsWriteLocked(path))
    }

    @Test func waiterGetsTheFileWhenTheWriterReleasesIt() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        let fd = try #require(Self.writeLockFile(path))
        let releaser = Thread { usleep(100_000); close(fd) }
        releaser.start()
        let clock = ContinuousClock()
        let start = clock.now
        let lock = try FileLock(for: path, timeout: .seconds(5))
        #expect(start.duration(to: clock.now) >= .milliseconds(90))
        #expect(lock.target == .file(path))
        releaser.join()
    }

    /// What any reader can hold does not block a writer: `flock` on the directory (issue 24: that
    /// was the lock, so `flock $HOME sleep 8` by any user stopped every writer) or on the file.
    @Test func readersFlocksOnTheDirectoryOrTheFileDoNotBlockTheLock() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        let directory = try #require(FileLockTests.lockDirectory(dir.path))
        defer { close(directory) }
        let file = open(path, O_RDONLY | O_CLOEXEC)
        defer { close(file) }
        #expect(flock(file, LOCK_EX) == 0)
        let lock = try FileLock(for: path, timeout: .zero)
        #expect(lock.target == .file(path))
    }

    /// A read lock (`fcntl`, which a read-only descriptor can take) conflicts with any write lock,
    /// so it does block; the message says it is a read lock, not another writer.
    @Test func readLockOnTheFileBlocksWithATruthfulMessage() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        let reader = open(path, O_RDONLY | O_CLOEXEC)
        defer { close(reader) }
        #expect(Self.openFileDescriptionLock(reader, type: Int16(F_RDLCK)))
        let blocked = outcome { () throws(FileSystemError) in _ = try FileLock(for: path, timeout: .milliseconds(30)) }
        guard case .locked(let lockedPath, _, let holder)? = blocked.failure else {
            Issue.record("expected a lock timeout, got \(blocked)")
            return
        }
        #expect(lockedPath == path)
        #expect(holder == .reader)
        #expect(blocked.failure?.description.hasPrefix("\(path) is read-locked by another process") == true)
    }

    /// A file renamed over while a writer waited: the waiter locks the file the path names now,
    /// not the old inode (a lock on that would protect nothing).
    @Test func fileReplacedWhileWaitingIsLockedAnew() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "old\n")
        let holder = try FileLock(for: path)
        #expect(holder.target == .file(path))
        let replacer = Thread {
            usleep(50_000)
            Posix.write(dir.file("new.tmp"), "new\n")
            rename(dir.file("new.tmp"), path)
        }
        replacer.start()
        let clock = ContinuousClock()
        let start = clock.now
        let waiter = try FileLock(for: path, timeout: .seconds(5))
        replacer.join()
        #expect(start.duration(to: clock.now) >= .milliseconds(40), "the old file's lock was waited for")
        #expect(waiter.target == .file(path))
        #expect(Posix.text(path) == "new\n")
        #expect(Self.fileIsWriteLocked(path), "the new file is the one locked")
        holder.release()
        #expect(Self.fileIsWriteLocked(path))
        waiter.release()
        #expect(!Self.fileIsWriteLocked(path))
    }

    /// A waiter closes the file between its tries, so a holder's replacement (which waits for every
    /// process that has the file open for writing) is not held up by it.
    @Test func waiterDoesNotHoldUpTheHoldersReplacement() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "b\na\n")
        let lock = try FileLock(for: path)
        let waiter = Thread { _ = try? FileLock(for: path, timeout: .milliseconds(800)) }
        waiter.start()
        usleep(50_000)
        let outcome = try FileSystem().replace(path, options: ReplaceOptions(writerWait: .milliseconds(300))) { (_: [UInt8]) throws(FileSystemError) -> [UInt8]? in
            Array("a\nb\n".utf8)
        }
        guard case .written = outcome else {
            Issue.record("expected a write, got \(outcome)")
            return
        }
        lock.release()
        waiter.join()
        #expect(Posix.text(path) == "a\nb\n")
    }

    /// Each file has its own lock now (the directory's was shared by all of its files).
    @Test func locksForTwoFilesOfOneDirectoryAreIndependent() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "a\n")
        Posix.write(dir.file("done.txt"), "x b\n")
        let todo = try FileLock(for: dir.file("todo.txt"))
        let done = try FileLock(for: dir.file("done.txt"), timeout: .zero)
        #expect(todo.target == .file(dir.file("todo.txt")))
        #expect(done.target == .file(dir.file("done.txt")))
        #expect(dir.entries() == ["done.txt", "todo.txt"])
    }

    // MARK: - helpers

    /// Whether another open file description holds a write lock on `path` (or any lock in the way of
    /// one): `F_OFD_GETLK` through the platform seam.
    static func fileIsWriteLocked(_ path: String) -> Bool {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        guard case .success(let holder) = Syscalls.live.writerLock(FileDescriptor(rawValue: fd), .ask) else { return false }
        return holder != nil
    }

    /// Opens `path` for writing and takes the writers' lock on it as another writer would; `nil` if
    /// that fails.
    static func writeLockFile(_ path: String) -> Int32? {
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard case .success = Syscalls.live.writerLock(FileDescriptor(rawValue: fd), .take) else {
            close(fd)
            return nil
        }
        return fd
    }

    /// An open-file-description lock of `type` (`F_RDLCK`, `F_WRLCK`) over the whole file of `fd`:
    /// `F_OFD_SETLK`, 37 on Linux (glibc declares it only under _GNU_SOURCE).
    static func openFileDescriptionLock(_ fd: Int32, type: Int16) -> Bool {
        var request = flock()
        request.l_type = type
        request.l_whence = Int16(SEEK_SET)
        return fcntl(fd, 37, &request) == 0
    }
}
