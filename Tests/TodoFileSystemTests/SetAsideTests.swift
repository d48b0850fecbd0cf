#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import Testing
import TodoTestSupport
@testable import TodoFileSystem

/// `FileSystem.setAside`, `settledContent` and `putBack`: how reconcile takes a merged copy out of the
/// way without losing what is written to it meanwhile (docs/sync.md section 2).
struct SetAsideTests {
    @Test func setAsideHidesTheFileUnderAFreshNameBesideIt() throws {
        let directory = TemporaryDirectory("set-aside")
        let path = directory.file("todo (conflicted copy 2026-11-29).txt")
        Posix.write(path, "a\n")
        let aside = try FileSystem().setAside(path)
        #expect(aside.originalPath == path)
        let names = directory.entries()
        #expect(names.count == 1)
        let name = try #require(names.first)
        #expect(name.hasPrefix(".todo (conflicted copy 2026-11-29).txt.") && name.hasSuffix(FileSystem.setAsideSuffix), "\(name)")
        #expect(aside.path == directory.file(name))
        #expect(Posix.text(aside.path) == "a\n")
    }

    @Test func setAsideOfAMissingFileSaysNotFound() {
        let directory = TemporaryDirectory("set-aside-missing")
        #expect(throws: FileSystemError.notFound(path: directory.file("gone.txt"))) {
            _ = try FileSystem().setAside(directory.file("gone.txt"))
        }
    }

    @Test func aTakenHiddenNameIsNeverReplaced() throws {
        // The first random name is taken (by an earlier run's leftover): another one is chosen.
        let directory = TemporaryDirectory("set-aside-taken")
        let path = directory.file("copy.txt")
        Posix.write(path, "mine\n")
        var live = Syscalls.live
        let numbers = Mutex([UInt64(1), 1, 2])
        live.random = { numbers.withLock { $0.removeFirst() } }
        let taken = directory.file(".copy.txt.0000000000000001" + FileSystem.setAsideSuffix)
        Posix.write(taken, "leftover\n")
        let aside = try FileSystem(syscalls: live).setAside(path)
        #expect(aside.path == directory.file(".copy.txt.0000000000000002" + FileSystem.setAsideSuffix))
        #expect(Posix.text(taken) == "leftover\n")
        #expect(Posix.text(aside.path) == "mine\n")
    }

    /// The second look is due `secondLookDelay` after the rename: a copy set aside that long ago
    /// (its comparison took the time) is answered without a sleep; one just set aside waits only
    /// for what remains of the delay.
    @Test func theSecondLookWaitsOnlyWhatRemainsOfTheDelaySinceTheRename() throws {
        let directory = TemporaryDirectory("set-aside-second-look")
        let path = directory.file("copy.txt")
        Posix.write(path, "a\n")
        let slept = LockedValue<[Duration]>([])
        var calls = Syscalls.live
        calls.sleep = { duration in
            slept.withLock { $0.append(duration) }
            Syscalls.live.sleep(duration)
        }
        let fileSystem = FileSystem(syscalls: calls)
        let aside = try fileSystem.setAside(path)
        let longAgo = SetAsideFile(originalPath: aside.originalPath, path: aside.path,
                                   renamedAt: aside.renamedAt - FileSystem.secondLookDelay * 2)
        #expect(try fileSystem.settledContent(of: longAgo, expected: Array("a\n".utf8), writerWait: .seconds(1)) == .unchanged)
        #expect(slept.withLock { $0 }.isEmpty)
        #expect(try fileSystem.settledContent(of: aside, expected: Array("a\n".utf8), writerWait: .seconds(1)) == .unchanged)
        let waits = slept.withLock { $0 }
        #expect(waits.count <= 1 && waits.allSatisfy { $0 > .zero && $0 <= FileSystem.secondLookDelay })
        #expect(ContinuousClock.now - aside.renamedAt >= FileSystem.secondLookDelay)
    }

    @Test func settledContentWaitsForAWriterThatHeldTheFileOpen() throws {
        let directory = TemporaryDirectory("set-aside-writer")
        let path = directory.file("copy.txt")
        Posix.write(path, "a\n")
        // Another process opens the file, then it is set aside, then that process writes and closes.
        let started = directory.file("started")
        let writer = Thread {
            _ = Subprocess.run(["/bin/sh", "-c", "exec 3>>\"$1\"; : > \"$2\"; sleep 0.3; printf 'b\\n' >&3", "sh", path, started])
        }
        writer.start()
        while Posix.read(started) == nil { usleep(1_000) }
        let fileSystem = FileSystem()
        let aside = try fileSystem.setAside(path)
        #expect(try fileSystem.settledContent(of: aside, expected: Array("a\n".utf8), writerWait: .seconds(10))
                == .changed(Array("a\nb\n".utf8)))
    }

    @Test func settledContentGivesUpOnAWriterThatStaysAndPutBackRestoresTheName() throws {
        let directory = TemporaryDirectory("set-aside-stays")
        let path = directory.file("copy.txt")
        Posix.write(path, "a\n")
        let started = directory.file("started")
        let writer = Thread {
            _ = Subprocess.run(["/bin/sh", "-c", "exec 3>>\"$1\"; : > \"$2\"; sleep 1", "sh", path, started])
        }
        writer.start()
        while Posix.read(started) == nil { usleep(1_000) }
        let fileSystem = FileSystem()
        let aside = try fileSystem.setAside(path)
        #expect(throws: FileSystemError.openForWriting(path: path, waited: .milliseconds(100))) {
            _ = try fileSystem.settledContent(of: aside, expected: Array("a\n".utf8), writerWait: .milliseconds(100))
        }
        try fileSystem.putBack(aside)
        #expect(Posix.text(path) == "a\n")
        #expect(directory.entries() == ["copy.txt", "started"])
    }

    @Test func settledContentTellsTheExpectedBytesFromAnyOthers() throws {
        let directory = TemporaryDirectory("set-aside-compare")
        let fileSystem = FileSystem()
        // Larger than one comparison chunk, so the difference lies past the first.
        let expected = Array(repeating: UInt8(ascii: "a"), count: FileSystem.compareChunk * 2 + 5) + [0x0A]
        let cases: [(name: String, bytes: [UInt8], settled: SettledContent)] = [
            ("same", expected, .unchanged),
            ("same size, one byte rewritten", Array(expected.dropLast(2)) + [UInt8(ascii: "b"), 0x0A], .changed(Array(expected.dropLast(2)) + [UInt8(ascii: "b"), 0x0A])),
            ("appended", expected + Array("more\n".utf8), .changed(expected + Array("more\n".utf8))),
            ("shorter", Array(expected.prefix(10)), .changed(Array(expected.prefix(10)))),
            ("empty", [], .changed([])),
        ]
        for (index, test) in cases.enumerated() {
            let path = directory.file("copy\(index).txt")
            Posix.write(path, test.bytes)
            let aside = try fileSystem.setAside(path)
            #expect(try fileSystem.settledContent(of: aside, expected: expected, writerWait: .seconds(1)) == test.settled, "\(test.name)")
        }
    }

    @Test func putBackNeverReplacesANewFileUnderTheName() throws {
        let directory = TemporaryDirectory("set-aside-put-back")
        let path = directory.file("copy.txt")
        Posix.write(path, "old\n")
        let fileSystem = FileSystem()
        let aside = try fileSystem.setAside(path)
        Posix.write(path, "new copy\n")
        #expect(throws: FileSystemError.renameFailed(from: aside.path, to: path, .fileExists)) { try fileSystem.putBack(aside) }
        #expect(Posix.text(path) == "new copy\n")
        #expect(Posix.text(aside.path) == "old\n")
    }
}
