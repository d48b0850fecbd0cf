#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TodoTestSupport
@testable import TodoFileSystem

/// `ReplacementContent.pieces`: a reordering written straight from the old bytes, and the
/// write-back hint that the temporary file's writer gives as it goes.
@Suite struct ReplacementContentTests {
    func replace(_ path: String, with fs: FileSystem = FileSystem(),
                 _ content: @escaping ([UInt8]) -> ReplacementContent?) -> Result<ReplaceOutcome, ReplaceError<Never>> {
        outcome { () throws(ReplaceError<Never>) in
            try fs.replace(path) { (bytes: [UInt8]) throws(Never) in content(bytes) }
        }
    }

    /// The bytes `pieces` describe, built the slow and obvious way.
    static func materialize(_ pieces: [Range<Int>], of old: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = []
        for piece in pieces { bytes.append(contentsOf: old[piece]) }
        return bytes
    }

    /// `count` random bytes, eight per draw (debug builds are slow byte by byte).
    static func randomBytes(_ count: Int, _ random: inout SplitMix64) -> [UInt8] {
        var words = (0..<(count + 7) / 8).map { _ in random.next() }
        return words.withUnsafeMutableBytes { Array($0.prefix(count)) }
    }

    @Test func piecesAreWrittenInTheirOrder() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "x done\nopen\n")
        let result = try replace(path) { _ in .pieces([7..<12, 0..<7]) }.get()
        #expect(result == .written(attempts: 1, notes: []))
        #expect(Posix.text(path) == "open\nx done\n")
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func piecesThatTileTheOldContentWriteNothing() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\nb\nc\n")
        let before = try #require(Posix.stat(path))
        let recorder = FaultInjector()
        let result = try replace(path, with: FileSystem(syscalls: recorder.syscalls())) { _ in .pieces([0..<2, 2..<4, 4..<6]) }.get()
        #expect(result == .unchanged)
        #expect(!recorder.calls.contains(.createExclusive), "no temporary file for an unchanged file")
        #expect(try #require(Posix.stat(path)).st_ino == before.st_ino)
    }

    @Test func reorderedPiecesWithEqualBytesWriteNothing() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "same\nsame\n")
        let recorder = FaultInjector()
        // Swapping two equal lines changes no byte.
        let result = try replace(path, with: FileSystem(syscalls: recorder.syscalls())) { _ in .pieces([5..<10, 0..<5]) }.get()
        #expect(result == .unchanged)
        #expect(!recorder.calls.contains(.createExclusive))
    }

    @Test func lateAppendAfterPiecesJoinsOnANewLine() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "b\na\n")
        // The new content ends without a newline; a line appended after the rename must not fuse with it.
        let injector = FaultInjector([Fault(.renameExchange, occurrence: 1, .before({ Posix.append(path, "late\n") }))])
        let result = try replace(path, with: FileSystem(syscalls: injector.syscalls())) { _ in .pieces([2..<4, 0..<1]) }.get()
        #expect(result == .written(attempts: 1, notes: [.lateAppend(byteCount: 5, afterRename: true)]))
        #expect(Posix.text(path) == "a\nb\nlate\n")
    }

    /// Random files and random piece lists, including pieces longer than a write-back stride, runs of
    /// small pieces that cross a stride's end, and more pieces than one `writev` takes: the file
    /// holds exactly the materialized bytes.
    @Test func randomPiecesEqualTheirMaterializedBytes() throws {
        let seed = propertySeed()
        var random = SplitMix64(seed: seed)
        for round in 0..<20 {
            let dir = TemporaryDirectory()
            let path = dir.file("todo.txt")
            let size = round < 2 ? TemporaryFileWriter.writebackStride * 2 + Int(random.next() % 1000) : Int(random.next() % 20_000)
            let old = Self.randomBytes(size, &random)
            Posix.write(path, old)
            var pieces: [Range<Int>] = []
            for _ in 0..<(round < 2 ? 2_500 : Int(random.next() % 40)) {
                guard size > 0 else { break }
                let start = Int(random.next() % UInt64(size))
                let length = round < 2 && random.next() % 500 == 0
                    ? min(size - start, TemporaryFileWriter.writebackStride + Int(random.next() % 1000))
                    : Int(random.next() % UInt64(min(size - start, 300) + 1))
                pieces.append(start..<(start + length))
            }
            let expected = Self.materialize(pieces, of: old)
            _ = try replace(path) { _ in .pieces(pieces) }.get()
            #expect(Posix.read(path) == expected, "seed \(seed), round \(round)")
            #expect(dir.entries() == ["todo.txt"], "seed \(seed), round \(round)")
        }
    }

    @Test func shortGatheringWritesAreCompleted() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        let old = Array((0..<3_000).map { "line \($0)\n" }.joined().utf8)
        Posix.write(path, old)
        let live = Syscalls.live
        var dribbling = live
        // Each `writev` stops three bytes in, mostly inside a buffer.
        dribbling.writeVector = { fd, buffers in
            var left = 3
            var partial: [UnsafeRawBufferPointer] = []
            for buffer in buffers where left > 0 {
                partial.append(UnsafeRawBufferPointer(rebasing: buffer.prefix(left)))
                left -= min(left, buffer.count)
            }
            return partial.withUnsafeBufferPointer { live.writeVector(fd, $0) }
        }
        var pieces: [Range<Int>] = []
        var offset = 0
        while offset < old.count {
            let end = min(old.count, offset + 1 + offset % 7)
            pieces.append(offset..<end)
            offset = end
        }
        pieces.reverse()
        _ = try replace(path, with: FileSystem(syscalls: dribbling)) { _ in .pieces(pieces) }.get()
        #expect(Posix.read(path) == Self.materialize(pieces, of: old))
    }

    @Test func writebackIsStartedWhileALargeFileIsWritten() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        let first = Array("x the first line, which moves\n".utf8)
        let line = Array("a task that is long enough to matter\n".utf8)
        let lines = TemporaryFileWriter.writebackStride * 3 / line.count
        var old = first
        old.reserveCapacity(first.count + lines * line.count)
        for _ in 0..<lines { old.append(contentsOf: line) }
        Posix.write(path, old)
        let recorder = FaultInjector()
        _ = try replace(path, with: FileSystem(syscalls: recorder.syscalls())) { old in .pieces([first.count..<old.count, 0..<first.count]) }.get()
        let calls = recorder.calls
        let hints = calls.filter { $0 == .startWriteback }.count
        #expect(hints >= 3, "one hint per stride written, and one for the rest")
        let lastHint = try #require(calls.lastIndex(of: .startWriteback))
        let firstFsync = try #require(calls.firstIndex(of: .fsync))
        #expect(lastHint < firstFsync)
        #expect(Posix.read(path) == Array(old[first.count...]) + first)
    }

    @Test(arguments: [Errno.notImplemented, Errno.invalidArgument, Errno.illegalSeek, Errno.notSupported])
    func unsupportedWritebackHintIsIgnored(errno: Errno) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "b\na\n")
        let injector = FaultInjector([Fault(.startWriteback, occurrence: nil, .fail(errno))])
        let result = try replace(path, with: FileSystem(syscalls: injector.syscalls())) { _ in .pieces([2..<4, 0..<2]) }.get()
        #expect(result == .written(attempts: 1, notes: []))
        #expect(Posix.text(path) == "a\nb\n")
        #expect(dir.entries() == ["todo.txt"])
    }
}

/// The compare-and-swap check of a large file runs on a second thread, from right after the read
/// (`FileSystem.earlyCheckThreshold`): it must see what it saw inline, and never outlive the call.
@Suite struct EarlyCheckTests {
    /// A file just over the threshold: numbered lines, so that any rewrite changes bytes.
    static func largeFile() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(FileSystem.earlyCheckThreshold + 64)
        var line = 0
        while bytes.count < FileSystem.earlyCheckThreshold + 1 {
            bytes.append(contentsOf: Array("task number \(line)\n".utf8))
            line += 1
        }
        return bytes
    }

    /// Moves the first line to the end: a real change, written as pieces.
    static func rotate(_ old: [UInt8]) -> ReplacementContent {
        let firstEnd = (old.firstIndex(of: 0x0A) ?? old.count - 1) + 1
        return .pieces([firstEnd..<old.count, 0..<firstEnd])
    }

    @Test func largeFileIsReplaced() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        let old = Self.largeFile()
        Posix.write(path, old)
        let result = try FileSystem().replace(path) { (bytes: [UInt8]) throws(Never) in Self.rotate(bytes) }
        #expect(result == .written(attempts: 1, notes: []))
        guard case .pieces(let pieces) = Self.rotate(old) else { return }
        #expect(Posix.read(path) == pieces.flatMap { old[$0] })
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func sameSizeRewriteBeforeTheBackgroundCompareIsCaughtByTheBytes() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        let old = Self.largeFile()
        Posix.write(path, old)
        var rewritten = old
        rewritten[0] = UInt8(ascii: "T")
        let text = String(decoding: rewritten, as: UTF8.self)
        // The first `pread` is the background comparison's first chunk: the file changes in place
        // just before it, with the same size, so only the bytes tell.
        let injector = FaultInjector([Fault(.pread, occurrence: 1, .before({ Posix.overwriteInPlace(path, text) }))])
        let result = try FileSystem(syscalls: injector.syscalls()).replace(path) { (bytes: [UInt8]) throws(Never) in Self.rotate(bytes) }
        #expect(result == .written(attempts: 2, notes: []))
        guard case .pieces(let pieces) = Self.rotate(rewritten) else { return }
        #expect(Posix.read(path) == pieces.flatMap { rewritten[$0] }, "the rewrite survives and the edit is applied on top")
    }

    @Test func unchangedOrFailedTransformOfALargeFileLeavesItAlone() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, Self.largeFile())
        let fs = FileSystem()
        #expect(try fs.replace(path) { (_: [UInt8]) throws(Never) -> [UInt8]? in nil } == .unchanged)
        struct Refused: Error {}
        let failed = outcome { () throws(ReplaceError<Refused>) in
            try fs.replace(path) { (_: [UInt8]) throws(Refused) -> [UInt8]? in throw Refused() }
        }
        #expect(failed.failure != nil)
        #expect(dir.entries() == ["todo.txt"])
        #expect(Posix.read(path) == Self.largeFile())
    }
}

/// Faults on a large file, whose comparison runs on the second thread and whose read is split in
/// two: every failure before the rename leaves the target intact and no temporary file behind.
@Suite struct LargeFileFaultTests {
    @Test(arguments: [SyscallKind.pread, .writeVector, .startWriteback, .fsync])
    func everyOccurrenceFailsCleanly(kind: SyscallKind) throws {
        let original = EarlyCheckTests.largeFile() + Array(String(repeating: "more\n", count: 900_000).utf8)
        #expect(original.count >= FileSystem.parallelReadThreshold, "both the split read and the early check run")
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, original)
        let recorder = FaultInjector()
        _ = try FileSystem(syscalls: recorder.syscalls()).replace(path) { (old: [UInt8]) throws(Never) in EarlyCheckTests.rotate(old) }
        let count = recorder.calls.filter { $0 == kind }.count
        #expect(count > 0)
        // The first few (both halves of the read, the first chunks compared), one in the middle and
        // the last few (the last chunk, the late-append read, the final syncs).
        let occurrences = Set([1, 2, 3, 4, count / 2, count - 2, count - 1, count].filter { (1...count).contains($0) }).sorted()
        for occurrence in occurrences {
            Posix.write(path, original)
            let injector = FaultInjector([Fault(kind, occurrence: occurrence, .fail(.ioError))])
            let result = outcome { () throws(ReplaceError<Never>) in
                try FileSystem(syscalls: injector.syscalls()).replace(path) { (old: [UInt8]) throws(Never) in EarlyCheckTests.rotate(old) }
            }
            let step = "\(kind) #\(occurrence) of \(count)"
            if kind == .fsync && occurrence == count {
                // The directory's fsync, after the rename: a note, not an error.
                #expect(result.failure == nil, "\(step)")
                continue
            }
            #expect(result.failure?.description.contains(Errno.ioError.message) == true, "\(step): \(String(describing: result.failure))")
            #expect(Posix.read(path) == original, "\(step): target changed")
            #expect(dir.entries() == ["todo.txt"], "\(step): temporary file left")
        }
    }
}
