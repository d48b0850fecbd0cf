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
    public static let readOnly = OpenFlags(rawValue: O_RDONLY)
    /// `O_WRONLY`.
    public static let writeOnly = OpenFlags(rawValue: O_WRONLY)
    /// `O_RDWR`.
    public static let readWrite = OpenFlags(rawValue: O_RDWR)
    /// `O_APPEND`: every write goes to the current end of file, atomically with respect to other appenders.
    public static let append = OpenFlags(rawValue: O_APPEND)
    /// `O_CREAT`.
    public static let create = OpenFlags(rawValue: O_CREAT)
    /// `O_EXCL`: with `create`, fail with `EEXIST` instead of opening an existing file or following a symlink.
    public static let exclusive = OpenFlags(rawValue: O_EXCL)
    /// `O_CLOEXEC`: no descriptor leaks into spawned children (editors, git).
    public static let closeOnExec = OpenFlags(rawValue: O_CLOEXEC)
    /// `O_NOFOLLOW`.
    public static let noFollow = OpenFlags(rawValue: O_NOFOLLOW)
    /// `O_DIRECTORY`.
    public static let directory = OpenFlags(rawValue: O_DIRECTORY)
    /// `O_NONBLOCK`: opening a FIFO named like the todo file must not hang; regular files ignore it.
    public static let nonBlocking = OpenFlags(rawValue: O_NONBLOCK)
    /// `O_TRUNC`.
    public static let truncate = OpenFlags(rawValue: O_TRUNC)
}

extension AccessMode {
    /// `W_OK`.
    public static let write = AccessMode(rawValue: W_OK)
    /// `R_OK`.
    public static let read = AccessMode(rawValue: R_OK)
    /// `X_OK`.
    public static let execute = AccessMode(rawValue: X_OK)
}

extension LockOperation {
    /// `LOCK_EX | LOCK_NB`: take the exclusive lock or fail with `EWOULDBLOCK` at once.
    public static let exclusiveNonBlocking = LockOperation(rawValue: LOCK_EX | LOCK_NB)
    /// `LOCK_UN`.
    public static let unlock = LockOperation(rawValue: LOCK_UN)
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

// MARK: - the live syscalls

/// Runs `body` and turns the C convention (-1 plus `errno`) into a `Result`, reading `errno` before
/// anything else can overwrite it.
@inline(__always)
private func checked<T: BinaryInteger>(_ body: () -> T) -> Result<T, Errno> {
    let value = body()
    return value == -1 ? .failure(.current) : .success(value)
}

extension Syscalls {
    /// The real C library, one closure per call. No retries here: `Syscalls`' methods add EINTR
    /// handling and write loops on top, so injected faults go through the same logic as real ones.
    public static let live = Syscalls(
        open: { path, flags, permissions in
            checked { platformOpen(path, flags.rawValue, permissions) }.map(FileDescriptor.init(rawValue:))
        },
        createExclusive: { path, permissions in
            // O_APPEND: every write lands at the end, also after the rename, when the file is the
            // target and others may append to it too (see `FileSystem.replace`, step 6).
            let flags = O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW | O_APPEND
            return checked { platformOpen(path, flags, permissions) }.map(FileDescriptor.init(rawValue:))
        },
        read: { fd, buffer in checked { platformRead(fd.rawValue, buffer.baseAddress, buffer.count) } },
        pread: { fd, buffer, offset in
            checked { platformPread(fd.rawValue, buffer.baseAddress, buffer.count, offset) }
        },
        write: { fd, buffer in checked { platformWrite(fd.rawValue, buffer.baseAddress, buffer.count) } },
        writeVector: { fd, buffers in
            let vectors = UnsafeMutableBufferPointer<iovec>.allocate(capacity: buffers.count)
            defer { vectors.deallocate() }
            for (index, buffer) in buffers.enumerated() {
                vectors[index] = iovec(iov_base: UnsafeMutableRawPointer(mutating: buffer.baseAddress), iov_len: buffer.count)
            }
            return checked { platformWritev(fd.rawValue, vectors.baseAddress, Int32(buffers.count)) }
        },
        startWriteback: { fd, offset, count in
            checked { ctodo_start_writeback(fd.rawValue, offset, count) }.map { _ in () }
        },
        fsync: { fd in checked { platformFsync(fd.rawValue) }.map { _ in () } },
        ftruncate: { fd, length in checked { platformFtruncate(fd.rawValue, length) }.map { _ in () } },
        fchmod: { fd, permissions in checked { platformFchmod(fd.rawValue, permissions) }.map { _ in () } },
        fchown: { fd, owner, group in checked { platformFchown(fd.rawValue, owner, group) }.map { _ in () } },
        fstat: { fd in
            var s = emptyStat()
            return checked { platformFstat(fd.rawValue, &s) }.map { _ in FileStatus(s) }
        },
        stat: { path in
            var s = emptyStat()
            return checked { platformStat(path, &s) }.map { _ in FileStatus(s) }
        },
        lstat: { path in
            var s = emptyStat()
            return checked { platformLstat(path, &s) }.map { _ in FileStatus(s) }
        },
        access: { path, mode in checked { platformAccess(path, mode.rawValue) }.map { _ in () } },
        rename: { from, to in checked { platformRename(from, to) }.map { _ in () } },
        renameNoReplace: { from, to in checked { ctodo_rename_noreplace(from, to) }.map { _ in () } },
        renameExchange: { from, to in checked { ctodo_rename_exchange(from, to) }.map { _ in () } },
        unlink: { path in checked { platformUnlink(path) }.map { _ in () } },
        close: { fd in checked { platformClose(fd.rawValue) }.map { _ in () } },
        flock: { fd, operation in checked { platformFlock(fd.rawValue, operation.rawValue) }.map { _ in () } },
        realpath: { path in
            guard let resolved = platformRealpath(path) else { return .failure(.current) }
            defer { free(resolved) }
            return .success(String(cString: UnsafePointer(resolved)))
        },
        makeDirectory: { path, permissions in checked { mkdir(path, mode_t(permissions)) }.map { _ in () } },
        directoryEntries: { path, prefix in
            guard let directory = opendir(path) else { return .failure(.current) }
            defer { closedir(directory) }
            var names: [String] = []
            while let entry = readdir(directory) {
                // Names without the prefix are skipped by comparing bytes, without building a
                // String for each (a home directory may hold thousands).
                let name: String? = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                    pointer.withMemoryRebound(to: UInt8.self, capacity: Int(NAME_MAX) + 1) { bytes in
                        for (index, byte) in prefix.enumerated() where bytes[index] != byte { return nil }
                        return String(cString: bytes)
                    }
                }
                if let name, name != ".", name != ".." { names.append(name) }
            }
            return .success(names)
        },
        sleep: { duration in
            let (seconds, attoseconds) = duration.components
            var request = timespec(tv_sec: Int(seconds), tv_nsec: Int(attoseconds / 1_000_000_000))
            var remaining = timespec()
            while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
        },
        random: { UInt64.random(in: .min ... .max) },
        flistxattr: { fd, buffer in checked { platformFlistxattr(fd.rawValue, buffer) } },
        fgetxattr: { fd, name, buffer in
            withCName(name) { cName in checked { platformFgetxattr(fd.rawValue, cName, buffer) } }
        },
        fsetxattr: { fd, name, value in
            withCName(name) { cName in checked { platformFsetxattr(fd.rawValue, cName, value) }.map { _ in () } }
        },
        othersWriting: { fd in
            let answer = ctodo_others_writing(fd.rawValue)
            let leaseError = Errno.current
            // A lease is refused for this process's own write descriptors too: one inherited from the
            // program that started it (`exec 3>>todo.txt; exec todo sort`) would make every command
            // wait for itself. Only `/proc` tells this process apart from the others.
            if answer == 0 || (answer == 1 && !ProcessWriters.selfWriting(fd.rawValue)) { return .success(answer == 1) }
            return ProcessWriters.othersWriting(fd.rawValue).map { Result.success($0) } ?? .failure(leaseError)
        },
        currentOffset: AppendPlatform.currentOffset, fileSizeLimit: AppendPlatform.fileSizeLimit)
}

/// Who has a file open for writing, from `/proc` (Linux): the fallback of `othersWriting` when a
/// lease cannot be taken (the file belongs to another user). Sees only the processes whose
/// descriptors this process may read (its own user's, or all for root).
enum ProcessWriters {
    /// Whether a process other than this one has the file of `fd` open for writing; nil where there
    /// is no `/proc` to read.
    static func othersWriting(_ fd: Int32) -> Bool? {
        #if os(Linux)
        var target = stat()
        guard fstat(fd, &target) == 0, let processes = opendir("/proc") else { return nil }
        defer { closedir(processes) }
        let me = getpid()
        while let entry = readdir(processes) {
            guard let pid = Int32(entryName(entry)), pid != me else { continue }
            if holdsForWriting(pid: pid, device: target.st_dev, inode: target.st_ino) { return true }
        }
        return false
        #else
        return nil
        #endif
    }

    /// Whether this process itself has the file of `fd` open for writing (on another descriptor).
    static func selfWriting(_ fd: Int32) -> Bool {
        #if os(Linux)
        var target = stat()
        guard fstat(fd, &target) == 0 else { return false }
        return holdsForWriting(pid: getpid(), device: target.st_dev, inode: target.st_ino)
        #else
        return false
        #endif
    }

    #if os(Linux)
    /// A directory entry's name.
    static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
        withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
    }

    /// Whether process `pid` has a descriptor on (device, inode) opened write-only or read-write.
    static func holdsForWriting(pid: Int32, device: UInt, inode: UInt) -> Bool {
        guard let descriptors = opendir("/proc/\(pid)/fd") else { return false }
        defer { closedir(descriptors) }
        while let entry = readdir(descriptors) {
            let name = entryName(entry)
            guard Int32(name) != nil else { continue }
            var info = stat()
            guard stat("/proc/\(pid)/fd/\(name)", &info) == 0, info.st_dev == device, info.st_ino == inode else { continue }
            // fdinfo's `flags:` are octal open flags; the access mode is the low two bits.
            guard let file = fopen("/proc/\(pid)/fdinfo/\(name)", "r") else { continue }
            defer { fclose(file) }
            var line = [CChar](repeating: 0, count: 128)
            while fgets(&line, Int32(line.count), file) != nil {
                let text = String(decoding: line.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
                guard text.hasPrefix("flags:") else { continue }
                let digits = text.dropFirst("flags:".count).filter { $0.isNumber }
                if let flags = Int(digits, radix: 8), flags & 3 != 0 { return true }
                break
            }
        }
        return false
    }
    #endif
}

/// A zeroed C `stat`, spelled outside `Syscalls` where `stat` names the closure, not the struct.
private func emptyStat() -> stat { stat() }

// Wrappers with distinct names: inside `Syscalls.live` the closure labels (`open`, `read`, …) would
// shadow the C functions.
@inline(__always) private func platformOpen(_ path: String, _ flags: Int32, _ permissions: UInt32) -> Int32 {
    open(path, flags, mode_t(permissions))
}
@inline(__always) private func platformRead(_ fd: Int32, _ base: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, base, count)
}
@inline(__always) private func platformPread(
    _ fd: Int32, _ base: UnsafeMutableRawPointer?, _ count: Int, _ offset: Int64
) -> Int {
    pread(fd, base, count, off_t(offset))
}
@inline(__always) private func platformWrite(_ fd: Int32, _ base: UnsafeRawPointer?, _ count: Int) -> Int {
    write(fd, base, count)
}
@inline(__always) private func platformWritev(_ fd: Int32, _ vectors: UnsafePointer<iovec>?, _ count: Int32) -> Int {
    writev(fd, vectors, count)
}
@inline(__always) private func platformFsync(_ fd: Int32) -> Int32 { fsync(fd) }
@inline(__always) private func platformFtruncate(_ fd: Int32, _ length: Int64) -> Int32 {
    ftruncate(fd, off_t(length))
}
@inline(__always) private func platformFchmod(_ fd: Int32, _ permissions: UInt32) -> Int32 {
    fchmod(fd, mode_t(permissions))
}
@inline(__always) private func platformFchown(_ fd: Int32, _ owner: UInt32, _ group: UInt32) -> Int32 {
    fchown(fd, uid_t(owner), gid_t(group))
}
@inline(__always) private func platformFstat(_ fd: Int32, _ s: inout stat) -> Int32 { fstat(fd, &s) }
@inline(__always) private func platformStat(_ path: String, _ s: inout stat) -> Int32 { stat(path, &s) }
@inline(__always) private func platformLstat(_ path: String, _ s: inout stat) -> Int32 { lstat(path, &s) }
@inline(__always) private func platformAccess(_ path: String, _ mode: Int32) -> Int32 { access(path, mode) }
@inline(__always) private func platformRename(_ from: String, _ to: String) -> Int32 { rename(from, to) }
@inline(__always) private func platformUnlink(_ path: String) -> Int32 { unlink(path) }
@inline(__always) private func platformClose(_ fd: Int32) -> Int32 { close(fd) }
@inline(__always) private func platformFlock(_ fd: Int32, _ operation: Int32) -> Int32 { flock(fd, operation) }
@inline(__always) private func platformRealpath(_ path: String) -> UnsafeMutablePointer<CChar>? {
    realpath(path, nil)
}

// MARK: - extended attributes

/// Runs `body` with `name` as a NUL-terminated C string. `EINVAL` for a name holding a NUL byte,
/// which C would cut short (and so read or write another attribute).
private func withCName<T>(
    _ name: ExtendedAttributeName, _ body: (UnsafePointer<CChar>) -> Result<T, Errno>
) -> Result<T, Errno> {
    guard !name.bytes.contains(0) else { return .failure(.invalidArgument) }
    let cString = name.bytes.map { CChar(bitPattern: $0) } + [0]
    return cString.withUnsafeBufferPointer { buffer in
        guard let base = buffer.baseAddress else { return .failure(.invalidArgument) }
        return body(base)
    }
}

#if canImport(Glibc)
/// glibc's `flistxattr`, `fgetxattr` and `fsetxattr`, looked up once with `dlsym`: Swift's Glibc
/// module does not import `<sys/xattr.h>`. The types are the C prototypes, so the calls use the C
/// calling convention. A missing function (a C library without them, a static binary without
/// `dlopen`) makes its call fail with `ENOTSUP`, which the file layer reads as "no extended
/// attributes here", exactly as on a file system without them.
///
/// `@unchecked Sendable`: the members are immutable pointers to reentrant C functions.
private struct AttributeFunctions: @unchecked Sendable {
    typealias List = @convention(c) (Int32, UnsafeMutableRawPointer?, Int) -> Int
    typealias Get = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeMutableRawPointer?, Int) -> Int
    typealias Put = @convention(c) (Int32, UnsafePointer<CChar>, UnsafeRawPointer?, Int, Int32) -> Int32

    let list: List?
    let get: Get?
    let put: Put?

    /// Resolved on first use; the handle of the program itself sees every loaded library's symbols.
    static let shared: AttributeFunctions = {
        guard let program = dlopen(nil, RTLD_NOW) else { return AttributeFunctions(list: nil, get: nil, put: nil) }
        return AttributeFunctions(
            list: dlsym(program, "flistxattr").map { unsafeBitCast($0, to: List.self) },
            get: dlsym(program, "fgetxattr").map { unsafeBitCast($0, to: Get.self) },
            put: dlsym(program, "fsetxattr").map { unsafeBitCast($0, to: Put.self) })
    }()
}
#endif

#if canImport(Glibc)
/// What a missing attribute function answers: -1 with `errno` ENOTSUP, as the C library does on a
/// file system without extended attributes.
private func attributesNotSupported<Result: SignedInteger>() -> Result {
    errno = ENOTSUP
    return -1
}
#endif

/// `flistxattr`; an empty buffer asks for the size of the name list.
@inline(__always) private func platformFlistxattr(_ fd: Int32, _ buffer: UnsafeMutableRawBufferPointer) -> Int {
    #if canImport(Glibc)
    guard let list = AttributeFunctions.shared.list else { return attributesNotSupported() }
    return list(fd, buffer.baseAddress, buffer.count)
    #else
    return flistxattr(fd, buffer.baseAddress?.assumingMemoryBound(to: CChar.self), buffer.count, 0)
    #endif
}

/// `fgetxattr`; an empty buffer asks for the size of the value. Darwin: position 0 (it only
/// matters for the resource fork, which is read whole), options 0.
@inline(__always) private func platformFgetxattr(
    _ fd: Int32, _ name: UnsafePointer<CChar>, _ buffer: UnsafeMutableRawBufferPointer
) -> Int {
    #if canImport(Glibc)
    guard let get = AttributeFunctions.shared.get else { return attributesNotSupported() }
    return get(fd, name, buffer.baseAddress, buffer.count)
    #else
    return fgetxattr(fd, name, buffer.baseAddress, buffer.count, 0, 0)
    #endif
}

/// `fsetxattr` with no flags (create or replace). Darwin: position 0, options 0.
@inline(__always) private func platformFsetxattr(
    _ fd: Int32, _ name: UnsafePointer<CChar>, _ value: UnsafeRawBufferPointer
) -> Int32 {
    #if canImport(Glibc)
    guard let put = AttributeFunctions.shared.put else { return attributesNotSupported() }
    return put(fd, name, value.baseAddress, value.count, 0)
    #else
    return fsetxattr(fd, name, value.baseAddress, value.count, 0, 0)
    #endif
}

extension ExtendedAttributeName {
    /// Whether the attribute decides who may open the file, so that a new file without it would
    /// let other people in or keep them out: Linux's POSIX access ACL. Darwin keeps ACLs outside
    /// the extended attributes, so no Darwin attribute does.
    var carriesPermissions: Bool {
        #if canImport(Glibc)
        self == .posixAccessACL
        #else
        false
        #endif
    }

    /// Whether the attribute belongs on a regular file: all but Linux's default ACL, which only a
    /// directory has (the kernel refuses it on a file).
    var belongsOnRegularFile: Bool {
        #if canImport(Glibc)
        self != .posixDefaultACL
        #else
        true
        #endif
    }
}

// MARK: - a mutex without Foundation or Synchronization

/// A `pthread_mutex_t` on the heap (a mutex must not move, so it cannot live inline in a Swift value).
/// Guards the fault injector's counters, which all closures of one `Syscalls` value share.
final class PlatformMutex: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>

    init() {
        mutex = .allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deinitialize(count: 1)
        mutex.deallocate()
    }

    func withLock<T>(_ body: () -> T) -> T {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return body()
    }
}

// MARK: - a background thread without Foundation or Dispatch

/// Work running on a thread of its own while the caller goes on; `join()` waits for its value.
///
/// Used where two cores can overlap two independent steps (the compare-and-swap check of a large
/// file runs while the new content is computed and written). `join()` must be called before
/// anything the work uses goes away; it is idempotent. The value is written by the thread and read
/// only after `pthread_join`, which orders the two, hence `@unchecked Sendable`.
final class BackgroundJob<Value: Sendable>: @unchecked Sendable {
    private let mutex = PlatformMutex()
    private var cancelled = false
    private var value: Value?
    #if canImport(Glibc)
    private var thread = pthread_t()
    #else
    private var thread: pthread_t?
    #endif
    private var joined = false

    private init() {}

    /// Starts `body` on a new thread; `nil` if the system refused one (the caller then does the
    /// work itself). `body` receives the job, to poll `isCancelled`.
    static func start(_ body: @escaping @Sendable (BackgroundJob<Value>) -> Value) -> BackgroundJob<Value>? {
        let job = BackgroundJob<Value>()
        let start = ThreadStart { job.value = body(job) }
        let context = Unmanaged.passRetained(start).toOpaque()
        guard pthread_create(&job.thread, nil, threadEntry, context) == 0 else {
            Unmanaged<ThreadStart>.fromOpaque(context).release()
            return nil
        }
        return job
    }

    /// Whether `cancel()` was called: long work checks it now and then and stops early.
    var isCancelled: Bool { mutex.withLock { cancelled } }

    /// Asks the work to stop early; its value is then meaningless.
    func cancel() { mutex.withLock { cancelled = true } }

    /// Waits for the work to finish and returns its value.
    func join() -> Value {
        if !joined {
            #if canImport(Glibc)
            pthread_join(thread, nil)
            #else
            if let thread { pthread_join(thread, nil) }
            #endif
            joined = true
        }
        guard let value else { preconditionFailure("BackgroundJob: the thread ended without a value") }
        return value
    }
}

/// The closure a new thread runs, passed through `pthread_create`'s context pointer.
private final class ThreadStart {
    let run: () -> Void
    init(_ run: @escaping () -> Void) { self.run = run }
}

#if canImport(Glibc)
private func threadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
    guard let context else { return nil }
    Unmanaged<ThreadStart>.fromOpaque(context).takeRetainedValue().run()
    return nil
}
#else
private func threadEntry(_ context: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
    Unmanaged<ThreadStart>.fromOpaque(context).takeRetainedValue().run()
    return nil
}
#endif
