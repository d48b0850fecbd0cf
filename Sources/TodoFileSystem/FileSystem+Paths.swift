/// Path-level operations the commands need beyond reading and replacing: where a file really is,
/// removing or moving a file once its content is safely elsewhere (reconciling conflict copies), what
/// a path names, a directory's entries, `mkdir -p` and an empty file (todo.sh's start-up). All go
/// through the `Syscalls` seam like everything else, so a test can fail any of them.
extension FileSystem {
    /// The real path of `path` with symlinks resolved (or where it would be created).
    package func realPath(_ path: String) throws(FileSystemError) -> String {
        try resolve(path).path
    }

    /// Removes a file and fsyncs its directory, so the removal is as durable as the write before it.
    ///
    /// Wraps unlink(2) and fsync(2) of the directory.
    package func removeFile(_ path: String) throws(FileSystemError) {
        do {
            try system.unlink(path)
        } catch {
            throw .failed(.write, path: path, error)
        }
        try syncDirectory(PathName.directory(of: path))
    }

    /// Renames `source` to `destination` (same file system) and fsyncs the directory.
    /// Refuses to overwrite an existing destination.
    ///
    /// Wraps lstat(2), rename(2) and fsync(2) of the directory.
    package func moveFile(_ source: String, to destination: String) throws(FileSystemError) {
        if (try? system.lstat(destination)) != nil {
            throw .failed(.write, path: destination, .fileExists)
        }
        do {
            try system.rename(source, destination)
        } catch {
            throw .renameFailed(from: source, to: destination, error)
        }
        try syncDirectory(PathName.directory(of: destination))
    }

    /// What `path` names (following symlinks unless `followingLinks` is false), or nil when nothing
    /// is there or it cannot be looked at.
    package func kind(of path: String, followingLinks: Bool = true) -> FileKind? {
        let status = followingLinks ? try? system.stat(path) : try? system.lstat(path)
        return status?.kind
    }

    /// Whether `first` and `second` name one file (symlinks followed; hard links are one file too):
    /// the same device and inode. False when either cannot be looked at.
    package func isSameFile(_ first: String, _ second: String) -> Bool {
        guard let one = try? system.stat(first), let other = try? system.stat(second) else { return false }
        return one.identity.device == other.identity.device && one.identity.inode == other.identity.inode
    }

    /// What `stat` says about `path` (symlinks followed): mode, owner, kind; nil when nothing is there
    /// or it cannot be looked at.
    package func status(of path: String) -> FileStatus? { try? system.stat(path) }

    /// Whether something is at `path` (a broken symlink is nothing).
    package func exists(_ path: String) -> Bool { kind(of: path) != nil }

    /// Whether `path` exists and this process may execute it.
    package func isExecutable(_ path: String) -> Bool { (try? system.access(path, .execute)) != nil }

    /// The names in directory `path` that start with `prefix` (without `.` and `..`), unsorted; nil
    /// if it cannot be read.
    package func directoryEntries(_ path: String, withPrefix prefix: String = "") -> [String]? {
        try? system.directoryEntries(path, prefix: Array(prefix.utf8))
    }

    /// `mkdir -p path`; returns whether `path` is a directory afterwards.
    @discardableResult
    package func makeDirectories(_ path: String) -> Bool {
        if kind(of: path) == .directory { return true }
        guard !path.isEmpty else { return false }
        let bytes = Array(path.utf8)
        // Each parent in turn; one that exists already fails with EEXIST, which is what `-p` ignores.
        for position in bytes.indices where bytes[position] == 0x2F && position > 0 {
            _ = try? system.makeDirectory(String(decoding: bytes[..<position], as: UTF8.self), permissions: 0o777)
        }
        _ = try? system.makeDirectory(path, permissions: 0o777)
        return kind(of: path) == .directory
    }

    /// Creates (or empties) `path` as a plain file, as todo.sh's start-up does for its three files;
    /// returns whether that worked.
    @discardableResult
    package func createEmptyFile(_ path: String) -> Bool {
        guard let descriptor = try? system.open(path, [.writeOnly, .create, .truncate, .closeOnExec], permissions: 0o666) else {
            return false
        }
        system.closeQuietly(descriptor)
        return true
    }
}
