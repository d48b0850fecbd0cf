#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TodoTestSupport
@testable import TodoFileSystem

@Suite struct ReplaceTests {
    let fs = FileSystem()

    func replace(
        _ path: String, with fs: FileSystem? = nil, options: ReplaceOptions = ReplaceOptions(),
        _ transform: @escaping ([UInt8]) -> [UInt8]?
    ) -> Result<ReplaceOutcome, ReplaceError<Never>> {
        let fileSystem = fs ?? self.fs
        return outcome { () throws(ReplaceError<Never>) in
            try fileSystem.replace(path, options: options) { (bytes: [UInt8]) throws(Never) in transform(bytes) }
        }
    }

    @Test func writesNewBytesAndLeavesNoTemporaryFile() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "a\n")
        let result = try replace(dir.file("todo.txt"), appending("b\n")).get()
        #expect(result == .written(attempts: 1, notes: []))
        #expect(Posix.text(dir.file("todo.txt")) == "a\nb\n")
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func symlinkStaysAndTargetIsReplaced() throws {
        let dir = TemporaryDirectory()
        mkdir(dir.file("Dropbox"), 0o755)
        Posix.write(dir.file("Dropbox/todo.txt"), "a\n")
        #expect(symlink("Dropbox/todo.txt", dir.file("todo.txt")) == 0)
        let oldInode = try #require(Posix.stat(dir.file("Dropbox/todo.txt"))).st_ino

        _ = try replace(dir.file("todo.txt"), appending("b\n")).get()

        let link = try #require(Posix.lstat(dir.file("todo.txt")))
        #expect(link.st_mode & S_IFMT == S_IFLNK)
        var buffer = [CChar](repeating: 0, count: 256)
        let n = readlink(dir.file("todo.txt"), &buffer, 255)
        #expect(String(decoding: buffer[..<max(n, 0)].map { UInt8(bitPattern: $0) }, as: UTF8.self) == "Dropbox/todo.txt")
        #expect(Posix.text(dir.file("Dropbox/todo.txt")) == "a\nb\n")
        #expect(try #require(Posix.stat(dir.file("Dropbox/todo.txt"))).st_ino != oldInode)
        #expect(dir.entries("Dropbox") == ["todo.txt"])
        #expect(dir.entries() == ["Dropbox", "todo.txt"])
    }

    @Test func modeAndOwnerAreKept() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "a\n")
        chmod(dir.file("todo.txt"), 0o640)
        // Root can give the file away; the replacement must give it back to the same owner.
        let canChown = geteuid() == 0
        if canChown { chown(dir.file("todo.txt"), 65534, 65534) }

        _ = try replace(dir.file("todo.txt"), appending("b\n")).get()

        let s = try #require(Posix.stat(dir.file("todo.txt")))
        #expect(s.st_mode & 0o7777 == 0o640)
        if canChown {
            #expect(s.st_uid == 65534)
            #expect(s.st_gid == 65534)
        }
    }

    @Test func unchangedBytesWriteNothing() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "a\nb\n")
        let before = try #require(Posix.stat(dir.file("todo.txt")))
        let injector = FaultInjector()
        let spy = FileSystem(syscalls: injector.syscalls())

        #expect(try replace(dir.file("todo.txt"), with: spy) { $0 }.get() == .unchanged)
        #expect(try replace(dir.file("todo.txt"), with: spy) { _ in nil }.get() == .unchanged)

        let after = try #require(Posix.stat(dir.file("todo.txt")))
        #expect(after.st_ino == before.st_ino)
        #expect(after.st_mtim.tv_sec == before.st_mtim.tv_sec && after.st_mtim.tv_nsec == before.st_mtim.tv_nsec)
        #expect(!injector.calls.contains(.createExclusive))
        #expect(!injector.calls.contains(.write))
        #expect(!injector.calls.contains(.rename) && !injector.calls.contains(.renameExchange))
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func readOnlyFileIsRefusedAndUntouched() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "a\n")
        chmod(dir.file("todo.txt"), 0o444)
        let inode = try #require(Posix.stat(dir.file("todo.txt"))).st_ino

        let error = fileSystemError(replace(dir.file("todo.txt"), appending("b\n")).failure)

        guard case .readOnly(let path, _) = error else {
            Issue.record("expected readOnly, got \(String(describing: error))")
            return
        }
        #expect(path == dir.file("todo.txt"))
        #expect(error?.description.hasPrefix("cannot write \(dir.file("todo.txt")): ") == true)
        #expect(Posix.text(dir.file("todo.txt")) == "a\n")
        #expect(try #require(Posix.stat(dir.file("todo.txt"))).st_ino == inode)
        #expect(Posix.mode(dir.file("todo.txt")) == 0o444)
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func readOnlyDirectoryIsRefusedWithoutTemporaryFile() throws {
        let dir = TemporaryDirectory()
        mkdir(dir.file("ro"), 0o755)
        Posix.write(dir.file("ro/todo.txt"), "a\n")
        chmod(dir.file("ro"), 0o555)
        defer { chmod(dir.file("ro"), 0o755) }

        let error = fileSystemError(replace(dir.file("ro/todo.txt"), appending("b\n")).failure)

        guard case .readOnly(let path, let reason) = error else {
            Issue.record("expected readOnly, got \(String(describing: error))")
            return
        }
        #expect(path == dir.file("ro/todo.txt"))
        #expect(reason.contains(dir.file("ro")))
        #expect(Posix.text(dir.file("ro/todo.txt")) == "a\n")
        #expect(dir.entries("ro") == ["todo.txt"])
    }

    /// The kernel's refusal (what a non-root user gets) is reported the same way.
    @Test func permissionDeniedCreatingTemporaryFileIsReadOnly() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "a\n")
        let injector = FaultInjector([Fault(.createExclusive, occurrence: nil, .fail(.permissionDenied))])
        let error = fileSystemError(replace(dir.file("todo.txt"), with: FileSystem(syscalls: injector.syscalls()), appending("b\n")).failure)
        #expect(error == .readOnly(path: dir.file("todo.txt"), reason: "its directory \(dir.path) is not writable (Permission denied)"))
        #expect(Posix.text(dir.file("todo.txt")) == "a\n")
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func missingFileIsAnErrorUnlessCreationIsAsked() throws {
        let dir = TemporaryDirectory()
        let error = fileSystemError(replace(dir.file("todo.txt"), appending("a\n")).failure)
        #expect(error == .notFound(path: dir.file("todo.txt")))
        #expect(dir.entries() == [])

        let created = try replace(dir.file("todo.txt"), options: ReplaceOptions(createIfMissing: true), appending("a\n")).get()
        #expect(created == .written(attempts: 1, notes: []))
        #expect(Posix.text(dir.file("todo.txt")) == "a\n")
        #expect(Posix.mode(dir.file("todo.txt")) == Posix.defaultNewFileMode(in: dir.path))
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func fileCreatedByOthersJustBeforeOurCreationIsNotOverwritten() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        // A sync client creates the file between our check and our rename.
        let injector = FaultInjector([Fault(.renameNoReplace, occurrence: 1, .before({ Posix.write(path, "from the sync client\n") }))])

        let result = try replace(path, with: FileSystem(syscalls: injector.syscalls()), options: ReplaceOptions(createIfMissing: true),
                                 appending("ours\n")).get()

        #expect(result == .written(attempts: 2, notes: []))
        #expect(Posix.text(path) == "from the sync client\nours\n", "their file survives and the edit lands on top")
        #expect(dir.entries() == ["todo.txt"])
        #expect(injector.calls.filter { $0 == .renameExchange }.count == 1, "the second attempt replaces the file it read")
    }

    @Test(arguments: [Errno.invalidArgument, Errno.notImplemented, Errno.notSupported])
    func creationFallsBackToRenameWhereNoReplaceIsUnsupported(errno: Errno) throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        let injector = FaultInjector([Fault(.renameNoReplace, occurrence: nil, .fail(errno))])
        let result = try replace(path, with: FileSystem(syscalls: injector.syscalls()), options: ReplaceOptions(createIfMissing: true),
                                 appending("a\n")).get()
        #expect(result == .written(attempts: 1, notes: []))
        #expect(Posix.text(path) == "a\n")
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func creationRenameFailureLeavesNothing() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        let injector = FaultInjector([Fault(.renameNoReplace, occurrence: nil, .fail(.ioError))])
        let error = fileSystemError(replace(path, with: FileSystem(syscalls: injector.syscalls()),
                                            options: ReplaceOptions(createIfMissing: true), appending("a\n")).failure)
        #expect(error?.description.hasPrefix("rename .todo.txt.") == true, "\(String(describing: error))")
        #expect(dir.entries() == [])
    }

    @Test func emptyResultForMissingFileCreatesNothing() throws {
        let dir = TemporaryDirectory()
        let result = try replace(dir.file("todo.txt"), options: ReplaceOptions(createIfMissing: true)) { $0 }.get()
        #expect(result == .unchanged)
        #expect(dir.entries() == [])
    }

    @Test func directoryTargetIsRejected() {
        let dir = TemporaryDirectory()
        mkdir(dir.file("todo.txt"), 0o755)
        let error = fileSystemError(replace(dir.file("todo.txt"), appending("a\n")).failure)
        #expect(error == .isDirectory(path: dir.file("todo.txt")))
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func danglingSymlinkIsNotReplacedByAFile() throws {
        let dir = TemporaryDirectory()
        symlink("elsewhere/todo.txt", dir.file("todo.txt"))
        let error = fileSystemError(replace(dir.file("todo.txt"), options: ReplaceOptions(createIfMissing: true), appending("a\n")).failure)
        #expect(error == .notFound(path: dir.file("todo.txt")))
        #expect(try #require(Posix.lstat(dir.file("todo.txt"))).st_mode & S_IFMT == S_IFLNK)
    }

    @Test func transformErrorWritesNothing() throws {
        struct Refused: Error, Equatable {}
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "a\n")
        let result = outcome { () throws(ReplaceError<Refused>) in
            try fs.replace(dir.file("todo.txt")) { (_: [UInt8]) throws(Refused) -> [UInt8]? in throw Refused() }
        }
        guard case .transform(let error)? = result.failure else {
            Issue.record("expected the transform's error, got \(result)")
            return
        }
        #expect(error == Refused())
        #expect(Posix.text(dir.file("todo.txt")) == "a\n")
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func hardLinksAreReportedAsDetached() throws {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "a\n")
        link(dir.file("todo.txt"), dir.file("hard.txt"))
        let result = try replace(dir.file("todo.txt"), appending("b\n")).get()
        guard case .written(_, let notes) = result else {
            Issue.record("expected a write")
            return
        }
        #expect(notes.contains(.hardLinksDetached(linkCount: 2)))
        #expect(Posix.text(dir.file("hard.txt")) == "a\n")
    }

    // MARK: - compare-and-swap

    /// The `stat` calls of a clean replacement between the first write of the temporary file and
    /// the rename: the compare-and-swap check (first) and the re-check after the `fsync` (last).
    /// Found from a clean run so the tests do not hard-code the call sequence.
    func checkStats() throws -> (check: Int, recheck: Int) {
        let dir = TemporaryDirectory()
        Posix.write(dir.file("todo.txt"), "x\n")
        let recorder = FaultInjector()
        _ = try replace(dir.file("todo.txt"), with: FileSystem(syscalls: recorder.syscalls()), appending("y\n")).get()
        let calls = occurrences(recorder.calls)
        let writeIndex = try #require(calls.firstIndex { $0.kind == .write })
        let renameIndex = try #require(calls.firstIndex { $0.kind == .renameExchange })
        let stats = calls[writeIndex..<renameIndex].filter { $0.kind == .stat }
        let fsyncIndex = try #require(calls[writeIndex..<renameIndex].firstIndex { $0.kind == .fsync })
        let check = try #require(stats.first), recheck = try #require(stats.last)
        #expect(stats.count == 2, "one check before the fsync, one re-check after it")
        #expect(calls[..<fsyncIndex].contains { $0 == check }, "the byte check runs before the fsync")
        #expect(calls[fsyncIndex...].contains { $0 == recheck }, "the re-check runs after the fsync")
        return (check.occurrence, recheck.occurrence)
    }

    /// The compare-and-swap check's `stat` (see `checkStats`).
    func compareAndSwapStat() throws -> Int { try checkStats().check }

    @Test func editorSaveBetweenReadAndRenameSurvivesAndEditIsReapplied() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        let occurrence = try compareAndSwapStat()
        let injector = FaultInjector([Fault(.stat, occurrence: occurrence, .before({ Posix.saveLikeEditor(path, "a\nfrom editor\n") }))])

        let result = try replace(path, with: FileSystem(syscalls: injector.syscalls()), appending("ours\n")).get()

        #expect(result == .written(attempts: 2, notes: []))
        #expect(Posix.text(path) == "a\nfrom editor\nours\n")
        #expect(dir.entries() == ["todo.txt"])
    }

    /// The last window: an editor that does not lock saves (by renaming its own file over the
    /// target) after every check and just before our rename. The swap of names brings its file out
    /// under our temporary name, where it is recognised as not the file we read: the swap is undone
    /// and the edit re-applied on the editor's version. (A plain rename lost such a save: 1–3 of
    /// 1,000 rapid saves in the attack on the write path.)
    @Test func editorSaveJustBeforeTheSwapIsNotOverwritten() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        let injector = FaultInjector([Fault(.renameExchange, occurrence: 1, .before({ Posix.saveLikeEditor(path, "a\nfrom editor\n") }))])

        let result = try replace(path, with: FileSystem(syscalls: injector.syscalls()), appending("ours\n")).get()

        #expect(result == .written(attempts: 2, notes: []))
        #expect(Posix.text(path) == "a\nfrom editor\nours\n")
        #expect(dir.entries() == ["todo.txt"], "neither our first file nor the editor's is left behind")
        #expect(injector.calls.filter { $0 == .renameExchange }.count == 3, "swap, undo, then the second attempt's swap")
    }

    /// Where the file system cannot swap names, a plain rename (the window stays, documented).
    @Test func fileSystemWithoutSwapFallsBackToRename() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        let injector = FaultInjector([Fault(.renameExchange, occurrence: nil, .fail(.invalidArgument))])

        let result = try replace(path, with: FileSystem(syscalls: injector.syscalls()), appending("ours\n")).get()

        #expect(result == .written(attempts: 1, notes: []))
        #expect(Posix.text(path) == "a\nours\n")
        #expect(injector.calls.contains(.rename))
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func editorSaveDuringTheFsyncIsCaughtByTheRecheck() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        let recheck = try checkStats().recheck
        let injector = FaultInjector([Fault(.stat, occurrence: recheck, .before({ Posix.saveLikeEditor(path, "a\nfrom editor\n") }))])

        let result = try replace(path, with: FileSystem(syscalls: injector.syscalls()), appending("ours\n")).get()

        #expect(result == .written(attempts: 2, notes: []))
        #expect(Posix.text(path) == "a\nfrom editor\nours\n")
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func appendDuringTheFsyncIsCarriedOverAfterASecondComparison() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "b\na\n")
        let injector = FaultInjector([Fault(.fsync, occurrence: 1, .before({ Posix.append(path, "late\n") }))])
        let sorted: ([UInt8]) -> [UInt8]? = { _ in Array("a\nb\n".utf8) }

        let result = try replace(path, with: FileSystem(syscalls: injector.syscalls()), sorted).get()

        #expect(result == .written(attempts: 1, notes: [.lateAppend(byteCount: 5, afterRename: false)]))
        #expect(Posix.text(path) == "a\nb\nlate\n")
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func aLineAppendedInTwoPiecesAroundTheChecksStaysOneLine() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "b\na\n")
        let check = try compareAndSwapStat()
        // `par` arrives before the first comparison, `tial` during the fsync: one line, not two.
        let injector = FaultInjector([
            Fault(.stat, occurrence: check, .before({ Posix.append(path, "par") })),
            Fault(.fsync, occurrence: 1, .before({ Posix.append(path, "tial\n") })),
        ])
        let sorted: ([UInt8]) -> [UInt8]? = { _ in Array("a\nb".utf8) }

        let result = try replace(path, with: FileSystem(syscalls: injector.syscalls()), sorted).get()

        #expect(result == .written(attempts: 1, notes: [.lateAppend(byteCount: 8, afterRename: false)]))
        #expect(Posix.text(path) == "a\nb\npartial\n", "the first late bytes start a line; the rest continue it")
    }

    @Test func rewriteInPlaceDuringTheFsyncStartsOver() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "aaaa\n")
        let injector = FaultInjector([Fault(.fsync, occurrence: 1, .before({ Posix.overwriteInPlace(path, "bbbb\n") }))])

        let result = try replace(path, with: FileSystem(syscalls: injector.syscalls()), appending("ours\n")).get()

        #expect(result == .written(attempts: 2, notes: []))
        #expect(Posix.text(path) == "bbbb\nours\n")
    }

    @Test func sameSizeInPlaceRewriteIsDetectedByContent() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "aaaa\n")
        let occurrence = try compareAndSwapStat()
        // Same inode, same size, and possibly the same mtime tick: only the bytes tell.
        let injector = FaultInjector([Fault(.stat, occurrence: occurrence, .before({ Posix.overwriteInPlace(path, "bbbb\n") }))])

        let result = try replace(path, with: FileSystem(syscalls: injector.syscalls()), appending("ours\n")).get()

        #expect(result == .written(attempts: 2, notes: []))
        #expect(Posix.text(path) == "bbbb\nours\n")
    }

    @Test func appendSeenByTheCheckIsKeptBeforeRename() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "b\na\n")
        let occurrence = try compareAndSwapStat()
        let injector = FaultInjector([Fault(.stat, occurrence: occurrence, .before({ Posix.append(path, "late\n") }))])
        let sorted: ([UInt8]) -> [UInt8]? = { _ in Array("a\nb\n".utf8) }

        let result = try replace(path, with: FileSystem(syscalls: injector.syscalls()), sorted).get()

        #expect(result == .written(attempts: 1,
                                   notes: [.lateAppend(byteCount: 5, afterRename: false)]))
        #expect(Posix.text(path) == "a\nb\nlate\n")
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func appendJustBeforeRenameIsCopiedAfterIt() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "b\na\n")
        let injector = FaultInjector([Fault(.renameExchange, occurrence: 1, .before({ Posix.append(path, "late\n") }))])
        let sorted: ([UInt8]) -> [UInt8]? = { _ in Array("a\nb".utf8) }

        let result = try replace(path, with: FileSystem(syscalls: injector.syscalls()), sorted).get()

        #expect(result == .written(attempts: 1,
                                   notes: [.lateAppend(byteCount: 5, afterRename: true)]))
        #expect(Posix.text(path) == "a\nb\nlate\n")
        #expect(dir.entries() == ["todo.txt"])
    }

    @Test func lateCopyAfterTheRenameNeverOverwritesAnAppendToTheNewFile() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "b\na\n")
        // Find the post-rename `fstat` of the old file from a clean run.
        let recorder = FaultInjector()
        _ = try replace(path, with: FileSystem(syscalls: recorder.syscalls()), appending("c\n")).get()
        let calls = occurrences(recorder.calls)
        let renameIndex = try #require(calls.firstIndex { $0.kind == .renameExchange })
        let lateFstat = try #require(calls[renameIndex...].first { $0.kind == .fstat })
        Posix.write(path, "b\na\n")
        // One line reaches the old file just before the rename, another the new file just after it.
        let injector = FaultInjector([
            Fault(.renameExchange, occurrence: 1, .before({ Posix.append(path, "to-old\n") })),
            Fault(.fstat, occurrence: lateFstat.occurrence, .before({ Posix.append(path, "to-new\n") })),
        ])
        let sorted: ([UInt8]) -> [UInt8]? = { _ in Array("a\nb\n".utf8) }

        let result = try replace(path, with: FileSystem(syscalls: injector.syscalls()), sorted).get()

        #expect(result == .written(attempts: 1, notes: [.lateAppend(byteCount: 7, afterRename: true)]))
        #expect(Posix.text(path) == "a\nb\nto-new\nto-old\n", "both lines kept: the late copy appends, it does not overwrite")
    }

    @Test func appendAfterALineWithoutNewlineIsAConflict() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a")
        let occurrence = try compareAndSwapStat()
        // `echo b >> todo.txt` on a file without final newline edits the last line: re-apply, don't append.
        let injector = FaultInjector([Fault(.stat, occurrence: occurrence, .before({ Posix.append(path, "b\n") }))])

        let result = try replace(path, with: FileSystem(syscalls: injector.syscalls())) { $0 + Array("!".utf8) }.get()

        #expect(result == .written(attempts: 2, notes: []))
        #expect(Posix.text(path) == "ab\n!")
    }

    @Test func fileThatKeepsChangingGivesUpCleanly() throws {
        let dir = TemporaryDirectory()
        let path = dir.file("todo.txt")
        Posix.write(path, "a\n")
        // Every stat is followed by a new editor save; each attempt's check sees a different inode.
        let injector = FaultInjector([Fault(.stat, occurrence: nil, .before({
            Posix.saveLikeEditor(path, "editor\n")
        }))])

        let error = fileSystemError(replace(path, with: FileSystem(syscalls: injector.syscalls()), options: ReplaceOptions(maxAttempts: 3), appending("ours\n")).failure)

        #expect(error == .keptChanging(path: path, attempts: 3))
        #expect(error?.description == "cannot write \(path): it changed during each of 3 attempts; nothing was written")
        #expect(Posix.text(path) == "editor\n")
        #expect(dir.entries() == ["todo.txt"])
    }
}
