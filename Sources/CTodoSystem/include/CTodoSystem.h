// The few C library calls that Swift's Glibc module does not import, because glibc declares them
// only under _GNU_SOURCE. Used only by TodoFileSystem's Platform.swift.
#ifndef C_TODO_SYSTEM_H
#define C_TODO_SYSTEM_H

#include <stdint.h>

/// Starts write-back of `count` bytes at `offset` of `fd` without waiting for it
/// (`sync_file_range(SYNC_FILE_RANGE_WRITE)` on Linux), so that a later `fsync` has less left to do.
/// Not a durability guarantee: only `fsync` is. Returns 0, or -1 with `errno` set. Where the
/// platform has no such call it does nothing and returns 0.
int ctodo_start_writeback(int fd, int64_t offset, int64_t count);

/// Renames `from` to `to` only if `to` does not exist (`renameat2(RENAME_NOREPLACE)` on Linux,
/// `renamex_np(RENAME_EXCL)` on Darwin): fails with `EEXIST` instead of replacing a file someone
/// else just created. Returns 0, or -1 with `errno` set; `EINVAL`, `ENOSYS` or `ENOTSUP` mean the
/// file system or kernel cannot do it.
int ctodo_rename_noreplace(const char *from, const char *to);

#endif
