// The file layer's only door to the C library for files (ProcessContext.swift is the other, for the
// environment, clock and terminal). Every other file works with the platform-neutral types defined
// here and in Syscalls.swift (`OpenFlags`, `FileStatus`, the `Errno` constants, `Syscalls.live`), so a
// port to another platform touches these files alone.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("TodoFileSystem supports Linux (Glibc) and Darwin only")
#endif
import CTodoSystem

// MARK: - errno values

extension Errno {
    /// Operation not permitted (`EPERM`).
    public static let notPermitted = Errno(rawValue: EPERM)
    /// No such file or directory (`ENOENT`).
    public static let noSuchFile = Errno(rawValue: ENOENT)
    /// Interrupted system call (`EINTR`); the seam retries it everywhere except `close`.
    public static let interrupted = Errno(rawValue: EINTR)
    /// Input/output error (`EIO`).
    public static let ioError = Errno(rawValue: EIO)
    /// Permission denied (`EACCES`).
    public static let permissionDenied = Errno(rawValue: EACCES)
    /// File exists (`EEXIST`).
    public static let fileExists = Errno(rawValue: EEXIST)
    /// Not a directory (`ENOTDIR`).
    public static let notDirectory = Errno(rawValue: ENOTDIR)
    /// Is a directory (`EISDIR`).
    public static let isDirectory = Errno(rawValue: EISDIR)
    /// Invalid argument (`EINVAL`).
    public static let invalidArgument = Errno(rawValue: EINVAL)
    /// No space left on device (`ENOSPC`).
    public static let noSpace = Errno(rawValue: ENOSPC)
    /// Read-only file system (`EROFS`).
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    /// Resource temporarily unavailable (`EWOULDBLOCK`, equal to `EAGAIN` on Linux and Darwin):
    /// a non-blocking `flock` found the lock taken.
    public static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
    /// Disk quota exceeded (`EDQUOT`).
    public static let quotaExceeded = Errno(rawValue: EDQUOT)
    /// Too many levels of symbolic links (`ELOOP`).
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)
    /// Bad file descriptor (`EBADF`).
    public static let badFileDescriptor = Errno(rawValue: EBADF)
    /// Function not implemented (`ENOSYS`).
    public static let notImplemented = Errno(rawValue: ENOSYS)
    /// Illegal seek (`ESPIPE`).
    public static let illegalSeek = Errno(rawValue: ESPIPE)
    /// Operation not supported (`EOPNOTSUPP`).
    public static let notSupported = Errno(rawValue: EOPNOTSUPP)
    /// Not supported (`ENOTSUP`): what the extended attribute calls report on a file system without
    /// them. The same value as `EOPNOTSUPP` (`notSupported`) on Linux, a different one on Darwin.
    public static let unsupported = Errno(rawValue: ENOTSUP)
    #if canImport(Glibc)
    /// No such extended attribute (`ENODATA`; `ENOATTR` on Darwin).
    public static let noSuchAttribute = Errno(rawValue: ENODATA)
    #else
    /// No such extended attribute (`ENOATTR`; `ENODATA` on Linux).
    public static let noSuchAttribute = Errno(rawValue: ENOATTR)
    #endif
    /// Result out of range (`ERANGE`): for the extended attribute calls, the buffer is too small
    /// (the value or the name list grew since its size was asked).
    public static let outOfRange = Errno(rawValue: ERANGE)

    /// The C name of the value (`"ENOSPC"`), or `nil` for values this table does not know.
    var platformName: String? {
        switch rawValue {
        case EPERM: "EPERM"
        case ENOENT: "ENOENT"
        case ESRCH: "ESRCH"
        case EINTR: "EINTR"
        case EIO: "EIO"
        case ENXIO: "ENXIO"
        case E2BIG: "E2BIG"
        case EBADF: "EBADF"
        case EAGAIN: "EAGAIN"
        case ENOMEM: "ENOMEM"
        case EACCES: "EACCES"
        case EFAULT: "EFAULT"
        case EBUSY: "EBUSY"
        case EEXIST: "EEXIST"
        case EXDEV: "EXDEV"
        case ENODEV: "ENODEV"
        case ENOTDIR: "ENOTDIR"
        case EISDIR: "EISDIR"
        case EINVAL: "EINVAL"
        case ENFILE: "ENFILE"
        case EMFILE: "EMFILE"
        case ETXTBSY: "ETXTBSY"
        case EFBIG: "EFBIG"
        case ENOSPC: "ENOSPC"
        case ESPIPE: "ESPIPE"
        case EROFS: "EROFS"
        case EMLINK: "EMLINK"
        case EPIPE: "EPIPE"
        case ENAMETOOLONG: "ENAMETOOLONG"
        case ENOLCK: "ENOLCK"
        case ENOSYS: "ENOSYS"
        case ENOTEMPTY: "ENOTEMPTY"
        case ELOOP: "ELOOP"
        case EDQUOT: "EDQUOT"
        case ESTALE: "ESTALE"
        case EOPNOTSUPP: "EOPNOTSUPP"
        case ETIMEDOUT: "ETIMEDOUT"
        case ERANGE: "ERANGE"
        #if canImport(Glibc)
        case ENODATA: "ENODATA"
        #else
        case ENOATTR: "ENOATTR"
        case ENOTSUP: "ENOTSUP"
        #endif
        default: nil
        }
    }

    /// The C library's message for the value, from `strerror_r` (thread-safe, unlike `strerror`).
    var platformMessage: String {
        var buffer = [CChar](repeating: 0, count: 256)
        let status = buffer.withUnsafeMutableBufferPointer { pointer -> Int32 in
            guard let base = pointer.baseAddress else { return -1 }
            return Int32(strerror_r(rawValue, base, pointer.count - 1))
        }
        guard status == 0 else { return "Unknown error \(rawValue)" }
        let bytes = buffer.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The calling thread's `errno`; read it immediately after the failed call.
    static var current: Errno { Errno(rawValue: errno) }
}

// MARK: - flag values

extension OpenFlags {
    /// `O_RDONLY`.
    package static let readOnly = OpenFlags(rawValue: O_RDONLY)
    /// `O_WRONLY`.
    package static let writeOnly = OpenFlags(rawValue: O_WRONLY)
    /// `O_RDWR`.
    package static let readWrite = OpenFlags(rawValue: O_RDWR)
    /// `O_APPEND`: every write goes to the current end of file, atomically with respect to other appenders.
    package static let append = OpenFlags(rawValue: O_APPEND)
    /// `O_CREAT`.
    package static let create = OpenFlags(rawValue: O_CREAT)
    /// `O_EXCL`: with `create`, fail with `EEXIST` instead of opening an existing file or following a symlink.
    package static let exclusive = OpenFlags(rawValue: O_EXCL)
    /// `O_CLOEXEC`: no descriptor leaks into spawned children (editors, git).
    package static let closeOnExec = OpenFlags(rawValue: O_CLOEXEC)
    /// `O_NOFOLLOW`.
    package static let noFollow = OpenFlags(rawValue: O_NOFOLLOW)
    /// `O_DIRECTORY`.
    package static let directory = OpenFlags(rawValue: O_DIRECTORY)
    /// `O_NONBLOCK`: opening a FIFO named like the todo file must not hang; regular files ignore it.
    package static let nonBlocking = OpenFlags(rawValue: O_NONBLOCK)
    /// `O_TRUNC`.
    package static let truncate = OpenFlags(rawValue: O_TRUNC)
}

extension AccessMode {
    /// `W_OK`.
    package static let write = AccessMode(rawValue: W_OK)
    /// `R_OK`.
    package static let read = AccessMode(rawValue: R_OK)
    /// `X_OK`.
    package static let execute = AccessMode(rawValue: X_OK)
}

extension LockOperation {
    /// `LOCK_EX | LOCK_NB`: take the exclusive lock or fail with `EWOULDBLOCK` at once.
    package static let exclusiveNonBlocking = LockOperation(rawValue: LOCK_EX | LOCK_NB)
    /// `LOCK_UN`.
    package static let unlock = LockOperation(rawValue: LOCK_UN)
}

// MARK: - stat conversion

extension FileStatus {
    /// Copies the fields `todo` uses out of a C `stat`; the only place that knows their platform names.
    init(_ s: stat) {
        let kind: FileKind
        switch UInt32(s.st_mode) & UInt32(S_IFMT) {
        case UInt32(S_IFREG): kind = .regular
        case UInt32(S_IFDIR): kind = .directory
        case UInt32(S_IFLNK): kind = .symbolicLink
        case UInt32(S_IFCHR): kind = .characterDevice
        default: kind = .other
        }
        #if canImport(Glibc)
        let mtime = s.st_mtim
        #else
        let mtime = s.st_mtimespec
        #endif
        self.init(
            identity: FileIdentity(
                device: UInt64(truncatingIfNeeded: s.st_dev),
                inode: UInt64(truncatingIfNeeded: s.st_ino),
                size: Int64(s.st_size),
                modificationSeconds: Int64(mtime.tv_sec),
                modificationNanoseconds: Int64(mtime.tv_nsec)),
            kind: kind,
            permissions: UInt32(s.st_mode) & 0o7777,
            owner: UInt32(s.st_uid),
            group: UInt32(s.st_gid),
            linkCount: UInt64(s.st_nlink))
    }
}
