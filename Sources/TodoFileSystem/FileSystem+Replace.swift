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

    /// Defaults: the file must exist; five attempts. `maxAttempts` below 1 is raised to 1.
    public init(createIfMissing: Bool = false, maxAttempts: Int = 5) {
        self.createIfMissing = createIfMissing
        self.maxAttempts = max(1, maxAttempts)
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
    /// The rename happened, but syncing the directory failed, so a crash could still bring back
    /// the old file. The new content itself was synced.
    case notDurable(FileSystemError)
}

/// What `FileSystem.replace` did.
public enum ReplaceOutcome: Sendable, Hashable {
    /// The closure returned `nil` or the bytes it was given: nothing was created, written or renamed,
    /// so the inode and the modification time are untouched.
    case unchanged
    /// The target now holds `bytes` (the closure's result plus any late appends). `attempts` counts
    /// compare-and-swap rounds, 1 when nobody interfered.
    case written(bytes: [UInt8], attempts: Int, notes: [ReplaceNote])
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
    /// Replaces a file's content safely (files.md section 1): symlinks kept, mode and owner kept,
    /// never a partial or empty file, never a lost concurrent change.
    ///
    /// 1. `path` is resolved with `realpath`; the symlink's target is replaced, the link stays.
    /// 2. The file is opened and read (its identity and bytes remembered); the descriptor stays open.
    /// 3. `transform` computes the new bytes. `nil` or equal bytes: return `.unchanged`, write nothing.
    /// 4. A temporary file `.NAME.XXXXXX.tmp` is created exclusively in the same directory (mode 0600),
    ///    filled, given the target's owner (where permitted; `EPERM` is ignored) and mode, and synced.
    /// 5. Compare-and-swap: the path must still name the same inode with the same leading bytes. If
    ///    it only grew and the old content ended with a newline, the extra bytes are appended to the
    ///    temporary file. Any other change: the temporary file is removed and steps 2–5 repeat on the
    ///    new content, up to `options.maxAttempts` times.
    /// 6. The temporary file is renamed over the target and the directory is synced. Bytes appended to
    ///    the old inode between step 5 and the rename are copied over afterwards (best effort: an
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
        let target: ResolvedPath
        do { target = try resolve(path) } catch { throw .fileSystem(error) }
        for attempt in 1...options.maxAttempts {
            switch try replaceOnce(target, options: options, transform: transform) {
            case .unchanged:
                return .unchanged
            case .written(let bytes, let notes):
                return .written(bytes: bytes, attempts: attempt, notes: notes)
            case .conflict:
                continue
            }
        }
        throw .fileSystem(.keptChanging(path: target.path, attempts: options.maxAttempts))
    }

    private enum AttemptResult {
        case unchanged
        case written([UInt8], [ReplaceNote])
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
        transform: ([UInt8]) throws(TransformError) -> [UInt8]?
    ) throws(ReplaceError<TransformError>) -> AttemptResult {
        let old: Snapshot
        do { old = try snapshot(target.path, createIfMissing: options.createIfMissing) } catch { throw .fileSystem(error) }
        defer { if let fd = old.descriptor { system.closeQuietly(fd) } }

        let computed: [UInt8]?
        do { computed = try transform(old.bytes) } catch { throw .transform(error) }
        // For a missing file `old.bytes` is empty, so an empty result creates nothing.
        guard let newBytes = computed, !FileSystem.sameBytes(newBytes[...], old.bytes[...]) else { return .unchanged }

        do {
            try checkWritable(target, status: old.status)
            return try writeAndSwap(target, old: old, newBytes: newBytes)
        } catch {
            throw .fileSystem(error)
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
    private func writeAndSwap(_ target: ResolvedPath, old: Snapshot, newBytes: [UInt8]) throws(FileSystemError) -> AttemptResult {
        let (temporaryPath, temporary) = try createTemporaryFile(beside: target, existing: old.status != nil)
        var renamed = false
        defer {
            system.closeQuietly(temporary)
            if !renamed { _ = try? system.unlink(temporaryPath) }
        }

        var written = newBytes
        var notes: [ReplaceNote] = []
        // How much of the old file the new one already reflects.
        var accounted = Int64(old.bytes.count)
        do { try system.writeAll(temporary, newBytes) } catch { throw .failed(.write, path: target.path, error) }
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
        }
        do { try system.fsync(temporary) } catch { throw .failed(.sync, path: target.path, error) }

        switch try compareAndSwapCheck(target, old: old) {
        case .changed:
            return .conflict
        case .unchanged:
            break
        case .appended(let late):
            let extra = FileSystem.joiningLines(written, late)
            do {
                try system.writeAll(temporary, extra)
                try system.fsync(temporary)
            } catch {
                throw .failed(.write, path: target.path, error)
            }
            written += extra
            accounted += Int64(late.count)
            notes.append(.lateAppend(byteCount: late.count, afterRename: false))
        }

        do { try system.rename(temporaryPath, target.path) } catch {
            throw .renameFailed(from: temporaryPath, to: target.path, error)
        }
        renamed = true

        if let fd = old.descriptor, let status = old.status {
            if status.linkCount > 1 { notes.append(.hardLinksDetached(linkCount: status.linkCount)) }
            notes += copyLateAppends(from: fd, accounted: accounted, into: temporary, written: &written, path: target.path)
        }
        do { try syncDirectory(target.directory) } catch { notes.append(.notDurable(error)) }
        return .written(written, notes)
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
                throw .failed(.createTemporaryFile, path: target.directory, error)
            }
        }
        throw .failed(.createTemporaryFile, path: target.directory, lastError)
    }

    private enum CheckResult {
        case unchanged
        case appended([UInt8])
        case changed
    }

    /// Step 5: is the target still what was read? Compares the inode through the path (an editor's
    /// rename-over is a new inode) and the bytes through the old descriptor (an in-place rewrite
    /// within one mtime tick keeps size and time).
    private func compareAndSwapCheck(_ target: ResolvedPath, old: Snapshot) throws(FileSystemError) -> CheckResult {
        let current: FileStatus
        do {
            current = try system.stat(target.path)
        } catch where error == .noSuchFile {
            return old.status == nil ? .unchanged : .changed
        } catch {
            throw .failed(.inspect, path: target.path, error)
        }
        guard let fd = old.descriptor, let status = old.status,
              current.identity.isSameFile(as: status.identity) else { return .changed }
        let readCount = Int64(old.bytes.count)
        if current.identity.size < readCount { return .changed }
        do {
            // Every byte read is compared, a chunk at a time: no second file-sized buffer (its page
            // faults cost as much as the first read, and it raised peak memory by one file).
            var offset = 0
            while offset < old.bytes.count {
                let count = min(FileSystem.compareChunk, old.bytes.count - offset)
                let chunk = try system.pread(fd, count: count, at: Int64(offset))
                if chunk.count != count || !FileSystem.sameBytes(chunk[...], old.bytes[offset..<(offset + count)]) {
                    return .changed
                }
                offset += count
            }
            if current.identity.size == readCount { return .unchanged }
            // It grew. Raw appended lines are only meaningful after a complete last line.
            if let last = old.bytes.last, last != FileSystem.newline { return .changed }
            let late = try system.pread(fd, count: Int(current.identity.size - readCount), at: readCount)
            return late.isEmpty ? .unchanged : .appended(late)
        } catch {
            throw .failed(.read, path: target.path, error)
        }
    }

    /// Step 6, after the rename: copies bytes appended to the old inode since `accounted` into the
    /// new file. Never throws; failures become notes.
    private func copyLateAppends(
        from old: FileDescriptor, accounted: Int64,
        into temporary: FileDescriptor, written: inout [UInt8], path: String
    ) -> [ReplaceNote] {
        guard let status = try? system.fstat(old), status.identity.size > accounted else { return [] }
        let count = Int(status.identity.size - accounted)
        do {
            let late = try system.pread(old, count: count, at: accounted)
            let extra = FileSystem.joiningLines(written, late)
            try system.writeAll(temporary, extra)
            try system.fsync(temporary)
            written += extra
            return [.lateAppend(byteCount: late.count, afterRename: true)]
        } catch {
            return [.lateAppendLost(byteCount: count, .failed(.append, path: path, error))]
        }
    }

    /// How many bytes the compare-and-swap check reads and compares at a time.
    static let compareChunk = 1 << 20

    /// Byte equality with `memcmp`: `==` on `[UInt8]` compares element by element, about 50 ms for a
    /// 65 MB file, twice per replacement.
    static func sameBytes(_ lhs: ArraySlice<UInt8>, _ rhs: ArraySlice<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard !lhs.isEmpty else { return true }
        return lhs.withUnsafeBytes { a in rhs.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } }
    }

    /// `late` as it must be appended after `existing`: preceded by a newline if `existing` does not
    /// end with one, so an appended line never fuses with the last line of the new content.
    static func joiningLines(_ existing: [UInt8], _ late: [UInt8]) -> [UInt8] {
        guard let last = existing.last, last != newline, !late.isEmpty else { return late }
        return [newline] + late
    }
}
