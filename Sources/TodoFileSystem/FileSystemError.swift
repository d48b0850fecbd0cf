/// What kind of process can hold the lock a writer waited for in vain (`FileSystemError.locked`).
public enum LockHolder: Sendable, Hashable {
    /// The lock on the file itself, which only a process that can write the file can take.
    case writer
    /// A read lock on the file, which any process that can read it can take.
    case reader
    /// The lock on the file itself where the platform lets any process that can open the file take
    /// it (Darwin's `flock`).
    case anyOpener
    /// The lock on the file's directory (the file does not exist yet, or cannot be opened for
    /// writing), which any process that can read the directory can take.
    case directory(String)
    /// An earlier version's lock file beside the file, or the fallback's.
    case sidecar(String)
}

/// Every way the file layer fails, each with enough context for a one-line message that names the
/// operation, the path and the reason (`cannot write /x/todo.txt: No space left on device`).
///
/// Paths are the resolved (absolute, symlink-free) paths that were actually touched, except for
/// `locked`, which names the file the caller asked to lock.
public enum FileSystemError: Error, CustomStringConvertible, Hashable, Sendable {
    /// What the file layer was doing when a system call failed; used in messages as `cannot <verb> <path>`.
    public enum Operation: String, Sendable, Hashable {
        case read = "read"
        case write = "write"
        case append = "append to"
        case createTemporaryFile = "create a temporary file beside"
        case sync = "sync"
        case setPermissions = "set the permissions of"
        case inspect = "inspect"
        case resolve = "resolve"
        case lock = "lock"
    }

    /// A system call failed: `cannot <operation> <path>: <reason>`.
    case failed(Operation, path: String, Errno)
    /// Renaming the temporary file over the target failed; the target is unchanged.
    case renameFailed(from: String, to: String, Errno)
    /// The file (or, for a dangling symlink, its target) does not exist.
    case notFound(path: String)
    /// The path names a directory where a file was expected.
    case isDirectory(path: String)
    /// The path names a FIFO, socket or device, which `todo` never reads or replaces.
    case notRegularFile(path: String)
    /// Writing is not allowed: the file or its directory denies write access, or (for root, whom the
    /// kernel would let through) has no write permission bit at all. Nothing was written.
    case readOnly(path: String, reason: String)
    /// Compare-and-swap failed on every attempt: someone kept changing the file. Nothing was written.
    case keptChanging(path: String, attempts: Int)
    /// Another process held the lock for the whole bounded wait; `holder` says what kind of process
    /// can hold what was locked, so that the message blames nobody wrongly.
    case locked(path: String, waited: Duration, holder: LockHolder)
    /// Another process kept the file open for writing for the whole wait (`ReplaceOptions.writerWait`):
    /// replacing it then would lose what that process writes. Nothing was written.
    case openForWriting(path: String, waited: Duration)
    /// The file is larger than the size limit (`FileSystem.sizeLimit`): refused before it is read.
    case tooLarge(path: String, size: Int64, limit: Int64)
    /// The file holds a NUL byte (first on `line`) and `ReplaceOptions.refusesNULBytes` was set: most
    /// likely a binary file given by mistake. Nothing was written.
    case holdsNUL(path: String, line: Int)
    /// An append would make the file `size` bytes, beyond this process's file size limit (`ulimit -f`,
    /// `RLIMIT_FSIZE`) of `limit`: refused before anything was written.
    case beyondFileSizeLimit(path: String, size: Int64, limit: Int64)
    /// An append failed with `errno` after `byteCount` of its bytes reached the file (from byte
    /// `offset`, -1 when unknown), and removing them failed too (`repair` says why): those bytes are still there.
    case appendLeftBytes(path: String, Errno, byteCount: Int, offset: Int64, repair: String)

    /// One line naming the path: `cannot write /x/todo.txt: No space left on device`, `/x: is a directory`.
    public var description: String {
        switch self {
        case .failed(let operation, let path, let errno):
            "cannot \(operation.rawValue) \(path): \(errno.message)"
        case .renameFailed(let from, let to, let errno):
            "rename \(PathName.lastComponent(of: from)) → \(to): \(errno.message)"
        case .notFound(let path):
            "\(path): no such file"
        case .isDirectory(let path):
            "\(path): is a directory"
        case .notRegularFile(let path):
            "\(path): not a regular file"
        case .readOnly(let path, let reason):
            "cannot write \(path): \(reason)"
        case .keptChanging(let path, let attempts):
            "cannot write \(path): it changed during each of \(attempts) attempts; nothing was written"
        case .locked(let path, let waited, let holder):
            FileSystemError.lockedMessage(path, holder: holder, waited: FileSystemError.format(waited))
        case .openForWriting(let path, let waited):
            "\(path) is open for writing by another program (waited \(FileSystemError.format(waited))); not replacing it, so nothing it writes is lost"
        case .tooLarge(let path, let size, let limit):
            "\(path): \(size) bytes, more than the limit of \(limit) (TODO_MAX_FILE_SIZE); not reading it"
        case .holdsNUL(let path, let line):
            "\(path): line \(line): NUL byte, this looks like a binary file; not rewriting it"
        case .beyondFileSizeLimit(let path, let size, let limit):
            "cannot append to \(path): it would grow to \(size) bytes, beyond the file size limit of \(limit) bytes (ulimit -f); nothing was written"
        case .appendLeftBytes(let path, let errno, let byteCount, let offset, let repair):
            "cannot append to \(path): \(errno.message); the first \(byteCount) bytes of the new text are left in the file \(offset < 0 ? "near its end" : "from byte \(offset)") (removing them failed: \(repair))"
        }
    }

    /// The errno behind the failure, if one system call caused it.
    public var errno: Errno? {
        switch self {
        case .failed(_, _, let errno), .renameFailed(_, _, let errno), .appendLeftBytes(_, let errno, _, _, _): errno
        default: nil
        }
    }

    /// The timeout message for each kind of lock (docs/files.md, "The writers' lock").
    static func lockedMessage(_ path: String, holder: LockHolder, waited: String) -> String {
        switch holder {
        case .writer:
            "\(path) is locked by another process that can write it (waited \(waited))"
        case .reader:
            "\(path) is read-locked by another process (an fcntl read lock, which any process that can read the file can take); not writing it while that lock is held (waited \(waited))"
        case .anyOpener:
            "\(path) is locked by another process (on this system any process that can open the file can take this lock; waited \(waited))"
        case .directory(let directory):
            "\(path) is locked: another process holds the lock on its directory \(directory), which writers take while the file does not exist or cannot be opened for writing, and which any process that can read the directory can take (waited \(waited))"
        case .sidecar(let sidecar):
            "\(path) is locked by another process holding \(sidecar) (waited \(waited))"
        }
    }

    /// `5 s`, `1.5 s`, `200 ms`: short, and exact enough for a message about waiting.
    package static func format(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
        if milliseconds < 1000 { return "\(milliseconds) ms" }
        if milliseconds % 1000 == 0 { return "\(milliseconds / 1000) s" }
        let tenths = (milliseconds + 50) / 100
        return tenths % 10 == 0 ? "\(tenths / 10) s" : "\(tenths / 10).\(tenths % 10) s"
    }
}
