/// An exclusive advisory lock that serialises `todo` processes writing the same file (`todo sort`
/// from cron, `todo watch`, interactive commands).
///
/// The lock is `flock(2)` on the directory that holds the real (symlink-resolved) file, opened
/// `O_RDONLY | O_DIRECTORY | O_CLOEXEC`. Why the directory:
/// - it is never the data file itself: safe replacement renames a new inode over the data file, and
///   a lock held on the old inode would protect nothing. The directory's inode stays put.
/// - it creates nothing. Earlier versions locked a sidecar `.NAME.lock` beside the file, which git
///   listed, `git add -A` committed and sync clients copied to every machine (issue 12).
/// - it needs only read access, so it works unchanged in a read-only directory or file system, and
///   it excludes every todo process, of any user, that can read the directory.
///
/// Invariant: a `FileLock` value holds the lock for as long as it exists. It is released when the
/// value is destroyed or `release()` is called, and by the kernel if the process dies.
///
/// One lock per directory: all files of one directory share it, so `todo.txt`, `done.txt` and
/// `report.txt` serialise together. `flock` locks belong to an open file description, so two
/// `FileLock`s in one process exclude each other just like two processes do, and that includes two
/// locks for *different* files of the same directory: taking the second while holding the first
/// waits out the timeout and fails. Callers therefore never nest locks (none does today: archive
/// appends to done.txt while holding only the todo file's lock).
///
/// Fallback, and only then a file is left: where `flock` on a directory is not supported (NFS
/// without flock emulation answers `EBADF` for a read-only descriptor; `ENOLCK`, `EOPNOTSUPP`,
/// `ENOTSUP` and `EINVAL` elsewhere), or the directory cannot be opened for reading (a `-wx`
/// directory), the lock falls back to the sidecar `.NAME.lock` of earlier versions: created once
/// (mode 0666 less the umask) and never written, or, if it cannot be created (`EACCES`, `EROFS`,
/// `EPERM`), an existing one opened read-only. Every process on such a file system falls back the
/// same way, so they still exclude each other; but a process that can read a `-wx` directory takes
/// the directory lock and does not exclude one that cannot (mixed permissions, not a todo setup).
///
/// Migration of earlier versions' sidecars: holding the directory lock, a `.NAME.lock` found beside
/// the real file is opened read-only, `flock`ed too (within the same overall timeout: an older todo
/// process may be holding it right now), unlinked and closed. One that cannot be opened or locked,
/// or is not a regular file, is left alone. One that cannot be removed (a read-only directory)
/// stays, silently, and its lock is kept as long as the directory's, so older versions stay
/// excluded there. Where it was removed, an older and a
/// newer version running at the same moment do not exclude each other: the older one creates a new
/// sidecar, the newer one locks the directory. Run one version at a time.
public struct FileLock: ~Copyable, Sendable {
    /// What is actually locked.
    public enum Target: Sendable, Hashable {
        /// The directory at this path, which holds the real file: the normal case.
        case directory(String)
        /// The sidecar lock file at this path: the fallback where a directory cannot be locked.
        case sidecar(String)
    }

    /// What this lock holds.
    public let target: Target
    private let descriptor: FileDescriptor
    /// An earlier version's sidecar that could not be removed, locked for as long as `descriptor`.
    private let keptSidecar: FileDescriptor?
    private let system: System

    /// Takes the lock for `path`, polling with `LOCK_NB` every `pollInterval` for at most `timeout`
    /// in all (the directory and an earlier version's sidecar share that budget), so that a cron
    /// job never hangs forever behind a stuck process.
    ///
    /// Throws `FileSystemError.locked` (`todo.txt is locked by another todo process (waited 5 s)`,
    /// naming `path` as given) after the wait, or another `FileSystemError` if nothing can be opened
    /// or locked at all. A `timeout` of zero tries each lock exactly once.
    public init(
        for path: String,
        timeout: Duration = .seconds(5),
        pollInterval: Duration = .milliseconds(10),
        fileSystem: FileSystem = FileSystem()
    ) throws(FileSystemError) {
        let system = fileSystem.system
        let resolved = try fileSystem.resolve(path)
        let budget = Budget(start: ContinuousClock().now, timeout: timeout, pollInterval: pollInterval)
        let (target, fd, keptSidecar) = try FileLock.lock(resolved, requestedPath: path, budget: budget, system: system)
        self.target = target
        self.descriptor = fd
        self.keptSidecar = keptSidecar
        self.system = system
    }

    /// Releases the lock now (the same as letting the value go out of scope).
    public consuming func release() {}

    deinit {
        if let keptSidecar {
            _ = try? system.flock(keptSidecar, .unlock)
            system.closeQuietly(keptSidecar)
        }
        _ = try? system.flock(descriptor, .unlock)
        system.closeQuietly(descriptor)
    }

    /// The sidecar's path for a data file: `/dir/todo.txt` → `/dir/.todo.txt.lock`. Used only in the
    /// fallback and to find earlier versions' sidecars.
    static func sidecarPath(for resolved: FileSystem.ResolvedPath) -> String {
        PathName.join(resolved.directory, "." + resolved.name + ".lock")
    }

    static func path(of target: Target) -> String {
        switch target {
        case .sidecar(let path), .directory(let path): path
        }
    }

    // MARK: - taking the lock

    /// The overall wait: every poll of one `FileLock` counts against the same deadline.
    private struct Budget {
        let start: ContinuousClock.Instant
        let timeout: Duration
        let pollInterval: Duration
    }

    /// How one polled `flock` ended.
    private enum Attempt {
        case acquired
        case timedOut(waited: Duration)
        case failed(Errno)
    }

    /// `flock(2)` errors that mean "cannot lock this here" rather than "something broke": the
    /// directory lock then falls back to the sidecar.
    static let unsupportedLockErrors: Set<Errno> = {
        var errors: Set<Errno> = [.badFileDescriptor, .invalidArgument, .notSupported]
        // ENOLCK has no named constant yet; Platform.swift's name table knows its number.
        if let noLocks = (Int32(1)...255).lazy.map(Errno.init(rawValue:)).first(where: { $0.platformName == "ENOLCK" }) {
            errors.insert(noLocks)
        }
        #if canImport(Darwin)
        errors.insert(Errno(rawValue: 45)) // ENOTSUP, a value of its own on Darwin (equal to EOPNOTSUPP on Linux).
        #endif
        return errors
    }()

    /// Errors opening the directory for which the sidecar is still worth a try (it needs write and
    /// search access, not read access).
    private static let directoryUnreadable: Set<Errno> = [.permissionDenied, .notPermitted]

    /// Takes the directory lock (then migrates an earlier sidecar) or, where that is impossible, the
    /// sidecar lock. Returns the target, its locked descriptor and that of an earlier sidecar that
    /// could not be removed, all owned by the caller.
    private static func lock(
        _ resolved: FileSystem.ResolvedPath, requestedPath: String, budget: Budget, system: System
    ) throws(FileSystemError) -> (Target, FileDescriptor, FileDescriptor?) {
        let directory = resolved.directory
        let fd: FileDescriptor
        do {
            fd = try system.open(directory, [.readOnly, .directory, .closeOnExec])
        } catch where directoryUnreadable.contains(error) {
            let (target, fd) = try lockSidecar(resolved, requestedPath: requestedPath, budget: budget, system: system)
            return (target, fd, nil)
        } catch {
            throw .failed(.lock, path: directory, error)
        }
        switch poll(fd, budget: budget, system: system) {
        case .acquired:
            break
        case .timedOut(let waited):
            system.closeQuietly(fd)
            throw .locked(path: requestedPath, waited: waited)
        case .failed(let error) where unsupportedLockErrors.contains(error):
            system.closeQuietly(fd)
            let (target, fd) = try lockSidecar(resolved, requestedPath: requestedPath, budget: budget, system: system)
            return (target, fd, nil)
        case .failed(let error):
            system.closeQuietly(fd)
            throw .failed(.lock, path: directory, error)
        }
        do {
            let kept = try removeEarlierSidecar(of: resolved, requestedPath: requestedPath, budget: budget, system: system)
            return (.directory(directory), fd, kept)
        } catch {
            _ = try? system.flock(fd, .unlock)
            system.closeQuietly(fd)
            throw error
        }
    }

    /// The fallback: `flock` on the sidecar, created if need be (the behaviour of earlier versions).
    private static func lockSidecar(
        _ resolved: FileSystem.ResolvedPath, requestedPath: String, budget: Budget, system: System
    ) throws(FileSystemError) -> (Target, FileDescriptor) {
        let sidecar = sidecarPath(for: resolved)
        let fd: FileDescriptor
        do {
            fd = try system.open(sidecar, [.readWrite, .create, .closeOnExec, .noFollow], permissions: 0o666)
        } catch where [.permissionDenied, .readOnlyFileSystem, .notPermitted].contains(error) {
            // Read-only: an existing sidecar opened read-only is enough for `flock`.
            do {
                fd = try system.open(sidecar, [.readOnly, .closeOnExec, .noFollow])
            } catch let secondError {
                throw .failed(.lock, path: sidecar, secondError == .noSuchFile ? error : secondError)
            }
        } catch {
            throw .failed(.lock, path: sidecar, error)
        }
        switch poll(fd, budget: budget, system: system) {
        case .acquired:
            return (.sidecar(sidecar), fd)
        case .timedOut(let waited):
            system.closeQuietly(fd)
            throw .locked(path: requestedPath, waited: waited)
        case .failed(let error):
            system.closeQuietly(fd)
            throw .failed(.lock, path: sidecar, error)
        }
    }

    /// Removes an earlier version's sidecar beside the real file, after waiting (within the budget)
    /// for any older process that holds it. Called holding the directory lock, so no two new
    /// processes migrate at once. Throws only `FileSystemError.locked`; anything else that stands in
    /// the way leaves the sidecar in place. Returns the sidecar's descriptor, still locked, when it
    /// could not be removed (the caller keeps it as long as the directory lock), else `nil`.
    private static func removeEarlierSidecar(
        of resolved: FileSystem.ResolvedPath, requestedPath: String, budget: Budget, system: System
    ) throws(FileSystemError) -> FileDescriptor? {
        let sidecar = sidecarPath(for: resolved)
        // Non-blocking: a FIFO of that name must not hang the open. No symlinks: earlier versions
        // never made one, so a symlink is someone else's.
        guard let fd = try? system.open(sidecar, [.readOnly, .closeOnExec, .noFollow, .nonBlocking]) else { return nil }
        // Only a regular file can be an earlier version's sidecar.
        guard let status = try? system.fstat(fd), status.kind == .regular else {
            system.closeQuietly(fd)
            return nil
        }
        switch poll(fd, budget: budget, system: system) {
        case .acquired:
            // Unlinked while locked, so no older process is inside its critical section; closing
            // drops the lock with the last reference. A failure (read-only directory) leaves the
            // file, locked, to the caller: it is clutter, never data.
            guard (try? system.unlink(sidecar)) != nil else { return fd }
            system.closeQuietly(fd)
            return nil
        case .timedOut(let waited):
            system.closeQuietly(fd)
            throw .locked(path: requestedPath, waited: waited)
        case .failed:
            // Cannot be locked here; removing it unlocked could pull it from under an older process.
            system.closeQuietly(fd)
            return nil
        }
    }

    /// `flock(LOCK_EX | LOCK_NB)` on `fd` every `pollInterval` until it succeeds, fails otherwise,
    /// or the budget's deadline has passed (checked after each try, so a zero timeout tries once).
    private static func poll(_ fd: FileDescriptor, budget: Budget, system: System) -> Attempt {
        let clock = ContinuousClock()
        while true {
            do {
                try system.flock(fd, .exclusiveNonBlocking)
                return .acquired
            } catch where error == .wouldBlock {
                let waited = budget.start.duration(to: clock.now)
                if waited >= budget.timeout { return .timedOut(waited: waited) }
                system.sleep(min(budget.pollInterval, budget.timeout - waited))
            } catch {
                return .failed(error)
            }
        }
    }
}
