/// The file layer's entry point: reading, safe replacement, durable appends and locks, all performed
/// through one `Syscalls` seam.
///
/// A value type holding only the seam, so it is cheap to copy and `Sendable`. `FileSystem()` uses the
/// real C library; tests pass `FaultInjector(...).syscalls()` to make any call fail or to run a hook
/// (a simulated concurrent writer) just before it.
public struct FileSystem: Sendable {
    let system: System
    /// The largest file read or replaced, in bytes: a larger one is refused (`FileSystemError.tooLarge`)
    /// after one `fstat`, before any byte is read, so a huge or sparse file given by mistake costs
    /// neither time nor memory.
    public let sizeLimit: Int64

    /// The default size limit: 1 GiB, a thousand times a large todo file.
    public static let defaultSizeLimit: Int64 = 1 << 30

    /// The real file system, with the size limit of `TODO_MAX_FILE_SIZE` (`parseSizeLimit`: bytes,
    /// or with a K, M or G suffix) when that is set to a size, else `defaultSizeLimit`.
    public init() {
        system = System(calls: .live)
        sizeLimit = ProcessContext.environmentValue("TODO_MAX_FILE_SIZE").flatMap(FileSystem.parseSizeLimit)
            ?? FileSystem.defaultSizeLimit
    }

    /// A file system whose every call goes through `syscalls` (fault injection, fakes).
    package init(syscalls: Syscalls, sizeLimit: Int64 = FileSystem.defaultSizeLimit) {
        system = System(calls: syscalls)
        self.sizeLimit = sizeLimit
    }

    /// The byte `\n`, which ends every line that has an ending.
    static let newline = UInt8(ascii: "\n")

    // MARK: - resolving

    /// Where a path really lives: symlinks resolved, absolute, canonical.
    struct ResolvedPath: Sendable, Hashable {
        /// The real path of the file (or of where it would be created).
        var path: String
        /// Whether something existed at `path` when it was resolved.
        var exists: Bool
        var directory: String { PathName.directory(of: path) }
        var name: String { PathName.lastComponent(of: path) }
    }

    /// Resolves `path` through symlinks with `realpath`, so that a symlinked todo.txt stays a symlink
    /// and its target is what gets replaced. A path that does not exist yet resolves through its
    /// directory. A dangling symlink is reported as not found rather than replaced by a plain file.
    func resolve(_ path: String) throws(FileSystemError) -> ResolvedPath {
        if path.isEmpty { throw .notFound(path: path) }
        do {
            return ResolvedPath(path: try system.realpath(path), exists: true)
        } catch let error where error == .noSuchFile {
            // A dangling symlink, or no file name to create (`missing/`).
            if (try? system.lstat(path)) != nil || PathName.lastComponent(of: path).isEmpty {
                throw .notFound(path: path)
            }
            let directory: String
            do {
                directory = try system.realpath(PathName.directory(of: path))
            } catch let error where error == .noSuchFile {
                throw .notFound(path: path)
            } catch {
                throw .failed(.resolve, path: path, error)
            }
            return ResolvedPath(path: PathName.join(directory, PathName.lastComponent(of: path)), exists: false)
        } catch {
            throw .failed(.resolve, path: path, error)
        }
    }

    // MARK: - reading

    /// Reads a whole file together with its identity and permissions.
    ///
    /// Symlinks are followed. Directories, FIFOs and devices are rejected before any byte is read.
    /// The bytes are exactly what is stored: no decoding, no newline handling.
    ///
    /// Complexity: one `open`, one `fstat`, then `read` into a buffer preallocated from the size
    /// (one extra byte so that end-of-file is seen without a second allocation); a file that grows
    /// during the read is read to its new end.
    public func read(_ path: String) throws(FileSystemError) -> FileContents {
        let resolved = try resolve(path)
        guard resolved.exists else { throw .notFound(path: resolved.path) }
        let fd = try openForReading(resolved.path)
        defer { system.closeQuietly(fd) }
        let (status, bytes) = try readOpenFile(fd, path: resolved.path)
        return FileContents(bytes: bytes, status: status, resolvedPath: resolved.path)
    }

    /// Reads a whole file front to back in pieces that each end with `separator` (the last piece
    /// may not, when the file does not), calling `body` with each piece in order; the pieces joined
    /// are the file's bytes. Returns the file's status as opened, or nil when it does not exist.
    ///
    /// For a pass that needs every byte but never the whole file at once (`todo add` learns the
    /// line count and whether a uid is taken this way): one buffer of about `pieceSize` bytes,
    /// reused, stays in the processor's cache, so the file is copied once from the page cache and
    /// nothing else is allocated. A piece holding no separator (a line longer than the buffer)
    /// grows the buffer instead of being cut. The same checks as `read`: a directory, a FIFO or a
    /// device is refused before any byte is read, and so is a file over `sizeLimit`.
    public func readInPieces(_ path: String, endingAt separator: UInt8, pieceSize: Int = 1 << 18,
                             _ body: (UnsafeBufferPointer<UInt8>) -> Void) throws(FileSystemError) -> FileStatus? {
        let resolved = try resolve(path)
        guard resolved.exists, let fd = try openForReadingIfExists(resolved.path) else { return nil }
        defer { system.closeQuietly(fd) }
        let status = try readableStatus(fd, path: resolved.path)
        var buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(pieceSize, 16))
        defer { buffer.deallocate() }
        // The bytes after the last separator so far, at the start of the buffer: never a separator.
        var held = 0
        while true {
            if held == buffer.count {
                let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: buffer.count * 2)
                _ = larger.initialize(from: buffer)
                buffer.deallocate()
                buffer = larger
            }
            let count: Int
            do {
                count = try system.read(fd, into: UnsafeMutableRawBufferPointer(UnsafeMutableBufferPointer(rebasing: buffer[held...])))
            } catch {
                throw .failed(.read, path: resolved.path, error)
            }
            if count == 0 {
                if held > 0 { body(UnsafeBufferPointer(rebasing: buffer[..<held])) }
                return status
            }
            let end = held + count
            var cut = end
            while cut > held && buffer[cut - 1] != separator { cut -= 1 }
            if cut == held {
                held = end
                continue
            }
            body(UnsafeBufferPointer(rebasing: buffer[..<cut]))
            if cut < end, let base = buffer.baseAddress {
                // memmove: the rest may overlap where it goes.
                UnsafeMutableRawPointer(base).copyMemory(from: base + cut, byteCount: end - cut)
            }
            held = end - cut
        }
    }

    /// Opens an existing file read-only; `nil` if it does not exist.
    func openForReadingIfExists(_ path: String) throws(FileSystemError) -> FileDescriptor? {
        do {
            return try system.open(path, [.readOnly, .closeOnExec, .nonBlocking])
        } catch let error where error == .noSuchFile {
            return nil
        } catch let error where error == .isDirectory {
            throw .isDirectory(path: path)
        } catch {
            throw .failed(.read, path: path, error)
        }
    }

    func openForReading(_ path: String) throws(FileSystemError) -> FileDescriptor {
        guard let fd = try openForReadingIfExists(path) else { throw .notFound(path: path) }
        return fd
    }

    /// The status of `fd`, refused unless it is a regular file (`FileSystemError.isDirectory`,
    /// `.notRegularFile`): the check every read and append makes before touching a byte.
    func regularFileStatus(_ fd: FileDescriptor, path: String) throws(FileSystemError) -> FileStatus {
        let status: FileStatus
        do { status = try system.fstat(fd) } catch { throw .failed(.inspect, path: path, error) }
        switch status.kind {
        case .regular: return status
        case .directory: throw .isDirectory(path: path)
        case .symbolicLink, .characterDevice, .other: throw .notRegularFile(path: path)
        }
    }

    /// `regularFileStatus`, also refusing a file over `sizeLimit`: what may be read.
    func readableStatus(_ fd: FileDescriptor, path: String) throws(FileSystemError) -> FileStatus {
        let status = try regularFileStatus(fd, path: path)
        guard status.identity.size <= sizeLimit else {
            throw .tooLarge(path: path, size: status.identity.size, limit: sizeLimit)
        }
        return status
    }

    /// Checks that `fd` is a regular file and reads all of it from offset 0.
    func readOpenFile(_ fd: FileDescriptor, path: String) throws(FileSystemError) -> (FileStatus, [UInt8]) {
        let status = try readableStatus(fd, path: path)
        do {
            // The hint is capped so that a huge sparse file cannot make us allocate its nominal size up front.
            let hint = Int(clamping: min(max(status.identity.size, 0), 1 << 30))
            return (status, try readToEnd(fd, sizeHint: hint))
        } catch {
            throw .failed(.read, path: path, error)
        }
    }

    /// Files at least this big are read as two halves on two threads (`readInHalves`).
    static let parallelReadThreshold = 8 << 20

    /// Reads from the current offset (a file just opened: offset 0) until `read` returns 0.
    func readToEnd(_ fd: FileDescriptor, sizeHint: Int) throws(Errno) -> [UInt8] {
        if sizeHint >= FileSystem.parallelReadThreshold { return try readInHalves(fd, size: sizeHint) }
        var failure: Errno?
        var reachedEnd = false
        var bytes = [UInt8](unsafeUninitializedCapacity: sizeHint + 1) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            while initialized < raw.count {
                do throws(Errno) {
                    let n = try system.read(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[initialized...]))
                    if n == 0 {
                        reachedEnd = true
                        return
                    }
                    initialized += n
                } catch {
                    failure = error
                    return
                }
            }
        }
        if let failure { throw failure }
        // Only a file that grew after `fstat` gets here.
        if !reachedEnd { try readRest(fd, into: &bytes) }
        return bytes
    }

    /// Appends what the file holds past `bytes.count` (which is also the descriptor's offset so
    /// far), 64 KiB at a time, until `pread` returns 0: the part of a file that grew while it was read.
    func readRest(_ fd: FileDescriptor, into bytes: inout [UInt8]) throws(Errno) {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let offset = Int64(bytes.count)
            let result = chunk.withUnsafeMutableBytes { raw in Result { () throws(Errno) in try system.pread(fd, into: raw, at: offset) } }
            let n = try result.get()
            if n == 0 { return }
            bytes.append(contentsOf: chunk[..<n])
        }
    }

    /// `readToEnd` for a large file just opened: the two halves of its `size` bytes are read at
    /// the same time, the second on a `BackgroundJob`, then anything past `size` is read after them.
    ///
    /// Reading into fresh memory is dominated by page faults, which two cores take in parallel
    /// (measured in docs/notes/file-layer.md). A half that comes back short
    /// means the file shrank meanwhile; only the bytes read contiguously from offset 0 are kept, and
    /// reading goes on from there. Like any read of a file others may write, the result is checked
    /// by compare-and-swap before anything is replaced.
    func readInHalves(_ fd: FileDescriptor, size: Int) throws(Errno) -> [UInt8] {
        var failure: Errno?
        var bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, initialized in
            let raw = UnsafeMutableRawBufferPointer(buffer)
            let half = (size / 2) & ~0xFFFF
            let upper = DisjointBuffer(UnsafeMutableRawBufferPointer(rebasing: raw[half..<size]))
            let system = self.system
            let job = BackgroundJob.start { _ in
                Result { () throws(Errno) in try system.pread(fd, into: upper.buffer, at: Int64(half)) }
            }
            let lower = Result { () throws(Errno) in
                try system.pread(fd, into: UnsafeMutableRawBufferPointer(rebasing: raw[..<half]), at: 0)
            }
            // Joined before anything is returned: the job writes into this buffer.
            let upperCount = job?.join() ?? Result { () throws(Errno) in try system.pread(fd, into: upper.buffer, at: Int64(half)) }
            do throws(Errno) {
                let lowerCount = try lower.get()
                initialized = lowerCount < half ? lowerCount : half + (try upperCount.get())
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        // The rest, if the file grew (or a short half's remainder).
        try readRest(fd, into: &bytes)
        return bytes
    }

    // MARK: - directories

    /// `fsync` on the directory, so that a rename or a newly created entry survives a crash.
    func syncDirectory(_ directory: String) throws(FileSystemError) {
        let fd: FileDescriptor
        do { fd = try system.open(directory, [.readOnly, .directory, .closeOnExec]) } catch {
            throw .failed(.sync, path: directory, error)
        }
        defer { system.closeQuietly(fd) }
        do { try system.fsync(fd) } catch { throw .failed(.sync, path: directory, error) }
    }
}

/// A part of a buffer handed to another thread, which alone writes it until it is joined; the owner
/// touches only other parts meanwhile. That discipline, not the type system, makes it safe to send.
struct DisjointBuffer: @unchecked Sendable {
    let buffer: UnsafeMutableRawBufferPointer
    init(_ buffer: UnsafeMutableRawBufferPointer) { self.buffer = buffer }
}
