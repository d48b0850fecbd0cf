#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TodoTestSupport
@testable import TodoFileSystem

@Suite struct AppendTests {
    let fs = FileSystem()

    @Test func addsMissingNewlineBeforeAppending() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("done.txt"), "x 2024-01-01 old")
        let result = try fs.appendDurably(dir.file("done.txt"), Array("x 2024-02-02 new\n".utf8))
        #expect(result == AppendResult(appended: Array("\nx 2024-02-02 new\n".utf8), created: false, directorySyncFailure: nil))
        #expect(Posix.text(dir.file("done.txt")) == "x 2024-01-01 old\nx 2024-02-02 new\n")
    }

    @Test func newlineCanBeLeftOut() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("done.txt"), "abc")
        try fs.appendDurably(dir.file("done.txt"), Array("def\n".utf8), options: AppendOptions(startOnNewLine: false))
        #expect(Posix.text(dir.file("done.txt")) == "abcdef\n")
    }

    @Test func fileEndingWithNewlineGetsNoExtraOne() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("done.txt"), "a\n")
        try fs.appendDurably(dir.file("done.txt"), Array("b\n".utf8))
        #expect(Posix.text(dir.file("done.txt")) == "a\nb\n")
    }

    @Test func createsMissingFileWithDefaultMode() throws {
        let dir = TemporaryDirectory()
        let result = try fs.appendDurably(dir.file("done.txt"), Array("x done\n".utf8))
        #expect(result.created)
        #expect(Posix.text(dir.file("done.txt")) == "x done\n")
        #expect(Posix.mode(dir.file("done.txt")) == Posix.defaultNewFileMode(in: dir.path))
    }

    @Test func missingFileIsAnErrorWhenCreationIsOff() {
        let dir = TemporaryDirectory()
        let error = outcome { () throws(FileSystemError) in
            try fs.appendDurably(dir.file("done.txt"), [65], options: AppendOptions(createIfMissing: false))
        }.failure
        #expect(error == .notFound(path: dir.file("done.txt")))
        #expect(dir.entries() == [])
    }

    @Test func appendsThroughSymlinkAndKeepsIt() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("real.txt"), "a\n")
        symlink("real.txt", dir.file("done.txt"))
        try fs.appendDurably(dir.file("done.txt"), Array("b\n".utf8))
        #expect(Posix.text(dir.file("real.txt")) == "a\nb\n")
        #expect(try #require(Posix.lstat(dir.file("done.txt"))).st_mode & S_IFMT == S_IFLNK)
    }

    @Test(arguments: [SyscallKind.write, .fsync])
    func failureRestoresPreviousSize(kind: SyscallKind) throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("done.txt"), "a\n")
        // The first write succeeds partially (3 bytes), then the disk is full.
        let live = Syscalls.live
        let injector = FaultInjector([Fault(kind, occurrence: kind == .write ? 2 : 1, .fail(.noSpace))])
        var partial = injector.syscalls(wrapping: live)
        let counted = partial.write
        partial.write = { fd, buffer in counted(fd, UnsafeRawBufferPointer(rebasing: buffer.prefix(3))) }
        let error = outcome { () throws(FileSystemError) in
            try FileSystem(syscalls: partial).appendDurably(dir.file("done.txt"), Array("bbbbbbbb\n".utf8))
        }.failure
        #expect(error == .failed(.append, path: dir.file("done.txt"), .noSpace))
        #expect(error?.description == "cannot append to \(dir.file("done.txt")): No space left on device")
        #expect(Posix.text(dir.file("done.txt")) == "a\n")
    }

    @Test func fileWithoutWriteBitsIsReadOnly() {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("done.txt"), "a\n")
        chmod(dir.file("done.txt"), 0o444)
        let error = outcome { () throws(FileSystemError) in try fs.appendDurably(dir.file("done.txt"), [65]) }.failure
        if geteuid() == 0 {
            #expect(error == .readOnly(path: dir.file("done.txt"), reason: "the file has no write permission"))
        } else {
            #expect(error == .failed(.append, path: dir.file("done.txt"), .permissionDenied))
        }
        #expect(Posix.text(dir.file("done.txt")) == "a\n")
    }

    @Test func directoryIsRejected() {
        let dir = TemporaryDirectory()
        mkdir(dir.file("done.txt"), 0o755)
        let error = outcome { () throws(FileSystemError) in try fs.appendDurably(dir.file("done.txt"), [65]) }.failure
        #expect(error == .isDirectory(path: dir.file("done.txt")))
    }
}
