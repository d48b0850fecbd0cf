/// What a file is, as far as `todo` cares.
public enum FileKind: Sendable, Hashable {
    /// A plain file: the only kind `todo` reads or replaces.
    case regular
    /// A directory, reported as `FileSystemError.isDirectory`.
    case directory
    /// Only seen through `lstat`; `stat` and `fstat` report what the link points to.
    case symbolicLink
    /// A character device such as `/dev/null`: todo.sh's commands write to it (and the write is
    /// discarded); `todo` neither reads nor replaces it.
    case characterDevice
    /// FIFOs, sockets and block devices: `todo` neither reads nor replaces them.
    case other
}

/// The facts that tell whether a file is still the one that was read: same device and inode (nobody
/// renamed another file over it), same size and modification time (nobody wrote into it).
///
/// Equal identities do not prove equal content (mtime has coarse granularity on some filesystems and
/// can be reset with `touch -d`), so the compare-and-swap of safe replacement compares the bytes too.
public struct FileIdentity: Sendable, Hashable, CustomStringConvertible {
    /// `st_dev`: the file system holding the file.
    public var device: UInt64
    /// `st_ino`: changes when a file is replaced by rename, stays for in-place writes.
    public var inode: UInt64
    /// Size in bytes.
    public var size: Int64
    /// Modification time, seconds since the epoch.
    public var modificationSeconds: Int64
    /// Nanoseconds within `modificationSeconds`, 0 ..< 1_000_000_000.
    public var modificationNanoseconds: Int64

    /// Builds an identity from its parts (tests and fakes; real ones come from `stat`).
    package init(device: UInt64, inode: UInt64, size: Int64, modificationSeconds: Int64, modificationNanoseconds: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modificationSeconds = modificationSeconds
        self.modificationNanoseconds = modificationNanoseconds
    }

    /// Whether both describe the same inode, regardless of its size and time.
    public func isSameFile(as other: FileIdentity) -> Bool {
        device == other.device && inode == other.inode
    }

    /// `dev 2049 ino 131 size 12 mtime 1700000000.123456789`, for diagnostics.
    public var description: String {
        "dev \(device) ino \(inode) size \(size) mtime \(modificationSeconds).\(modificationNanoseconds)"
    }
}

/// The result of `stat`, reduced to the fields the file layer uses.
public struct FileStatus: Sendable, Hashable {
    /// Device, inode, size and modification time.
    public var identity: FileIdentity
    /// Regular file, directory, symlink (only from `lstat`) or other.
    public var kind: FileKind
    /// Permission bits including set-id and sticky bits (`st_mode & 0o7777`).
    public var permissions: UInt32
    /// `st_uid`, restored on the replacement where permitted.
    public var owner: UInt32
    /// `st_gid`, restored on the replacement where permitted.
    public var group: UInt32
    /// Number of hard links; more than 1 means a rename-based replacement detaches the other names.
    public var linkCount: UInt64

    /// Builds a status from its parts (tests and fakes; real ones come from `stat`).
    package init(identity: FileIdentity, kind: FileKind, permissions: UInt32, owner: UInt32, group: UInt32, linkCount: UInt64) {
        self.identity = identity
        self.kind = kind
        self.permissions = permissions
        self.owner = owner
        self.group = group
        self.linkCount = linkCount
    }
}

/// A file's bytes together with the status taken from the same open descriptor before reading.
public struct FileContents: Sendable, Hashable {
    /// Every byte, exactly as stored.
    public var bytes: [UInt8]
    /// `fstat` of the descriptor the bytes were read from. If someone appended during the read,
    /// `bytes.count` can exceed `status.identity.size`.
    public var status: FileStatus
    /// The path that was read, after resolving symbolic links.
    public var resolvedPath: String

    /// Bundles what `FileSystem.read` found.
    package init(bytes: [UInt8], status: FileStatus, resolvedPath: String) {
        self.bytes = bytes
        self.status = status
        self.resolvedPath = resolvedPath
    }
}
