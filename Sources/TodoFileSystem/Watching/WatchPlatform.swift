// The few libc calls the watcher needs that are not backend specific: stat, readdir, realpath,
// readlink, strerror. This file and the backend files are the only ones under Watching/ that name a
// platform; the facade imports nothing but Dispatch.
#if os(Linux)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#else
#error("TodoFileSystem file watching supports Linux (inotify) and Darwin (kqueue) only")
#endif

/// What `stat(2)` says about a path, reduced to what a watcher compares.
///
/// Two identities differ when the file was replaced (device or inode), resized, or its content was
/// rewritten with a new modification time. A rewrite with the same size inside one timestamp tick
/// is invisible here; backends that see close-after-write events do not depend on it.
struct WatchedIdentity: Equatable, Sendable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    var modificationSeconds: Int64
    var modificationNanoseconds: Int64
    var isDirectory: Bool
}

/// The state of a path as one `stat(2)` call saw it.
enum PathStatus: Equatable, Sendable {
    /// The path exists (after following symlinks).
    case present(WatchedIdentity)
    /// `ENOENT` or `ENOTDIR`: nothing is there now.
    case absent
    /// Any other failure, with its errno (`EACCES`, `ELOOP`, ...).
    case failed(Int32)
}

/// Thin wrappers over the libc calls the watcher uses; each retries `EINTR` where it can occur.
enum WatchSystem {
    /// `ENOENT`, for a message about a directory found missing.
    static var noSuchFile: Int32 { ENOENT }

    /// The calling thread's errno.
    static var lastErrno: Int32 { errno }

    /// `strerror(3)` as a Swift string: "No such file or directory".
    static func message(forErrno code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return String(cString: text)
    }

    /// `stat(2)` (following symlinks), classified.
    static func status(of path: String) -> PathStatus {
        var info = stat()
        if stat(path, &info) != 0 {
            let code = errno
            return (code == ENOENT || code == ENOTDIR) ? .absent : .failed(code)
        }
        return .present(identity(of: info))
    }

    /// Whether `lstat(2)` finds anything at `path` (a dangling symlink counts).
    static func exists(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0
    }

    private static func identity(of info: stat) -> WatchedIdentity {
        #if os(Linux)
        let seconds = Int64(info.st_mtim.tv_sec)
        let nanoseconds = Int64(info.st_mtim.tv_nsec)
        #else
        let seconds = Int64(info.st_mtimespec.tv_sec)
        let nanoseconds = Int64(info.st_mtimespec.tv_nsec)
        #endif
        return WatchedIdentity(
            device: UInt64(truncatingIfNeeded: info.st_dev),
            inode: UInt64(truncatingIfNeeded: info.st_ino),
            size: Int64(info.st_size),
            modificationSeconds: seconds,
            modificationNanoseconds: nanoseconds,
            isDirectory: (UInt32(info.st_mode) & 0o170000) == 0o040000)
    }

    /// The names in a directory (without `.` and `..`), or nil if it cannot be opened.
    ///
    /// Complexity: O(n) in the number of entries; one `opendir`, n `readdir`, one `closedir`.
    static func names(in directory: String) -> Set<String>? {
        guard let stream = opendir(directory) else { return nil }
        defer { closedir(stream) }
        var result = Set<String>()
        while let entry = readdir(stream) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    String(cString: $0)
                }
            }
            if name != "." && name != ".." { result.insert(name) }
        }
        return result
    }

    /// Resolves where `path` leads now: follows symlinks on the file itself (even dangling ones),
    /// canonicalises each directory with `realpath(3)`, and records the directories and links a
    /// later change of which would make the path lead elsewhere.
    ///
    /// Fails with `.directoryMissing` when the file's directory does not exist, and with `.failed`
    /// if the path names a directory, on a symlink loop, or when a directory cannot be resolved.
    /// The file itself need not exist: it may appear later.
    static func resolveRoute(_ path: String) -> Result<WatchRoute, WatchRouteProblem> {
        func failure(_ text: String) -> Result<WatchRoute, WatchRouteProblem> {
            .failure(.failed(FileWatcherError("cannot watch \(path): \(text)")))
        }
        guard !path.isEmpty else { return .failure(.failed(FileWatcherError("cannot watch an empty path"))) }
        var current = path
        var linkPaths: [String] = []
        while true {
            var info = stat()
            if lstat(current, &info) != 0 {
                let code = errno
                if code == ENOENT || code == ENOTDIR { break }
                return failure("\(current): \(message(forErrno: code))")
            }
            let kind = UInt32(info.st_mode) & 0o170000
            if kind == 0o040000 { return failure("\(current) is a directory") }
            guard kind == 0o120000 else { break }
            guard linkPaths.count < 40, let target = readLink(current) else {
                return failure("too many levels of symbolic links")
            }
            linkPaths.append(current)
            current = target.hasPrefix("/") ? target : split(current).directory + "/" + target
        }
        let name = split(current).name
        guard !name.isEmpty, name != ".", name != ".." else { return failure("not a file name") }
        var places: [WatchTarget] = []
        var identities: [WatchRoute.DirectoryIdentity] = []
        for (index, hop) in ([current] + linkPaths).enumerated() {
            let (hopDirectory, hopName) = split(hop)
            guard let real = realpath(hopDirectory, nil) else {
                let code = errno
                if index == 0 && (code == ENOENT || code == ENOTDIR) { return .failure(.directoryMissing(hopDirectory)) }
                return failure("directory \(hopDirectory): \(message(forErrno: code))")
            }
            let canonical = String(cString: real)
            free(real)
            guard case .present(let identity) = status(of: canonical) else {
                return .failure(.directoryMissing(hopDirectory))
            }
            places.append(WatchTarget(directory: canonical, name: hopName))
            identities.append(.init(device: identity.device, inode: identity.inode))
        }
        var ancestors: [String] = []
        for place in places {
            for ancestor in WatchRoute.ancestors(of: place.directory) where !ancestors.contains(ancestor) {
                ancestors.append(ancestor)
            }
        }
        return .success(WatchRoute(path: path, target: places[0], links: Array(places.dropFirst()),
                                   ancestors: ancestors, directories: identities))
    }

    /// Whether `lstat(2)` finds a symbolic link at `path`.
    static func isSymbolicLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (UInt32(info.st_mode) & 0o170000) == 0o120000
    }

    private static func readLink(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count >= 0 else { return nil }
        return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Splits at the last slash: `a/b/c` → (`a/b`, `c`); `c` → (`.`, `c`); `/c` → (`/`, `c`).
    static func split(_ path: String) -> (directory: String, name: String) {
        var trimmed = Substring(path)
        while trimmed.count > 1 && trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/") else { return (".", String(trimmed)) }
        let directory = trimmed[..<slash]
        return (directory.isEmpty ? "/" : String(directory), String(trimmed[trimmed.index(after: slash)...]))
    }
}
