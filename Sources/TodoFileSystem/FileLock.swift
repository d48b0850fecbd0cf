/// An exclusive advisory lock that serialises the processes writing one file (`todo sort` from
/// cron, `todo watch`, interactive commands); docs/files.md, "The writers' lock".
///
/// The lock is on the real (symlink-resolved) file itself, opened for writing and locked with
/// `Syscalls.writerLock` (Linux: an open-file-description write lock; Platform+WriterLock.swift).
/// Why the file, and opened for writing:
/// - only a process that can write the file can take it. The earlier lock, `flock` on the
///   directory, could be taken by anyone who could read the directory, which blocked every writer
///   and was reported as "another todo process".
/// - it creates nothing (the `.NAME.lock` sidecars of earlier versions were committed
///   and synced).
/// - replacement renames a new inode over the file, so a lock on the old inode would protect
///   nothing from then on: after taking it, the path is checked to still name the locked inode,
///   and if it does not, the lock is dropped and taken again on the file now there (within the
///   same wait). A writer that arrives after another's rename locks the new inode at once, while
///   the other finishes its last steps (late appends, the directory sync); those steps are safe
///   against any concurrent writer by themselves (docs/files.md section 1).
/// - a waiter never keeps the file open for writing between its tries: replacement waits for every
///   process that has the file open for writing, and would wait for the waiters.
///
/// Invariant: a `FileLock` value holds the lock for as long as it exists. It is released when the
/// value is destroyed or `release()` is called, and by the kernel if the process dies. Locks belong
/// to an open file description, so two `FileLock`s in one process for the same file exclude each
/// other just like two processes do; callers never nest locks of one file.
///
/// Where the file itself cannot be locked, the directory lock of the previous version is taken:
/// the file does not exist yet (`todo add` creates it; once it exists, a writer that got the
/// directory lock lets go and locks the file), it cannot be opened for writing (a read-only file
/// that its writers replace by rename, an append-only or immutable file), it is not a regular file
/// (the writer refuses it afterwards), or the file system has no such locks. That lock is `flock`
/// on the directory, which any process that can read the directory can also take; the timeout
/// message says so. Its own fallback, where a directory cannot be `flock`ed (NFS without flock
/// emulation answers `EBADF` for a read-only descriptor; `ENOLCK`, `EOPNOTSUPP`, `ENOTSUP` and
/// `EINVAL` elsewhere) or cannot be opened for reading (a `-wx` directory), is the sidecar
/// `.NAME.lock` of earlier versions: created once (mode 0666 less the umask) and never written,
/// or, if it cannot be created (`EACCES`, `EROFS`, `EPERM`), an existing one opened read-only.
///
/// Migration of earlier versions' sidecars: holding the lock, a `.NAME.lock` found beside the real
/// file is opened read-only, `flock`ed too (within the same overall timeout: an older todo process
/// may be holding it right now), unlinked and closed. One that cannot be opened or locked, or is
/// not a regular file, is left alone. One that cannot be removed (a read-only directory) stays,
/// silently, and its lock is kept as long as the main one, so older versions stay excluded there.
/// Older and newer versions running at the same moment do not exclude each other (they lock
/// different things): run one version at a time.
public struct FileLock: ~Copyable, Sendable {
    /// What is actually locked.
    public enum Target: Sendable, Hashable {
        /// The file at this path, opened for writing: the normal case.
        case file(String)
        /// The directory at this path, which holds the real file: where the file cannot be locked.
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
    /// Throws `FileSystemError.locked` (`todo.txt is locked by another process that can write it
    /// (waited 5 s)`, naming `path` as given and what kind of process can hold the lock) after the
    /// wait, or another `FileSystemError` if nothing can be opened or locked at all. A `timeout` of
    /// zero tries each lock exactly once.
    public init(
        for path: String,
        timeout: Duration = .seconds(5),
        pollInterval: Duration = .milliseconds(10),
        fileSystem: FileSystem = FileSystem()
    ) throws(FileSystemError) {
        let system = fileSystem.system
        let budget = Budget(start: ContinuousClock().now, timeout: timeout, pollInterval: pollInterval)
        let (target, fd, kept) = try FileLock.acquire(path, budget: budget, fileSystem: fileSystem)
        self.target = target
        self.descriptor = fd
        self.keptSidecar = kept
        self.system = system
    }

    /// The file's own lock, or where it cannot be had the directory's (or the sidecar's); returns the
    /// target, its locked descriptor and that of an earlier sidecar that could not be removed.
    private static func acquire(
        _ path: String, budget: Budget, fileSystem: FileSystem
    ) throws(FileSystemError) -> (Target, FileDescriptor, FileDescriptor?) {
        let system = fileSystem.system
        while true {
            let resolved = try fileSystem.resolve(path)
            let attempt = try lockFile(resolved, requestedPath: path, budget: budget, system: system)
            switch attempt {
            case .locked(let fd):
                do {
                    let kept = try removeEarlierSidecar(of: resolved, requestedPath: path, budget: budget, system: system)
                    return (.file(resolved.path), fd, kept)
                } catch {
                    system.closeQuietly(fd)
                    throw error
                }
            case .replaced:
                // Renamed over between the open and the lock: the file there now is the one to lock.
                if budget.isOver { throw .locked(path: path, waited: budget.waited, holder: .writer) }
                continue
            case .missing, .cannotLock:
                break
            }
            let (target, fd, kept) = try lock(resolved, requestedPath: path, budget: budget, system: system)
            // Created by another writer while this one waited for the directory: from now on its
            // writers lock the file, so this one must too.
            if case .missing = attempt, (try? system.stat(path)) != nil, !budget.isOver {
                if let kept { system.closeQuietly(kept) }
                system.closeQuietly(fd)
                continue
            }
            return (target, fd, kept)
        }
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
        case .file(let path), .sidecar(let path), .directory(let path): path
        }
    }

    // MARK: - taking the lock

    /// The overall wait: every poll of one `FileLock` counts against the same deadline.
    struct Budget {
        let start: ContinuousClock.Instant
        let timeout: Duration
        let pollInterval: Duration

        /// How long the lock has been waited for so far.
        var waited: Duration { start.duration(to: ContinuousClock().now) }
        /// Whether the deadline has passed.
        var isOver: Bool { waited >= timeout }
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
    static func lock(
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
            throw .locked(path: requestedPath, waited: waited, holder: .directory(directory))
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
            throw .locked(path: requestedPath, waited: waited, holder: .sidecar(sidecar))
        case .failed(let error):
            system.closeQuietly(fd)
            throw .failed(.lock, path: sidecar, error)
        }
    }

    /// Removes an earlier version's sidecar beside the real file, after waiting (within the budget)
    /// for any older process that holds it. Called holding the main lock, so no two new
    /// processes migrate at once. Throws only `FileSystemError.locked`; anything else that stands in
    /// the way leaves the sidecar in place. Returns the sidecar's descriptor, still locked, when it
    /// could not be removed (the caller keeps it as long as the directory lock), else `nil`.
    static func removeEarlierSidecar(
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
            throw .locked(path: requestedPath, waited: waited, holder: .sidecar(sidecar))
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
