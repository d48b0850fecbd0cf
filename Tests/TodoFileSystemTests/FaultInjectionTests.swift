#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TodoTestSupport
@testable import TodoFileSystem
import TodoTxt

/// Fails every system call of a safe replacement in turn and checks the promise of docs/files.md
/// section 1, step 8: before the rename, any failure leaves the target byte-identical and no
/// temporary file behind; after it, nothing is thrown and the new content is in place.
@Suite struct FaultInjectionTests {
    static let original = Array("(A) first\nsecond\n".utf8)
    static let edited = Array("(A) first\nsecond\nthird\n".utf8)

    /// The new content, as bytes, as pieces of the original (the reordering `todo sort` writes), or
    /// as runs of several buffers (a merge's result).
    enum Shape: CaseIterable { case bytes, pieces, gathered }

    static func content(_ shape: Shape) -> ReplacementContent {
        switch shape {
        case .bytes: .bytes(edited)
        case .pieces: .pieces([0..<original.count, 10..<original.count - 1, 0..<1, original.count - 1..<original.count])
        case .gathered: .gathered(sources: [original, Array("third\n".utf8)],
                                  pieces: [BytePiece(source: 0, start: 0, count: original.count), BytePiece(source: 1, start: 0, count: 6)])
        }
    }

    static func replace(_ fs: FileSystem, _ path: String, _ shape: Shape) throws(ReplaceError<Never>) -> ReplaceOutcome {
        try fs.replace(path) { (_: [UInt8]) throws(Never) in content(shape) }
    }

    /// What the file holds after a replacement with `shape`.
    static func expected(_ shape: Shape) -> [UInt8] {
        switch content(shape) {
        case .bytes(let bytes): bytes
        case .pieces(let pieces): pieces.flatMap { original[$0] }
        case .gathered(let sources, let pieces): pieces.flatMap { sources[Int($0.source)][$0.range] }
        }
    }

    /// The calls of one clean replacement, with their per-kind occurrence numbers.
    static func cleanRun(_ shape: Shape = .bytes) throws -> [(kind: SyscallKind, occurrence: Int)] {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), original)
        let recorder = FaultInjector()
        let fs = FileSystem(syscalls: recorder.syscalls())
        _ = try replace(fs, dir.file("todo.txt"), shape)
        return occurrences(recorder.calls)
    }

    @Test(arguments: Shape.allCases)
    func cleanRunMakesTheExpectedCalls(shape: Shape) throws {
        let kinds = try Self.cleanRun(shape).map(\.kind)
        // The recipe, in order; the test below fails each of these.
        let writing: SyscallKind = shape == .bytes ? .write : .writeVector
        // The new file takes the target's place by swapping names (so the file coming out can be
        // checked), or by a rename where the file system cannot swap.
        let swap: SyscallKind = kinds.contains(.renameExchange) ? .renameExchange : .rename
        for required: SyscallKind in [.realpath, .open, .fstat, .read, .access, .createExclusive, writing, .startWriteback,
                                      .fchown, .fchmod, .fsync, .stat, .pread, swap] {
            #expect(kinds.contains(required), "missing \(required)")
        }
        let position = { (kind: SyscallKind) in kinds.firstIndex(of: kind) ?? -1 }
        #expect(position(writing) < position(.fsync))
        #expect(position(writing) < position(.startWriteback))
        #expect(position(.pread) < position(.fsync), "the bytes are compared while the write-back runs")
        #expect(position(.fsync) < position(swap))
        #expect(position(.fchown) < position(.fchmod))
        #expect(kinds.last(where: { $0 == .fsync }) != nil)
        #expect(kinds.lastIndex(of: .fsync)! > position(swap), "the directory is synced after the rename")
    }

    @Test(arguments: [Errno.noSpace, Errno.ioError], Shape.allCases)
    func failureAtEveryStepLeavesTargetIntactOrFullyReplaced(errno: Errno, shape: Shape) throws {
        let calls = try Self.cleanRun(shape)
        let renameIndex = try #require(calls.firstIndex { $0.kind == .renameExchange || $0.kind == .rename })
        for (index, call) in calls.enumerated() {
            let dir = TemporaryDirectory()
            let path = dir.file("todo.txt")
            Posix.write(path, Self.original)
            chmod(path, 0o640)
            let injector = FaultInjector([Fault(call.kind, occurrence: call.occurrence, .fail(errno))])
            let fs = FileSystem(syscalls: injector.syscalls())

            let result = outcome { () throws(ReplaceError<Never>) in try Self.replace(fs, path, shape) }

            let step = "\(shape): step \(index) (\(call.kind) #\(call.occurrence)) failing with \(errno.name)"
            if index < renameIndex && call.kind == .renameNoReplace {
                // Naming the temporary file for the swap failed: it is swapped in under its first name.
                #expect(result.failure == nil, "\(step)")
                #expect(dir.entries() == ["todo.txt"], "temporary file left at \(step)")
                continue
            }
            if index > renameIndex && call.kind == .unlink {
                // The swapped-out old file could not be removed: it stays (with the old content) under
                // its displaced name, for the next writer once this process is gone
                // (FileSystem+DisplacedFiles.swift).
                let left = dir.entries().filter { $0 != "todo.txt" }
                #expect(left.count == 1 && left.allSatisfy { DisplacedFile(name: $0, target: "todo.txt") != nil },
                        "\(step): \(dir.entries())")
                #expect(left.first.map { Posix.read(dir.file($0)) } == Self.original, "\(step)")
            } else {
                #expect(dir.entries() == ["todo.txt"], "temporary file left at \(step)")
            }
            #expect(Posix.mode(path) == 0o640, "\(step)")
            if index < renameIndex || index == renameIndex {
                let error = try #require(fileSystemError(result.failure), "no error at \(step)")
                #expect(Posix.read(path) == Self.original, "target changed at \(step)")
                #expect(!error.description.contains("\n"), "\(step)")
                #expect(error.description.contains(errno.message) || error.description.contains("no such file"), "\(step): \(error)")
                if index == renameIndex {
                    #expect(error.description.hasPrefix("rename .todo.txt."), "\(step): \(error)")
                    // The temporary file is named for the swap just before it (FileSystem+DisplacedFiles.swift).
                    #expect(error.description.contains(".displaced → \(path): "), "\(step): \(error)")
                }
            } else {
                #expect(result.failure == nil, "error after the rename at \(step)")
                #expect(Posix.read(path) == Self.expected(shape), "new content missing at \(step)")
            }
        }
    }

    @Test(arguments: Shape.allCases)
    func interruptedAtEveryStepIsRetried(shape: Shape) throws {
        let calls = try Self.cleanRun(shape)
        for (index, call) in calls.enumerated() where call.kind != .close {
            let dir = TemporaryDirectory()
            let path = dir.file("todo.txt")
            Posix.write(path, Self.original)
            let injector = FaultInjector([Fault(call.kind, occurrence: call.occurrence, .fail(.interrupted))])
            let fs = FileSystem(syscalls: injector.syscalls())

            let result = outcome { () throws(ReplaceError<Never>) in try Self.replace(fs, path, shape) }

            let step = "\(shape): step \(index) (\(call.kind) #\(call.occurrence))"
            #expect(result.success == .written(attempts: 1, notes: []), "\(step)")
            #expect(Posix.read(path) == Self.expected(shape), "\(step)")
            #expect(dir.entries() == ["todo.txt"], "\(step)")
            #expect(injector.calls.count == calls.count + 1, "exactly one retry at \(step)")
        }
    }

    @Test func shortWritesAreCompleted() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, Self.original)
        let live = Syscalls.live
        var dribbling = live
        dribbling.write = { fd, buffer in live.write(fd, UnsafeRawBufferPointer(rebasing: buffer.prefix(3))) }
        let fs = FileSystem(syscalls: dribbling)
        let result = try fs.replace(path) { (_: [UInt8]) throws(Never) in Self.edited }
        #expect(result == .written(attempts: 1, notes: []))
        #expect(Posix.read(path) == Self.edited)
    }

    @Test func temporaryNameCollisionIsRetriedWithANewName() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, Self.original)
        let injector = FaultInjector([Fault(.createExclusive, occurrence: 1, .fail(.fileExists))])
        let fs = FileSystem(syscalls: injector.syscalls())
        _ = try fs.replace(path) { (_: [UInt8]) throws(Never) in Self.edited }
        #expect(injector.calls.filter { $0 == .createExclusive }.count == 2)
        #expect(Posix.read(path) == Self.edited)
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func directorySyncFailureIsANoteNotAnError() throws {
        let calls = try Self.cleanRun()
        let lastFsync = try #require(calls.last { $0.kind == .fsync })
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, Self.original)
        let injector = FaultInjector([Fault(.fsync, occurrence: lastFsync.occurrence, .fail(.ioError))])
        let fs = FileSystem(syscalls: injector.syscalls())
        let result = try fs.replace(path) { (_: [UInt8]) throws(Never) in Self.edited }
        #expect(result == .written(attempts: 1,
                                   notes: [.notDurable(.failed(.sync, path: dir.path, .ioError))]))
        #expect(Posix.read(path) == Self.edited)
    }

    @Test func fchownDeniedIsIgnored() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, Self.original)
        let injector = FaultInjector([Fault(.fchown, occurrence: nil, .fail(.notPermitted))])
        let fs = FileSystem(syscalls: injector.syscalls())
        _ = try fs.replace(path) { (_: [UInt8]) throws(Never) in Self.edited }
        #expect(Posix.read(path) == Self.edited)
    }
}
