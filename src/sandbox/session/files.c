/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * files.c - a session's workspace files from the server's side: the
 * write_file, read_file and list_files tools.
 *
 * Only between calls (the program is waiting for its next request, so
 * nothing it runs moves a file under the server's feet), and only for a
 * session whose workspace is its own: the private tmpfs the server holds
 * the root of (a copy's too: fork_session gives it a tmpfs of its own),
 * or the host scratch directory (not a copy's: a family shares it).  Every
 * path is resolved by openat2 from that root with RESOLVE_BENEATH (no absolute
 * path, no ".." above the root), RESOLVE_NO_SYMLINKS and RESOLVE_NO_MAGICLINKS
 * (no symbolic link the program planted, no /proc link) and RESOLVE_NO_XDEV
 * (no other mount): what the tools reach is what the program itself can
 * reach in its workspace, nothing more.  Files are opened O_NONBLOCK and
 * must be regular files (a FIFO the program made cannot block the
 * server) with one name (a hard link could name a file from elsewhere);
 * writes are done as the workspace's owner (the file system ids
 * of the server's thread, set for the write and put back), so the file is
 * the program's as one it wrote itself, and the tmpfs's own size caps
 * it.  The sizes are capped (PW_SBX_SESSION_FILE_MAX).  A large file is
 * read and written in steps by the server's loop: pw_sbx_session_open_read
 * gives the checked fd, which the steps read; pw_sbx_session_write_begin
 * makes a temporary file beside the path (as the owner, O_EXCL), the steps
 * write it, and pw_sbx_session_write_end checks the path as a write in one
 * go would (between calls again) and renames the file over it.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/openat2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "core/token.h"
#include "sandbox/os/workspace.h"
#include "sandbox/run/record.h"
#include "sandbox/run/scratch.h"
#include "sandbox/session/files.h"
#include "sandbox/session/record.h"
#include "sandbox/session/session.h"

/* A file with other names (hard links) may be one from outside the
 * workspace: neither read nor written. */
#define LINKED "'%.300s' has other names (hard links): refused"

/* The session's workspace root as an fd of its own, or -1 with ERR. */
static int
workspace_root(struct pw_sbx_session *s, struct pw_error *err)
{
    const char *why = pw_sbx_session_ended(s);
    if (why != NULL) {
        return pw_fail(err, PW_ERR_USAGE, "session ended: %s", why);
    }
    if (s->run != NULL) {
        return pw_fail(err, PW_ERR_USAGE,
                       "the session is busy: a call is running (its files "
                       "are reachable between calls)");
    }
    int fd = -1;
    /* A copy's tmpfs is its own (wscopy.c), as is the session's. */
    if (pw_sbx_workspace_tmpfs(s->z, s->caps) && s->fd.ws_fd >= 0) {
        fd = openat(s->fd.ws_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    } else if (s->fam == NULL && s->scratch != NULL &&
               pw_sbx_scratch_on_host(s->z, s->caps) &&
               (s->caps & PW_CAP_WORKSPACE_FILES) != 0) {
        fd = open(s->scratch, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    } else {
        return pw_fail(err, PW_ERR_USAGE,
                       "this session has no workspace of its own: create it "
                       "with a profile that writes files (such as "
                       "filesystem)");
    }
    if (fd < 0) {
        return pw_fail(err, PW_ERR_SANDBOX, "the workspace: %s",
                       strerror(errno));
    }
    return fd;
}

/* PATH's words for an error of openat2. */
static int
path_error(const char *path, int e, struct pw_error *err)
{
    const char *why = e == EXDEV    ? "it leads out of the workspace"
                      : e == ELOOP  ? "it goes through a symbolic link"
                      : e == ENOENT ? "no such file or directory"
                                    : strerror(e);
    return pw_fail(err, PW_ERR_USAGE, "'%.300s': %s", path, why);
}

/* PATH opened beneath ROOT with FLAGS: an fd, or -1 with ERR (naming
 * SHOWN). */
static int
open_shown(int root, const char *path, const char *shown, int flags,
           struct pw_error *err)
{
    if (path[0] == '\0' || strlen(path) > PW_SBX_SESSION_PATH_MAX) {
        return pw_fail(err, PW_ERR_USAGE, "'path' is empty or too long");
    }
    struct open_how how = {
        .flags = (unsigned long long)(flags | O_CLOEXEC | O_NOFOLLOW),
        .mode = (flags & O_CREAT) != 0 ? 0644 : 0,
        .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
                   RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
    };
    long fd;
    do {
        fd = syscall(SYS_openat2, root, path, &how, sizeof(how));
    } while (fd < 0 && errno == EAGAIN);
    if (fd < 0) {
        return path_error(shown, errno, err);
    }
    return (int)fd;
}

/* PATH opened beneath ROOT with FLAGS: an fd, or -1 with ERR. */
static int
open_beneath(int root, const char *path, int flags, struct pw_error *err)
{
    return open_shown(root, path, path, flags, err);
}

/* The file system ids of this thread made ROOT's owner's; *SAVED the
 * old (put back by as_self).  0 or -1 with ERR. */
static int
as_owner(int root, uid_t saved[2], struct pw_error *err)
{
    struct stat st;
    saved[0] = (uid_t)setfsuid((uid_t)-1);
    saved[1] = (uid_t)setfsgid((gid_t)-1);
    if (fstat(root, &st) < 0) {
        return pw_fail(err, PW_ERR_SANDBOX, "the workspace: %s",
                       strerror(errno));
    }
    (void)setfsgid(st.st_gid);
    (void)setfsuid(st.st_uid);
    if (setfsgid((gid_t)-1) != (int)st.st_gid ||
        setfsuid((uid_t)-1) != (int)st.st_uid) {
        (void)setfsgid(saved[1]);
        (void)setfsuid(saved[0]);
        return pw_fail(err, PW_ERR_SANDBOX,
                       "cannot write as the workspace's owner");
    }
    return 0;
}

static void
as_self(const uid_t saved[2])
{
    (void)setfsgid(saved[1]);
    (void)setfsuid(saved[0]);
}

int
pw_sbx_session_write_file(struct pw_sbx_session *s, const char *path,
                          const char *data, size_t len, struct pw_error *err)
{
    if (len > PW_SBX_SESSION_FILE_MAX) {
        return pw_fail(err, PW_ERR_USAGE,
                       "the content is %zu bytes: at most %d", len,
                       PW_SBX_SESSION_FILE_MAX);
    }
    int root = workspace_root(s, err);
    if (root < 0) {
        return -1;
    }
    uid_t saved[2];
    if (as_owner(root, saved, err) < 0) {
        close(root);
        return -1;
    }
    int fd = open_beneath(root, path, O_WRONLY | O_CREAT | O_NONBLOCK, err);
    as_self(saved);
    close(root);
    if (fd < 0) {
        return -1;
    }
    struct stat st;
    int rc = 0;
    if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        rc =
            pw_fail(err, PW_ERR_USAGE, "'%.300s' is not a regular file", path);
    } else if (st.st_nlink > 1) {
        rc = pw_fail(err, PW_ERR_USAGE, LINKED, path);
    } else if (ftruncate(fd, 0) < 0 || pw_write_all(fd, data, len) < 0) {
        rc = pw_fail(err, PW_ERR_USAGE, "'%.300s': %s", path,
                     errno == ENOSPC ? "the workspace is full"
                                     : strerror(errno));
    }
    close(fd);
    return rc;
}

int
pw_sbx_session_open_read(struct pw_sbx_session *s, const char *path,
                         struct stat *st, struct pw_error *err)
{
    int root = workspace_root(s, err);
    if (root < 0) {
        return -1;
    }
    int fd = open_beneath(root, path, O_RDONLY | O_NONBLOCK, err);
    close(root);
    if (fd < 0) {
        return -1;
    }
    if (fstat(fd, st) < 0 || !S_ISREG(st->st_mode)) {
        close(fd);
        return pw_fail(err, PW_ERR_USAGE, "'%.300s' is not a regular file",
                       path);
    }
    if (st->st_nlink > 1) {
        close(fd);
        return pw_fail(err, PW_ERR_USAGE, LINKED, path);
    }
    if (st->st_size > PW_SBX_SESSION_FILE_MAX) {
        close(fd);
        return pw_fail(err, PW_ERR_USAGE, "'%.300s' is %lld bytes: at most %d",
                       path, (long long)st->st_size, PW_SBX_SESSION_FILE_MAX);
    }
    return fd;
}

char *
pw_sbx_session_read_file(struct pw_sbx_session *s, const char *path,
                         size_t *len, struct pw_error *err)
{
    struct stat st;
    int fd = pw_sbx_session_open_read(s, path, &st, err);
    if (fd < 0) {
        return NULL;
    }
    char *buf = pw_xmalloc((size_t)st.st_size + 1);
    size_t got = 0;
    while (got < (size_t)st.st_size) {
        ssize_t n = read(fd, buf + got, (size_t)st.st_size - got);
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n <= 0) {
            break; /* cut short meanwhile: what there is */
        }
        got += (size_t)n;
    }
    close(fd);
    buf[got] = '\0';
    *len = got;
    return buf;
}

/* PATH's directory ("." for a name alone) into DIR (room N). */
static void
dir_of(const char *path, char *dir, size_t n)
{
    const char *slash = strrchr(path, '/');
    if (slash == NULL) {
        snprintf(dir, n, ".");
    } else if (slash == path) {
        snprintf(dir, n, "/"); /* refused by open_beneath */
    } else {
        snprintf(dir, n, "%.*s", (int)(slash - path), path);
    }
}

/* PATH's last name (empty after a final '/'). */
static const char *
base_of(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash != NULL ? slash + 1 : path;
}

int
pw_sbx_session_write_begin(struct pw_sbx_session *s, const char *path,
                           size_t len, struct pw_sbx_wfile *w,
                           struct pw_error *err)
{
    w->dir = w->fd = -1;
    w->tmp[0] = '\0';
    if (len > PW_SBX_SESSION_FILE_MAX) {
        return pw_fail(err, PW_ERR_USAGE,
                       "the content is %zu bytes: at most %d", len,
                       PW_SBX_SESSION_FILE_MAX);
    }
    int root = workspace_root(s, err);
    if (root < 0) {
        return -1;
    }
    if (path[0] == '\0' || strlen(path) > PW_SBX_SESSION_PATH_MAX) {
        close(root);
        return pw_fail(err, PW_ERR_USAGE, "'path' is empty or too long");
    }
    char dir[PW_SBX_SESSION_PATH_MAX + 2];
    dir_of(path, dir, sizeof(dir));
    w->dir = open_shown(root, dir, path, O_RDONLY | O_DIRECTORY, err);
    uid_t saved[2];
    if (w->dir < 0 || as_owner(root, saved, err) < 0) {
        close(root);
        if (w->dir >= 0) {
            close(w->dir);
        }
        w->dir = -1;
        return -1;
    }
    close(root);
    char name[17];
    pw_token_random_hex(name, 8);
    snprintf(w->tmp, sizeof(w->tmp), ".pyward-write-%s", name);
    w->fd = openat(w->dir, w->tmp,
                   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK |
                       O_CLOEXEC,
                   0644);
    int e = errno;
    as_self(saved);
    if (w->fd < 0) {
        close(w->dir);
        w->dir = -1;
        w->tmp[0] = '\0';
        return pw_fail(err, PW_ERR_USAGE, "'%.300s': %s", path,
                       e == ENOSPC ? "the workspace is full" : strerror(e));
    }
    return 0;
}

int
pw_sbx_session_write_some(struct pw_sbx_wfile *w, const char *path,
                          const void *data, size_t n, struct pw_error *err)
{
    if (pw_write_all(w->fd, data, n) < 0) {
        return pw_fail(err, PW_ERR_USAGE, "'%.300s': %s", path,
                       errno == ENOSPC ? "the workspace is full"
                                       : strerror(errno));
    }
    return 0;
}

void
pw_sbx_session_write_drop(struct pw_sbx_wfile *w)
{
    if (w->fd >= 0) {
        close(w->fd);
    }
    if (w->dir >= 0 && w->tmp[0] != '\0') {
        (void)unlinkat(w->dir, w->tmp, 0);
    }
    if (w->dir >= 0) {
        close(w->dir);
    }
    w->dir = w->fd = -1;
    w->tmp[0] = '\0';
}

int
pw_sbx_session_write_end(struct pw_sbx_session *s, const char *path,
                         struct pw_sbx_wfile *w, struct pw_error *err)
{
    int root = workspace_root(s, err);
    if (root < 0) {
        pw_sbx_session_write_drop(w);
        return -1;
    }
    uid_t saved[2];
    if (as_owner(root, saved, err) < 0) {
        close(root);
        pw_sbx_session_write_drop(w);
        return -1;
    }
    /* PATH opened as a write in one go opens it: the same refusals. */
    int fd = open_beneath(root, path, O_WRONLY | O_CREAT | O_NONBLOCK, err);
    close(root);
    struct stat st;
    int rc = 0;
    if (fd < 0) {
        rc = -1;
    } else if (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode)) {
        rc =
            pw_fail(err, PW_ERR_USAGE, "'%.300s' is not a regular file", path);
    } else if (st.st_nlink > 1) {
        rc = pw_fail(err, PW_ERR_USAGE, LINKED, path);
    } else if (renameat(w->dir, w->tmp, w->dir, base_of(path)) < 0) {
        rc = pw_fail(err, PW_ERR_USAGE, "'%.300s': %s", path,
                     errno == ENOSPC ? "the workspace is full"
                                     : strerror(errno));
    } else {
        w->tmp[0] = '\0'; /* it is PATH now */
    }
    as_self(saved);
    if (fd >= 0) {
        close(fd);
    }
    pw_sbx_session_write_drop(w);
    return rc;
}

static int
by_name(const void *a, const void *b)
{
    const char *x =
        json_string_value(json_object_get(*(json_t *const *)a, "name"));
    const char *y =
        json_string_value(json_object_get(*(json_t *const *)b, "name"));
    return strcmp(x, y);
}

static const char *
type_of(mode_t m)
{
    return S_ISREG(m)   ? "file"
           : S_ISDIR(m) ? "directory"
           : S_ISLNK(m) ? "symlink"
                        : "other";
}

json_t *
pw_sbx_session_list_files(struct pw_sbx_session *s, const char *path,
                          size_t *more, struct pw_error *err)
{
    *more = 0;
    int root = workspace_root(s, err);
    if (root < 0) {
        return NULL;
    }
    const char *p = path == NULL || path[0] == '\0' ? "." : path;
    int fd = open_beneath(root, p, O_RDONLY | O_DIRECTORY, err);
    close(root);
    DIR *d = fd >= 0 ? fdopendir(fd) : NULL;
    if (d == NULL) {
        if (fd >= 0) {
            close(fd);
            pw_fail(err, PW_ERR_SANDBOX, "'%.300s': %s", p, strerror(errno));
        }
        return NULL;
    }
    json_t **v = pw_xcalloc(PW_SBX_SESSION_LIST_MAX, sizeof(json_t *));
    size_t n = 0;
    struct dirent *e;
    /* readdir is thread-safe on one DIR (glibc); readdir_r is deprecated */
    /* cppcheck-suppress readdirCalled */
    while ((e = readdir(d)) != NULL) {
        struct stat st;
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
            continue;
        }
        if (n == PW_SBX_SESSION_LIST_MAX) {
            (*more)++;
            continue;
        }
        /* NULL: a name that is not UTF-8, left out */
        json_t *item =
            json_pack("{s:s,s:s,s:I}", "name", e->d_name, "type",
                      type_of(st.st_mode), "size", (json_int_t)st.st_size);
        if (item != NULL) {
            v[n++] = item;
        }
    }
    closedir(d);
    qsort(v, n, sizeof(json_t *), by_name);
    json_t *list = json_array();
    for (size_t i = 0; i < n; i++) {
        json_array_append_new(list, v[i]);
    }
    free(v);
    return list;
}
