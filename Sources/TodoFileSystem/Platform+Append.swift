// The C calls behind the append path's two seam entries (`Syscalls.currentOffset`,
// `Syscalls.fileSizeLimit`); kept beside Platform.swift, which holds the rest of `Syscalls.live`.
#if canImport(Glibc)
@preconcurrency import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The live implementations of the seam calls `FileSystem.appendDurably` added.
enum AppendPlatform {
    /// `lseek(fd, 0, SEEK_CUR)`: with `O_APPEND`, where the last write by this descriptor ended.
    static let currentOffset: @Sendable (FileDescriptor) -> Result<Int64, Errno> = { fd in
        let offset = lseek(fd.rawValue, 0, SEEK_CUR)
        return offset < 0 ? .failure(.current) : .success(Int64(offset))
    }

    /// The soft `RLIMIT_FSIZE` in bytes, `nil` when unlimited (or when it cannot be read: then the
    /// write itself reports `EFBIG`, which the append path also handles).
    static let fileSizeLimit: @Sendable () -> Int64? = {
        var limit = rlimit()
        #if canImport(Glibc)
        let resource = __rlimit_resource_t(RLIMIT_FSIZE.rawValue)
        #else
        let resource = RLIMIT_FSIZE
        #endif
        // `RLIM_INFINITY` is all ones on Linux and `Int64.max` on Darwin: both mean no limit.
        guard getrlimit(resource, &limit) == 0, limit.rlim_cur < rlim_t(Int64.max) else { return nil }
        return Int64(limit.rlim_cur)
    }
}
