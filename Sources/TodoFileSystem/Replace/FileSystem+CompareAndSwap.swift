// Step 5 of `FileSystem.replace`: is the target still what was read? (compare-and-swap), and the byte helpers it uses.

#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension FileSystem {
    enum CheckResult: Sendable {
        /// The target holds what was read, plus `late` bytes appended after it (empty when none);
        /// `FileIdentity` is what `stat` showed (`nil`: the file is still missing).
        case current(FileIdentity?, late: [UInt8])
        /// Anything else: a new inode, a shrink, a rewrite, an append to an unfinished last line.
        case changed
    }

    /// The target's identity now, `nil` if it does not exist.
    func currentIdentity(_ target: ResolvedPath) throws(FileSystemError) -> FileIdentity? {
        do {
            return try system.stat(target.path).identity
        } catch where error == .noSuchFile {
            return nil
        } catch {
            throw .failed(.inspect, path: target.path, error)
        }
    }

    /// Step 5: is the target still what was read? Compares the inode through the path (an editor's
    /// rename-over is a new inode) and the bytes through the old descriptor (an in-place rewrite
    /// within one mtime tick keeps size and time).
    ///
    /// The bytes are read back with `pread` into one small buffer rather than mapped: a file
    /// truncated by someone else while mapped would kill the process with `SIGBUS`.
    ///
    /// With `refusingNUL`, a NUL byte in the (unchanged) bytes or in late appends throws
    /// `FileSystemError.holdsNUL`; the search runs on each chunk while it is in the CPU cache.
    func compareAndSwapCheck(
        _ target: ResolvedPath, old: Snapshot, refusingNUL: Bool, isCancelled: () -> Bool = { false }
    ) throws(FileSystemError) -> CheckResult {
        guard let current = try currentIdentity(target) else {
            return old.status == nil ? .current(nil, late: []) : .changed
        }
        guard let fd = old.descriptor, let status = old.status, current.isSameFile(as: status.identity) else { return .changed }
        let readCount = Int64(old.bytes.count)
        if current.size < readCount { return .changed }
        var firstNUL: Int?
        let late: [UInt8]
        do throws(Errno) {
            let comparison = try FileSystem.compareFile(descriptor: fd, with: old.bytes, system: system,
                                                        searchingNUL: refusingNUL, isCancelled: isCancelled)
            if !comparison.same { return .changed }
            firstNUL = comparison.firstNUL
            // It grew? Raw appended lines are only meaningful after a complete last line.
            if current.size > readCount, let last = old.bytes.last, last != FileSystem.newline { return .changed }
            late = current.size > readCount ? try system.pread(fd, count: Int(current.size - readCount), at: readCount) : []
        } catch {
            throw .failed(.read, path: target.path, error)
        }
        if refusingNUL, firstNUL == nil, let offset = FileSystem.firstNUL(in: late) { firstNUL = old.bytes.count + offset }
        if let firstNUL {
            throw .holdsNUL(path: target.path, line: FileSystem.lineNumber(ofOffset: firstNUL, in: old.bytes + late))
        }
        return .current(current, late: late)
    }

    /// Whether the file behind `descriptor` starts with `bytes`, compared a chunk at a time through
    /// one reused buffer (no second file-sized buffer: its page faults would cost as much as the
    /// first read, and it would raise peak memory by one file). A cancelled comparison stops early
    /// and answers "not the same". With `searchingNUL`, also the offset of the first NUL byte among
    /// the compared bytes, found in each chunk while it is in the CPU cache.
    static func compareFile(
        descriptor: FileDescriptor, with bytes: [UInt8], system: System,
        searchingNUL: Bool = false, isCancelled: () -> Bool = { false }
    ) throws(Errno) -> (same: Bool, firstNUL: Int?) {
        let chunk = UnsafeMutableRawBufferPointer.allocate(byteCount: min(compareChunk, max(bytes.count, 1)), alignment: 64)
        defer { chunk.deallocate() }
        var firstNUL: Int?
        var offset = 0
        while offset < bytes.count {
            if isCancelled() { return (false, nil) }
            let count = min(chunk.count, bytes.count - offset)
            let got = try system.pread(descriptor, into: UnsafeMutableRawBufferPointer(rebasing: chunk[..<count]), at: Int64(offset))
            if got != count { return (false, nil) }
            let equal = bytes.withUnsafeBytes { memcmp($0.baseAddress! + offset, chunk.baseAddress!, count) == 0 }
            if !equal { return (false, nil) }
            if searchingNUL, firstNUL == nil, let found = memchr(chunk.baseAddress!, 0, count) {
                firstNUL = offset + (UnsafeRawPointer(found) - UnsafeRawPointer(chunk.baseAddress!))
            }
            offset += count
        }
        return (true, firstNUL)
    }

    /// How many bytes the compare-and-swap check reads and compares at a time: small enough to stay
    /// in the CPU cache between the `pread` and the `memcmp` (faster than 1 MiB chunks here).
    static let compareChunk = 1 << 18

    /// The offset of the first NUL byte of `bytes`, if any (`memchr`).
    package static func firstNUL(in bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBytes { raw -> Int? in
            guard let base = raw.baseAddress, let found = memchr(base, 0, raw.count) else { return nil }
            return UnsafeRawPointer(found) - base
        }
    }

    /// The 1-based number of the line holding byte `offset` of `bytes`.
    package static func lineNumber(ofOffset offset: Int, in bytes: [UInt8]) -> Int {
        bytes[..<offset].reduce(1) { $1 == newline ? $0 + 1 : $0 }
    }

    /// Byte equality with `memcmp`: `==` on `[UInt8]` compares element by element, far slower on a
    /// large file, and a replacement compares twice (docs/notes/speed.md).
    static func sameBytes(_ lhs: ArraySlice<UInt8>, _ rhs: ArraySlice<UInt8>) -> Bool {
        guard lhs.count == rhs.count else { return false }
        guard !lhs.isEmpty else { return true }
        return lhs.withUnsafeBytes { a in rhs.withUnsafeBytes { b in memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 } }
    }
}
