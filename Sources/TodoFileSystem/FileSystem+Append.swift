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

    /// Bundles what `appendDurably` did.
    public init(appended: [UInt8], created: Bool, directorySyncFailure: FileSystemError?) {
        self.appended = appended
        self.created = created
        self.directorySyncFailure = directorySyncFailure
    }
}

extension FileSystem {
    /// Appends `bytes` to a file and syncs it before returning, for moving tasks into done.txt before
    /// they are removed from todo.txt (`todo archive`): if this returns, the tasks are on disk.
    ///
    /// Opens with `O_APPEND` (symlinks followed), so concurrent `>>` appenders never overwrite each
    /// other; the bytes go out in as few `write` calls as the kernel allows. On failure the file is
    /// truncated back to its previous size (best effort), so a retry does not leave a partial line;
    /// an append by another process during that instant would be cut too, which is why writers of
    /// one file should hold a `FileLock`.
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

        do {
            try system.writeAll(fd, payload)
            try system.fsync(fd)
        } catch {
            _ = try? system.ftruncate(fd, length: size)
            throw .failed(.append, path: target.path, error)
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
