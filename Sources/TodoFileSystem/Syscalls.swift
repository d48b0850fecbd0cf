/// An open file descriptor. A plain value: whoever opened it closes it, exactly once.
package struct FileDescriptor: Sendable, Hashable {
    /// The C descriptor number.
    package let rawValue: Int32
    /// Wraps a descriptor number; ownership is the caller's business.
    package init(rawValue: Int32) { self.rawValue = rawValue }
}

/// `open(2)` flags; the values are defined in Platform.swift.
package struct OpenFlags: OptionSet, Sendable, Hashable {
    /// The C bit pattern.
    package let rawValue: Int32
    /// Wraps a C value.
    package init(rawValue: Int32) { self.rawValue = rawValue }
}

/// `access(2)` modes; the values are defined in Platform.swift.
package struct AccessMode: Sendable, Hashable {
    /// The C bit pattern.
    package let rawValue: Int32
    /// Wraps a C value.
    package init(rawValue: Int32) { self.rawValue = rawValue }
}

/// `flock(2)` operations; the values are defined in Platform.swift.
package struct LockOperation: Sendable, Hashable {
    /// The C bit pattern.
    package let rawValue: Int32
    /// Wraps a C value.
    package init(rawValue: Int32) { self.rawValue = rawValue }
}

/// The name of an extended attribute, as the kernel spells it: the raw bytes without the C string's
/// terminating NUL.
///
/// Bytes rather than a `String`, because a name need not be valid UTF-8, and a lossy conversion
/// would copy an attribute under another name. Invariant: no NUL byte (the names come from
/// `flistxattr`, which separates them with NULs; a NUL inside a name given by hand would cut it).
package struct ExtendedAttributeName: Sendable, Hashable, CustomStringConvertible {
    /// The name's bytes, without a terminating NUL.
    package var bytes: [UInt8]

    /// Wraps raw bytes (from `flistxattr`).
    package init(bytes: [UInt8]) { self.bytes = bytes }

    /// The name spelled as text (`"user.xdg.origin.url"`).
    package init(_ name: String) { self.bytes = Array(name.utf8) }

    /// `system.posix_acl_access`: Linux's POSIX access ACL, which decides who may read and write
    /// the file beyond its owner, group and others.
    package static let posixAccessACL = ExtendedAttributeName("system.posix_acl_access")
    /// `system.posix_acl_default`: the ACL a directory hands to the files created in it; meaningless
    /// on a regular file.
    package static let posixDefaultACL = ExtendedAttributeName("system.posix_acl_default")

    /// Whether the name starts with `prefix` (`"security."`), compared byte for byte.
    package func hasPrefix(_ prefix: String) -> Bool { bytes.starts(with: prefix.utf8) }

    /// The name for messages; bytes that are not UTF-8 show as U+FFFD.
    package var description: String { String(decoding: bytes, as: UTF8.self) }
}

/// The kinds of call that pass through the seam; fault injection counts calls per kind.
package enum SyscallKind: String, Sendable, Hashable, CaseIterable {
    case open, createExclusive, read, pread, write, writeVector, startWriteback, fsync, ftruncate, fchmod, fchown
    case fstat, stat, lstat, access, rename, renameNoReplace, renameExchange, unlink, close, flock, realpath
    case makeDirectory, directoryEntries
}

/// The one seam through which the file layer reaches the operating system.
///
/// Each closure performs exactly one C call and reports failure as a typed `Errno`; it never retries.
/// The file layer calls them only through an internal wrapper that retries `EINTR` (except for
/// `close`, where a retry could close a descriptor another thread just received) and loops writes
/// until every byte is written. `Syscalls.live` is the C library; tests build variants with
/// `FaultInjector` so that `ENOSPC`, `EIO`, `EINTR` or a concurrent writer can be simulated at any step.
package struct Syscalls: Sendable {
    /// `open(path, flags, permissions)`; `permissions` only matter with `.create`.
    package var open: @Sendable (String, OpenFlags, UInt32) -> Result<FileDescriptor, Errno>
    /// The `mkstemp` equivalent: `open(path, O_RDWR|O_CREAT|O_EXCL|O_CLOEXEC|O_NOFOLLOW|O_APPEND,
    /// permissions)`; the caller chooses the random name, so it can also choose the suffix (`.tmp`).
    /// Append mode, because the file is written front to back, and after it has been renamed over
    /// the target, bytes copied in late must not overwrite what another process appended meanwhile.
    package var createExclusive: @Sendable (String, UInt32) -> Result<FileDescriptor, Errno>
    /// One `read`; returns 0 at end of file.
    package var read: @Sendable (FileDescriptor, UnsafeMutableRawBufferPointer) -> Result<Int, Errno>
    /// One `pread` at an offset; does not move the file offset.
    package var pread: @Sendable (FileDescriptor, UnsafeMutableRawBufferPointer, Int64) -> Result<Int, Errno>
    /// One `write`; may write fewer bytes than given.
    package var write: @Sendable (FileDescriptor, UnsafeRawBufferPointer) -> Result<Int, Errno>
    /// One gathering `writev` of at most `System.maximumVectorCount` buffers; may write fewer bytes
    /// than given.
    package var writeVector: @Sendable (FileDescriptor, UnsafeBufferPointer<UnsafeRawBufferPointer>) -> Result<Int, Errno>
    /// Starts write-back of a byte range without waiting (`sync_file_range(SYNC_FILE_RANGE_WRITE)`
    /// on Linux; nothing on other platforms): a hint that lets the disk work while the caller goes on,
    /// so that the `fsync` that follows has less left to do. Only `fsync` makes data durable.
    package var startWriteback: @Sendable (FileDescriptor, Int64, Int64) -> Result<Void, Errno>
    /// The remaining calls map one to one to their C namesakes.
    package var fsync: @Sendable (FileDescriptor) -> Result<Void, Errno>
    package var ftruncate: @Sendable (FileDescriptor, Int64) -> Result<Void, Errno>
    package var fchmod: @Sendable (FileDescriptor, UInt32) -> Result<Void, Errno>
    package var fchown: @Sendable (FileDescriptor, UInt32, UInt32) -> Result<Void, Errno>
    package var fstat: @Sendable (FileDescriptor) -> Result<FileStatus, Errno>
    package var stat: @Sendable (String) -> Result<FileStatus, Errno>
    package var lstat: @Sendable (String) -> Result<FileStatus, Errno>
    package var access: @Sendable (String, AccessMode) -> Result<Void, Errno>
    package var rename: @Sendable (String, String) -> Result<Void, Errno>
    /// `rename` that fails with `EEXIST` rather than replace an existing target (`renameat2` with
    /// `RENAME_NOREPLACE` on Linux, `renamex_np` with `RENAME_EXCL` on Darwin).
    package var renameNoReplace: @Sendable (String, String) -> Result<Void, Errno>
    /// Swaps two names atomically (`renameat2(RENAME_EXCHANGE)`, `renamex_np(RENAME_SWAP)`); `EINVAL`,
    /// `ENOSYS`, `ENOTSUP`/`EOPNOTSUPP`: the file system cannot.
    package var renameExchange: @Sendable (String, String) -> Result<Void, Errno>
    package var unlink: @Sendable (String) -> Result<Void, Errno>
    package var close: @Sendable (FileDescriptor) -> Result<Void, Errno>
    package var flock: @Sendable (FileDescriptor, LockOperation) -> Result<Void, Errno>
    package var realpath: @Sendable (String) -> Result<String, Errno>
    /// Sleeps at least the given time (the lock's poll interval). Not counted by fault injection.
    /// `mkdir(path, permissions)`.
    package var makeDirectory: @Sendable (String, UInt32) -> Result<Void, Errno>
    /// `opendir`, `readdir` until the end, `closedir`: the names in a directory that start with the
    /// given bytes, without `.` and `..`, unsorted. One seam call, because the three only make
    /// sense together and a fault in any of them means the same: the listing failed.
    package var directoryEntries: @Sendable (String, [UInt8]) -> Result<[String], Errno>
    package var sleep: @Sendable (Duration) -> Void
    /// 64 random bits for temporary file names. Not counted by fault injection.
    package var random: @Sendable () -> UInt64
    /// `flistxattr(fd, buffer, size)`: the file's extended attribute names, each ending in a NUL,
    /// written into the buffer; returns their total size. An empty buffer asks for the size only.
    /// `ENOTSUP`/`EOPNOTSUPP`: the file system has no extended attributes; `ERANGE`: the buffer is
    /// too small (the list grew since the size was asked). Darwin: options 0.
    ///
    /// The three attribute calls are not counted by `FaultInjector`, which builds them from the live
    /// ones; a test injects a fault by replacing the closure on the `Syscalls` value it built.
    package var flistxattr: @Sendable (FileDescriptor, UnsafeMutableRawBufferPointer) -> Result<Int, Errno>
    /// `fgetxattr(fd, name, buffer, size)`: one attribute's value into the buffer; returns its size.
    /// An empty buffer asks for the size only. `ENODATA` (`ENOATTR` on Darwin): no such attribute;
    /// `ERANGE`: the buffer is too small. Darwin: position 0, options 0.
    package var fgetxattr: @Sendable (FileDescriptor, ExtendedAttributeName, UnsafeMutableRawBufferPointer) -> Result<Int, Errno>
    /// `fsetxattr(fd, name, value, size, 0)`: creates the attribute or replaces its value. Darwin:
    /// position 0, options 0.
    package var fsetxattr: @Sendable (FileDescriptor, ExtendedAttributeName, UnsafeRawBufferPointer) -> Result<Void, Errno>
    /// Whether another process has the file of this read-only descriptor open for writing (an
    /// appender between `open` and `close`): a lease probe (Linux), else a scan of `/proc`; an error
    /// when neither can tell (then nobody is waited for).
    package var othersWriting: @Sendable (FileDescriptor) -> Result<Bool, Errno>
    /// `lseek(fd, 0, SEEK_CUR)`: after an `O_APPEND` write, where this process's bytes ended.
    package var currentOffset: @Sendable (FileDescriptor) -> Result<Int64, Errno>
    /// `getrlimit(RLIMIT_FSIZE)`'s soft limit in bytes (`ulimit -f`), `nil` when unlimited.
    package var fileSizeLimit: @Sendable () -> Int64?

    /// The writers' lock (`FileLock`; Platform+WriterLock.swift). `.take`: the lock on the whole
    /// file of a descriptor open for writing, without waiting; `EWOULDBLOCK` when another lock is in
    /// the way; answers `nil`. `.ask`: who holds the lock that keeps `.take` from this file (any open
    /// mode), `nil` for nobody; `ENOTSUP` where the platform cannot tell. One closure for both, as the
    /// two only make sense together. Not an argument of `init` (every table starts with the
    /// platform's; a test replaces it on the value it built) and not counted by `FaultInjector`.
    package var writerLock: @Sendable (FileDescriptor, WriterLockRequest) -> Result<WriterLockHolder?, Errno> = Syscalls.platformWriterLock

    /// One closure per call; see `Syscalls.live` for the real ones and `FaultInjector` for wrappers.
    package init(
        open: @escaping @Sendable (String, OpenFlags, UInt32) -> Result<FileDescriptor, Errno>,
        createExclusive: @escaping @Sendable (String, UInt32) -> Result<FileDescriptor, Errno>,
        read: @escaping @Sendable (FileDescriptor, UnsafeMutableRawBufferPointer) -> Result<Int, Errno>,
        pread: @escaping @Sendable (FileDescriptor, UnsafeMutableRawBufferPointer, Int64) -> Result<Int, Errno>,
        write: @escaping @Sendable (FileDescriptor, UnsafeRawBufferPointer) -> Result<Int, Errno>,
        writeVector: @escaping @Sendable (FileDescriptor, UnsafeBufferPointer<UnsafeRawBufferPointer>) -> Result<Int, Errno>,
        startWriteback: @escaping @Sendable (FileDescriptor, Int64, Int64) -> Result<Void, Errno>,
        fsync: @escaping @Sendable (FileDescriptor) -> Result<Void, Errno>,
        ftruncate: @escaping @Sendable (FileDescriptor, Int64) -> Result<Void, Errno>,
        fchmod: @escaping @Sendable (FileDescriptor, UInt32) -> Result<Void, Errno>,
        fchown: @escaping @Sendable (FileDescriptor, UInt32, UInt32) -> Result<Void, Errno>,
        fstat: @escaping @Sendable (FileDescriptor) -> Result<FileStatus, Errno>,
        stat: @escaping @Sendable (String) -> Result<FileStatus, Errno>,
        lstat: @escaping @Sendable (String) -> Result<FileStatus, Errno>,
        access: @escaping @Sendable (String, AccessMode) -> Result<Void, Errno>,
        rename: @escaping @Sendable (String, String) -> Result<Void, Errno>,
        renameNoReplace: @escaping @Sendable (String, String) -> Result<Void, Errno>,
        renameExchange: @escaping @Sendable (String, String) -> Result<Void, Errno>,
        unlink: @escaping @Sendable (String) -> Result<Void, Errno>,
        close: @escaping @Sendable (FileDescriptor) -> Result<Void, Errno>,
        flock: @escaping @Sendable (FileDescriptor, LockOperation) -> Result<Void, Errno>,
        realpath: @escaping @Sendable (String) -> Result<String, Errno>,
        makeDirectory: @escaping @Sendable (String, UInt32) -> Result<Void, Errno>,
        directoryEntries: @escaping @Sendable (String, [UInt8]) -> Result<[String], Errno>,
        sleep: @escaping @Sendable (Duration) -> Void,
        random: @escaping @Sendable () -> UInt64,
        // Defaulted, so that a builder written before these calls existed (`FaultInjector`) still
        // compiles; it gets the live calls.
        flistxattr: @escaping @Sendable (FileDescriptor, UnsafeMutableRawBufferPointer) -> Result<Int, Errno>
            = Syscalls.live.flistxattr,
        fgetxattr: @escaping @Sendable (FileDescriptor, ExtendedAttributeName, UnsafeMutableRawBufferPointer) -> Result<Int, Errno>
            = Syscalls.live.fgetxattr,
        fsetxattr: @escaping @Sendable (FileDescriptor, ExtendedAttributeName, UnsafeRawBufferPointer) -> Result<Void, Errno>
            = Syscalls.live.fsetxattr,
        othersWriting: @escaping @Sendable (FileDescriptor) -> Result<Bool, Errno> = Syscalls.live.othersWriting,
        currentOffset: @escaping @Sendable (FileDescriptor) -> Result<Int64, Errno> = Syscalls.live.currentOffset,
        fileSizeLimit: @escaping @Sendable () -> Int64? = Syscalls.live.fileSizeLimit
    ) {
        self.open = open
        self.createExclusive = createExclusive
        self.read = read
        self.pread = pread
        self.write = write
        self.writeVector = writeVector
        self.startWriteback = startWriteback
        self.fsync = fsync
        self.ftruncate = ftruncate
        self.fchmod = fchmod
        self.fchown = fchown
        self.fstat = fstat
        self.stat = stat
        self.lstat = lstat
        self.access = access
        self.rename = rename
        self.renameNoReplace = renameNoReplace
        self.renameExchange = renameExchange
        self.unlink = unlink
        self.close = close
        self.flock = flock
        self.realpath = realpath
        self.makeDirectory = makeDirectory
        self.directoryEntries = directoryEntries
        self.sleep = sleep
        self.random = random
        self.flistxattr = flistxattr
        self.fgetxattr = fgetxattr
        self.fsetxattr = fsetxattr
        self.othersWriting = othersWriting
        self.currentOffset = currentOffset
        self.fileSizeLimit = fileSizeLimit
    }
}

/// The policy layer over `Syscalls`: EINTR retried (never for `close`), writes looped until complete.
/// Everything in the file layer calls the system through this type and nothing else.
struct System: Sendable {
    let calls: Syscalls

    /// Repeats `body` while it fails with `EINTR`.
    @inline(__always)
    private func retrying<T>(_ body: () -> Result<T, Errno>) throws(Errno) -> T {
        while true {
            switch body() {
            case .success(let value): return value
            case .failure(let error) where error == .interrupted: continue
            case .failure(let error): throw error
            }
        }
    }

    func open(_ path: String, _ flags: OpenFlags, permissions: UInt32 = 0) throws(Errno) -> FileDescriptor {
        try retrying { calls.open(path, flags, permissions) }
    }

    func createExclusive(_ path: String, permissions: UInt32) throws(Errno) -> FileDescriptor {
        try retrying { calls.createExclusive(path, permissions) }
    }

    /// One `read`; 0 means end of file.
    func read(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retrying { calls.read(fd, buffer) }
    }

    /// Reads exactly `count` bytes at `offset`, or fewer if the file ends first.
    func pread(_ fd: FileDescriptor, count: Int, at offset: Int64) throws(Errno) -> [UInt8] {
        var failure: Errno?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            while initialized < count {
                let slice = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[initialized...])
                do throws(Errno) {
                    let n = try retrying { calls.pread(fd, slice, offset + Int64(initialized)) }
                    if n == 0 { break }
                    initialized += n
                } catch {
                    failure = error
                    break
                }
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Fills `buffer` from `offset`, looping over short reads; returns how many bytes were read,
    /// fewer than `buffer.count` only if the file ends first.
    func pread(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) throws(Errno) -> Int {
        var filled = 0
        while filled < buffer.count {
            let rest = UnsafeMutableRawBufferPointer(rebasing: buffer[filled...])
            let n = try retrying { calls.pread(fd, rest, offset + Int64(filled)) }
            if n == 0 { break }
            filled += n
        }
        return filled
    }

    /// Writes every byte, looping over short writes. A `write` that reports 0 bytes for a non-empty
    /// buffer would loop forever, so it counts as `EIO`.
    func writeAll(_ fd: FileDescriptor, _ bytes: [UInt8]) throws(Errno) {
        let result = bytes.withUnsafeBytes { raw in Result { () throws(Errno) in try writeAll(fd, raw) } }
        try result.get()
    }

    /// `writeAll` for memory the caller owns.
    func writeAll(_ fd: FileDescriptor, _ raw: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < raw.count {
            let rest = UnsafeRawBufferPointer(rebasing: raw[offset...])
            let n = try retrying { calls.write(fd, rest) }
            if n <= 0 { throw .ioError }
            offset += n
        }
    }

    /// The most buffers one `writev` takes (`IOV_MAX` is 1024 on Linux and Darwin).
    static let maximumVectorCount = 1024

    /// Writes every byte of `buffers`, in order, with as few `writev` calls as `maximumVectorCount`
    /// allows; short writes continue where they stopped, inside a buffer if need be.
    func writeAll(_ fd: FileDescriptor, buffers: [UnsafeRawBufferPointer]) throws(Errno) {
        var pending = buffers.filter { !$0.isEmpty }
        var first = 0
        while first < pending.count {
            let end = min(pending.count, first + Self.maximumVectorCount)
            var written = try pending[first..<end].withUnsafeBufferPointer { batch throws(Errno) in
                try retrying { calls.writeVector(fd, batch) }
            }
            if written <= 0 { throw .ioError }
            while written > 0 {
                let buffer = pending[first]
                if written >= buffer.count {
                    written -= buffer.count
                    first += 1
                } else {
                    pending[first] = UnsafeRawBufferPointer(rebasing: buffer[written...])
                    written = 0
                }
            }
        }
    }

    /// Starts write-back of `count` bytes at `offset` (a hint; see `Syscalls.startWriteback`).
    /// A file system that cannot do it (`ENOSYS`, `EINVAL`, `ESPIPE`, `EOPNOTSUPP`) is not an error:
    /// the `fsync` that follows does all the work. Any other failure (`EIO`, `ENOSPC`) is thrown, as a
    /// failed write would be.
    func startWriteback(_ fd: FileDescriptor, offset: Int64, count: Int64) throws(Errno) {
        do {
            try retrying { calls.startWriteback(fd, offset, count) }
        } catch where [.notImplemented, .invalidArgument, .illegalSeek, .notSupported].contains(error) {
            return
        }
    }

    func fsync(_ fd: FileDescriptor) throws(Errno) { try retrying { calls.fsync(fd) } }
    func ftruncate(_ fd: FileDescriptor, length: Int64) throws(Errno) { try retrying { calls.ftruncate(fd, length) } }
    func fchmod(_ fd: FileDescriptor, _ permissions: UInt32) throws(Errno) { try retrying { calls.fchmod(fd, permissions) } }
    func fchown(_ fd: FileDescriptor, owner: UInt32, group: UInt32) throws(Errno) {
        try retrying { calls.fchown(fd, owner, group) }
    }
    func fstat(_ fd: FileDescriptor) throws(Errno) -> FileStatus { try retrying { calls.fstat(fd) } }
    func stat(_ path: String) throws(Errno) -> FileStatus { try retrying { calls.stat(path) } }
    func lstat(_ path: String) throws(Errno) -> FileStatus { try retrying { calls.lstat(path) } }
    func access(_ path: String, _ mode: AccessMode) throws(Errno) { try retrying { calls.access(path, mode) } }
    func rename(_ from: String, _ to: String) throws(Errno) { try retrying { calls.rename(from, to) } }
    func renameNoReplace(_ from: String, _ to: String) throws(Errno) { try retrying { calls.renameNoReplace(from, to) } }
    func renameExchange(_ from: String, _ to: String) throws(Errno) { try retrying { calls.renameExchange(from, to) } }
    func othersWriting(_ fd: FileDescriptor) throws(Errno) -> Bool { try retrying { calls.othersWriting(fd) } }
    func unlink(_ path: String) throws(Errno) { try retrying { calls.unlink(path) } }
    func flock(_ fd: FileDescriptor, _ operation: LockOperation) throws(Errno) { try retrying { calls.flock(fd, operation) } }
    func writerLock(_ fd: FileDescriptor) throws(Errno) { _ = try retrying { calls.writerLock(fd, .take) } }
    func writerLockHolder(_ fd: FileDescriptor) throws(Errno) -> WriterLockHolder? { try retrying { calls.writerLock(fd, .ask) } }
    func realpath(_ path: String) throws(Errno) -> String { try retrying { calls.realpath(path) } }
    func makeDirectory(_ path: String, permissions: UInt32) throws(Errno) { try retrying { calls.makeDirectory(path, permissions) } }
    func directoryEntries(_ path: String, prefix: [UInt8]) throws(Errno) -> [String] {
        try retrying { calls.directoryEntries(path, prefix) }
    }
    func flistxattr(_ fd: FileDescriptor, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retrying { calls.flistxattr(fd, buffer) }
    }
    func fgetxattr(_ fd: FileDescriptor, _ name: ExtendedAttributeName, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try retrying { calls.fgetxattr(fd, name, buffer) }
    }
    func fsetxattr(_ fd: FileDescriptor, _ name: ExtendedAttributeName, _ value: UnsafeRawBufferPointer) throws(Errno) {
        try retrying { calls.fsetxattr(fd, name, value) }
    }

    /// Closes once, never retried: after `EINTR` the descriptor is already released on Linux, and a
    /// retry could close a descriptor that another thread has just been given.
    func close(_ fd: FileDescriptor) throws(Errno) {
        if case .failure(let error) = calls.close(fd) { throw error }
    }

    /// Closes and ignores the outcome: used on paths where the data is already safe or already lost.
    func closeQuietly(_ fd: FileDescriptor) { _ = calls.close(fd) }

    func sleep(_ duration: Duration) { calls.sleep(duration) }
    func random() -> UInt64 { calls.random() }
}
