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

/// Swaps two names atomically (`renameat2(RENAME_EXCHANGE)` on Linux, `renamex_np(RENAME_SWAP)` on
/// Darwin): after it, `to` names what `from` named and `from` what `to` named. Returns 0, or -1 with
/// `errno` set; `EINVAL`, `ENOSYS` or `ENOTSUP` mean the file system or kernel cannot do it.
int ctodo_rename_exchange(const char *from, const char *to);

/// Whether another open file description has the file of `fd` open for writing: 0 no, 1 yes, or
/// -1 with `errno` set when this cannot be told this way (not the file's owner without
/// CAP_LEASE: `EACCES`; a file system without leases: `EINVAL`; not Linux: `ENOTSUP`).
///
/// Linux only: a read lease (`F_SETLEASE`, `F_RDLCK`) can be taken on a read-only descriptor only
/// while nobody has the file open for writing (`EAGAIN` otherwise); it is released at once. Its
/// break signal is set to SIGURG first, which is ignored by default, so a writer opening the file
/// in that instant cannot end this process with SIGIO. `fd` must be open read-only.
int ctodo_others_writing(int fd);

/// Takes, without waiting, the writers' lock on the whole file of `fd`, which must be open for
/// writing: an open-file-description write lock (`F_OFD_SETLK`, `F_WRLCK`) on Linux, which only a
/// descriptor opened for writing can take, and `flock(LOCK_EX | LOCK_NB)` elsewhere (Darwin has no
/// public OFD locks). Released when the last descriptor of that open file description is closed.
/// Returns 0, or -1 with `errno` set: `EAGAIN` when another lock is in the way (`EACCES` is folded
/// into it), `EINVAL` on a kernel without OFD locks, `ENOLCK` on a file system without locks.
int ctodo_writer_lock(int fd);

/// What stands in the way of `ctodo_writer_lock` on the file of `fd` (any open mode): 0 nothing,
/// 1 a write lock (a process that can write the file), 2 a read lock (`fcntl` or OFD `F_RDLCK`,
/// which any reader may take), or -1 with `errno` set (`ENOTSUP` where this cannot be asked:
/// not Linux). Linux: `F_OFD_GETLK` over the whole file.
int ctodo_writer_lock_holder(int fd);

/// The process environment, `environ`: NULL-terminated `NAME=value` strings. Darwin's headers do
/// not declare `environ` (its environ(7) page says to use `_NSGetEnviron()` from a library), so
/// Swift cannot name it there; this reads it on every platform.
char *const *ctodo_environment(void);

#endif
