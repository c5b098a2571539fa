/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * wsfiles.c - support files given by fd, copied into a run's workspace
 * off the caller's loop; and which names a support file may have
 * (pw_sbx_file_name_ok).
 *
 * A request's support files are either bytes (sent to the spare with
 * the request, written by it) or open regular files (pw_sbx_file.data
 * NULL): a cached file of the Jobe API is one of those, and its bytes
 * never enter the caller's memory.  The spare is already under its
 * seccomp filter and landlock when the request comes, so the files given
 * by fd are put in place by the caller's process instead, before the
 * request is sent: once the workspace is reachable (the tmpfs's fd, which
 * the checklist hands over on the result channel, or the host scratch
 * directory), a thread of the caller's copies each file into it with
 * copy_file_range (sendfile across filesystems), at most COPY_STEP bytes
 * a call, between which it looks whether it must stop (the run was
 * killed, timed out or freed).  One file (one inode) named several times
 * is copied once; its other names are hard links to that copy.  The
 * workspace's own caps (the tmpfs's size and inodes) apply to what is
 * written, and the bytes of a request's files are checked against the
 * workspace's size before anything starts.  The run's wall clock runs
 * from its start, copy included.  The thread then signals an eventfd
 * the caller polls with the run's fds; the next step sends the request,
 * and the program starts with its files in place.
 *
 * The thread touches no interpreter state and takes no lock of the
 * caller's: files, the workspace's fd and an eventfd, all its own.  No
 * code of the request's has run in the spare yet, so the workspace holds
 * only what the checklist made there: names are created with O_EXCL and
 * O_NOFOLLOW, relative to the workspace's fd, and are plain file names.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/fsuid.h>
#include <sys/sendfile.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/util.h"
#include "sandbox/run/record.h"
#include "sandbox/run/scratch.h"
#include "sandbox/os/workspace.h"
#include "sandbox/run/wsfiles.h"

#define COPY_STEP   (1 << 20) /* bytes per copy call */
#define PAGE        4096
#define STACK_BYTES (256 * 1024)

struct entry {
    char *name;
    int fd;      /* owned; -1 for a link */
    size_t link; /* the entry this one is a name of, or its own index */
    off_t size;
    dev_t dev;
    ino_t ino;
};

struct pw_sbx_wsfiles {
    struct entry *v;
    size_t n;
    int dir;  /* owned: the workspace, once reachable */
    int done; /* owned eventfd: 1 once the thread is over */
    pthread_t thread;
    bool started;
    atomic_bool stop;
    long long max_bytes;
    /* Written by the thread, read after it is joined. */
    int err;
    char what[160];
};

size_t
pw_sbx_wsfiles_count(const struct pw_sbx_request *req)
{
    size_t n = 0;
    for (size_t i = 0; i < req->nfiles; i++) {
        n += req->files[i].data == NULL;
    }
    return n;
}

/* A file's bytes in a tmpfs: whole pages. */
static long long
pages_of(off_t size)
{
    return ((long long)size + PAGE - 1) / PAGE * PAGE;
}

long long
pw_sbx_wsfiles_bytes(const struct pw_sbx_request *req, struct pw_error *err)
{
    long long total = 0;
    for (size_t i = 0; i < req->nfiles; i++) {
        const struct pw_sbx_file *f = &req->files[i];
        struct stat st;
        if (f->data != NULL) {
            continue;
        }
        if (f->fd < 0 || fstat(f->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
            pw_fail(err, PW_ERR_USAGE,
                    "support file '%.*s' is not an open regular file",
                    PW_SBX_NAME_MAX, f->name);
            return -1;
        }
        bool seen = false;
        for (size_t k = 0; k < i && !seen; k++) {
            struct stat o;
            seen = req->files[k].data == NULL &&
                   fstat(req->files[k].fd, &o) == 0 && o.st_dev == st.st_dev &&
                   o.st_ino == st.st_ino;
        }
        total += seen ? 0 : pages_of(st.st_size);
    }
    return total;
}

static void
job_free(struct pw_sbx_wsfiles *j)
{
    for (size_t i = 0; i < j->n; i++) {
        free(j->v[i].name);
        if (j->v[i].fd >= 0) {
            close(j->v[i].fd);
        }
    }
    free(j->v);
    if (j->dir >= 0) {
        close(j->dir);
    }
    if (j->done >= 0) {
        close(j->done);
    }
    free(j);
}

int
pw_sbx_wsfiles_attach(struct pw_sbx_run *r, const struct pw_sbx_request *req,
                      struct pw_error *err)
{
    size_t n = pw_sbx_wsfiles_count(req);
    if (n == 0) {
        return 0;
    }
    struct pw_sbx_wsfiles *j = pw_xcalloc(1, sizeof(*j));
    j->v = pw_xcalloc(n, sizeof(*j->v));
    j->dir = -1;
    j->max_bytes = r->z->policy.workspace_bytes;
    atomic_init(&j->stop, false);
    j->done = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (j->done < 0) {
        job_free(j);
        return pw_fail_errno(err, PW_ERR_SANDBOX, "eventfd");
    }
    for (size_t i = 0; i < req->nfiles; i++) {
        const struct pw_sbx_file *f = &req->files[i];
        if (f->data != NULL) {
            continue;
        }
        struct entry *e = &j->v[j->n];
        struct stat st;
        e->fd = -1;
        e->name = pw_xstrdup(f->name);
        e->link = j->n++;
        if (fstat(f->fd, &st) < 0 || !S_ISREG(st.st_mode)) {
            job_free(j);
            return pw_fail(err, PW_ERR_USAGE,
                           "support file '%.*s' is not an open regular file",
                           PW_SBX_NAME_MAX, f->name);
        }
        e->size = st.st_size;
        e->dev = st.st_dev;
        e->ino = st.st_ino;
        for (size_t k = 0; k + 1 < j->n; k++) {
            if (j->v[k].link == k && j->v[k].dev == e->dev &&
                j->v[k].ino == e->ino) {
                e->link = k;
                break;
            }
        }
        if (e->link == j->n - 1 &&
            (e->fd = fcntl(f->fd, F_DUPFD_CLOEXEC, 3)) < 0) {
            job_free(j);
            return pw_fail_errno(err, PW_ERR_SANDBOX, "support file '%s'",
                                 f->name);
        }
    }
    r->files = j;
    return 0;
}

/* --- the thread ------------------------------------------------------- */

static int
job_fail(struct pw_sbx_wsfiles *j, const char *name, const char *what, int e)
{
    j->err = e;
    snprintf(j->what, sizeof(j->what), "support file '%.64s': %s", name, what);
    return -1;
}

/* E's bytes into OUT, a step at a time. */
static int
copy_bytes(struct pw_sbx_wsfiles *j, const struct entry *e, int out)
{
    off_t off = 0;
    bool plain = false; /* copy_file_range refused: sendfile */
    while (off < e->size) {
        if (atomic_load(&j->stop)) {
            return job_fail(j, e->name, "copy stopped", ECANCELED);
        }
        size_t want =
            (size_t)(e->size - off < COPY_STEP ? e->size - off : COPY_STEP);
        ssize_t n = -1;
        if (!plain) {
            n = copy_file_range(e->fd, &off, out, NULL, want, 0);
            if (n < 0 && (errno == EXDEV || errno == EINVAL ||
                          errno == ENOSYS || errno == EOPNOTSUPP)) {
                plain = true;
                continue;
            }
        } else {
            n = sendfile(out, e->fd, &off, want);
        }
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            return job_fail(j, e->name, strerror(errno), errno);
        }
        if (n == 0) {
            return job_fail(j, e->name, "the file was cut short", EIO);
        }
    }
    return 0;
}

static int
copy_one(struct pw_sbx_wsfiles *j, const struct entry *e)
{
    int out =
        openat(j->dir, e->name,
               O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    if (out < 0) {
        return job_fail(j, e->name, strerror(errno), errno);
    }
    int rc = copy_bytes(j, e, out);
    if (close(out) < 0 && rc == 0) {
        rc = job_fail(j, e->name, strerror(errno), errno);
    }
    return rc;
}

/* The files are the run's own, as those it writes: made as the
 * workspace's owner (a server started as root writes into a workspace of
 * nobody's, a tmpfs mounted in the run's user namespace, which cannot
 * hold a file of an owner it does not map).  The file system ids are
 * this thread's alone, and it ends with the copy. */
static int
as_owner(struct pw_sbx_wsfiles *j)
{
    struct stat ws;
    if (fstat(j->dir, &ws) < 0) {
        return job_fail(j, ".", strerror(errno), errno);
    }
    if (ws.st_uid == geteuid() && ws.st_gid == getegid()) {
        return 0;
    }
    (void)setfsgid(ws.st_gid);
    (void)setfsuid(ws.st_uid);
    if (setfsgid((gid_t)-1) != (int)ws.st_gid ||
        setfsuid((uid_t)-1) != (int)ws.st_uid) {
        return job_fail(j, ".", "cannot write as the workspace's owner",
                        EPERM);
    }
    return 0;
}

static int
copy_all(struct pw_sbx_wsfiles *j)
{
    if (as_owner(j) < 0) {
        return -1;
    }
    long long total = 0;
    for (size_t i = 0; i < j->n; i++) {
        const struct entry *e = &j->v[i];
        if (e->link != i) {
            continue;
        }
        total += pages_of(e->size);
        if (j->max_bytes > 0 && total > j->max_bytes) {
            return job_fail(j, e->name, "the workspace is full", ENOSPC);
        }
        if (copy_one(j, e) < 0) {
            return -1;
        }
    }
    for (size_t i = 0; i < j->n; i++) {
        const struct entry *e = &j->v[i];
        if (e->link != i &&
            linkat(j->dir, j->v[e->link].name, j->dir, e->name, 0) < 0) {
            return job_fail(j, e->name, strerror(errno), errno);
        }
    }
    return 0;
}

static void *
job_main(void *arg)
{
    struct pw_sbx_wsfiles *j = arg;
    (void)copy_all(j);
    uint64_t one = 1;
    while (write(j->done, &one, sizeof(one)) < 0 && errno == EINTR) {
    }
    return NULL;
}

/* Start J's thread on DIR (taken), every signal blocked in it: the
 * caller's loop takes them. */
static int
job_start(struct pw_sbx_wsfiles *j, int dir, char *why, size_t len)
{
    j->dir = dir;
    pthread_attr_t attr;
    sigset_t all, old;
    sigfillset(&all);
    int rc = pthread_attr_init(&attr);
    if (rc == 0) {
        (void)pthread_attr_setstacksize(&attr, STACK_BYTES);
        (void)pthread_sigmask(SIG_SETMASK, &all, &old);
        rc = pthread_create(&j->thread, &attr, job_main, j);
        (void)pthread_sigmask(SIG_SETMASK, &old, NULL);
        (void)pthread_attr_destroy(&attr);
    }
    if (rc != 0) {
        snprintf(why, len, "support files: a thread to copy them: %s",
                 strerror(rc));
        return -1;
    }
    j->started = true;
    return 0;
}

/* --- the run's side ----------------------------------------------------- */

int
pw_sbx_wsfiles_pollfd(const struct pw_sbx_run *r)
{
    return r->files != NULL && r->files->started ? r->files->done : -1;
}

/* The workspace of R as an fd of its own; -1 while it is not reachable
 * yet (the tmpfs's fd has not come), -2 (errno set) if it cannot be. */
static int
workspace_dir(struct pw_sbx_run *r)
{
    int fd = -1;
    if (pw_sbx_workspace_tmpfs(r->z, r->caps)) {
        if (r->ws_fd < 0) {
            return -1;
        }
        fd = openat(r->ws_fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    } else if (r->scratch != NULL && pw_sbx_scratch_on_host(r->z, r->caps)) {
        fd = open(r->scratch, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    } else {
        errno = ENOENT;
    }
    if (fd < 0) {
        return -2;
    }
    return fd;
}

int
pw_sbx_wsfiles_step(struct pw_sbx_run *r)
{
    struct pw_sbx_wsfiles *j = r->files;
    if (j == NULL) {
        return 0;
    }
    if (!j->started) {
        int dir = workspace_dir(r);
        if (dir == -1) {
            return 0;
        }
        if (dir < 0) {
            snprintf(r->files_error, sizeof(r->files_error),
                     "support files: the workspace: %s", strerror(errno));
            return -1;
        }
        return job_start(j, dir, r->files_error, sizeof(r->files_error));
    }
    uint64_t v;
    if (read(j->done, &v, sizeof(v)) != sizeof(v)) {
        return 0; /* still copying */
    }
    (void)pthread_join(j->thread, NULL);
    j->started = false;
    int rc = 0;
    if (j->err != 0) {
        snprintf(r->files_error, sizeof(r->files_error), "%s", j->what);
        rc = -1;
    }
    job_free(j);
    r->files = NULL;
    return rc == 0 ? 1 : -1;
}

void
pw_sbx_wsfiles_stop(struct pw_sbx_run *r)
{
    struct pw_sbx_wsfiles *j = r->files;
    if (j == NULL) {
        return;
    }
    if (j->started) {
        atomic_store(&j->stop, true);
        (void)pthread_join(j->thread, NULL);
    }
    job_free(j);
    r->files = NULL;
}

bool
pw_sbx_file_name_ok(const char *name)
{
    size_t n = strlen(name);
    return n > 0 && n <= PW_SBX_NAME_MAX && strchr(name, '/') == NULL &&
           strcmp(name, ".") != 0 && strcmp(name, "..") != 0;
}
