#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TodoTestSupport
@testable import TodoFileSystem

@Suite struct ReadTests {
    let fs = FileSystem()

    @Test func missingFileIsNotFound() {
        let dir = TemporaryDirectory()
        let error = outcome { () throws(FileSystemError) in try fs.read(dir.file("todo.txt")) }.failure
        #expect(error == .notFound(path: dir.file("todo.txt")))
        #expect(error?.description == "\(dir.file("todo.txt")): no such file")
    }

    @Test func missingDirectoryIsNotFound() {
        let dir = TemporaryDirectory()
        let error = outcome { () throws(FileSystemError) in try fs.read(dir.file("nope/todo.txt")) }.failure
        #expect(error == .notFound(path: dir.file("nope/todo.txt")))
    }

    @Test func directoryIsRejected() {
        let dir = TemporaryDirectory()
        mkdir(dir.file("todo.txt"), 0o755)
        let error = outcome { () throws(FileSystemError) in try fs.read(dir.file("todo.txt")) }.failure
        #expect(error == .isDirectory(path: dir.file("todo.txt")))
        #expect(error?.description == "\(dir.file("todo.txt")): is a directory")
    }

    @Test func fifoIsRejectedWithoutHanging() {
        let dir = TemporaryDirectory()
        mkfifo(dir.file("todo.txt"), 0o644)
        let error = outcome { () throws(FileSystemError) in try fs.read(dir.file("todo.txt")) }.failure
        #expect(error == .notRegularFile(path: dir.file("todo.txt")))
    }

    @Test func emptyPathAndTrailingSlash() {
        let dir = TemporaryDirectory()
        #expect(outcome { () throws(FileSystemError) in try fs.read("") }.failure == .notFound(path: ""))
        let missing = dir.file("todo.txt/")
        #expect(outcome { () throws(FileSystemError) in try fs.read(missing) }.failure == .notFound(path: missing))
        let error = outcome { () throws(FileSystemError) in try fs.read(dir.path + "/") }.failure
        #expect(error == .isDirectory(path: dir.path))
    }

    @Test func emptyFile() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), [])
        let contents = try fs.read(dir.file("todo.txt"))
        #expect(contents.bytes == [])
        #expect(contents.status.identity.size == 0)
    }

    @Test func fileWithoutFinalNewlineIsReadVerbatim() throws {
        let dir = TemporaryDirectory()
        let bytes: [UInt8] = Array("a task\r\nx done\n\u{FEFF}last".utf8) + [0xFF, 0x00]
        Posix.write(dir.file("todo.txt"), bytes)
        #expect(try fs.read(dir.file("todo.txt")).bytes == bytes)
    }

    @Test func tenMegabyteSingleLine() throws {
        let dir = TemporaryDirectory()
        var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: 10 * 1024 * 1024)
        bytes[12345] = UInt8(ascii: "b")
        bytes[bytes.count - 1] = UInt8(ascii: "z")
        Posix.write(dir.file("todo.txt"), bytes)
        let contents = try fs.read(dir.file("todo.txt"))
        #expect(contents.bytes.count == bytes.count)
        #expect(contents.bytes == bytes)
    }

    @Test func identityAndModeMatchStat() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "(A) call mom\n")
        chmod(dir.file("todo.txt"), 0o640)
        let contents = try fs.read(dir.file("todo.txt"))
        let s = try #require(Posix.stat(dir.file("todo.txt")))
        #expect(contents.status.kind == .regular)
        #expect(contents.status.permissions == 0o640)
        #expect(contents.status.identity.inode == UInt64(s.st_ino))
        #expect(contents.status.identity.device == UInt64(s.st_dev))
        #expect(contents.status.identity.size == 13)
        #expect(contents.status.identity.modificationSeconds == Int64(s.st_mtim.tv_sec))
        #expect(contents.status.identity.modificationNanoseconds == Int64(s.st_mtim.tv_nsec))
        #expect(contents.resolvedPath == dir.file("todo.txt"))
    }

    @Test func symlinkIsFollowed() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("real.txt"), "task\n")
        symlink("real.txt", dir.file("todo.txt"))
        let contents = try fs.read(dir.file("todo.txt"))
        #expect(contents.bytes == Array("task\n".utf8))
        #expect(contents.resolvedPath == dir.file("real.txt"))
    }

    @Test func readErrorNamesThePath() {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "task\n")
        let injector = FaultInjector([Fault(.read, occurrence: 1, .fail(.ioError))])
        let faulty = FileSystem(syscalls: injector.syscalls())
        let error = outcome { () throws(FileSystemError) in try faulty.read(dir.file("todo.txt")) }.failure
        #expect(error?.description == "cannot read \(dir.file("todo.txt")): Input/output error")
    }

    @Test func interruptedReadIsRetried() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "task\n")
        let injector = FaultInjector([Fault(.read, occurrence: 1, .fail(.interrupted)), Fault(.open, occurrence: 1, .fail(.interrupted))])
        let faulty = FileSystem(syscalls: injector.syscalls())
        #expect(try faulty.read(dir.file("todo.txt")).bytes == Array("task\n".utf8))
    }
}

/// Files of `FileSystem.parallelReadThreshold` bytes and more are read as two halves on two threads.
@Suite struct ParallelReadTests {
    /// Distinct numbered lines, so a misplaced half shows.
    static func largeFile(extra: Int = 0) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(FileSystem.parallelReadThreshold + extra + 64)
        var line = 0
        while bytes.count < FileSystem.parallelReadThreshold + extra {
            bytes.append(contentsOf: Array("line \(line)\n".utf8))
            line += 1
        }
        return bytes
    }

    @Test(arguments: [0, 1, 65_535, 65_536, 1_000_003])
    func halvesJoinExactly(extra: Int) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        let original = Self.largeFile(extra: extra)
        Posix.write(path, original)
        let contents = try FileSystem().read(path)
        #expect(contents.bytes.count == original.count)
        #expect(contents.bytes == original)
    }

    @Test func growthDuringTheReadIsReadToTheNewEnd() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        let original = Self.largeFile()
        Posix.write(path, original)
        // Before the first pread: after the size was taken, before any byte was read.
        let injector = FaultInjector([Fault(.pread, occurrence: 1, .before({ Posix.append(path, "late\n") }))])
        let contents = try FileSystem(syscalls: injector.syscalls()).read(path)
        #expect(contents.bytes == original + Array("late\n".utf8))
    }

    @Test func shrinkingDuringTheReadKeepsOnlyContiguousBytes() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, Self.largeFile())
        let injector = FaultInjector([Fault(.pread, occurrence: 1, .before({ Posix.overwriteInPlace(path, "short\n") }))])
        let contents = try FileSystem(syscalls: injector.syscalls()).read(path)
        #expect(contents.bytes == Array("short\n".utf8))
    }

    @Test(arguments: [Errno.ioError, Errno.interrupted])
    func aFailedHalfFailsTheReadOrIsRetried(errno: Errno) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        let original = Self.largeFile()
        Posix.write(path, original)
        let injector = FaultInjector([Fault(.pread, occurrence: 2, .fail(errno))])
        let result = outcome { () throws(FileSystemError) in try FileSystem(syscalls: injector.syscalls()).read(path) }
        if errno == .interrupted {
            #expect(result.success?.bytes == original)
        } else {
            #expect(result.failure?.description.contains(errno.message) == true, "\(String(describing: result.failure))")
        }
    }
}
