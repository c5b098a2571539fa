/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * jobe_files.c - the file cache of the Jobe API: support files PUT by a
 * client (base64 in JSON), kept under a directory of the operator's as
 * one file per id, each written whole (a temporary file renamed), with a
 * size cap per file and in all and an expiry.
 *
 * A run never reads a file into the server's memory: it holds it
 * (pw_jobe_hold_add) by an open fd, one per file (per inode) for every
 * run that holds it, which the sandbox copies from into the run's
 * workspace (src/sandbox/run/wsfiles.c).  A held file is pinned: it is never
 * evicted or expired, and when a PUT replaces its id, the old file's
 * bytes still count in the cache's total until the last run that holds
 * it lets it go.  Past the cap, the least recently used files go first:
 * a file is used when it is PUT and when a run takes it.
 * The fds held are capped too (MAX_OPEN); a run that would need more is
 * the server's overload.
 *
 * The cache's sizes and recency are an index in memory, read from the
 * directory once at the start (its files' access times give the order)
 * and kept by the PUTs and the runs: a PUT never scans the directory,
 * which holds thousands of files, on the server's loop.  A file the
 * index does not know (another server's PUT into the same directory)
 * joins it when a run takes it; one found gone or replaced when it is
 * evicted is forgotten or taken as it is now.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core/util.h"
#include "server/jobe.h"

#define ID_MAX 64
/* The fds held at most: a quarter of the server's own, within these. */
#define OPEN_MIN 16
#define OPEN_MAX 4096

/* A file held by runs: its fd, its identity and size, how many holds
 * name it. */
struct pin {
    int fd;
    dev_t dev;
    ino_t ino;
    long long size;
    unsigned refs;
};

/* A file of the cache as the index knows it. */
struct entry {
    char id[ID_MAX + 1];
    dev_t dev;
    ino_t ino;
    long long size;
    struct timespec mtime;   /* its PUT: it expires TTL after */
    unsigned long long used; /* the cache's clock at its last use */
};

/* Expired files removed in one PUT at most (the rest by later ones; they
 * count for nothing meanwhile and no run gets them). */
#define EXPIRE_MAX 64

struct pw_jobe_files {
    char *dir;
    struct entry *ents; /* owned: the index */
    size_t nents;
    size_t cap;
    unsigned long long clock; /* uses so far */
    long long max_file;
    long long max_total;
    double ttl;
    struct pin **pins; /* owned, each allocated */
    size_t npins;
    size_t max_open;
    unsigned refs; /* the owner's and one per hold */
};

struct pw_jobe_hold {
    struct pw_jobe_files *f; /* a reference */
    struct pin **v;          /* each pin once, one reference each */
    size_t n;
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

static void index_load(struct pw_jobe_files *f);

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
    f->max_file = max_file < max_total ? max_file : max_total;
    f->max_total = max_total;
    f->ttl = ttl;
    f->refs = 1;
    struct rlimit rl;
    rlim_t quarter =
        getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
            ? rl.rlim_cur / 4
            : OPEN_MAX;
    f->max_open = quarter < OPEN_MIN   ? OPEN_MIN
                  : quarter > OPEN_MAX ? OPEN_MAX
                                       : (size_t)quarter;
    index_load(f);
    return f;
}

static void
files_unref(struct pw_jobe_files *f)
{
    if (f != NULL && --f->refs == 0) {
        free(f->ents);
        free(f->pins);
        free(f->dir);
        free(f);
    }
}

void
pw_jobe_files_free(struct pw_jobe_files *f)
{
    files_unref(f);
}

void
pw_jobe_files_set_max_open(struct pw_jobe_files *f, size_t n)
{
    f->max_open = n;
}

size_t
pw_jobe_files_open_count(const struct pw_jobe_files *f)
{
    return f->npins;
}

/* A file's age to the nanosecond: time(NULL) reads a coarse clock that
 * may still say the second before a fresh file's mtime (682 of 200,000
 * files made here), which made a file just written look 1 s younger. */
static bool
expired_at(const struct pw_jobe_files *f, const struct timespec *mtime)
{
    struct timespec now;
    (void)clock_gettime(CLOCK_REALTIME, &now);
    double age = difftime(now.tv_sec, mtime->tv_sec) +
                 (double)(now.tv_nsec - mtime->tv_nsec) / 1e9;
    return age > f->ttl;
}

static bool
expired(const struct pw_jobe_files *f, const struct stat *st)
{
    return expired_at(f, &st->st_mtim);
}

static bool
older(const struct timespec *a, const struct timespec *b)
{
    return a->tv_sec < b->tv_sec ||
           (a->tv_sec == b->tv_sec && a->tv_nsec < b->tv_nsec);
}

static struct pin *
pin_find(const struct pw_jobe_files *f, dev_t dev, ino_t ino)
{
    for (size_t i = 0; i < f->npins; i++) {
        if (f->pins[i]->dev == dev && f->pins[i]->ino == ino) {
            return f->pins[i];
        }
    }
    return NULL;
}

/* The index's entry of ID, or -1. */
static long
entry_find(const struct pw_jobe_files *f, const char *id)
{
    for (size_t i = 0; i < f->nents; i++) {
        if (strcmp(f->ents[i].id, id) == 0) {
            return (long)i;
        }
    }
    return -1;
}

static void
entry_drop(struct pw_jobe_files *f, size_t i)
{
    f->ents[i] = f->ents[--f->nents];
}

/* ID's file as ST says it is now; used now if USED (else as it was, or
 * now if the index did not know it). */
static void
entry_set(struct pw_jobe_files *f, const char *id, const struct stat *st,
          bool used)
{
    long i = entry_find(f, id);
    if (i < 0) {
        if (f->nents == f->cap) {
            f->cap = f->cap > 0 ? 2 * f->cap : 64;
            f->ents = pw_xrealloc(f->ents, f->cap * sizeof(*f->ents));
        }
        i = (long)f->nents++;
        memset(&f->ents[i], 0, sizeof(f->ents[i]));
        snprintf(f->ents[i].id, sizeof(f->ents[i].id), "%s", id);
    }
    struct entry *e = &f->ents[i];
    e->dev = st->st_dev;
    e->ino = st->st_ino;
    e->size = st->st_size;
    e->mtime = st->st_mtim;
    if (used || e->used == 0) {
        e->used = ++f->clock;
    }
}

/* A file met at the start, and its access time. */
struct found {
    struct stat st;
    char id[ID_MAX + 1];
};

/* By access time, the least recent first. */
static int
by_atime(const void *a, const void *b)
{
    const struct timespec *x = &((const struct found *)a)->st.st_atim;
    const struct timespec *y = &((const struct found *)b)->st.st_atim;
    return older(x, y) ? -1 : older(y, x) ? 1 : 0;
}

/* The index from the directory, once: expired files removed, the others
 * used in the order of their access times. */
static void
index_load(struct pw_jobe_files *f)
{
    struct found *v = NULL;
    size_t n = 0, cap = 0;
    DIR *d = opendir(f->dir);
    struct dirent *e;
    /* readdir is thread-safe on one DIR (glibc); readdir_r is deprecated */
    /* cppcheck-suppress readdirCalled */
    while (d != NULL && (e = readdir(d)) != NULL) {
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
        if (n == cap) {
            cap = cap > 0 ? 2 * cap : 64;
            v = pw_xrealloc(v, cap * sizeof(*v));
        }
        v[n].st = st;
        /* pw_jobe_file_id_ok: at most ID_MAX bytes */
        memcpy(v[n].id, e->d_name, strlen(e->d_name) + 1);
        n++;
    }
    if (d != NULL) {
        closedir(d);
    }
    if (n > 0) {
        qsort(v, n, sizeof(*v), by_atime);
    }
    for (size_t i = 0; i < n; i++) {
        entry_set(f, v[i].id, &v[i].st, true);
    }
    free(v);
}

/* What the cache holds, from the index: *TOTAL its bytes (the files that
 * have not expired, and the held files a PUT replaced), *LRU the least
 * recently used entry no run holds (-1: none), and *REPLACED the bytes
 * of ID's file if no run holds it (a PUT of ID frees them).  Expired
 * files no run holds are removed (EXPIRE_MAX at most). */
static void
tally(struct pw_jobe_files *f, const char *id, long long *total, long *lru,
      long long *replaced)
{
    *total = 0;
    *lru = -1;
    *replaced = 0;
    int removed = 0;
    bool *seen = pw_xcalloc(f->npins + 1, sizeof(bool));
    for (size_t i = 0; i < f->nents;) {
        struct entry *e = &f->ents[i];
        struct pin *p = pin_find(f, e->dev, e->ino);
        for (size_t k = 0; p != NULL && k < f->npins; k++) {
            seen[k] |= f->pins[k] == p;
        }
        if (p == NULL && expired_at(f, &e->mtime)) {
            if (removed < EXPIRE_MAX) {
                removed++;
                PW_AUTOFREE char *path = pw_xasprintf("%s/%s", f->dir, e->id);
                struct stat st;
                if (lstat(path, &st) == 0 && st.st_dev == e->dev &&
                    st.st_ino == e->ino) {
                    (void)unlink(path);
                }
                entry_drop(f, i);
            } else {
                i++;
            }
            continue;
        }
        *total += e->size;
        if (p == NULL && id != NULL && strcmp(e->id, id) == 0) {
            *replaced = e->size;
        }
        if (p == NULL && (*lru < 0 || e->used < f->ents[*lru].used)) {
            *lru = (long)i;
        }
        i++;
    }
    for (size_t k = 0; k < f->npins; k++) {
        *total += seen[k] ? 0 : f->pins[k]->size;
    }
    free(seen);
}

/* Room for LEN more bytes as ID: expired files removed, then the least
 * recently used ones no run holds.  False if the held files leave no
 * room. */
static bool
make_room(struct pw_jobe_files *f, const char *id, size_t len)
{
    for (;;) {
        long long total, replaced;
        long lru;
        tally(f, id, &total, &lru, &replaced);
        if (total - replaced + (long long)len <= f->max_total) {
            return true;
        }
        if (lru < 0) {
            return false;
        }
        struct entry *e = &f->ents[lru];
        PW_AUTOFREE char *p = pw_xasprintf("%s/%s", f->dir, e->id);
        struct stat st;
        bool gone = lstat(p, &st) < 0 || !S_ISREG(st.st_mode);
        if (!gone && (st.st_dev != e->dev || st.st_ino != e->ino)) {
            entry_set(f, e->id, &st, true); /* replaced meanwhile */
            continue;
        }
        if (!gone && unlink(p) < 0) {
            return false;
        }
        entry_drop(f, (size_t)lru); /* evicted, or gone: forgotten */
    }
}

/* FD used now: the cache's recency is the files' access time. */
static void
touch(int fd)
{
    struct timespec t[2] = {{0, UTIME_NOW}, {0, UTIME_OMIT}};
    (void)futimens(fd, t);
}

int
pw_jobe_files_put(struct pw_jobe_files *f, const char *id, const char *data,
                  size_t len, struct pw_error *err)
{
    if (!pw_jobe_file_id_ok(id)) {
        pw_fail(err, PW_ERR_USAGE, "bad file id");
        return -1;
    }
    if ((long long)len > f->max_file) {
        pw_fail(err, PW_ERR_USAGE,
                "file %s is too large: %zu bytes (at most %lld)", id, len,
                f->max_file);
        return -1;
    }
    if (!make_room(f, id, len)) {
        pw_fail(err, PW_ERR_USAGE,
                "the cache is full of files that runs hold (%lld bytes at "
                "most); try again once they are over",
                f->max_total);
        return -2;
    }
    PW_AUTOFREE char *tmp = pw_xasprintf("%s/.%s.XXXXXX", f->dir, id);
    PW_AUTOFREE char *path = pw_xasprintf("%s/%s", f->dir, id);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        pw_fail_errno(err, PW_ERR_INTERNAL, "put: %s", tmp);
        return -1;
    }
    int rc = pw_write_all(fd, data, len);
    int e = errno;
    struct stat st;
    memset(&st, 0, sizeof(st));
    if (rc == 0) {
        touch(fd);
        rc = fstat(fd, &st);
        e = errno;
    }
    if (close(fd) < 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    if (rc != 0 || rename(tmp, path) < 0) {
        e = rc != 0 ? e : errno;
        (void)unlink(tmp);
        errno = e;
        pw_fail_errno(err, PW_ERR_INTERNAL, "put: %s", path);
        return -1;
    }
    entry_set(f, id, &st, true);
    return 0;
}

/* An open fd on ID's file if it is a regular file there, fresh or held,
 * else -1.  O_NONBLOCK: a FIFO put there under an id's name does not
 * hold the server up (it is refused as not regular). */
static int
open_fresh(struct pw_jobe_files *f, const char *id, struct stat *st)
{
    if (!pw_jobe_file_id_ok(id)) {
        return -1;
    }
    PW_AUTOFREE char *path = pw_xasprintf("%s/%s", f->dir, id);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    if (fd >= 0 &&
        (fstat(fd, st) < 0 || !S_ISREG(st->st_mode) ||
         (expired(f, st) && pin_find(f, st->st_dev, st->st_ino) == NULL))) {
        close(fd);
        fd = -1;
    }
    return fd;
}

bool
pw_jobe_files_has(struct pw_jobe_files *f, const char *id)
{
    struct stat st;
    int fd = open_fresh(f, id, &st);
    if (fd < 0) {
        return false;
    }
    close(fd);
    return true;
}

/* --- holds ----------------------------------------------------------------
 */

struct pw_jobe_hold *
pw_jobe_hold_new(struct pw_jobe_files *f)
{
    struct pw_jobe_hold *h = pw_xcalloc(1, sizeof(*h));
    h->f = f;
    f->refs++;
    return h;
}

int
pw_jobe_hold_add(struct pw_jobe_hold *h, const char *id, int *fd,
                 long long *size)
{
    struct pw_jobe_files *f = h->f;
    struct stat st;
    int got = open_fresh(f, id, &st);
    if (got < 0) {
        return -1;
    }
    entry_set(f, id, &st, true);
    struct pin *p = pin_find(f, st.st_dev, st.st_ino);
    if (p != NULL) {
        close(got);
    } else if (f->npins >= f->max_open) {
        close(got);
        return -2;
    } else {
        p = pw_xcalloc(1, sizeof(*p));
        *p = (struct pin){got, st.st_dev, st.st_ino, st.st_size, 0};
        f->pins = pw_xrealloc(f->pins, (f->npins + 1) * sizeof(struct pin *));
        f->pins[f->npins++] = p;
    }
    touch(p->fd);
    size_t i = 0;
    while (i < h->n && h->v[i] != p) {
        i++;
    }
    if (i == h->n) {
        h->v = pw_xrealloc(h->v, (h->n + 1) * sizeof(struct pin *));
        h->v[h->n++] = p;
        p->refs++;
    }
    *fd = p->fd;
    *size = p->size;
    return 0;
}

void
pw_jobe_hold_free(struct pw_jobe_hold *h)
{
    if (h == NULL) {
        return;
    }
    struct pw_jobe_files *f = h->f;
    for (size_t i = 0; i < h->n; i++) {
        struct pin *p = h->v[i];
        if (--p->refs > 0) {
            continue;
        }
        close(p->fd);
        for (size_t k = 0; k < f->npins; k++) {
            if (f->pins[k] == p) {
                f->pins[k] = f->pins[--f->npins];
                break;
            }
        }
        free(p);
    }
    free(h->v);
    free(h);
    files_unref(f);
}
