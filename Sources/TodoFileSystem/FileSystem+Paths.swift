/// Path-level operations the commands need beyond reading and replacing: where a file really is,
/// and removing or moving a file once its content is safely elsewhere (reconciling conflict copies).
extension FileSystem {
    /// The real path of `path` with symlinks resolved (or where it would be created).
    public func realPath(_ path: String) throws(FileSystemError) -> String {
        try resolve(path).path
    }

    /// Removes a file and fsyncs its directory, so the removal is as durable as the write before it.
    ///
    /// Wraps unlink(2) and fsync(2) of the directory.
    public func removeFile(_ path: String) throws(FileSystemError) {
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
    public func moveFile(_ source: String, to destination: String) throws(FileSystemError) {
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
}
