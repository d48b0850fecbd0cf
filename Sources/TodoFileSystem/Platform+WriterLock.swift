import CTodoSystem
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What keeps the writers' lock (`Syscalls.writerLock`) from being taken.
package enum WriterLockHolder: Sendable, Hashable {
    /// A write lock: a process that has the file open for writing, so one of its writers.
    case writer
    /// A read lock (`fcntl` or OFD `F_RDLCK`), which any process that can read the file may take.
    case reader
}

/// What `Syscalls.writerLock` is asked to do.
package enum WriterLockRequest: Sendable, Hashable {
    /// Take the lock, without waiting.
    case take
    /// Tell who holds the lock in the way.
    case ask
}

/// The platform half of `FileLock`'s lock on the file itself (docs/files.md, "The writers' lock").
///
/// - Linux: an open-file-description write lock (`F_OFD_SETLK`, `F_WRLCK`) over the whole file. Only
///   a descriptor opened for writing can take it, so only the file's writers can; a reader's `flock`
///   of the file or of its directory does not touch it. A reader's `fcntl` read lock does conflict
///   (byte-range read and write locks always do); `writerLockHolder` tells that case apart for the
///   message. OFD locks belong to the open file description, like `flock`'s, so two locks in one
///   process exclude each other and closing some other descriptor of the file releases nothing.
/// - Darwin: no public OFD locks, and classic `fcntl` locks are released when the process closes
///   *any* descriptor of the file (which every read does), so `flock(LOCK_EX)` on the file: it
///   excludes writers just as well, but a process that can only read the file can take it too, and
///   who holds it cannot be asked (`ENOTSUP`).
extension Syscalls {
    /// `ctodo_writer_lock` for `.take`, `ctodo_writer_lock_holder` for `.ask`.
    static let platformWriterLock: @Sendable (FileDescriptor, WriterLockRequest) -> Result<WriterLockHolder?, Errno> = { fd, request in
        switch request {
        case .take:
            return ctodo_writer_lock(fd.rawValue) == -1 ? .failure(.current) : .success(nil)
        case .ask:
            switch ctodo_writer_lock_holder(fd.rawValue) {
            case -1: return .failure(.current)
            case 0: return .success(nil)
            case 1: return .success(.writer)
            default: return .success(.reader)
            }
        }
    }
}
