// Helpers for the file-layer tests. They talk to the C library directly, never through the code
// under test, so a bug in TodoFileSystem cannot hide itself in the assertions.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import TodoTestSupport
@testable import TodoFileSystem

extension TemporaryDirectory {
    /// Entry names, sorted, without `.` and `..`.
    func entries(_ subdirectory: String? = nil) -> [String] {
        Posix.list(subdirectory.map { path + "/" + $0 } ?? path)
    }
}

enum Posix {
    static func write(_ path: String, _ bytes: [UInt8], mode: mode_t = 0o644) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
        precondition(fd >= 0, "open \(path): \(errno)")
        writeAll(fd, bytes)
        close(fd)
    }

    static func write(_ path: String, _ text: String, mode: mode_t = 0o644) { write(path, Array(text.utf8), mode: mode) }

    /// `echo … >> path`: one `O_APPEND` write.
    static func append(_ path: String, _ text: String) {
        let fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        precondition(fd >= 0, "open \(path): \(errno)")
        writeAll(fd, Array(text.utf8))
        close(fd)
    }

    /// Rewrites the file in place (same inode), as a non-atomic editor would.
    static func overwriteInPlace(_ path: String, _ text: String) {
        let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
        precondition(fd >= 0, "open \(path): \(errno)")
        writeAll(fd, Array(text.utf8))
        close(fd)
    }

    /// Saves like vim or `sed -i`: write a new file, rename it over the old one (new inode).
    static func saveLikeEditor(_ path: String, _ text: String) {
        let temporary = path + ".editor-save"
        write(temporary, Array(text.utf8))
        precondition(rename(temporary, path) == 0)
    }

    static func writeAll(_ fd: Int32, _ bytes: [UInt8]) {
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
            precondition(n > 0, "write: \(errno)")
            offset += n
        }
    }

    static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var result: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            precondition(n >= 0)
            if n == 0 { return result }
            result += chunk[..<n]
        }
    }

    static func text(_ path: String) -> String? { read(path).map { String(decoding: $0, as: UTF8.self) } }

    static func stat(_ path: String) -> Glibc.stat? { statPath(path, follow: true) }

    static func lstat(_ path: String) -> Glibc.stat? { statPath(path, follow: false) }

    static func mode(_ path: String) -> mode_t? { stat(path).map { $0.st_mode & 0o7777 } }

    static func list(_ directory: String) -> [String] {
        guard let dir = opendir(directory) else { return [] }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    static func removeTree(_ path: String) {
        if let s = lstat(path), s.st_mode & S_IFMT == S_IFDIR {
            chmod(path, 0o755)
            for name in list(path) { removeTree(path + "/" + name) }
            rmdir(path)
        } else {
            unlink(path)
        }
    }

    /// The mode a new file gets from `open(…, 0666)` in `directory`, found without touching the
    /// process-wide umask (other tests run in parallel).
    static func defaultNewFileMode(in directory: String) -> mode_t {
        let probe = directory + "/.umask-probe"
        let fd = open(probe, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o666)
        precondition(fd >= 0)
        close(fd)
        defer { unlink(probe) }
        return mode(probe) ?? 0
    }
}

/// Runs a typed-throwing body and keeps its outcome, so tests can assert on the exact error.
func outcome<T, E: Error>(_ body: () throws(E) -> T) -> Result<T, E> {
    do { return .success(try body()) } catch { return .failure(error) }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
    var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}

/// The `FileSystemError` inside a replace failure, if it came from the file system.
func fileSystemError<E>(_ error: ReplaceError<E>?) -> FileSystemError? {
    if case .fileSystem(let inner) = error { return inner }
    return nil
}

/// A transform that appends one line, so every application is visible in the result.
func appending(_ line: String) -> ([UInt8]) -> [UInt8]? {
    { bytes in bytes + Array(line.utf8) }
}

/// Index, among calls of the same kind, of each call in a log (1-based), for fault injection.
func occurrences(_ log: [SyscallKind]) -> [(kind: SyscallKind, occurrence: Int)] {
    var seen: [SyscallKind: Int] = [:]
    return log.map { kind in
        seen[kind, default: 0] += 1
        return (kind, seen[kind, default: 0])
    }
}

/// `stat`/`lstat` outside `Posix`, where the names refer to the C functions.
private func statPath(_ path: String, follow: Bool) -> stat? {
    var s = stat()
    let rc = follow ? stat(path, &s) : lstat(path, &s)
    return rc == 0 ? s : nil
}
