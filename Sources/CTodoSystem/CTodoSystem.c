#define _GNU_SOURCE
#include "CTodoSystem.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>

#if defined(__linux__)
int ctodo_start_writeback(int fd, int64_t offset, int64_t count) {
    return sync_file_range(fd, (off_t)offset, (off_t)count, SYNC_FILE_RANGE_WRITE);
}

int ctodo_rename_noreplace(const char *from, const char *to) {
    return renameat2(AT_FDCWD, from, AT_FDCWD, to, RENAME_NOREPLACE);
}
#elif defined(__APPLE__)
int ctodo_start_writeback(int fd, int64_t offset, int64_t count) {
    (void)fd;
    (void)offset;
    (void)count;
    return 0;
}

int ctodo_rename_noreplace(const char *from, const char *to) {
    return renamex_np(from, to, RENAME_EXCL);
}
#else
int ctodo_start_writeback(int fd, int64_t offset, int64_t count) {
    (void)fd;
    (void)offset;
    (void)count;
    return 0;
}

int ctodo_rename_noreplace(const char *from, const char *to) {
    (void)from;
    (void)to;
    errno = ENOSYS;
    return -1;
}
#endif
