/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * jobe_files.c - the file cache of the Jobe API: support files PUT by a
 * client (base64 in JSON), kept under a directory of the operator's as
 * one file per id, with a size cap per file and in all (the oldest go
 * first) and an expiry.  Runs read them into their workspace.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "server/jobe.h"

#define ID_MAX 64

struct pw_jobe_files {
    char *dir;
    long long max_file;
    long long max_total;
    double ttl;
};

bool
pw_jobe_file_id_ok(const char *id)
{
    size_t n = strlen(id);
    if (n == 0 || n > ID_MAX) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        char c = id[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
              (c >= '0' && c <= '9'))) {
            return false;
        }
    }
    return true;
}

struct pw_jobe_files *
pw_jobe_files_new(const char *dir, long long max_file, long long max_total,
                  double ttl, struct pw_error *err)
{
    char *path;
    if (dir != NULL) {
        path = pw_xstrdup(dir);
    } else {
        const char *tmp = getenv("TMPDIR");
        path = pw_xasprintf("%s/pyward-jobe-files-%ld",
                            tmp != NULL && *tmp != '\0' ? tmp : "/tmp",
                            (long)getuid());
    }
    struct stat st;
    if ((mkdir(path, 0700) < 0 && errno != EEXIST) || lstat(path, &st) < 0 ||
        !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
        access(path, W_OK) < 0) {
        pw_fail(err, PW_ERR_USAGE,
                "--jobe-files %s: not a directory of this user that it can "
                "write",
                path);
        free(path);
        return NULL;
    }
    struct pw_jobe_files *f = pw_xcalloc(1, sizeof(*f));
    f->dir = path;
    f->max_file = max_file;
    f->max_total = max_total;
    f->ttl = ttl;
    return f;
}

void
pw_jobe_files_free(struct pw_jobe_files *f)
{
    if (f != NULL) {
        free(f->dir);
        free(f);
    }
}

/* A file's age to the nanosecond: time(NULL) reads a coarse clock that
 * may still say the second before a fresh file's mtime (682 of 200,000
 * files made here), which made a file just written look 1 s younger. */
static bool
expired(const struct pw_jobe_files *f, const struct stat *st)
{
    struct timespec now;
    (void)clock_gettime(CLOCK_REALTIME, &now);
    double age = difftime(now.tv_sec, st->st_mtim.tv_sec) +
                 (double)(now.tv_nsec - st->st_mtim.tv_nsec) / 1e9;
    return age > f->ttl;
}

static bool
older(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec < b->tv_sec ||
           (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

/* Remove what expired; *TOTAL gets the bytes left and *OLDEST (owned,
 * may be NULL) the name of the oldest file. */
static void
sweep(struct pw_jobe_files *f, long long *total, char **oldest)
{
    *total = 0;
    *oldest = NULL;
    struct timespec when = {0};
    DIR *d = opendir(f->dir);
    if (d == NULL) {
        return;
    }
    struct dirent *e;
    /* readdir is thread-safe on one DIR (glibc); readdir_r is deprecated */
    /* cppcheck-suppress readdirCalled */
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        if (!pw_jobe_file_id_ok(e->d_name) ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
            !S_ISREG(st.st_mode)) {
            continue;
        }
        if (expired(f, &st)) {
            (void)unlinkat(dirfd(d), e->d_name, 0);
            continue;
        }
        *total += st.st_size;
        if (*oldest == NULL || older(&st.st_mtim, &when)) {
            free(*oldest);
            *oldest = pw_xstrdup(e->d_name);
            when = st.st_mtim;
        }
    }
    closedir(d);
}

/* Room for LEN more bytes: expired files removed, then the oldest. */
static void
make_room(struct pw_jobe_files *f, size_t len)
{
    for (;;) {
        long long total;
        PW_AUTOFREE char *oldest = NULL;
        sweep(f, &total, &oldest);
        if (total + (long long)len <= f->max_total || oldest == NULL) {
            return;
        }
        PW_AUTOFREE char *p = pw_xasprintf("%s/%s", f->dir, oldest);
        if (unlink(p) < 0) {
            return;
        }
    }
}

int
pw_jobe_files_put(struct pw_jobe_files *f, const char *id, const char *data,
                  size_t len, struct pw_error *err)
{
    if (!pw_jobe_file_id_ok(id)) {
        return pw_fail(err, PW_ERR_USAGE, "bad file id");
    }
    if ((long long)len > f->max_file) {
        return pw_fail(err, PW_ERR_USAGE,
                       "file %s is too large: %zu bytes (at most %lld)", id,
                       len, f->max_file);
    }
    make_room(f, len);
    PW_AUTOFREE char *tmp = pw_xasprintf("%s/.%s.XXXXXX", f->dir, id);
    PW_AUTOFREE char *path = pw_xasprintf("%s/%s", f->dir, id);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        return pw_fail_errno(err, PW_ERR_INTERNAL, "put: %s", tmp);
    }
    int rc = pw_write_all(fd, data, len);
    int e = errno;
    if (close(fd) < 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    if (rc < 0 || rename(tmp, path) < 0) {
        e = rc < 0 ? e : errno;
        (void)unlink(tmp);
        errno = e;
        return pw_fail_errno(err, PW_ERR_INTERNAL, "put: %s", path);
    }
    return 0;
}

/* An open fd on ID's file if it is there and fresh, else -1. */
static int
open_fresh(struct pw_jobe_files *f, const char *id)
{
    if (!pw_jobe_file_id_ok(id)) {
        return -1;
    }
    PW_AUTOFREE char *path = pw_xasprintf("%s/%s", f->dir, id);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 &&
        (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) || expired(f, &st))) {
        close(fd);
        fd = -1;
    }
    return fd;
}

bool
pw_jobe_files_has(struct pw_jobe_files *f, const char *id)
{
    int fd = open_fresh(f, id);
    if (fd < 0) {
        return false;
    }
    close(fd);
    return true;
}

int
pw_jobe_files_get(struct pw_jobe_files *f, const char *id, struct pw_buf *b)
{
    int fd = open_fresh(f, id);
    if (fd < 0) {
        return -1;
    }
    struct pw_error err = {0};
    int rc = pw_read_fd(fd, (size_t)f->max_file, b, &err);
    close(fd);
    return rc;
}
