#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How `FileSystem.replace` behaves where callers differ.
public struct ReplaceOptions: Sendable, Hashable {
    /// Create the file if it does not exist (the closure then receives `[]`). The new file gets
    /// mode `0666 & ~umask` (and the directory's default ACL), exactly like a file made by `>`.
    /// An empty result for a missing file creates nothing.
    public var createIfMissing: Bool
    /// How many times to read, compute and compare-and-swap before giving up with
    /// `FileSystemError.keptChanging`. At least 1.
    public var maxAttempts: Int

    /// Refuse to replace a file that holds a NUL byte (`FileSystemError.holdsNUL`), even when the
    /// closure changes nothing: a todo file never holds one, so it is most likely a binary file given
    /// by mistake, and rewriting it would help nobody. The bytes are searched during the
    /// compare-and-swap comparison, which reads them anyway (on a second thread for a large file).
    public var refusesNULBytes: Bool

    /// How long to wait for another process to close the file it has open for writing (an appender
    /// between its `open` and `close`: `( sleep 1; echo task ) >> todo.txt`) before the rename, and
    /// again after it for one that opened the old file just before. Bytes written to the old file
    /// after the rename would otherwise be lost with it. Still open before the rename when this runs
    /// out: `FileSystemError.openForWriting`, nothing written. See docs/notes/file-layer.md,
    /// "Late appends".
    public var writerWait: Duration

    /// Defaults: the file must exist; five attempts; NUL bytes allowed; writers waited for 5 s.
    /// `maxAttempts` below 1 is raised to 1.
    public init(createIfMissing: Bool = false, maxAttempts: Int = 5, refusesNULBytes: Bool = false,
                writerWait: Duration = .seconds(5)) {
        self.createIfMissing = createIfMissing
        self.maxAttempts = max(1, maxAttempts)
        self.refusesNULBytes = refusesNULBytes
        self.writerWait = writerWait
    }
}

/// Something worth telling the user about a replacement that did happen.
public enum ReplaceNote: Sendable, Hashable {
    /// Someone appended `byteCount` bytes to the old file after it was read (`echo … >> todo.txt`);
    /// they were appended to the new file too, before the rename (seen by the compare-and-swap check)
    /// or right after it (seen on the old descriptor, best effort).
    case lateAppend(byteCount: Int, afterRename: Bool)
    /// Bytes appended to the old file after the rename could not be copied into the new file.
    case lateAppendLost(byteCount: Int, FileSystemError)
    /// The old file had `linkCount` hard links; the other names still show the old content, because
    /// a rename gives the target a new inode.
    case hardLinksDetached(linkCount: UInt64)
    /// After the rename, another process still had the old file open for writing when
    /// `ReplaceOptions.writerWait` ran out: what it writes from now on goes to the replaced file.
    case stillOpenForWriting(waited: Duration)
    /// The rename happened, but syncing the directory failed, so a crash could still bring back
    /// the old file. The new content itself was synced.
    case notDurable(FileSystemError)
}

/// What `FileSystem.replace` did.
public enum ReplaceOutcome: Sendable, Hashable {
    /// The closure returned `nil` or the bytes it was given: nothing was created, written or renamed,
    /// so the inode and the modification time are untouched.
    case unchanged
    /// The target now holds the closure's result plus any late appends (see `notes`). `attempts`
    /// counts compare-and-swap rounds, 1 when nobody interfered.
    case written(attempts: Int, notes: [ReplaceNote])
}

/// The new content a `FileSystem.replace` closure returns.
public enum ReplacementContent: Sendable, Hashable {
    /// Exactly these bytes.
    case bytes([UInt8])
    /// The old content's byte ranges, concatenated in this order: the shape of a command that only
    /// reorders or drops lines (`todo sort`). The pieces go from the old bytes straight to `writev`
    /// while the temporary file is written, so no second file-sized buffer is built (its page faults
    /// would cost about as much as writing it: docs/notes/file-layer.md).
    ///
    /// Every range must lie within the old content (checked; a range outside is a programming error).
    case pieces([Range<Int>])

    /// Whether the new content equals `old` byte for byte. Pieces that tile `old` in order are equal
    /// without a look at the bytes; otherwise the comparison stops at the first difference, so a real
    /// change costs next to nothing to detect.
    func isSame(as old: [UInt8]) -> Bool {
        switch self {
        case .bytes(let bytes):
            return FileSystem.sameBytes(bytes[...], old[...])
        case .pieces(let pieces):
            var offset = 0
            var tiles = true
            for piece in pieces {
                if piece.lowerBound != offset { tiles = false }
                offset += piece.count
            }
            guard offset == old.count else { return false }
            if tiles { return true }
            offset = 0
            for piece in pieces where !piece.isEmpty {
                if !FileSystem.sameBytes(old[piece], old[offset..<(offset + piece.count)]) { return false }
                offset += piece.count
            }
            return true
        }
    }
}

/// A failure of `FileSystem.replace`: either the file system's or the caller's closure's.
public enum ReplaceError<TransformError: Error>: Error, CustomStringConvertible {
    /// The file system failed; see `FileSystemError` for what is guaranteed about the target.
    case fileSystem(FileSystemError)
    /// The closure threw; nothing was written.
    case transform(TransformError)

    /// The underlying error's own one-line description.
    public var description: String {
        switch self {
        case .fileSystem(let error): error.description
        case .transform(let error): "\(error)"
        }
    }
}

extension FileSystem {
    /// Replaces a file's content safely (docs/files.md section 1): symlinks kept, mode and owner kept,
    /// never a partial or empty file, never a lost concurrent change.
    ///
    /// 1. `path` is resolved with `realpath`; the symlink's target is replaced, the link stays.
    /// 2. The file is opened and read (its identity and bytes remembered); the descriptor stays open.
    /// 3. `transform` computes the new bytes. `nil` or equal bytes: return `.unchanged`, write nothing.
    /// 4. A temporary file `.NAME.XXXXXX.tmp` is created exclusively in the same directory (mode 0600),
    ///    filled (its write-back started as it fills), and given the target's owner (where permitted;
    ///    `EPERM` is ignored) and mode.
    /// 5. Compare-and-swap: the path must still name the same inode with the same leading bytes. If
    ///    it only grew and the old content ended with a newline, the extra bytes are appended to the
    ///    temporary file. Then the temporary file is synced, and the target's identity (device, inode,
    ///    size, modification time) must still be what the comparison saw. Any other change: the
    ///    temporary file is removed and steps 2–5 repeat on the new content, up to
    ///    `options.maxAttempts` times. For a large file the comparison runs on a second thread from
    ///    right after step 2 (see `earlyCheckThreshold`).
    /// 6. The temporary file is renamed over the target and the directory is synced. Bytes appended to
    ///    the old inode between step 5 and the rename are copied over afterwards, in append mode, so
    ///    they never overwrite a line someone appended to the new file meanwhile (best effort: an
    ///    appender that opened the old file before the rename but writes after this last check still
    ///    writes into the unlinked old inode; the window is a few system calls wide).
    ///
    /// Until the rename, every failure removes the temporary file and leaves the target
    /// byte-identical; the error says which step failed and why. After the rename nothing throws
    /// (throwing would invite a retry that applies the edit twice); problems become `ReplaceNote`s.
    ///
    /// `transform` may run once per attempt and must depend only on its input. Concurrent writers
    /// should hold a `FileLock`; editors do not lock, and step 5 protects against them.
    ///
    /// Permissions are honoured as `vim` does: a file without write access, or without any write
    /// permission bit (which the kernel would ignore for root), is reported as read-only.
    public func replace<TransformError: Error>(
        _ path: String,
        options: ReplaceOptions = ReplaceOptions(),
        transform: ([UInt8]) throws(TransformError) -> [UInt8]?
    ) throws(ReplaceError<TransformError>) -> ReplaceOutcome {
        try replace(path, options: options) { (old: [UInt8]) throws(TransformError) -> ReplacementContent? in
            guard let new = try transform(old) else { return nil }
            return .bytes(new)
        }
    }

    /// `replace(_:options:transform:)` for a closure that may describe the new content as pieces of
    /// the old (`ReplacementContent.pieces`), which writes a reordering without building it in memory.
    public func replace<TransformError: Error>(
        _ path: String,
        options: ReplaceOptions = ReplaceOptions(),
        content: ([UInt8]) throws(TransformError) -> ReplacementContent?
    ) throws(ReplaceError<TransformError>) -> ReplaceOutcome {
        let target: ResolvedPath
        do { target = try resolve(path) } catch { throw .fileSystem(error) }
        for attempt in 1...options.maxAttempts {
            switch try replaceOnce(target, options: options, content: content) {
            case .unchanged:
                return .unchanged
            case .written(let notes):
                return .written(attempts: attempt, notes: notes)
            case .conflict:
                continue
            }
        }
        throw .fileSystem(.keptChanging(path: target.path, attempts: options.maxAttempts))
    }

    private enum AttemptResult {
        case unchanged
        case written([ReplaceNote])
        case conflict
    }

    /// The old file as read in step 2; `nil` members when the file does not exist yet.
    private struct Snapshot {
        var descriptor: FileDescriptor?
        var status: FileStatus?
        var bytes: [UInt8]
    }

    /// Steps 2–6 once.
    private func replaceOnce<TransformError: Error>(
        _ target: ResolvedPath,
        options: ReplaceOptions,
        content: ([UInt8]) throws(TransformError) -> ReplacementContent?
    ) throws(ReplaceError<TransformError>) -> AttemptResult {
        let old: Snapshot
        do { old = try snapshot(target.path, createIfMissing: options.createIfMissing) } catch { throw .fileSystem(error) }
        defer { if let fd = old.descriptor { system.closeQuietly(fd) } }
        // Declared after the descriptor's `defer`, so it runs first: the check ends before the close.
        let earlyCheck = startEarlyCheck(target, old: old, refusingNUL: options.refusesNULBytes)
        defer {
            earlyCheck?.cancel()
            _ = earlyCheck?.join()
        }

        let computed: ReplacementContent?
        do { computed = try content(old.bytes) } catch { throw .transform(error) }
        // For a missing file `old.bytes` is empty, so an empty result creates nothing.
        guard let new = computed, !new.isSame(as: old.bytes) else {
            if options.refusesNULBytes, let offset = FileSystem.firstNUL(in: old.bytes) {
                throw .fileSystem(.holdsNUL(path: target.path, line: FileSystem.lineNumber(ofOffset: offset, in: old.bytes)))
            }
            return .unchanged
        }
        if case .pieces(let pieces) = new {
            precondition(pieces.allSatisfy { $0.lowerBound >= 0 && $0.upperBound <= old.bytes.count },
                         "ReplacementContent.pieces: a range outside the old content")
        }

        do {
            try checkWritable(target, status: old.status)
            return try writeAndSwap(target, old: old, new: new, earlyCheck: earlyCheck, refusingNUL: options.refusesNULBytes,
                                    writerWait: options.writerWait)
        } catch {
            throw .fileSystem(error)
        }
    }

    /// Files at least this big get their compare-and-swap check on a second thread, started right
    /// after the read, while the new content is computed and written: on two cores a large file's
    /// comparison then costs no wall time (docs/notes/file-layer.md). Smaller files are checked
    /// inline, where a thread would cost more than it saves.
    static let earlyCheckThreshold = 4 << 20

    /// Starts the compare-and-swap check of a large file in the background (see
    /// `earlyCheckThreshold`); `nil` for a small or new file, or when no thread could be had.
    ///
    /// Checking early is as safe as checking late: whatever changes after the check's `stat` still
    /// shows in the re-check after the `fsync` (step 5), on the same terms as before.
    private func startEarlyCheck(
        _ target: ResolvedPath, old: Snapshot, refusingNUL: Bool
    ) -> BackgroundJob<Result<CheckResult, FileSystemError>>? {
        guard old.descriptor != nil, old.bytes.count >= FileSystem.earlyCheckThreshold else { return nil }
        return BackgroundJob.start { job in
            Result { () throws(FileSystemError) in
                try compareAndSwapCheck(target, old: old, refusingNUL: refusingNUL, isCancelled: { job.isCancelled })
            }
        }
    }

    /// Step 2: opens and reads the target, keeping the descriptor open for the late-append check.
    private func snapshot(_ path: String, createIfMissing: Bool) throws(FileSystemError) -> Snapshot {
        guard let fd = try openForReadingIfExists(path) else {
            if createIfMissing { return Snapshot(descriptor: nil, status: nil, bytes: []) }
            throw .notFound(path: path)
        }
        do {
            let (status, bytes) = try readOpenFile(fd, path: path)
            return Snapshot(descriptor: fd, status: status, bytes: bytes)
        } catch {
            system.closeQuietly(fd)
            throw error
        }
    }

    /// Refuses early, with a clear message, what would otherwise fail late or (for root) succeed
    /// against the owner's intent. The kernel still has the last word at `createExclusive`.
    private func checkWritable(_ target: ResolvedPath, status: FileStatus?) throws(FileSystemError) {
        if let status {
            do { try system.access(target.path, .write) } catch {
                throw .readOnly(path: target.path, reason: error.message)
            }
            if status.permissions & 0o222 == 0 {
                throw .readOnly(path: target.path, reason: "the file has no write permission")
            }
        }
        let directory: FileStatus
        do { directory = try system.stat(target.directory) } catch {
            throw .failed(.inspect, path: target.directory, error)
        }
        if directory.permissions & 0o222 == 0 {
            throw .readOnly(path: target.path, reason: "its directory \(target.directory) has no write permission")
        }
    }

    /// Steps 4–6. Owns the temporary file: removes it on every exit except a successful rename.
    ///
    /// Write-back of the temporary file is started as it is written, and the compare-and-swap check
    /// runs before its `fsync`: the disk and the comparison work at the same time, so the `fsync` finds
    /// little left to do (measured in docs/notes/file-layer.md). A `stat` after the
    /// `fsync` closes the gap: the target must still have the identity (device, inode, size,
    /// modification time) the check saw, or the attempt starts over. On Linux 6.13 and later
    /// (multigrain timestamps) any write after that check's `stat` changes the modification time; on
    /// older kernels a same-size rewrite in place within one clock tick could go unseen, the same
    /// kind of window as the few calls between any check and a rename.
    private func writeAndSwap(
        _ target: ResolvedPath, old: Snapshot, new: ReplacementContent,
        earlyCheck: BackgroundJob<Result<CheckResult, FileSystemError>>?, refusingNUL: Bool, writerWait: Duration
    ) throws(FileSystemError) -> AttemptResult {
        let (temporaryPath, temporary) = try createTemporaryFile(beside: target, existing: old.status != nil)
        var renamed = false
        defer {
            system.closeQuietly(temporary)
            if !renamed { _ = try? system.unlink(temporaryPath) }
        }

        var writer = TemporaryFileWriter(system: system, descriptor: temporary)
        var notes: [ReplaceNote] = []
        // How much of the old file the new one already reflects.
        var accounted = Int64(old.bytes.count)
        do {
            try writer.append(new, old: old.bytes)
            try writer.startWriteback()
        } catch {
            throw .failed(.write, path: target.path, error)
        }
        if let status = old.status {
            // Owner before mode: chown clears set-id bits, chmod restores them.
            do { try system.fchown(temporary, owner: status.owner, group: status.group) } catch where error == .notPermitted {
                // Not root and not the owner: the file becomes ours, as with any editor's save.
            } catch {
                throw .failed(.setPermissions, path: target.path, error)
            }
            do { try system.fchmod(temporary, status.permissions) } catch {
                throw .failed(.setPermissions, path: target.path, error)
            }
            // After the mode: chmod would rewrite a copied ACL's mask (FileSystem+Attributes.swift).
            if let source = old.descriptor { try copyExtendedAttributes(from: source, to: temporary, path: target.path) }
        }

        // An appender that has the file open must finish first: what it writes after the rename would
        // go to the old inode. Once it has closed, its lines are late appends like any other, so the
        // comparison runs again, inline (the early one may predate them).
        var waitedForWriters = false
        if let fd = old.descriptor {
            do {
                waitedForWriters = try waitForOtherWriters(fd, timeout: writerWait)
            } catch {
                earlyCheck?.cancel()
                _ = earlyCheck?.join()
                throw .openForWriting(path: target.path, waited: writerWait)
            }
        }
        let firstCheck: CheckResult
        if let earlyCheck, !waitedForWriters {
            firstCheck = try earlyCheck.join().get()
        } else {
            if let earlyCheck {
                earlyCheck.cancel()
                _ = earlyCheck.join()
            }
            firstCheck = try compareAndSwapCheck(target, old: old, refusingNUL: refusingNUL)
        }
        guard case .current(let checkedIdentity, let late) = firstCheck else { return .conflict }
        var copiedLate: [UInt8] = []
        try copyLate(late, after: &copiedLate, into: &writer, path: target.path)
        do { try system.fsync(temporary) } catch { throw .failed(.sync, path: target.path, error) }
        if try currentIdentity(target) != checkedIdentity {
            // Something happened during the write or the fsync. Lines appended with `>>` are carried
            // over after a second, inline comparison (anything else starts the attempt over); a
            // steady appender cannot keep the file from ever being written this way. What lands after
            // this point is the post-rename copy's business, as in the original recipe.
            guard case .current(let identityNow, let lateNow) = try compareAndSwapCheck(target, old: old, refusingNUL: refusingNUL),
                  lateNow.starts(with: copiedLate) else { return .conflict }
            _ = identityNow
            try copyLate(lateNow, after: &copiedLate, into: &writer, path: target.path)
            do { try system.fsync(temporary) } catch { throw .failed(.sync, path: target.path, error) }
        }
        accounted += Int64(copiedLate.count)
        if !copiedLate.isEmpty { notes.append(.lateAppend(byteCount: copiedLate.count, afterRename: false)) }

        let swap: SwapOutcome
        do {
            if let status = old.status {
                swap = try swapIn(temporaryPath, target.path, expected: status.identity)
            } else {
                // Creating: someone else may create the file at this very moment (a sync client).
                guard try renameCreating(temporaryPath, target.path) else { return .conflict }
                swap = .renamed
            }
        } catch {
            throw .renameFailed(from: temporaryPath, to: target.path, error)
        }
        switch swap {
        case .renamed, .swapped:
            break
        case .undone:
            // An editor saved in the instant before: its file is back in place, ours is the
            // temporary file again (removed by the defer), and the edit starts over on it.
            return .conflict
        case .undoFailed(let error):
            renamed = true
            throw .renameFailed(from: temporaryPath, to: target.path, error)
        }
        let displacedOldFile = if case .swapped = swap { true } else { false }
        renamed = true
        // The swap left the old file under the temporary name; its bytes stay readable through the
        // old descriptor for the late-append copy below. A failure leaves it for the cleanup of
        // abandoned temporary files.
        if displacedOldFile { _ = try? system.unlink(temporaryPath) }

        if let fd = old.descriptor, let status = old.status {
            if status.linkCount > 1 { notes.append(.hardLinksDetached(linkCount: status.linkCount)) }
            // One that opened the old file in the instant before the rename writes there: wait for
            // it to close, then its bytes are copied below.
            var waitedAfterRename = false
            do {
                waitedAfterRename = try waitForOtherWriters(fd, timeout: writerWait)
            } catch {
                notes.append(.stillOpenForWriting(waited: writerWait))
            }
            var copied = copyLateAppends(from: fd, accounted: accounted, continuing: !copiedLate.isEmpty,
                                         into: &writer, path: target.path)
            notes += copied.notes
            // A second look when an appender is at work: one whose `open` found the old file just
            // before the rename, and was preempted before it counted as a writer, shows up only
            // now (a Python appender lost lines so on a loaded machine; docs/files.md section 1 states
            // the window that remains).
            if !copiedLate.isEmpty || waitedForWriters || waitedAfterRename || copied.count > 0 {
                system.sleep(Self.secondLookDelay)
                do {
                    _ = try waitForOtherWriters(fd, timeout: writerWait)
                } catch {
                    notes.append(.stillOpenForWriting(waited: writerWait))
                }
                copied = copyLateAppends(from: fd, accounted: accounted + Int64(copied.count),
                                         continuing: !copiedLate.isEmpty || copied.count > 0, into: &writer, path: target.path)
                notes += copied.notes
            }
        }
        do { try syncDirectory(target.directory) } catch { notes.append(.notDurable(error)) }
        return .written(notes)
    }

    /// Whether the file of `fd` was open for writing by another process, waiting (polling every
    /// 2 ms) until it is not. Throws `Errno.wouldBlock` when it is still open after `timeout`; where
    /// this cannot be told (no lease, no `/proc`), nobody is waited for.
    private func waitForOtherWriters(_ fd: FileDescriptor, timeout: Duration) throws(Errno) -> Bool {
        guard (try? system.othersWriting(fd)) == true else { return false }
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < timeout {
            system.sleep(.milliseconds(2))
            if (try? system.othersWriting(fd)) != true { return true }
        }
        throw .wouldBlock
    }

    /// How the new file took the target's place.
    private enum SwapOutcome {
        /// A plain rename (the file system cannot swap names).
        case renamed
        /// The names were swapped and the old file, now under the temporary name, is the file
        /// that was compared.
        case swapped
        /// The file that came out was another one (an editor saved by renaming its own file over
        /// the target after the comparison): the swap was undone.
        case undone
        /// Undoing the swap failed; the other program's file is under the temporary name.
        case undoFailed(Errno)
    }

    /// Step 6 for an existing file: swaps the names of the temporary file and the target
    /// (`renameExchange`), so that the file coming out can be checked. It must be the file that
    /// was read and compared (same device and inode; late appends to it are copied afterwards).
    /// Anything else is a save that landed between the comparison and this instant, which a plain
    /// rename would have thrown away: the swap is undone and the edit starts over on that file.
    /// Where the file system cannot swap (`EINVAL`, `ENOSYS`, `ENOTSUP`), a plain rename, with the
    /// instant-wide window the comparison leaves (docs/notes/file-layer.md).
    private func swapIn(_ temporaryPath: String, _ targetPath: String, expected: FileIdentity) throws(Errno) -> SwapOutcome {
        do {
            try system.renameExchange(temporaryPath, targetPath)
        } catch where [.invalidArgument, .notImplemented, .notSupported, .unsupported].contains(error) {
            try system.rename(temporaryPath, targetPath)
            return .renamed
        }
        guard let displaced = try? system.lstat(temporaryPath), !displaced.identity.isSameFile(as: expected) else {
            return .swapped
        }
        do {
            try system.renameExchange(temporaryPath, targetPath)
            return .undone
        } catch {
            // Put the other program's file back by a plain rename (ours goes); if even that fails,
            // it stays under the temporary name, which the error names.
            do { try system.rename(temporaryPath, targetPath) } catch { return .undoFailed(error) }
            return .undone
        }
    }

    /// Step 6 when the target did not exist: a rename that refuses to replace a file created since the
    /// check (`EEXIST`), so such a file is never overwritten; `false` then, and the attempt starts
    /// over on that file's content. Where the file system cannot refuse (`EINVAL`, `ENOSYS`,
    /// `ENOTSUP`: some network and FUSE file systems), a plain rename, right after the re-check.
    private func renameCreating(_ from: String, _ to: String) throws(Errno) -> Bool {
        do {
            try system.renameNoReplace(from, to)
            return true
        } catch where error == .fileExists {
            return false
        } catch where [.invalidArgument, .notImplemented, .notSupported].contains(error) {
            try system.rename(from, to)
            return true
        }
    }

    /// Step 4: an exclusive, hidden temporary file beside the target. Sync clients and editors
    /// ignore dot-files ending in `.tmp`. Existing targets get mode 0600 until `fchmod`; a new file
    /// is created with 0666 so that the umask and default ACLs apply as for any new file.
    private func createTemporaryFile(beside target: ResolvedPath, existing: Bool) throws(FileSystemError) -> (String, FileDescriptor) {
        let alphabet = Array("abcdefghijklmnopqrstuvwxyz0123456789".utf8)
        var lastError = Errno.fileExists
        for _ in 0..<16 {
            var bits = system.random()
            var suffix: [UInt8] = []
            for _ in 0..<6 {
                suffix.append(alphabet[Int(bits % UInt64(alphabet.count))])
                bits /= UInt64(alphabet.count)
            }
            let name = "." + target.name + "." + String(decoding: suffix, as: UTF8.self) + ".tmp"
            let path = PathName.join(target.directory, name)
            do {
                return (path, try system.createExclusive(path, permissions: existing ? 0o600 : 0o666))
            } catch where error == .fileExists {
                lastError = error
            } catch where error == .permissionDenied || error == .readOnlyFileSystem || error == .notPermitted {
                throw .readOnly(path: target.path, reason: "its directory \(target.directory) is not writable (\(error.message))")
            } catch {
                throw .failed(.createTemporaryFile, path: target.path, error)
            }
        }
        throw .failed(.createTemporaryFile, path: target.path, lastError)
    }

    private enum CheckResult: Sendable {
        /// The target holds what was read, plus `late` bytes appended after it (empty when none);
        /// `FileIdentity` is what `stat` showed (`nil`: the file is still missing).
        case current(FileIdentity?, late: [UInt8])
        /// Anything else: a new inode, a shrink, a rewrite, an append to an unfinished last line.
        case changed
    }

    /// Writes the part of `late` not yet in the temporary file (`late` extends `copied`) and
    /// records it in `copied`. The first late bytes start on a line of their own; later ones
    /// continue them as they are, since an appender may write one line in several pieces.
    private func copyLate(
        _ late: [UInt8], after copied: inout [UInt8], into writer: inout TemporaryFileWriter, path: String
    ) throws(FileSystemError) {
        guard late.count > copied.count else { return }
        let new = Array(late[copied.count...])
        do {
            try writer.append(copied.isEmpty ? FileSystem.joiningLines(after: writer.lastByte, new) : new)
        } catch {
            throw .failed(.write, path: path, error)
        }
        copied = late
    }

    /// The target's identity now, `nil` if it does not exist.
    private func currentIdentity(_ target: ResolvedPath) throws(FileSystemError) -> FileIdentity? {
        do {
            return try system.stat(target.path).identity
        } catch where error == .noSuchFile {
            return nil
        } catch {
            throw .failed(.inspect, path: target.path, error)
        }
    }

    /// Step 5: is the target still what was read? Compares the inode through the path (an editor's
    /// rename-over is a new inode) and the bytes through the old descriptor (an in-place rewrite
    /// within one mtime tick keeps size and time).
    ///
    /// The bytes are read back with `pread` into one small buffer rather than mapped: a file
    /// truncated by someone else while mapped would kill the process with `SIGBUS`.
    ///
    /// With `refusingNUL`, a NUL byte in the (unchanged) bytes or in late appends throws
    /// `FileSystemError.holdsNUL`; the search runs on each chunk while it is in the CPU cache.
    private func compareAndSwapCheck(
        _ target: ResolvedPath, old: Snapshot, refusingNUL: Bool, isCancelled: () -> Bool = { false }
    ) throws(FileSystemError) -> CheckResult {
        guard let current = try currentIdentity(target) else {
            return old.status == nil ? .current(nil, late: []) : .changed
        }
        guard let fd = old.descriptor, let status = old.status, current.isSameFile(as: status.identity) else { return .changed }
        let readCount = Int64(old.bytes.count)
        if current.size < readCount { return .changed }
        var firstNUL: Int?
        let late: [UInt8]
        do throws(Errno) {
            let comparison = try FileSystem.compareFile(descriptor: fd, with: old.bytes, system: system,
                                                        searchingNUL: refusingNUL, isCancelled: isCancelled)
            if !comparison.same { return .changed }
            firstNUL = comparison.firstNUL
            // It grew? Raw appended lines are only meaningful after a complete last line.
            if current.size > readCount, let last = old.bytes.last, last != FileSystem.newline { return .changed }
            late = current.size > readCount ? try system.pread(fd, count: Int(current.size - readCount), at: readCount) : []
        } catch {
            throw .failed(.read, path: target.path, error)
        }
        if refusingNUL, firstNUL == nil, let offset = FileSystem.firstNUL(in: late) { firstNUL = old.bytes.count + offset }
        if let firstNUL {
            throw .holdsNUL(path: target.path, line: FileSystem.lineNumber(ofOffset: firstNUL, in: old.bytes + late))
        }
        return .current(current, late: late)
    }

    /// Whether the file behind `descriptor` starts with `bytes`, compared a chunk at a time through
    /// one reused buffer (no second file-sized buffer: its page faults would cost as much as the
    /// first read, and it would raise peak memory by one file). A cancelled comparison stops early
    /// and answers "not the same". With `searchingNUL`, also the offset of the first NUL byte among
    /// the compared bytes, found in each chunk while it is in the CPU cache.
    static func compareFile(
        descriptor: FileDescriptor, with bytes: [UInt8], system: System,
        searchingNUL: Bool = false, isCancelled: () -> Bool = { false }
    ) throws(Errno) -> (same: Bool, firstNUL: Int?) {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: min(compareChunk, max(bytes.count, 1)), alignment: 64)
        defer { chunk.deallocate() }
        var firstNUL: Int?
        var offset = 0
        while offset < bytes.count {
            if isCancelled() { return (false, nil) }
            let count = min(chunk.count, bytes.count - offset)
            let got = try system.pread(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: chunk[..<count]), at: Int64(offset))
            if got != count { return (false, nil) }
            let equal = bytes.withUnsafeBytes { memcmp($0.baseAddress! + offset, chunk.baseAddress!, count) == 0 }
            if !equal { return (false, nil) }
            if searchingNUL, firstNUL == nil, let found = memchr(chunk.baseAddress!, 0, count) {
                firstNUL = offset + (UnsafeRawPointer(found) - UnsafeRawPointer(chunk.baseAddress!))
            }
            offset += count
        }
        return (true, firstNUL)
    }

    /// Step 6, after the rename: copies bytes appended to the old inode since `accounted` into the
    /// new file; `continuing` when late bytes were copied before the rename, which these continue
    /// as they are. Never throws; failures become notes.
    /// Returns the notes and how many bytes of the old file it read (copied, or reported lost).
    private func copyLateAppends(
        from old: FileDescriptor, accounted: Int64, continuing: Bool,
        into writer: inout TemporaryFileWriter, path: String
    ) -> (notes: [ReplaceNote], count: Int) {
        guard let status = try? system.fstat(old), status.identity.size > accounted else { return ([], 0) }
        let count = Int(status.identity.size - accounted)
        do {
            let late = try system.pread(old, count: count, at: accounted)
            try writer.append(continuing ? late : FileSystem.joiningLines(after: writer.lastByte, late))
            try system.fsync(writer.descriptor)
            return ([.lateAppend(byteCount: late.count, afterRename: true)], late.count)
        } catch {
            return ([.lateAppendLost(byteCount: count, .failed(.append, path: path, error))], count)
        }
    }

    /// How long after the rename the second look for late appends waits (only when an appender is
    /// at work; see `replace`).
    static let secondLookDelay: Duration = .milliseconds(10)

    /// The offset of the first NUL byte of `bytes`, if any (`memchr`).
    public static func firstNUL(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { raw -> Int? in
            guard let base = raw.baseAddress, let found = memchr(base, 0, raw.count) else { return nil }
            return UnsafeRawPointer(found) - base
        }
    }

    /// The 1-based number of the line holding byte `offset` of `bytes`.
    public static func lineNumber(ofOffset offset: Int, in bytes: [UInt8]) -> Int {
        bytes[..<offset].reduce(1) { $1 == newline ? $0 + 1 : $0 }
    }

    /// How many bytes the compare-and-swap check reads and compares at a time: small enough to stay
    /// in the CPU cache between the `pread` and the `memcmp` (faster than 1 MiB chunks here).
    static let compareChunk = 1 << 18

    /// Byte equality with `memcmp`: `==` on `[UInt8]` compares element by element, far slower on a
    /// large file, and a replacement compares twice (docs/notes/speed.md).
    static func sameBytes(_ lhs: ArraySlice<UInt8>, _ rhs: ArraySlice<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard !lhs.isEmpty else { return true }
        return lhs.withUnsafeBytes { a in rhs.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } }
    }

    /// `late` as it must be appended after content whose last byte is `lastByte`: preceded by a
    /// newline if that content does not end with one, so an appended line never fuses with the last
    /// line of the new content.
    static func joiningLines(after lastByte: UInt8?, _ late: [UInt8]) -> [UInt8] {
        guard let lastByte, lastByte != newline, !late.isEmpty else { return late }
        return [newline] + late
    }
}

/// Writes a temporary file front to back and starts its write-back every `writebackStride` bytes,
/// so that by the time of the `fsync` the disk has already done most of the work.
struct TemporaryFileWriter {
    let system: System
    let descriptor: FileDescriptor
    /// Bytes written so far.
    private(set) var count: Int64 = 0
    /// The last byte written, `nil` before the first.
    private(set) var lastByte: UInt8?
    /// Where the range not yet handed to write-back starts.
    private var writebackStart: Int64 = 0

    /// How much is written between two write-back starts: big enough that the calls cost next to
    /// nothing, small enough that the disk starts early.
    static let writebackStride = 4 << 20

    init(system: System, descriptor: FileDescriptor) {
        self.system = system
        self.descriptor = descriptor
    }

    /// Appends `content`, taking pieces from `old`.
    mutating func append(_ content: ReplacementContent, old: [UInt8]) throws(Errno) {
        switch content {
        case .bytes(let bytes):
            try append(bytes)
        case .pieces(let pieces):
            let result = old.withUnsafeBytes { source in
                Result { () throws(Errno) in try appendPieces(pieces, of: source) }
            }
            try result.get()
        }
    }

    /// Appends `bytes`.
    mutating func append(_ bytes: [UInt8]) throws(Errno) {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try append(raw) } }
        try result.get()
    }

    /// Hands the pieces to `writev` straight from `source`, a stride's worth at a time: the kernel
    /// copies each piece into the page cache once, with no staging copy in between
    /// (docs/notes/file-layer.md).
    private mutating func appendPieces(_ pieces: [Range<Int>], of source: UnsafeRawBufferPointer) throws(Errno) {
        var batch: [UnsafeRawBufferPointer] = []
        var batchBytes = 0
        for piece in pieces {
            var rest = piece
            while !rest.isEmpty {
                let room = Self.writebackStride - Int(count - writebackStart) - batchBytes
                let taken = rest.lowerBound..<(rest.lowerBound + min(rest.count, room))
                batch.append(UnsafeRawBufferPointer(rebasing: source[taken]))
                batchBytes += taken.count
                rest = taken.upperBound..<rest.upperBound
                if taken.count == room { try flush(&batch, bytes: &batchBytes) }
            }
        }
        try flush(&batch, bytes: &batchBytes)
    }

    /// Writes the gathered buffers and starts write-back once a stride is complete.
    private mutating func flush(_ batch: inout [UnsafeRawBufferPointer], bytes: inout Int) throws(Errno) {
        guard let last = batch.last?.last else { return }
        try system.writeAll(descriptor, buffers: batch)
        count += Int64(bytes)
        lastByte = last
        batch.removeAll(keepingCapacity: true)
        bytes = 0
        if count - writebackStart >= Int64(Self.writebackStride) { try startWriteback() }
    }

    /// Writes `raw` completely, a stride at most per `write`, starting write-back after each stride.
    mutating func append(_ raw: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < raw.count {
            let end = min(raw.count, offset + Self.writebackStride - Int(count - writebackStart))
            try system.writeAll(descriptor, UnsafeRawBufferPointer(rebasing: raw[offset..<end]))
            count += Int64(end - offset)
            lastByte = raw[end - 1]
            offset = end
            if count - writebackStart >= Int64(Self.writebackStride) { try startWriteback() }
        }
    }

    /// Starts write-back of everything written since the last start.
    mutating func startWriteback() throws(Errno) {
        guard count > writebackStart else { return }
        try system.startWriteback(descriptor, offset: writebackStart, count: count - writebackStart)
        writebackStart = count
    }
}
