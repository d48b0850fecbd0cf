// Steps 1–3 of `FileSystem.replace` and its entry points; the later steps are FileSystem+WriteAndSwap.swift,
// FileSystem+CompareAndSwap.swift, FileSystem+Swap.swift and FileSystem+LateAppends.swift.

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
    package func replace<TransformError: Error>(
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
    package func replace<TransformError: Error>(
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

    enum AttemptResult {
        case unchanged
        case written([ReplaceNote])
        case conflict
    }

    /// The old file as read in step 2; `nil` members when the file does not exist yet.
    struct Snapshot {
        var descriptor: FileDescriptor?
        var status: FileStatus?
        var bytes: [UInt8]
    }

    /// Steps 2–6 once.
    func replaceOnce<TransformError: Error>(
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
        if case .gathered(let sources, let pieces) = new {
            precondition(pieces.allSatisfy { Int($0.source) < sources.count && $0.start >= 0 && $0.range.upperBound <= sources[Int($0.source)].count },
                         "ReplacementContent.gathered: a piece outside its source")
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
    func startEarlyCheck(
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
    func snapshot(_ path: String, createIfMissing: Bool) throws(FileSystemError) -> Snapshot {
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
    func checkWritable(_ target: ResolvedPath, status: FileStatus?) throws(FileSystemError) {
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
}
