// The live system calls behind `Syscalls.live`, and who else has a file open for writing (Platform.swift
// holds the constants and conversions they use).
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("TodoFileSystem supports Linux (Glibc) and Darwin only")
#endif
import CTodoSystem

// MARK: - the live syscalls

/// Runs `body` and turns the C convention (-1 plus `errno`) into a `Result`, reading `errno` before
/// anything else can overwrite it.
@inline(__always)
func checked<T: BinaryInteger>(_ body: () -> T) -> Result<T, Errno> {
    let value = body()
    return value == -1 ? .failure(.current) : .success(value)
}

extension Syscalls {
    /// The real C library, one closure per call. No retries here: `Syscalls`' methods add EINTR
    /// handling and write loops on top, so injected faults go through the same logic as real ones.
    package static let live = Syscalls(
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
func emptyStat() -> stat { stat() }

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
