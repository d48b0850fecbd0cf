/// `FileLock`'s lock on the file itself (docs/files.md, "The writers' lock").
extension FileLock {
    /// How trying to lock the file itself ended.
    enum FileAttempt {
        /// Locked, and the path still names this file: the caller owns the descriptor.
        case locked(FileDescriptor)
        /// Locked, but the path names another file by now (a replacement renamed it over): try again.
        case replaced
        /// No file there (yet): the directory lock stands in.
        case missing
        /// The file cannot be opened for writing, is not a regular file, or its file system has no
        /// such locks: the directory lock stands in.
        case cannotLock
    }

    /// Opens the real file for writing and takes `Syscalls.writerLock`, trying again every
    /// `pollInterval` within the budget. Between tries the descriptor is closed: replacement waits
    /// for every process that has the file open for writing (docs/files.md section 1), and a waiter
    /// holding it open would make the holder wait for it. Each try opens the path anew, so a file
    /// renamed over meanwhile is the one tried next.
    static func lockFile(
        _ resolved: FileSystem.ResolvedPath, requestedPath: String, budget: Budget, system: System
    ) throws(FileSystemError) -> FileAttempt {
        guard resolved.exists else { return .missing }
        while true {
            let fd: FileDescriptor
            do {
                // Append mode, so an append-only file (`chattr +a`) opens too; non-blocking, so a FIFO
                // put there cannot hang the open.
                fd = try system.open(resolved.path, [.writeOnly, .append, .closeOnExec, .noFollow, .nonBlocking])
            } catch where error == .noSuchFile {
                return .missing
            } catch {
                return .cannotLock
            }
            guard let opened = try? system.fstat(fd), opened.kind == .regular else {
                system.closeQuietly(fd)
                return .cannotLock
            }
            do {
                try system.writerLock(fd)
            } catch where error == .wouldBlock {
                let holder = lockHolder(fd, system: system)
                system.closeQuietly(fd)
                if budget.isOver { throw .locked(path: requestedPath, waited: budget.waited, holder: holder) }
                system.sleep(min(budget.pollInterval, budget.timeout - budget.waited))
                continue
            } catch where unsupportedLockErrors.contains(error) {
                system.closeQuietly(fd)
                return .cannotLock
            } catch {
                system.closeQuietly(fd)
                throw .failed(.lock, path: resolved.path, error)
            }
            // The path given (symlinks followed anew) must still name the locked file.
            guard let named = try? system.stat(requestedPath),
                  named.identity.device == opened.identity.device, named.identity.inode == opened.identity.inode else {
                system.closeQuietly(fd)
                return .replaced
            }
            return .locked(fd)
        }
    }

    /// Who holds the lock in the way, for the message: a writer, a reader's read lock, or, where
    /// the platform cannot tell (Darwin's `flock`), any process that can open the file.
    private static func lockHolder(_ fd: FileDescriptor, system: System) -> LockHolder {
        switch Result(catching: { () throws(Errno) in try system.writerLockHolder(fd) }) {
        case .success(.reader): .reader
        // Nobody any more (let go in this instant): a writer had it.
        case .success(.writer), .success(nil): .writer
        case .failure: .anyOpener
        }
    }
}
