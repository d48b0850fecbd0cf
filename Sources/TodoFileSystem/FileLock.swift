/// An exclusive advisory lock that serialises `todo` processes writing the same file (`todo sort`
/// from cron, `todo watch`, interactive commands).
///
/// The lock is `flock(2)` on a sidecar file `.NAME.lock` beside the real (symlink-resolved) file,
/// never on the data file itself: safe replacement renames a new inode over the data file, and a
/// lock held on the old inode would protect nothing. The sidecar is created once and never written,
/// so sync clients see it only once.
///
/// `flock` locks belong to an open file description, so two `FileLock`s in one process exclude each
/// other just like two processes do. The lock is released when the value is destroyed or `release()`
/// is called, and by the kernel if the process dies.
///
/// Read-only directory: if the sidecar neither exists nor can be created (`EACCES`, `EROFS`,
/// `EPERM`), an existing sidecar is opened read-only (enough for `flock`); failing that, the
/// directory itself is locked. No replacement can succeed in such a directory anyway (rename needs
/// write access), so this fallback only has to serialise readers and `appendDurably` callers,
/// which all fall back the same way.
public struct FileLock: ~Copyable, Sendable {
    /// What is actually locked.
    public enum Target: Sendable, Hashable {
        /// The sidecar lock file at this path.
        case sidecar(String)
        /// The directory at this path (fallback for read-only directories).
        case directory(String)
    }

    /// What this lock holds.
    public let target: Target
    private let descriptor: FileDescriptor
    private let system: System

    /// Takes the lock for `path`, polling with `LOCK_NB` every `pollInterval` for at most `timeout`,
    /// so that a cron job never hangs forever behind a stuck process.
    ///
    /// Throws `FileSystemError.locked` (`todo.txt is locked by another todo process (waited 5 s)`,
    /// naming `path` as given) after the wait, or another `FileSystemError` if the lock file cannot
    /// be opened or locked at all. A `timeout` of zero tries exactly once.
    public init(
        for path: String,
        timeout: Duration = .seconds(5),
        pollInterval: Duration = .milliseconds(10),
        fileSystem: FileSystem = FileSystem()
    ) throws(FileSystemError) {
        let system = fileSystem.system
        let resolved = try fileSystem.resolve(path)
        let (target, fd) = try FileLock.openLockTarget(for: resolved, system: system)
        let clock = ContinuousClock()
        let start = clock.now
        while true {
            do {
                try system.flock(fd, .exclusiveNonBlocking)
                break
            } catch where error == .wouldBlock {
                let waited = start.duration(to: clock.now)
                if waited >= timeout {
                    system.closeQuietly(fd)
                    throw .locked(path: path, waited: waited)
                }
                system.sleep(min(pollInterval, timeout - waited))
            } catch {
                system.closeQuietly(fd)
                throw .failed(.lock, path: FileLock.path(of: target), error)
            }
        }
        self.target = target
        self.descriptor = fd
        self.system = system
    }

    /// Releases the lock now (the same as letting the value go out of scope).
    public consuming func release() {}

    deinit {
        _ = try? system.flock(descriptor, .unlock)
        system.closeQuietly(descriptor)
    }

    /// The sidecar's path for a data file: `/dir/todo.txt` → `/dir/.todo.txt.lock`.
    static func sidecarPath(for resolved: FileSystem.ResolvedPath) -> String {
        PathName.join(resolved.directory, "." + resolved.name + ".lock")
    }

    static func path(of target: Target) -> String {
        switch target {
        case .sidecar(let path), .directory(let path): path
        }
    }

    private static func openLockTarget(
        for resolved: FileSystem.ResolvedPath, system: System
    ) throws(FileSystemError) -> (Target, FileDescriptor) {
        let sidecar = sidecarPath(for: resolved)
        let denied: Set<Errno> = [.permissionDenied, .readOnlyFileSystem, .notPermitted]
        do {
            let fd = try system.open(sidecar, [.readWrite, .create, .closeOnExec, .noFollow], permissions: 0o666)
            return (.sidecar(sidecar), fd)
        } catch where denied.contains(error) {
            // Read-only directory or file system: fall back below.
        } catch {
            throw .failed(.lock, path: sidecar, error)
        }
        if let fd = try? system.open(sidecar, [.readOnly, .closeOnExec, .noFollow]) {
            return (.sidecar(sidecar), fd)
        }
        do {
            return (.directory(resolved.directory), try system.open(resolved.directory, [.readOnly, .directory, .closeOnExec]))
        } catch {
            throw .failed(.lock, path: resolved.directory, error)
        }
    }
}
