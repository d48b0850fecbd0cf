import Synchronization
import Testing
import TodoTestSupport
@testable import TodoFileSystem

/// `appendDurably` when its write or sync fails while another process appends (docs/files.md,
/// "Appending"): only this process's bytes are removed, the other's line is kept exactly once; a
/// removal that fails too is reported with exactly what is left; the file size limit is checked
/// first; a long append goes through replacement.
@Suite struct AppendRepairTests {
    /// Live calls in which the `failing` call of `kind` (1-based) first lets another process append
    /// `other` to `path`, then fails with `errno`; `write` also writes at most `chunk` bytes a call,
    /// so a failed write has already written part of the bytes.
    func faulty(_ kind: SyscallKind, occurrence failing: Int, _ errno: Errno, path: String, other: String,
                chunk: Int = 3) -> Syscalls {
        let counter = AppendCallCounter()
        let strikes: @Sendable () -> Bool = { counter.next() == failing }
        var calls = Syscalls.live
        let liveWrite = Syscalls.live.write, liveFsync = Syscalls.live.fsync
        calls.write = { fd, buffer in
            if kind == .write && strikes() {
                Posix.append(path, other)
                return .failure(errno)
            }
            return liveWrite(fd, UnsafeRawBufferPointer(rebasing: buffer.prefix(chunk)))
        }
        calls.fsync = { fd in
            if kind == .fsync && strikes() {
                Posix.append(path, other)
                return .failure(errno)
            }
            return liveFsync(fd)
        }
        return calls
    }

    @Test(arguments: [(SyscallKind.write, Errno.noSpace), (.write, .ioError), (.fsync, .ioError), (.fsync, .noSpace)])
    func aFailedAppendRemovesOnlyItsOwnBytes(kind: SyscallKind, errno: Errno) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        let fs = FileSystem(syscalls: faulty(kind, occurrence: kind == .write ? 2 : 1, errno, path: path, other: "echoed\n"))
        let error = outcome { () throws(FileSystemError) in try fs.appendDurably(path, Array("new task uid:abc123\n".utf8)) }.failure
        #expect(error == .failed(.append, path: path, errno))
        // The concurrent `>>` line is there exactly once; the failed task's bytes are gone.
        #expect(Posix.text(path) == "a\nechoed\n")
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func aRemovalThatFailsTooSaysWhatIsLeft() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        // A full disk: the write stops after 3 bytes, and no temporary file can be made either.
        var calls = faulty(.write, occurrence: 2, .noSpace, path: path, other: "echoed\n")
        calls.createExclusive = { _, _ in .failure(.noSpace) }
        let error = outcome { () throws(FileSystemError) in
            try FileSystem(syscalls: calls).appendDurably(path, Array("new task\n".utf8))
        }.failure
        let repair = FileSystemError.failed(.createTemporaryFile, path: path, .noSpace).description
        #expect(error == .appendLeftBytes(path: path, .noSpace, byteCount: 3, offset: 2, repair: repair))
        #expect(error?.description == "cannot append to \(path): No space left on device; the first 3 bytes of the new text are left in the file from byte 2 (removing them failed: \(repair))")
        #expect(Posix.text(path) == "a\nnewechoed\n")
    }

    @Test func bytesNoLongerWhereWrittenAreNotCut() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        // Between the failed sync and the repair, an editor rewrites the file in place.
        var calls = faulty(.fsync, occurrence: 1, .ioError, path: path, other: "")
        let liveFsync = calls.fsync
        calls.fsync = { fd in
            let result = liveFsync(fd)
            if case .failure = result { Posix.overwriteInPlace(path, "edited by hand, longer\n") }
            return result
        }
        let error = outcome { () throws(FileSystemError) in
            try FileSystem(syscalls: calls).appendDurably(path, Array("new\n".utf8))
        }.failure
        #expect(error == .appendLeftBytes(path: path, .ioError, byteCount: 4, offset: 2,
                                          repair: "the file no longer holds them there"))
        #expect(Posix.text(path) == "edited by hand, longer\n")
    }

    @Test func anAppendBeyondTheFileSizeLimitWritesNothing() {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        var calls = Syscalls.live
        calls.fileSizeLimit = { 10 }
        let fs = FileSystem(syscalls: calls)
        let error = outcome { () throws(FileSystemError) in try fs.appendDurably(path, Array("too long!\n".utf8)) }.failure
        #expect(error == .beyondFileSizeLimit(path: path, size: 12, limit: 10))
        #expect(error?.description == "cannot append to \(path): it would grow to 12 bytes, beyond the file size limit of 10 bytes (ulimit -f); nothing was written")
        #expect(Posix.text(path) == "a\n")
        #expect(throws: Never.self) { try fs.appendDurably(path, Array("fits\n".utf8)) }
        #expect(Posix.text(path) == "a\nfits\n")
    }

    @Test func pageRule() {
        #expect(FileSystem.staysWithinOnePage(size: 0, count: 4096))
        #expect(!FileSystem.staysWithinOnePage(size: 0, count: 4097))
        #expect(FileSystem.staysWithinOnePage(size: 4000, count: 96))
        #expect(!FileSystem.staysWithinOnePage(size: 4000, count: 97))
        #expect(FileSystem.staysWithinOnePage(size: 4096, count: 1))
        #expect(FileSystem.staysWithinOnePage(size: 12345, count: 0))
    }

    @Test func anAppendCrossingAPageGoesThroughReplacementAndKeepsALateAppend() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        let old = String(repeating: "x", count: 4090) + "\n"
        Posix.write(path, old)
        // Someone appends while the new file is being swapped in.
        let injector = FaultInjector([Fault(.renameExchange, occurrence: 1, .before({ Posix.append(path, "late\n") }))])
        let result = try FileSystem(syscalls: injector.syscalls()).appendDurably(path, Array("a task crossing\n".utf8))
        #expect(result.appended == Array("a task crossing\n".utf8))
        #expect(Posix.text(path) == old + "a task crossing\nlate\n")
        #expect(injector.calls.contains(.createExclusive))
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func anAppendWithinAPageIsOneWriteInPlace() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        let injector = FaultInjector()
        try FileSystem(syscalls: injector.syscalls()).appendDurably(path, Array("b\n".utf8))
        #expect(Posix.text(path) == "a\nb\n")
        #expect(!injector.calls.contains(.createExclusive))
        #expect(injector.calls.filter { $0 == .write } == [.write])
    }
}

/// Counts calls across the `@Sendable` closures of one `Syscalls` value.
final class AppendCallCounter: Sendable {
    private let count = Mutex(0)

    /// The number of this call, counting from 1.
    func next() -> Int {
        count.withLock { value in
            value += 1
            return value
        }
    }

    /// Calls counted so far.
    var current: Int { count.withLock { $0 } }
}
