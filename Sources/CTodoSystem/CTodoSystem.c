#define _GNU_SOURCE
#include "CTodoSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/file.h>
#if defined(__APPLE__)
#include <crt_externs.h>
#else
extern char **environ;
#endif

#if defined(__linux__)
#include <sys/syscall.h>
#include <unistd.h>
// The raw system call, so that glibc older than 2.28 (no renameat2 wrapper) builds too.
#ifndef RENAME_NOREPLACE
#define RENAME_NOREPLACE (1 << 0)
#endif
#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
#endif

int ctodo_start_writeback(int fd, int64_t offset, int64_t count) {
#if defined(__linux__)
    return sync_file_range(fd, (off_t)offset, (off_t)count, SYNC_FILE_RANGE_WRITE);
#else
    (void)fd;
    (void)offset;
    (void)count;
    return 0;
#endif
}

// renameat2 with `linux_flag`, or renamex_np with `darwin_flag`: the one body both special renames share.
static int rename_with_flag(const char *from, const char *to, unsigned int linux_flag, unsigned int darwin_flag) {
#if defined(__linux__) && defined(SYS_renameat2)
    (void)darwin_flag;
    return (int)syscall(SYS_renameat2, AT_FDCWD, from, AT_FDCWD, to, linux_flag);
#elif defined(__APPLE__)
    (void)linux_flag;
    return renamex_np(from, to, darwin_flag);
#else
    (void)from;
    (void)to;
    (void)linux_flag;
    (void)darwin_flag;
    errno = ENOSYS;
    return -1;
#endif
}

int ctodo_rename_noreplace(const char *from, const char *to) {
#if defined(__APPLE__)
    return rename_with_flag(from, to, 0, RENAME_EXCL);
#else
    return rename_with_flag(from, to, RENAME_NOREPLACE, 0);
#endif
}

int ctodo_others_writing(int fd) {
#if defined(__linux__) && defined(F_SETLEASE)
    if (fcntl(fd, F_SETSIG, SIGURG) == -1) return -1;
    if (fcntl(fd, F_SETLEASE, F_RDLCK) == -1) {
        if (errno == EAGAIN) return 1;
        return -1;
    }
    (void)fcntl(fd, F_SETLEASE, F_UNLCK);
    return 0;
#else
    (void)fd;
    errno = ENOTSUP;
    return -1;
#endif
}

int ctodo_rename_exchange(const char *from, const char *to) {
#if defined(__APPLE__)
    return rename_with_flag(from, to, 0, RENAME_SWAP);
#else
    return rename_with_flag(from, to, RENAME_EXCHANGE, 0);
#endif
}

#if defined(__linux__) && defined(F_OFD_SETLK)
// The whole file, from offset 0 to the end and beyond.
static struct flock whole_file(short type) {
    struct flock request;
    memset(&request, 0, sizeof request);
    request.l_type = type;
    request.l_whence = SEEK_SET;
    request.l_start = 0;
    request.l_len = 0;
    request.l_pid = 0;
    return request;
}
#endif

int ctodo_writer_lock(int fd) {
#if defined(__linux__) && defined(F_OFD_SETLK)
    struct flock request = whole_file(F_WRLCK);
    if (fcntl(fd, F_OFD_SETLK, &request) == -1) {
        if (errno == EACCES) errno = EAGAIN;
        return -1;
    }
    return 0;
#else
    return flock(fd, LOCK_EX | LOCK_NB);
#endif
}

int ctodo_writer_lock_holder(int fd) {
#if defined(__linux__) && defined(F_OFD_GETLK)
    struct flock request = whole_file(F_WRLCK);
    if (fcntl(fd, F_OFD_GETLK, &request) == -1) return -1;
    if (request.l_type == F_UNLCK) return 0;
    return request.l_type == F_WRLCK ? 1 : 2;
#else
    (void)fd;
    errno = ENOTSUP;
    return -1;
#endif
}

char *const *ctodo_environment(void) {
#if defined(__APPLE__)
    return *_NSGetEnviron();
#else
    return environ;
#endif
}
