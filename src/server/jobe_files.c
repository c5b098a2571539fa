/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * jobe_files.c - the file cache of the Jobe API: support files PUT by a
 * client (base64 in JSON), kept under a directory of the instance's own
 * (made 0700 at start, removed at the end) or of the operator's, in a
 * folder per client (an API key, a token or an address: what one client
 * PUTs no other sees), one file per id, each written whole (a temporary
 * file renamed), with a size cap per file, per client (its quota) and in
 * all, and an expiry.  A PUT makes room by evicting its own client's
 * files only: one client never evicts another's.
 *
 * A run never reads a file into the server's memory: it holds it
 * (pw_jobe_hold_add) by an open fd, one per file (per inode) for every
 * run that holds it, which the sandbox copies from into the run's
 * workspace (src/sandbox/run/wsfiles.c).  A held file is pinned: it is never
 * evicted or expired, and when a PUT replaces its id, the old file's
 * bytes still count in the cache's total until the last run that holds
 * it lets it go.  Past the cap, the least recently used files go first:
 * a file's access time is set when it is PUT and when a run takes it.
 * The fds held are capped too (MAX_OPEN); a run that would need more is
 * the server's overload.
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
    char client[ID_MAX + 1]; /* whose folder it was taken from */
};

struct pw_jobe_files {
    char *dir;
    bool own_dir; /* made here: removed with its files at the end */
    long long max_file;
    long long max_total;
    long long quota; /* bytes one client's files may take */
    double ttl;
    struct pin **pins; /* owned, each allocated */
    size_t npins;
    size_t max_open;
    unsigned refs; /* the owner's and one per hold */
};

struct pw_jobe_hold {
    struct pw_jobe_files *f; /* a reference */
    char client[ID_MAX + 1];
    struct pin **v; /* each pin once, one reference each */
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

/* A directory of the instance's own under TMP (mkdtemp: 0700), or NULL
 * with ERR. */
static char *
own_dir(const char *tmp, struct pw_error *err)
{
    char *path = pw_xasprintf("%s/pyward-jobe-XXXXXX",
                              tmp != NULL && *tmp != '\0' ? tmp : "/tmp");
    if (mkdtemp(path) == NULL) {
        pw_fail_errno(err, PW_ERR_INTERNAL, "jobe file cache: %s", path);
        free(path);
        return NULL;
    }
    return path;
}

struct pw_jobe_files *
pw_jobe_files_new(const char *dir, const char *tmp, long long max_file,
                  long long max_total, long long quota, double ttl,
                  struct pw_error *err)
{
    char *path = dir != NULL ? pw_xstrdup(dir) : own_dir(tmp, err);
    if (path == NULL) {
        return NULL;
    }
    struct stat st;
    if ((mkdir(path, 0700) < 0 && errno != EEXIST) || lstat(path, &st) < 0 ||
        !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
        (st.st_mode & 077) != 0 || access(path, W_OK) < 0) {
        pw_fail(err, PW_ERR_USAGE,
                "--jobe-files %s: not a private directory of this user (mode "
                "0700) that it can write",
                path);
        free(path);
        return NULL;
    }
    struct pw_jobe_files *f = pw_xcalloc(1, sizeof(*f));
    f->dir = path;
    f->own_dir = dir == NULL;
    f->quota = quota > 0 && quota < max_total ? quota : max_total;
    f->max_file = max_file < f->quota ? max_file : f->quota;
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
    return f;
}

/* Remove DIR's entries of the cache's making (client folders of ids,
 * their files and temporary files), then DIR. */
static void
remove_tree(const char *dir, int depth)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    /* cppcheck-suppress readdirCalled */
    while (d != NULL && (e = readdir(d)) != NULL) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0) {
            continue;
        }
        if (depth == 0 && pw_jobe_file_id_ok(e->d_name)) {
            PW_AUTOFREE char *sub = pw_xasprintf("%s/%s", dir, e->d_name);
            remove_tree(sub, 1);
        } else {
            (void)unlinkat(dirfd(d), e->d_name, 0);
        }
    }
    if (d != NULL) {
        closedir(d);
    }
    (void)rmdir(dir);
}

static void
files_unref(struct pw_jobe_files *f)
{
    if (f != NULL && --f->refs == 0) {
        if (f->own_dir) {
            remove_tree(f->dir, 0);
        }
        free(f->pins);
        free(f->dir);
        free(f);
    }
}

const char *
pw_jobe_files_dir(const struct pw_jobe_files *f)
{
    return f->dir;
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

/* What the cache holds, for a PUT of ID by CLIENT: *TOTAL its bytes (the
 * files that have not expired, and the held files a PUT replaced),
 * *MINE those of CLIENT's, *LRU (owned, may be NULL) CLIENT's least
 * recently used file no run holds, and *REPLACED the bytes of CLIENT's
 * file ID if no run holds it (the PUT frees them).  Expired files no run
 * holds are removed, whoever's they are. */
struct usage {
    long long total, mine, replaced;
    char *lru;
};

static void
sweep_client(struct pw_jobe_files *f, const char *who, const char *client,
             const char *id, bool *seen, struct usage *u,
             struct timespec *when)
{
    PW_AUTOFREE char *path = pw_xasprintf("%s/%s", f->dir, who);
    DIR *d = opendir(path);
    struct dirent *e;
    bool is_mine = strcmp(who, client) == 0;
    /* readdir is thread-safe on one DIR (glibc); readdir_r is deprecated */
    /* cppcheck-suppress readdirCalled */
    while (d != NULL && (e = readdir(d)) != NULL) {
        struct stat st;
        if (!pw_jobe_file_id_ok(e->d_name) ||
            fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
            !S_ISREG(st.st_mode)) {
            continue;
        }
        struct pin *p = pin_find(f, st.st_dev, st.st_ino);
        for (size_t i = 0; p != NULL && i < f->npins; i++) {
            seen[i] |= f->pins[i] == p;
        }
        if (p == NULL && expired(f, &st)) {
            (void)unlinkat(dirfd(d), e->d_name, 0);
            continue;
        }
        u->total += st.st_size;
        if (!is_mine) {
            continue;
        }
        u->mine += st.st_size;
        if (p == NULL && id != NULL && strcmp(e->d_name, id) == 0) {
            u->replaced = st.st_size;
        }
        if (p == NULL && (u->lru == NULL || older(&st.st_atim, when))) {
            free(u->lru);
            u->lru = pw_xstrdup(e->d_name);
            *when = st.st_atim;
        }
    }
    if (d != NULL) {
        closedir(d);
    }
}

static void
sweep(struct pw_jobe_files *f, const char *client, const char *id,
      struct usage *u)
{
    memset(u, 0, sizeof(*u));
    struct timespec when = {0};
    bool *seen = pw_xcalloc(f->npins + 1, sizeof(bool));
    DIR *d = opendir(f->dir);
    struct dirent *e;
    /* cppcheck-suppress readdirCalled */
    while (d != NULL && (e = readdir(d)) != NULL) {
        if (pw_jobe_file_id_ok(e->d_name)) {
            sweep_client(f, e->d_name, client, id, seen, u, &when);
        }
    }
    if (d != NULL) {
        closedir(d);
    }
    for (size_t i = 0; i < f->npins; i++) {
        long long held = seen[i] ? 0 : f->pins[i]->size;
        u->total += held;
        u->mine += strcmp(f->pins[i]->client, client) == 0 ? held : 0;
    }
    free(seen);
}

/* Room for LEN more bytes as CLIENT's ID, within CLIENT's quota and the
 * cache's cap: expired files removed, then CLIENT's least recently used
 * ones no run holds (never another client's).  False if CLIENT's held
 * files, or the other clients' files, leave no room. */
static bool
make_room(struct pw_jobe_files *f, const char *client, const char *id,
          size_t len)
{
    for (;;) {
        struct usage u;
        sweep(f, client, id, &u);
        PW_AUTOFREE char *lru = u.lru;
        long long add = (long long)len - u.replaced;
        if (u.mine + add <= f->quota && u.total + add <= f->max_total) {
            return true;
        }
        if (lru == NULL) {
            return false;
        }
        PW_AUTOFREE char *p = pw_xasprintf("%s/%s/%s", f->dir, client, lru);
        if (unlink(p) < 0) {
            return false;
        }
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
pw_jobe_files_put(struct pw_jobe_files *f, const char *client, const char *id,
                  const char *data, size_t len, struct pw_error *err)
{
    if (!pw_jobe_file_id_ok(id) || !pw_jobe_file_id_ok(client)) {
        pw_fail(err, PW_ERR_USAGE, "bad file id");
        return -1;
    }
    if ((long long)len > f->max_file) {
        pw_fail(err, PW_ERR_USAGE,
                "file %s is too large: %zu bytes (at most %lld)", id, len,
                f->max_file);
        return -1;
    }
    PW_AUTOFREE char *folder = pw_xasprintf("%s/%s", f->dir, client);
    if (mkdir(folder, 0700) < 0 && errno != EEXIST) {
        pw_fail_errno(err, PW_ERR_INTERNAL, "put: %s", folder);
        return -1;
    }
    if (!make_room(f, client, id, len)) {
        pw_fail(err, PW_ERR_USAGE,
                "the cache is full of files that runs hold or of other "
                "clients' files (%lld bytes at most, %lld for one client); "
                "try again once the runs are over",
                f->max_total, f->quota);
        return -2;
    }
    PW_AUTOFREE char *tmp = pw_xasprintf("%s/.%s.XXXXXX", folder, id);
    PW_AUTOFREE char *path = pw_xasprintf("%s/%s", folder, id);
    int fd = mkstemp(tmp);
    if (fd < 0) {
        pw_fail_errno(err, PW_ERR_INTERNAL, "put: %s", tmp);
        return -1;
    }
    int rc = pw_write_all(fd, data, len);
    int e = errno;
    if (rc == 0) {
        touch(fd);
    }
    if (close(fd) < 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    if (rc < 0 || rename(tmp, path) < 0) {
        e = rc < 0 ? e : errno;
        (void)unlink(tmp);
        errno = e;
        pw_fail_errno(err, PW_ERR_INTERNAL, "put: %s", path);
        return -1;
    }
    return 0;
}

/* An open fd on ID's file if it is a regular file there, fresh or held,
 * else -1.  O_NONBLOCK: a FIFO put there under an id's name does not
 * hold the server up (it is refused as not regular). */
static int
open_fresh(struct pw_jobe_files *f, const char *client, const char *id,
           struct stat *st)
{
    if (!pw_jobe_file_id_ok(id) || !pw_jobe_file_id_ok(client)) {
        return -1;
    }
    PW_AUTOFREE char *path = pw_xasprintf("%s/%s/%s", f->dir, client, id);
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
pw_jobe_files_has(struct pw_jobe_files *f, const char *client, const char *id)
{
    struct stat st;
    int fd = open_fresh(f, client, id, &st);
    if (fd < 0) {
        return false;
    }
    close(fd);
    return true;
}

/* --- holds ----------------------------------------------------------------
 */

struct pw_jobe_hold *
pw_jobe_hold_new(struct pw_jobe_files *f, const char *client)
{
    struct pw_jobe_hold *h = pw_xcalloc(1, sizeof(*h));
    h->f = f;
    snprintf(h->client, sizeof(h->client), "%s", client);
    f->refs++;
    return h;
}

int
pw_jobe_hold_add(struct pw_jobe_hold *h, const char *id, int *fd,
                 long long *size)
{
    struct pw_jobe_files *f = h->f;
    struct stat st;
    int got = open_fresh(f, h->client, id, &st);
    if (got < 0) {
        return -1;
    }
    struct pin *p = pin_find(f, st.st_dev, st.st_ino);
    if (p != NULL) {
        close(got);
    } else if (f->npins >= f->max_open) {
        close(got);
        return -2;
    } else {
        p = pw_xcalloc(1, sizeof(*p));
        *p = (struct pin){got, st.st_dev, st.st_ino, st.st_size, 0, ""};
        snprintf(p->client, sizeof(p->client), "%s", h->client);
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
