/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * jobe_files.c - the file cache of the Jobe API: support files PUT by a
 * client (base64 in JSON), kept under a directory of the instance's own
 * (made 0700 at start, removed at the end) or of the operator's, in a
 * folder per client (an API key, a token or an address: what one client
 * PUTs no other sees), one file per id, each written to a temporary file
 * as its PUT's body comes (pw_jobe_upload_write: the server never holds
 * a file whole) and renamed to its id once whole, with a size cap per
 * file, per client (its quota) and in all, and an expiry.  A PUT makes
 * room by evicting its own client's files only: one client never evicts
 * another's.
 *
 * What the cache holds is known from an index kept in memory: each
 * file's client, id, size, PUT time and recency, and its pin; a PUT, a
 * HEAD and a run's hold look there, never at the directory, which is read
 * once, when the cache is made (an operator's directory keeps its files
 * across restarts: their sizes, their modification times as their PUT
 * times and their access times as their recency).  Expiry is done by
 * pw_jobe_files_tick, a few files a call.  The directory belongs to the
 * server while it runs: a file put there by hand is no file of the cache.
 * Each client holds at most one file per 4 KiB of its quota, and the cache
 * one per 4 KiB of its cap (the index's size is bounded).
 *
 * A run never reads a file into the server's memory: it holds it
 * (pw_jobe_hold_add) by an open fd, one per file for every run that
 * holds it, which the sandbox copies from into the run's workspace
 * (src/sandbox/run/wsfiles.c).  A held file is pinned: it is never
 * evicted or expired, and when a PUT replaces its id, the old file's
 * bytes still count in the cache's total until the last run that holds
 * it lets it go.  Past the cap, the least recently used files go first:
 * a file is used when it is PUT and when a run lets it go (a held file
 * is no candidate).  The fds held are capped too (MAX_OPEN); a run that
 * would need more is the server's overload.
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
/* Files of a client at most: one per FILE_BLOCK of its quota (at least
 * FILES_MIN); of the cache: one per FILE_BLOCK of its cap. */
#define FILE_BLOCK 4096
#define FILES_MIN  64
/* Files expired by one call of pw_jobe_files_tick at most. */
#define EXPIRE_STEP 32
#define FNV_START   1469598103934665603ULL
#define FNV_PRIME   1099511628211ULL

struct client;

/* A file of the index: listed under its client's id, or (replaced or
 * expired) held by runs until they let it go. */
struct entry {
    struct client *c;
    struct entry *hnext;         /* the index's chain */
    struct entry *lprev, *lnext; /* c's files no run holds, least recent
                                    first */
    struct entry *eprev, *enext; /* the cache's files by PUT, oldest
                                    first, until they expire */
    long long size;
    struct timespec put_at; /* its PUT (the file's mtime) */
    dev_t dev;
    ino_t ino;
    int fd;        /* open while runs hold it, else -1 */
    unsigned refs; /* holds that name it */
    bool listed;   /* its id names it */
    bool in_lru;
    bool in_exp;
    char id[ID_MAX + 1];
};

struct client {
    struct client *hnext;
    struct entry *lru_head, *lru_tail;
    long long bytes; /* of its entries, listed or held */
    size_t files;    /* listed */
    size_t entries;  /* all of them: freed at 0 */
    char name[ID_MAX + 1];
};

struct pw_jobe_files {
    char *dir;
    bool own_dir; /* made here: removed with its files at the end */
    long long max_file;
    long long max_total;
    long long quota; /* bytes one client's files may take */
    size_t max_files_client;
    size_t max_files;
    double ttl;
    struct entry **etab; /* listed entries by client and id */
    size_t ecap;
    size_t nfiles;        /* listed */
    long long total;      /* bytes of every entry */
    struct client **ctab; /* clients by name */
    size_t ccap;
    size_t nclients;
    struct entry *exp_head, *exp_tail;
    size_t npins; /* entries open */
    size_t max_open;
    unsigned refs; /* the owner's, one per hold and one per upload */
};

struct pw_jobe_hold {
    struct pw_jobe_files *f; /* a reference */
    char client[ID_MAX + 1];
    struct entry **v; /* each entry once, one reference each */
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

/* --- the index ------------------------------------------------------------
 */

static unsigned long long
fnv(unsigned long long h, const char *s)
{
    for (; *s != '\0'; s++) {
        h = (h ^ (unsigned char)*s) * FNV_PRIME;
    }
    return h;
}

static size_t
entry_slot(const struct pw_jobe_files *f, const char *client, const char *id)
{
    return (size_t)(fnv(fnv(fnv(FNV_START, client), "/"), id) & (f->ecap - 1));
}

static size_t
client_slot(const struct pw_jobe_files *f, const char *name)
{
    return (size_t)(fnv(FNV_START, name) & (f->ccap - 1));
}

/* Twice the buckets of *TAB (CAP of them, a power of two; each element's
 * chain link at NEXT_OFF), each element in its new bucket by SLOT. */
static void
grow_entries(struct pw_jobe_files *f)
{
    struct entry **old = f->etab;
    size_t cap = f->ecap;
    f->ecap = cap * 2;
    f->etab = pw_xcalloc(f->ecap, sizeof(struct entry *));
    for (size_t i = 0; i < cap; i++) {
        while (old[i] != NULL) {
            struct entry *e = old[i];
            old[i] = e->hnext;
            size_t k = entry_slot(f, e->c->name, e->id);
            e->hnext = f->etab[k];
            f->etab[k] = e;
        }
    }
    free(old);
}

static void
grow_clients(struct pw_jobe_files *f)
{
    struct client **old = f->ctab;
    size_t cap = f->ccap;
    f->ccap = cap * 2;
    f->ctab = pw_xcalloc(f->ccap, sizeof(struct client *));
    for (size_t i = 0; i < cap; i++) {
        while (old[i] != NULL) {
            struct client *c = old[i];
            old[i] = c->hnext;
            size_t k = client_slot(f, c->name);
            c->hnext = f->ctab[k];
            f->ctab[k] = c;
        }
    }
    free(old);
}

static struct client *
client_find(const struct pw_jobe_files *f, const char *name)
{
    struct client *c = f->ctab[client_slot(f, name)];
    while (c != NULL && strcmp(c->name, name) != 0) {
        c = c->hnext;
    }
    return c;
}

static struct client *
client_get(struct pw_jobe_files *f, const char *name)
{
    struct client *c = client_find(f, name);
    if (c != NULL) {
        return c;
    }
    if (f->nclients >= f->ccap) {
        grow_clients(f);
    }
    c = pw_xcalloc(1, sizeof(*c));
    snprintf(c->name, sizeof(c->name), "%s", name);
    size_t k = client_slot(f, name);
    c->hnext = f->ctab[k];
    f->ctab[k] = c;
    f->nclients++;
    return c;
}

/* C goes once it has no file left. */
static void
client_drop_if_empty(struct pw_jobe_files *f, struct client *c)
{
    if (c->entries > 0) {
        return;
    }
    for (struct client **p = &f->ctab[client_slot(f, c->name)]; *p != NULL;
         p = &(*p)->hnext) {
        if (*p == c) {
            *p = c->hnext;
            f->nclients--;
            free(c);
            return;
        }
    }
}

/* CLIENT's file ID in the index, listed, or NULL. */
static struct entry *
entry_find(const struct pw_jobe_files *f, const char *client, const char *id)
{
    struct entry *e = f->etab[entry_slot(f, client, id)];
    while (e != NULL &&
           (strcmp(e->id, id) != 0 || strcmp(e->c->name, client) != 0)) {
        e = e->hnext;
    }
    return e;
}

static void
lru_unlink(struct entry *e)
{
    if (!e->in_lru) {
        return;
    }
    struct client *c = e->c;
    *(e->lprev != NULL ? &e->lprev->lnext : &c->lru_head) = e->lnext;
    *(e->lnext != NULL ? &e->lnext->lprev : &c->lru_tail) = e->lprev;
    e->lprev = e->lnext = NULL;
    e->in_lru = false;
}

/* E is the most recently used of its client's files. */
static void
lru_append(struct entry *e)
{
    struct client *c = e->c;
    lru_unlink(e);
    e->lprev = c->lru_tail;
    *(c->lru_tail != NULL ? &c->lru_tail->lnext : &c->lru_head) = e;
    c->lru_tail = e;
    e->in_lru = true;
}

static void
exp_unlink(struct pw_jobe_files *f, struct entry *e)
{
    if (!e->in_exp) {
        return;
    }
    *(e->eprev != NULL ? &e->eprev->enext : &f->exp_head) = e->enext;
    *(e->enext != NULL ? &e->enext->eprev : &f->exp_tail) = e->eprev;
    e->eprev = e->enext = NULL;
    e->in_exp = false;
}

static void
exp_append(struct pw_jobe_files *f, struct entry *e)
{
    e->eprev = f->exp_tail;
    *(f->exp_tail != NULL ? &f->exp_tail->enext : &f->exp_head) = e;
    f->exp_tail = e;
    e->in_exp = true;
}

/* A new entry for CLIENT's ID, listed (the caller links it in the
 * lists). */
static struct entry *
entry_add(struct pw_jobe_files *f, const char *client, const char *id,
          const struct stat *st)
{
    if (f->nfiles >= f->ecap) {
        grow_entries(f);
    }
    struct entry *e = pw_xcalloc(1, sizeof(*e));
    e->c = client_get(f, client);
    snprintf(e->id, sizeof(e->id), "%s", id);
    e->size = st->st_size;
    e->put_at = st->st_mtim;
    e->dev = st->st_dev;
    e->ino = st->st_ino;
    e->fd = -1;
    e->listed = true;
    size_t k = entry_slot(f, client, id);
    e->hnext = f->etab[k];
    f->etab[k] = e;
    f->nfiles++;
    e->c->files++;
    e->c->entries++;
    e->c->bytes += e->size;
    f->total += e->size;
    return e;
}

/* E's id no longer names it: out of the index and the lists (its bytes
 * still count while runs hold it). */
static void
entry_unlist(struct pw_jobe_files *f, struct entry *e)
{
    if (!e->listed) {
        return;
    }
    for (struct entry **p = &f->etab[entry_slot(f, e->c->name, e->id)];
         *p != NULL; p = &(*p)->hnext) {
        if (*p == e) {
            *p = e->hnext;
            break;
        }
    }
    e->hnext = NULL;
    e->listed = false;
    f->nfiles--;
    e->c->files--;
    lru_unlink(e);
    exp_unlink(f, e);
}

/* E, unlisted and held by no run, is forgotten; its client stays (the
 * caller drops it once it is empty). */
static void
entry_release(struct pw_jobe_files *f, struct entry *e)
{
    e->c->bytes -= e->size;
    e->c->entries--;
    f->total -= e->size;
    free(e);
}

/* The same, and its client goes if that was its last file. */
static void
entry_free(struct pw_jobe_files *f, struct entry *e)
{
    struct client *c = e->c;
    entry_release(f, e);
    client_drop_if_empty(f, c);
}

/* E, held by no run, is removed: its file unlinked (its client stays). */
static void
entry_delete(struct pw_jobe_files *f, struct entry *e)
{
    PW_AUTOFREE char *path =
        pw_xasprintf("%s/%s/%s", f->dir, e->c->name, e->id);
    (void)unlink(path);
    entry_unlist(f, e);
    entry_release(f, e);
}

/* The same, and its client goes if that was its last file. */
static void
entry_remove(struct pw_jobe_files *f, struct entry *e)
{
    struct client *c = e->c;
    entry_delete(f, e);
    client_drop_if_empty(f, c);
}

/* A file's age to the nanosecond: time(NULL) reads a coarse clock that
 * may still say the second before a fresh file's mtime (682 of 200,000
 * files made here), which made a file just written look 1 s younger. */
static double
age_of(const struct timespec *t)
{
    struct timespec now;
    (void)clock_gettime(CLOCK_REALTIME, &now);
    return difftime(now.tv_sec, t->tv_sec) +
           (double)(now.tv_nsec - t->tv_nsec) / 1e9;
}

static bool
expired(const struct pw_jobe_files *f, const struct entry *e)
{
    return age_of(&e->put_at) > f->ttl;
}

/* CLIENT's ID if the cache has it: fresh, or held by a run.  An expired
 * file no run holds is removed here. */
static struct entry *
lookup(struct pw_jobe_files *f, const char *client, const char *id)
{
    if (!pw_jobe_file_id_ok(id) || !pw_jobe_file_id_ok(client)) {
        return NULL;
    }
    struct entry *e = entry_find(f, client, id);
    if (e != NULL && e->refs == 0 && expired(f, e)) {
        entry_remove(f, e);
        return NULL;
    }
    return e;
}

int
pw_jobe_files_tick(struct pw_jobe_files *f)
{
    for (int n = 0; f->exp_head != NULL && expired(f, f->exp_head); n++) {
        if (n == EXPIRE_STEP) {
            return 0;
        }
        struct entry *e = f->exp_head;
        if (e->refs == 0) {
            entry_remove(f, e);
        } else {
            /* Kept while held: removed when its last run lets it go. */
            exp_unlink(f, e);
        }
    }
    if (f->exp_head == NULL) {
        return -1;
    }
    double left = f->ttl - age_of(&f->exp_head->put_at);
    return left > 3600 ? 3600 * 1000 : (int)(left * 1000) + 1;
}

/* --- the cache ------------------------------------------------------------
 */

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

/* A file found in the directory at start, and its recency. */
struct found {
    struct entry *e;
    struct timespec used;
};

static int
by_use(const void *a, const void *b)
{
    const struct found *x = a, *y = b;
    if (x->used.tv_sec != y->used.tv_sec) {
        return x->used.tv_sec < y->used.tv_sec ? -1 : 1;
    }
    return x->used.tv_nsec < y->used.tv_nsec   ? -1
           : x->used.tv_nsec > y->used.tv_nsec ? 1
                                               : 0;
}

static int
by_put(const void *a, const void *b)
{
    const struct found *x = a, *y = b;
    struct found p = {x->e, x->e->put_at}, q = {y->e, y->e->put_at};
    return by_use(&p, &q);
}

/* The files of CLIENT's folder into the index (FOUND, *N of them):
 * expired ones and temporary files left by a PUT that never ended are
 * removed. */
static void
read_folder(struct pw_jobe_files *f, const char *client, struct found **found,
            size_t *n)
{
    PW_AUTOFREE char *path = pw_xasprintf("%s/%s", f->dir, client);
    DIR *d = opendir(path);
    struct dirent *e;
    /* readdir is thread-safe on one DIR (glibc); readdir_r is deprecated */
    /* cppcheck-suppress readdirCalled */
    while (d != NULL && (e = readdir(d)) != NULL) {
        struct stat st;
        if (fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
            !S_ISREG(st.st_mode)) {
            continue;
        }
        if (e->d_name[0] == '.') {
            (void)unlinkat(dirfd(d), e->d_name, 0);
            continue;
        }
        if (!pw_jobe_file_id_ok(e->d_name)) {
            continue;
        }
        if (age_of(&st.st_mtim) > f->ttl) {
            (void)unlinkat(dirfd(d), e->d_name, 0);
            continue;
        }
        *found = pw_xrealloc(*found, (*n + 1) * sizeof(**found));
        (*found)[(*n)++] =
            (struct found){entry_add(f, client, e->d_name, &st), st.st_atim};
    }
    if (d != NULL) {
        closedir(d);
    }
}

/* What DIR holds at start, into the index (once, before any request). */
static void
read_dir(struct pw_jobe_files *f)
{
    struct found *found = NULL;
    size_t n = 0;
    DIR *d = opendir(f->dir);
    struct dirent *e;
    /* cppcheck-suppress readdirCalled */
    while (d != NULL && (e = readdir(d)) != NULL) {
        if (pw_jobe_file_id_ok(e->d_name)) {
            read_folder(f, e->d_name, &found, &n);
        }
    }
    if (d != NULL) {
        closedir(d);
    }
    if (n > 0) {
        qsort(found, n, sizeof(*found), by_use);
        for (size_t i = 0; i < n; i++) {
            lru_append(found[i].e);
        }
        qsort(found, n, sizeof(*found), by_put);
        for (size_t i = 0; i < n; i++) {
            exp_append(f, found[i].e);
        }
    }
    free(found);
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
    long long files = f->quota / FILE_BLOCK;
    f->max_files_client = files < FILES_MIN ? FILES_MIN : (size_t)files;
    files = max_total / FILE_BLOCK;
    f->max_files = files < FILES_MIN ? FILES_MIN : (size_t)files;
    f->ttl = ttl;
    f->refs = 1;
    f->ecap = 64;
    f->etab = pw_xcalloc(f->ecap, sizeof(struct entry *));
    f->ccap = 16;
    f->ctab = pw_xcalloc(f->ccap, sizeof(struct client *));
    struct rlimit rl;
    rlim_t quarter =
        getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur != RLIM_INFINITY
            ? rl.rlim_cur / 4
            : OPEN_MAX;
    f->max_open = quarter < OPEN_MIN   ? OPEN_MIN
                  : quarter > OPEN_MAX ? OPEN_MAX
                                       : (size_t)quarter;
    if (!f->own_dir) {
        read_dir(f);
    }
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
    if (f == NULL || --f->refs > 0) {
        return;
    }
    /* No hold is left: every entry is listed, none open. */
    for (size_t i = 0; i < f->ecap; i++) {
        while (f->etab[i] != NULL) {
            struct entry *e = f->etab[i];
            f->etab[i] = e->hnext;
            free(e);
        }
    }
    for (size_t i = 0; i < f->ccap; i++) {
        while (f->ctab[i] != NULL) {
            struct client *c = f->ctab[i];
            f->ctab[i] = c->hnext;
            free(c);
        }
    }
    if (f->own_dir) {
        remove_tree(f->dir, 0);
    }
    free(f->etab);
    free(f->ctab);
    free(f->dir);
    free(f);
}

const char *
pw_jobe_files_dir(const struct pw_jobe_files *f)
{
    return f->dir;
}

long long
pw_jobe_files_max_file(const struct pw_jobe_files *f)
{
    return f->max_file;
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

/* Room for LEN more bytes as CLIENT's ID, within CLIENT's quota, the
 * cache's cap and their counts of files: CLIENT's least recently used
 * files no run holds removed (never another client's).  False if
 * CLIENT's held files, or the other clients' files, leave no room. */
static bool
make_room(struct pw_jobe_files *f, const char *client, const char *id,
          long long len)
{
    (void)pw_jobe_files_tick(f);
    struct client *c = client_get(f, client);
    struct entry *old = entry_find(f, client, id);
    /* The file the PUT replaces frees its bytes unless a run holds it;
     * it frees its place in the counts either way. */
    long long add = len - (old != NULL && old->refs == 0 ? old->size : 0);
    size_t more = old == NULL;
    bool room = true;
    struct entry *lru = c->lru_head;
    while (c->bytes + add > f->quota || f->total + add > f->max_total ||
           c->files + more > f->max_files_client ||
           f->nfiles + more > f->max_files) {
        if (lru != NULL && lru == old) {
            lru = lru->lnext;
        }
        if (lru == NULL) {
            room = false;
            break;
        }
        struct entry *next = lru->lnext;
        entry_delete(f, lru);
        lru = next;
    }
    client_drop_if_empty(f, c);
    return room;
}

/* FD used now: the file's access time, the cache's recency when a later
 * server reads the directory. */
static void
touch(int fd)
{
    struct timespec t[2] = {{0, UTIME_NOW}, {0, UTIME_OMIT}};
    (void)futimens(fd, t);
}

/* --- uploads --------------------------------------------------------------
 */

struct pw_jobe_upload {
    struct pw_jobe_files *f; /* a reference */
    char client[ID_MAX + 1];
    char id[ID_MAX + 1];
    char *tmp; /* the temporary file, until renamed */
    int fd;
    long long len;
};

struct pw_jobe_upload *
pw_jobe_upload_new(struct pw_jobe_files *f, const char *client, const char *id,
                   struct pw_error *err)
{
    if (!pw_jobe_file_id_ok(id) || !pw_jobe_file_id_ok(client)) {
        pw_fail(err, PW_ERR_USAGE, "bad file id");
        return NULL;
    }
    PW_AUTOFREE char *folder = pw_xasprintf("%s/%s", f->dir, client);
    if (mkdir(folder, 0700) < 0 && errno != EEXIST) {
        pw_fail_errno(err, PW_ERR_INTERNAL, "put: %s", folder);
        return NULL;
    }
    char *tmp = pw_xasprintf("%s/.%s.XXXXXX", folder, id);
    int fd = mkostemp(tmp, O_CLOEXEC);
    if (fd < 0) {
        pw_fail_errno(err, PW_ERR_INTERNAL, "put: %s", tmp);
        free(tmp);
        return NULL;
    }
    struct pw_jobe_upload *u = pw_xcalloc(1, sizeof(*u));
    u->f = f;
    f->refs++;
    snprintf(u->client, sizeof(u->client), "%s", client);
    snprintf(u->id, sizeof(u->id), "%s", id);
    u->tmp = tmp;
    u->fd = fd;
    return u;
}

int
pw_jobe_upload_write(struct pw_jobe_upload *u, const void *data, size_t len,
                     struct pw_error *err)
{
    if (u->len + (long long)len > u->f->max_file) {
        pw_fail(err, PW_ERR_USAGE,
                "file %s is too large: more than %lld bytes", u->id,
                u->f->max_file);
        return -1;
    }
    if (pw_write_all(u->fd, data, len) < 0) {
        pw_fail_errno(err, PW_ERR_INTERNAL, "put: %s", u->tmp);
        return -1;
    }
    u->len += (long long)len;
    return 0;
}

int
pw_jobe_upload_reset(struct pw_jobe_upload *u, struct pw_error *err)
{
    if (ftruncate(u->fd, 0) < 0 || lseek(u->fd, 0, SEEK_SET) < 0) {
        pw_fail_errno(err, PW_ERR_INTERNAL, "put: %s", u->tmp);
        return -1;
    }
    u->len = 0;
    return 0;
}

long long
pw_jobe_upload_len(const struct pw_jobe_upload *u)
{
    return u->len;
}

int
pw_jobe_upload_commit(struct pw_jobe_upload *u, struct pw_error *err)
{
    struct pw_jobe_files *f = u->f;
    PW_AUTOFREE char *path =
        pw_xasprintf("%s/%s/%s", f->dir, u->client, u->id);
    if (!make_room(f, u->client, u->id, u->len)) {
        pw_fail(err, PW_ERR_USAGE,
                "the cache is full of files that runs hold or of other "
                "clients' files (%lld bytes at most, %lld for one client); "
                "try again once the runs are over",
                f->max_total, f->quota);
        return -2;
    }
    touch(u->fd);
    struct stat st;
    int rc = fstat(u->fd, &st);
    int e = errno;
    if (close(u->fd) < 0 && rc == 0) {
        rc = -1;
        e = errno;
    }
    u->fd = -1;
    if (rc < 0 || rename(u->tmp, path) < 0) {
        errno = rc < 0 ? e : errno;
        pw_fail_errno(err, PW_ERR_INTERNAL, "put: %s", path);
        return -1;
    }
    free(u->tmp);
    u->tmp = NULL;
    struct entry *old = entry_find(f, u->client, u->id);
    if (old != NULL) {
        entry_unlist(f, old);
        if (old->refs == 0) {
            entry_free(f, old);
        }
    }
    struct entry *n = entry_add(f, u->client, u->id, &st);
    /* Its PUT time is now, whatever the file system's clock says. */
    (void)clock_gettime(CLOCK_REALTIME, &n->put_at);
    lru_append(n);
    exp_append(f, n);
    return 0;
}

void
pw_jobe_upload_free(struct pw_jobe_upload *u)
{
    if (u == NULL) {
        return;
    }
    if (u->fd >= 0) {
        close(u->fd);
    }
    if (u->tmp != NULL) {
        (void)unlink(u->tmp);
        free(u->tmp);
    }
    files_unref(u->f);
    free(u);
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
    struct pw_jobe_upload *u = pw_jobe_upload_new(f, client, id, err);
    if (u == NULL) {
        return -1;
    }
    int rc = pw_jobe_upload_write(u, data, len, err);
    if (rc == 0) {
        rc = pw_jobe_upload_commit(u, err);
    }
    pw_jobe_upload_free(u);
    return rc;
}

bool
pw_jobe_files_has(struct pw_jobe_files *f, const char *client, const char *id)
{
    return lookup(f, client, id) != NULL;
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

/* E's file opened, if it is still the regular file the index knows
 * (O_NONBLOCK: a FIFO put there under an id's name does not hold the
 * server up). */
static int
open_entry(const struct pw_jobe_files *f, const struct entry *e)
{
    PW_AUTOFREE char *path =
        pw_xasprintf("%s/%s/%s", f->dir, e->c->name, e->id);
    int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
    struct stat st;
    if (fd >= 0 && (fstat(fd, &st) < 0 || !S_ISREG(st.st_mode) ||
                    st.st_dev != e->dev || st.st_ino != e->ino)) {
        close(fd);
        fd = -1;
    }
    return fd;
}

int
pw_jobe_hold_add(struct pw_jobe_hold *h, const char *id, int *fd,
                 long long *size)
{
    struct pw_jobe_files *f = h->f;
    struct entry *e = lookup(f, h->client, id);
    if (e == NULL) {
        return -1;
    }
    if (e->fd < 0) {
        if (f->npins >= f->max_open) {
            return -2;
        }
        e->fd = open_entry(f, e);
        if (e->fd < 0) {
            /* Gone from the directory, or not the file PUT. */
            entry_unlist(f, e);
            entry_free(f, e);
            return -1;
        }
        f->npins++;
        lru_unlink(e);
    }
    touch(e->fd);
    size_t i = 0;
    while (i < h->n && h->v[i] != e) {
        i++;
    }
    if (i == h->n) {
        h->v = pw_xrealloc(h->v, (h->n + 1) * sizeof(struct entry *));
        h->v[h->n++] = e;
        e->refs++;
    }
    *fd = e->fd;
    *size = e->size;
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
        struct entry *e = h->v[i];
        if (--e->refs > 0) {
            continue;
        }
        close(e->fd);
        e->fd = -1;
        f->npins--;
        if (!e->listed) {
            entry_free(f, e);
        } else if (expired(f, e)) {
            entry_remove(f, e);
        } else {
            lru_append(e);
        }
    }
    free(h->v);
    free(h);
    files_unref(f);
}
