#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
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
        #expect(error?.description == "\(dir.file("todo.txt")) is a directory")
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
