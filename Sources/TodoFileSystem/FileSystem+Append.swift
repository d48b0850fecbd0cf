/// How `FileSystem.appendDurably` behaves.
public struct AppendOptions: Sendable, Hashable {
    /// If the existing file is non-empty and does not end with `\n`, write one first, so the appended
    /// bytes start on a line of their own instead of fusing with the file's last line.
    public var startOnNewLine: Bool
    /// Create the file (mode `0666 & ~umask`) if it does not exist.
    public var createIfMissing: Bool

    /// The defaults suit done.txt: start on a new line, create the file if needed.
    public init(startOnNewLine: Bool = true, createIfMissing: Bool = true) {
        self.startOnNewLine = startOnNewLine
        self.createIfMissing = createIfMissing
    }
}

/// What `FileSystem.appendDurably` did.
public struct AppendResult: Sendable, Hashable {
    /// The bytes written at the end of the file: the caller's, preceded by `\n` if one was added.
    public var appended: [UInt8]
    /// Whether the file was created by this call.
    public var created: Bool
    /// Set when a new file's directory entry could not be synced: the bytes are synced, but a crash
    /// could lose the new name. Not thrown, because the bytes are already in place and a retry would
    /// append them twice.
    public var directorySyncFailure: FileSystemError?
    /// What the replacement said, when the append went through `replace` (a long append; see
    /// `FileSystem.appendDurably`): late appends carried over, hard links detached.
    public var notes: [ReplaceNote]

    /// Bundles what `appendDurably` did.
    package init(appended: [UInt8], created: Bool, directorySyncFailure: FileSystemError?, notes: [ReplaceNote] = []) {
        self.appended = appended
        self.created = created
        self.directorySyncFailure = directorySyncFailure
        self.notes = notes
    }
}

extension FileSystem {
    /// Appends `bytes` to a file and syncs it before returning: `todo add` (under the writers' lock)
    /// and moving tasks into done.txt before they are removed from todo.txt (`todo archive`). If
    /// this returns, the bytes are on disk; if it throws, none of them are in the file, or the
    /// error (`FileSystemError.appendLeftBytes`) says exactly which are (docs/files.md, "Appending").
    ///
    /// - An append that would pass the process's file size limit (`ulimit -f`) is refused before
    ///   anything is written (`FileSystemError.beyondFileSizeLimit`).
    /// - An append that stays within one page of the file (`staysWithinOnePage`) is one `write` with
    ///   `O_APPEND` (symlinks followed), so concurrent `>>` appenders never overwrite each other and
    ///   a kill cannot tear it: Linux copies a write into the page cache a page at a time and acts on
    ///   a fatal signal only between pages.
    /// - A longer one goes through `replace` (temporary file, compare-and-swap, rename, late
    ///   appends carried over), so a kill leaves the old file or the new one, never part of a line.
    ///   Where the directory does not let a temporary file be made, it is appended like a short one.
    /// - When a write or the `fsync` fails, this process's bytes are exactly the `written` bytes
    ///   before the descriptor's offset; they alone are cut out (`removeFailedAppend`), and what
    ///   others appended after them is kept.
    ///
    /// The same permission rule as `replace` applies: a file without any write permission bit is
    /// read-only even for root.
    @discardableResult
    public func appendDurably(
        _ path: String, _ bytes: [UInt8], options: AppendOptions = AppendOptions()
    ) throws(FileSystemError) -> AppendResult {
        let target = try resolve(path)
        recoverDisplacedFiles(target)
        return try appendRecovered(target, bytes, options: options)
    }

    /// `appendDurably` once a killed writer's late appends are back (`recoverDisplacedFiles`),
    /// which uses it for them.
    func appendRecovered(
        _ target: ResolvedPath, _ bytes: [UInt8], options: AppendOptions
    ) throws(FileSystemError) -> AppendResult {
        let (fd, created) = try openForAppending(target, create: options.createIfMissing)
        defer { system.closeQuietly(fd) }

        let status = try regularFileStatus(fd, path: target.path)
        if status.permissions & 0o222 == 0 {
            throw .readOnly(path: target.path, reason: "the file has no write permission")
        }

        var payload = bytes
        let size = status.identity.size
        if options.startOnNewLine && size > 0 && !bytes.isEmpty {
            let last: [UInt8]
            do { last = try system.pread(fd, count: 1, at: size - 1) } catch { throw .failed(.read, path: target.path, error) }
            if last.first != FileSystem.newline { payload.insert(FileSystem.newline, at: 0) }
        }
        if let limit = system.calls.fileSizeLimit(), size + Int64(payload.count) > limit {
            throw .beyondFileSizeLimit(path: target.path, size: size + Int64(payload.count), limit: limit)
        }
        if !Self.staysWithinOnePage(size: size, count: payload.count),
           let result = try appendByReplacing(target, payload, created: created) {
            return result
        }

        var written = 0
        do {
            try system.writeAll(fd, payload, written: &written)
            try system.fsync(fd)
        } catch {
            throw removeFailedAppend(fd, target: target, payload: payload, written: written, cause: error)
        }

        var directoryFailure: FileSystemError?
        if created {
            do { try syncDirectory(target.directory) } catch { directoryFailure = error }
        }
        return AppendResult(appended: payload, created: created, directorySyncFailure: directoryFailure)
    }

    /// Opens for appending; creates exclusively when missing, so that "created" is known for sure
    /// (it decides whether the directory must be synced).
    private func openForAppending(_ target: ResolvedPath, create: Bool) throws(FileSystemError) -> (FileDescriptor, Bool) {
        let flags: OpenFlags = [.readWrite, .append, .closeOnExec, .nonBlocking]
        for _ in 0..<2 {
            do {
                return (try system.open(target.path, flags), false)
            } catch where error == .noSuchFile && create {
                // Fall through to creating it.
            } catch where error == .noSuchFile {
                throw .notFound(path: target.path)
            } catch where error == .isDirectory {
                throw .isDirectory(path: target.path)
            } catch {
                throw .failed(.append, path: target.path, error)
            }
            do {
                return (try system.open(target.path, flags.union([.create, .exclusive]), permissions: 0o666), true)
            } catch where error == .fileExists {
                continue
            } catch {
                throw .failed(.append, path: target.path, error)
            }
        }
        throw .failed(.append, path: target.path, .fileExists)
    }
}
