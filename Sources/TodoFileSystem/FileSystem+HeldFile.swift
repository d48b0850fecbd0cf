/// A file kept open for reading while another program may replace it, so that bytes written to the
/// old file after the replacement can still be found (`todo sync`: git's checkout of a merge unlinks
/// the todo file and creates a new one, and an appender that had the old one open writes into it;
/// docs/sync.md section 3).
///
/// Invariant: the descriptor is open for as long as the value exists, and always refers to the
/// inode that was at `path` when `FileSystem.hold` opened it.
package final class HeldFile: Sendable {
    /// The path as given to `hold` (symlinks resolved).
    package let path: String
    private let descriptor: FileDescriptor
    private let system: System
    private let fileSystem: FileSystem

    init(path: String, descriptor: FileDescriptor, fileSystem: FileSystem) {
        self.path = path
        self.descriptor = descriptor
        self.system = fileSystem.system
        self.fileSystem = fileSystem
    }

    deinit { system.closeQuietly(descriptor) }

    /// Every byte the held inode holds now, read from offset 0 to its end (read on until a read
    /// comes back short, so bytes appended while reading are included).
    package func contents() throws(FileSystemError) -> [UInt8] {
        var bytes: [UInt8] = []
        while true {
            let piece: [UInt8]
            do { piece = try system.pread(descriptor, count: 1 << 16, at: Int64(bytes.count)) } catch {
                throw .failed(.read, path: path, error)
            }
            bytes += piece
            if piece.count < 1 << 16 { return bytes }
        }
    }

    /// Whether `path` still names the held inode (false once it was replaced or removed).
    package var isStillAtPath: Bool {
        guard let now = fileSystem.status(of: path), let held = try? system.fstat(descriptor) else { return false }
        return now.identity.isSameFile(as: held.identity)
    }
}

extension FileSystem {
    /// Opens the regular file at `path` (symlinks resolved) and keeps it open: nil when it does not exist.
    package func hold(_ path: String) throws(FileSystemError) -> HeldFile? {
        let resolved = try resolve(path)
        guard resolved.exists, let fd = try openForReadingIfExists(resolved.path) else { return nil }
        do {
            _ = try regularFileStatus(fd, path: resolved.path)
        } catch {
            system.closeQuietly(fd)
            throw error
        }
        return HeldFile(path: resolved.path, descriptor: fd, fileSystem: self)
    }
}
