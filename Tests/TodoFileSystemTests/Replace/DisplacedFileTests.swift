#if canImport(Glibc)
@preconcurrency import Glibc
#endif
import Synchronization
import Testing
import TodoTestSupport
import TodoTxt
@testable import TodoFileSystem

/// The old file a replacement swaps out is kept, named for its writer and for how much of it the new
/// file holds, until the lines appended to it are copied; a writer killed before that leaves it for
/// the next writer, which recovers those lines once (docs/files.md section 1).
@Suite struct DisplacedFileTests {
    /// No process can have this id (it is above any kernel's `pid_max`): a writer that is gone.
    static let goneWriter = Int32.max

    struct Never: Error {}

    /// What a hook saw, handed back to the test.
    final class Seen: Sendable { let names = Mutex<[String]>([]) }

    func noChange(_ path: String, fileSystem: FileSystem = FileSystem()) throws {
        _ = try fileSystem.transact(path) { (_: inout TodoDocument) throws(Never) in }
    }

    /// Writes `text` beside `todo.txt` under a displaced name naming `writer`, `accounted` and, unless
    /// `ofAnotherFile`, the file's own inode (an old file swapped out); returns its path.
    func displaced(_ dir: TemporaryDirectory, _ text: String, writer: Int32 = goneWriter, accounted: Int64,
                   ofAnotherFile: Bool = false) -> String {
        let scratch = dir.file(".todo.txt.abcdef.tmp")
        Posix.write(scratch, text)
        let inode = UInt64(Posix.stat(scratch)?.st_ino ?? 0) + (ofAnotherFile ? 1 : 0)
        let path = dir.file(DisplacedFile.name(temporaryName: ".todo.txt.abcdef.tmp", writer: writer, accounted: accounted, inode: inode))
        rename(scratch, path)
        return path
    }

    @Test func theNameSaysWhoDisplacedWhatAndHowMuchTheNewFileHolds() {
        let name = DisplacedFile.name(temporaryName: ".todo.txt.k3f9qz.tmp", writer: 4242, accounted: 77, inode: 9)
        #expect(name == ".todo.txt.k3f9qz.4242.77.9.displaced")
        let parsed = DisplacedFile(name: name, target: "todo.txt")
        #expect(parsed?.writer == 4242 && parsed?.accounted == 77 && parsed?.inode == 9)
        for other in [".todo.txt.k3f9qz.tmp", ".todo.txt.k3f9qz.4242.77.displaced", ".todo.txt.k3f.4242.77.9.displaced",
                      ".todo.txt.k3f9qz.0.77.9.displaced", ".todo.txt.k3f9qz.42.-1.9.displaced", ".done.txt.k3f9qz.42.7.9.displaced",
                      ".todo.txt.k3f9qz.x.7.9.displaced", ".todo.txt.k3f9qz.42.7.x.displaced"] {
            #expect(DisplacedFile(name: other, target: "todo.txt") == nil, "\(other)")
        }
    }

    @Test func theLinesMissingAreCountedNotJustLookedFor() {
        let missing = FileSystem.lines(of: Array("a\nb\nb\r\nc".utf8), missingFrom: Array("b\nz\n".utf8))
        #expect(String(decoding: missing, as: UTF8.self) == "a\nb\nc\n")
        #expect(FileSystem.lines(of: Array("a\n\n".utf8), missingFrom: Array("a\n".utf8)).isEmpty)
    }

    @Test func aGoneWritersLateLinesAreRecoveredOnceByTheNextWriter() throws {
        let dir = TemporaryDirectory()
        // The writer sorted "b\na\n" into "a\nb\n", copied "late 1" over, and was killed before "late 2".
        Posix.write(dir.file("todo.txt"), "a\nb\nlate 1\n")
        _ = displaced(dir, "b\na\nlate 1\nlate 2\n", accounted: 4)
        try noChange(dir.file("todo.txt"))
        #expect(Posix.text(dir.file("todo.txt")) == "a\nb\nlate 1\nlate 2\n")
        #expect(dir.entries() == ["todo.txt"])
        // Nothing is recovered twice.
        try noChange(dir.file("todo.txt"))
        #expect(Posix.text(dir.file("todo.txt")) == "a\nb\nlate 1\nlate 2\n")
    }

    @Test func aDisplacedFileWithNothingLateIsOnlyRemoved() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "a\nb\n")
        let inode = Posix.stat(dir.file("todo.txt"))?.st_ino
        _ = displaced(dir, "b\na\n", accounted: 4)
        try noChange(dir.file("todo.txt"))
        #expect(Posix.stat(dir.file("todo.txt"))?.st_ino == inode)
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func aLiveWritersDisplacedFileIsLeftToIt() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "a\n")
        let mine = displaced(dir, "a\nlate\n", writer: ProcessContext.processID(), accounted: 2)
        try noChange(dir.file("todo.txt"))
        #expect(Posix.text(dir.file("todo.txt")) == "a\n")
        #expect(Posix.text(mine) == "a\nlate\n")
    }

    @Test func aTemporaryFileThatNeverGotSwappedInIsOnlyRemoved() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "a\n")
        // Killed after naming it, before the swap: the name holds the new content, not the old file.
        _ = displaced(dir, "a\nnew content\n", accounted: 2, ofAnotherFile: true)
        try noChange(dir.file("todo.txt"))
        #expect(Posix.text(dir.file("todo.txt")) == "a\n")
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func anAppendRecoversThemFirst() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "a\n")
        _ = displaced(dir, "a\nlate\n", accounted: 2)
        _ = try FileSystem().appendDurably(dir.file("todo.txt"), Array("new\n".utf8))
        #expect(Posix.text(dir.file("todo.txt")) == "a\nlate\nnew\n")
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func theOldFileIsKeptUnderItsDisplacedNameUntilItsLateAppendsAreCopied() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "b\na\n")
        let oldInode = UInt64(Posix.stat(path)?.st_ino ?? 0)
        // An appender writes in the instant before the swap; when the old file is removed, after the
        // copy, it must still be there under a name that says who displaced it and how much of it the
        // new file held before the copy.
        let seen = Seen()
        let directory = dir.path
        let injector = FaultInjector([
            Fault(.renameExchange, occurrence: 1, .before({ Posix.append(path, "late\n") })),
            Fault(.unlink, occurrence: 1, .before({ let names = Posix.list(directory); seen.names.withLock { $0 = names } })),
        ])
        _ = try FileSystem(syscalls: injector.syscalls()).transact(path) { (document: inout TodoDocument) throws(Never) in
            document.reorder([1, 0])
        }
        #expect(Posix.text(path) == "a\nb\nlate\n")
        let names = seen.names.withLock { $0 }
        let displaced = names.compactMap { DisplacedFile(name: $0, target: "todo.txt") }
        #expect(displaced == [DisplacedFile(name: ".todo.txt.abcdef.\(ProcessContext.processID()).4.\(oldInode).displaced",
                                            target: "todo.txt")], "\(names)")
        #expect(dir.entries() == ["todo.txt"])
    }
}
