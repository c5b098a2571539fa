/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * mountns.c - the run's private view of the file system.
 *
 * Per run, in the child: unshare(NEWNS), make / recursively private,
 * cover each hidden directory (listed once in the zygote) with a tiny
 * empty tmpfs (one, bound onto every directory that stays empty), bind back
 * the few /etc files and the scratch directory (through O_PATH fds opened
 * before they were covered), reduce /proc to the process's own directory (a
 * detached clone of /proc/self moved onto an empty tmpfs: no other process of
 * the host shows, nor /proc's host-wide files; /sys is hidden like the other
 * trees), then make the whole tree read-only with one recursive mount_setattr
 * and the scratch directory writable again.  In a fresh user namespace the
 * child first maps its own uid and gid to themselves, or it could not create
 * the mount points in the tmpfs.
 *
 * The shared view (a server started as root, runs without files): a
 * helper process builds the same view once in a namespace of its own,
 * with an empty tmpfs on /proc instead of the reduced one, and sends the
 * namespace's fd; each such run joins it with setns before its uid drop
 * and makes no mount at all.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/os/mountns.h"
#include "core/util.h"

#ifndef MOUNT_ATTR_RDONLY
#define MOUNT_ATTR_RDONLY 0x00000001
#define MOUNT_ATTR_NOSUID 0x00000002
struct mount_attr {
    unsigned long long attr_set;
    unsigned long long attr_clr;
    unsigned long long propagation;
    unsigned long long userns_fd;
};
#endif
#ifndef AT_RECURSIVE
#define AT_RECURSIVE 0x8000
#endif

#ifndef OPEN_TREE_CLONE
#define OPEN_TREE_CLONE 1
#endif
#ifndef MOVE_MOUNT_F_EMPTY_PATH
#define MOVE_MOUNT_F_EMPTY_PATH 0x00000004
#endif

#define TMPFS_OPTS  "size=16k,nr_inodes=64,mode=0755"
#define TMPFS_FLAGS (MS_NOSUID | MS_NODEV | MS_NOEXEC)
#define ETC_MAX     PW_N_ELEMENTS(etc_keep)

/* Top-level directories a run keeps (read-only). */
static const char *const keep_top[] = {
    "usr", "lib",  "lib32", "lib64", "libx32",
    "bin", "sbin", "dev",   "proc",  NULL,
};

/* What comes back into the empty /etc: the loader's cache, the local
 * time zone, name resolution and certificates (for runs with network). */
static const char *const etc_keep[] = {
    "/etc/ld.so.cache",   "/etc/localtime", "/etc/timezone",
    "/etc/nsswitch.conf", "/etc/host.conf", "/etc/hosts",
    "/etc/resolv.conf",   "/etc/gai.conf",  "/etc/mime.types",
    "/etc/ssl",
};

static char *trees[PW_SBX_TREES_MAX + 1];

void
pw_sbx_trees_set(char *const *paths, size_t n)
{
    for (size_t i = 0; trees[i] != NULL; i++) {
        free(trees[i]);
        trees[i] = NULL;
    }
    for (size_t i = 0; i < n && i < PW_SBX_TREES_MAX; i++) {
        trees[i] = pw_xstrdup(paths[i]);
    }
}

const char *const *
pw_sbx_trees(void)
{
    return (const char *const *)trees;
}

static bool
kept(const char *name)
{
    for (size_t i = 0; keep_top[i] != NULL; i++) {
        if (strcmp(name, keep_top[i]) == 0) {
            return true;
        }
    }
    return false;
}

static void
add_hide(struct pw_sbx_mounts *m, const char *path)
{
    struct stat st;
    if (m->nhide < PW_SBX_HIDE_MAX && lstat(path, &st) == 0 &&
        S_ISDIR(st.st_mode)) {
        m->hide[m->nhide++] = pw_xstrdup(path);
    }
}

/* TMP_ROOT's first component is one a run keeps: hide it on its own. */
static bool
under_kept(const char *path)
{
    char first[256];
    const char *p = path + strspn(path, "/");
    size_t n = strcspn(p, "/");
    if (n == 0 || n >= sizeof(first)) {
        return n == 0;
    }
    memcpy(first, p, n);
    first[n] = '\0';
    return kept(first);
}

static void
list_hidden(struct pw_sbx_mounts *m)
{
    struct dirent **list = NULL;
    int n = scandir("/", &list, NULL, alphasort);
    for (int i = 0; i < n; i++) {
        char path[300];
        if (list[i]->d_name[0] != '.' && !kept(list[i]->d_name)) {
            snprintf(path, sizeof(path), "/%s", list[i]->d_name);
            add_hide(m, path);
        }
        free(list[i]);
    }
    free(list);
    if (strcmp(m->tmp_root, "/") != 0 && under_kept(m->tmp_root)) {
        add_hide(m, m->tmp_root);
    }
    add_hide(m, "/dev/shm");
    add_hide(m, "/dev/mqueue");
}

/* TMP_ROOT is a real path under one of the hidden directories: what the
 * view makes there exists in the view alone. */
static bool
tmp_covered(const struct pw_sbx_mounts *m)
{
    char real[PATH_MAX];
    if (realpath(m->tmp_root, real) == NULL ||
        strcmp(real, m->tmp_root) != 0) {
        return false;
    }
    for (size_t i = 0; i < m->nhide; i++) {
        size_t n = strlen(m->hide[i]);
        if (strncmp(real, m->hide[i], n) == 0 &&
            (real[n] == '/' || real[n] == '\0')) {
            return true;
        }
    }
    return false;
}

/* In a child joining the shared view: the namespace and the host's /proc
 * (kept past the child's fd cleanup, closed once used), and whether it
 * joined. */
static int held_view_fd = -1;
static int held_proc_fd = -1;
static int run_view_fd = -1;
static int run_proc_fd = -1;
static bool run_joined;

static void
close_kept(int *fd)
{
    if (*fd >= 0) {
        int saved = errno;
        close(*fd);
        *fd = -1;
        errno = saved;
    }
}

/* Write TEXT to /proc/self/NAME: through the host's /proc when the run
 * joined the shared view (whose /proc is empty). */
static int
proc_write(const char *name, const char *text)
{
    char path[64];
    snprintf(path, sizeof(path), "%sself/%s", run_proc_fd >= 0 ? "" : "/proc/",
             name);
    int fd = openat(run_proc_fd >= 0 ? run_proc_fd : AT_FDCWD, path,
                    O_WRONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    int rc = pw_write_all(fd, text, strlen(text));
    int saved = errno;
    close(fd);
    errno = saved;
    return rc < 0 ? -1 : 0;
}

/* Map UID and GID to themselves in the new user namespace. */
static int
map_ids(uid_t uid, gid_t gid, const char **what)
{
    char line[64];
    int dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
    /* A child that dropped to nobody is not dumpable: its /proc/self
     * files belong to root and it could not open its own maps. */
    *what = "prctl(dumpable)";
    if (dumpable != 1 && prctl(PR_SET_DUMPABLE, 1, 0, 0, 0) < 0) {
        return -1;
    }
    snprintf(line, sizeof(line), "%lu %lu 1\n", (unsigned long)uid,
             (unsigned long)uid);
    *what = "uid_map";
    int rc = proc_write("uid_map", line);
    if (rc == 0) {
        *what = "setgroups deny";
        rc = proc_write("setgroups", "deny");
    }
    if (rc == 0) {
        snprintf(line, sizeof(line), "%lu %lu 1\n", (unsigned long)gid,
                 (unsigned long)gid);
        *what = "gid_map";
        rc = proc_write("gid_map", line);
    }
    int saved = errno;
    if (dumpable != 1) {
        (void)prctl(PR_SET_DUMPABLE, dumpable < 0 ? 0 : dumpable, 0, 0, 0);
    }
    errno = saved;
    return rc;
}

/* mkdir -p PATH in the fresh tmpfs (0755: a child that drops to nobody
 * afterwards must still reach its scratch dir). */
static int
make_dirs(const char *path)
{
    char buf[4096];
    size_t n = strlen(path);
    if (n == 0 || n >= sizeof(buf)) {
        errno = ENAMETOOLONG;
        return -1;
    }
    memcpy(buf, path, n + 1);
    for (char *p = buf + 1;; p++) {
        if (*p == '/' || *p == '\0') {
            char c = *p;
            *p = '\0';
            if (mkdir(buf, 0755) < 0 && errno != EEXIST) {
                return -1;
            }
            *p = c;
            if (c == '\0') {
                return 0;
            }
        }
    }
}

static int
bind_fd(int fd, const char *target)
{
    char src[64];
    snprintf(src, sizeof(src), "/proc/self/fd/%d", fd);
    return mount(src, target, NULL, MS_BIND | MS_REC, NULL);
}

struct held {
    int scratch;
    int etc[ETC_MAX];
    bool dir[ETC_MAX];
    int tree[PW_SBX_TREES_MAX];
};

static void
held_close(struct held *h)
{
    int saved = errno;
    if (h->scratch >= 0) {
        close(h->scratch);
    }
    for (size_t i = 0; i < PW_SBX_TREES_MAX; i++) {
        if (h->tree[i] >= 0) {
            close(h->tree[i]);
        }
    }
    for (size_t i = 0; i < ETC_MAX; i++) {
        if (h->etc[i] >= 0) {
            close(h->etc[i]);
        }
    }
    errno = saved;
}

/* The /etc files, and the host scratch directory when HOST. */
static int
held_open(struct held *h, const char *scratch, bool host)
{
    h->scratch = -1;
    for (size_t i = 0; i < ETC_MAX; i++) {
        h->etc[i] = -1;
    }
    for (size_t i = 0; i < PW_SBX_TREES_MAX; i++) {
        h->tree[i] = -1;
    }
    for (size_t i = 0; trees[i] != NULL; i++) {
        h->tree[i] = open(trees[i], O_PATH | O_DIRECTORY | O_CLOEXEC);
        if (h->tree[i] < 0) {
            return -1;
        }
    }
    h->scratch = host ? open(scratch, O_PATH | O_DIRECTORY | O_CLOEXEC) : -1;
    if (host && h->scratch < 0) {
        return -1;
    }
    for (size_t i = 0; i < ETC_MAX; i++) {
        struct stat st;
        h->etc[i] = open(etc_keep[i], O_PATH | O_CLOEXEC);
        h->dir[i] = h->etc[i] >= 0 && fstat(h->etc[i], &st) == 0 &&
                    S_ISDIR(st.st_mode);
    }
    return 0;
}

static int
etc_back(const struct held *h)
{
    for (size_t i = 0; i < ETC_MAX; i++) {
        if (h->etc[i] < 0) {
            continue;
        }
        if (h->dir[i]) {
            if (mkdir(etc_keep[i], 0755) < 0) {
                return -1;
            }
        } else {
            int fd = open(etc_keep[i], O_CREAT | O_EXCL | O_WRONLY | O_CLOEXEC,
                          0644);
            if (fd < 0) {
                return -1;
            }
            close(fd);
        }
        if (bind_fd(h->etc[i], etc_keep[i]) < 0) {
            return -1;
        }
    }
    return 0;
}

/* The whole tree read-only, then SCRATCH writable again unless it is
 * NULL. */
static int
read_only(const char *scratch)
{
    struct mount_attr ro = {.attr_set = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID};
    struct mount_attr rw = {.attr_clr = MOUNT_ATTR_RDONLY};
#ifdef SYS_mount_setattr
    if (syscall(SYS_mount_setattr, AT_FDCWD, "/", AT_RECURSIVE, &ro,
                sizeof(ro)) < 0) {
        return -1;
    }
    return scratch == NULL ? 0
                           : (int)syscall(SYS_mount_setattr, AT_FDCWD, scratch,
                                          0, &rw, sizeof(rw));
#else
    (void)ro;
    (void)rw;
    (void)scratch;
    errno = ENOSYS;
    return -1;
#endif
}

#if defined(SYS_open_tree) && defined(SYS_move_mount)
/* /proc/self/exe would name the binary by its path on the host (its
 * mount is not in the view, so the kernel prints the host's path): a
 * clone of /dev/null is mounted on the link itself (move_mount does not
 * follow it), and readlink finds no link there (EINVAL). */
static int
cover_link(const char *link, const char **what)
{
    *what = "open_tree(/dev/null)";
    int null = (int)syscall(SYS_open_tree, AT_FDCWD, "/dev/null",
                            OPEN_TREE_CLONE | O_CLOEXEC);
    if (null < 0) {
        return -1;
    }
    *what = "move_mount(exe link)";
    int rc = (int)syscall(SYS_move_mount, null, "", AT_FDCWD, link,
                          MOVE_MOUNT_F_EMPTY_PATH);
    int saved = errno;
    close(null);
    errno = saved;
    return rc;
}

/* The process's link and each thread's (one thread at this point; the
 * run cannot start more: RLIMIT_NPROC 0). */
static int
hide_exe(const char **what)
{
    int rc = cover_link("/proc/self/exe", what);
    *what = "opendir(/proc/self/task)";
    DIR *d = rc == 0 ? opendir("/proc/self/task") : NULL;
    if (d == NULL) {
        return -1;
    }
    struct dirent *e;
    while (rc == 0 && (e = readdir(d)) != NULL) {
        char link[64];
        if (e->d_name[0] != '.') {
            snprintf(link, sizeof(link), "/proc/self/task/%.20s/exe",
                     e->d_name);
            rc = cover_link(link, what);
        }
    }
    int saved = errno;
    closedir(d);
    errno = saved;
    return rc;
}
#endif

/* /proc becomes an empty tmpfs with the process's own directory as
 * /proc/self.  The clone is taken before /proc is covered. */
static int
reduce_proc(const char **what)
{
#if defined(SYS_open_tree) && defined(SYS_move_mount)
    *what = "open_tree(/proc/self)";
    int tree = (int)syscall(SYS_open_tree, AT_FDCWD, "/proc/self",
                            OPEN_TREE_CLONE | O_CLOEXEC);
    if (tree < 0) {
        return -1;
    }
    *what = "mount tmpfs on /proc";
    int rc = mount("tmpfs", "/proc", "tmpfs", TMPFS_FLAGS, TMPFS_OPTS);
    if (rc == 0) {
        *what = "mkdir /proc/self";
        rc = mkdir("/proc/self", 0555);
    }
    if (rc == 0) {
        *what = "move_mount(/proc/self)";
        rc = (int)syscall(SYS_move_mount, tree, "", AT_FDCWD, "/proc/self",
                          MOVE_MOUNT_F_EMPTY_PATH);
    }
    int saved = errno;
    close(tree);
    errno = saved;
    return rc == 0 ? hide_exe(what) : rc;
#else
    *what = "open_tree(/proc/self)";
    errno = ENOSYS;
    return -1;
#endif
}

/* This child's choice (one run each) and its tmpfs's size (0: the
 * mounts' cap). */
static enum pw_sbx_ws run_ws = PW_SBX_WS_TMPFS;
static long long run_ws_size;
/* The size of the workspace tmpfs this child mounted, or 0. */
static long long run_ws_bytes;

long long
pw_sbx_mountns_ws_bytes(void)
{
    return run_ws_bytes;
}

void
pw_sbx_mountns_workspace(enum pw_sbx_ws kind, long long bytes)
{
    run_ws = kind;
    run_ws_size = bytes;
}

static enum pw_sbx_ws
ws_kind(const struct pw_sbx_mounts *m)
{
    if (run_ws == PW_SBX_WS_TMPFS && (m->ws_bytes <= 0 || m->ws_files <= 0)) {
        return PW_SBX_WS_HOST;
    }
    return run_ws;
}

int
pw_sbx_mountns_ws_mount(const struct pw_sbx_mounts *m, long long bytes,
                        const char *scratch, unsigned long uid,
                        unsigned long gid)
{
    /* size=0 would be a tmpfs without a cap. */
    if (bytes <= 0 || bytes > m->ws_bytes) {
        errno = EINVAL;
        return -1;
    }
    char opts[160];
    snprintf(opts, sizeof(opts),
             "size=%lld,nr_inodes=%lld,mode=0755,uid=%lu,gid=%lu", bytes,
             m->ws_files, uid, gid);
    return mount("tmpfs", scratch, "tmpfs", TMPFS_FLAGS, opts);
}

/* The scratch directory (made in the view by make_dirs): a private tmpfs
 * capped in bytes and inodes, holding an empty output/; the host
 * directory (HELD) bound back in place; or, empty, left as it is. */
static int
scratch_mount(const struct pw_sbx_mounts *m, enum pw_sbx_ws kind, int held,
              const char *scratch, const char **what)
{
    if (kind != PW_SBX_WS_TMPFS) {
        *what = "bind scratch";
        return kind == PW_SBX_WS_HOST ? bind_fd(held, scratch) : 0;
    }
    /* Early means root before its drop to nobody. */
    unsigned long uid = m->early ? 65534 : (unsigned long)geteuid();
    unsigned long gid = m->early ? 65534 : (unsigned long)getegid();
    long long bytes = run_ws_size != 0 ? run_ws_size : m->ws_bytes;
    *what = "mount workspace tmpfs";
    if (pw_sbx_mountns_ws_mount(m, bytes, scratch, uid, gid) < 0) {
        return -1;
    }
    run_ws_bytes = bytes;
    char out[4200];
    snprintf(out, sizeof(out), "%s/output", scratch);
    *what = "workspace output/";
    if (mkdir(out, 0755) < 0 || chown(out, uid, gid) < 0) {
        return -1;
    }
    return 0;
}

static bool
below(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

/* DIR gets mount points of its own in the view (/etc's files, the
 * scratch directory's parents, a package set's): it needs a tmpfs of
 * its own. */
static bool
holds_mounts(const char *dir, const char *scratch)
{
    size_t n = strlen(dir);
    bool tree = false;
    for (size_t i = 0; trees[i] != NULL; i++) {
        tree = tree || below(trees[i], dir);
    }
    return tree || strcmp(dir, "/etc") == 0 ||
           (strncmp(scratch, dir, n) == 0 && scratch[n] == '/');
}

/* Each package set's directory that a hidden one covers bound back, at
 * its own path (made read-only with the rest). */
static int
trees_back(const struct pw_sbx_mounts *m, const struct held *h)
{
    for (size_t i = 0; trees[i] != NULL; i++) {
        bool covered = false;
        for (size_t k = 0; k < m->nhide; k++) {
            covered = covered || below(trees[i], m->hide[k]);
        }
        if (covered &&
            (make_dirs(trees[i]) < 0 || bind_fd(h->tree[i], trees[i]) < 0)) {
            return -1;
        }
    }
    return 0;
}

/* Each hidden directory covered: an empty one by a bind of one shared
 * empty tmpfs (a mount, where a tmpfs of its own is a superblock to make
 * and tear down per run), the others by their own. */
static int
cover_hidden(const struct pw_sbx_mounts *m, const char *scratch)
{
    const char *shared = NULL;
    for (size_t i = 0; i < m->nhide; i++) {
        const char *dir = m->hide[i];
        bool own = holds_mounts(dir, scratch);
        int rc = !own && shared != NULL
                     ? mount(shared, dir, NULL, MS_BIND, NULL)
                     : mount("tmpfs", dir, "tmpfs", TMPFS_FLAGS, TMPFS_OPTS);
        if (rc < 0) {
            return -1;
        }
        if (!own && shared == NULL) {
            shared = dir;
        }
    }
    return 0;
}

/* The shared view's /proc: an empty tmpfs (no process of its own to
 * show, since every run that joins it sees the same). */
static int
empty_proc(const char **what)
{
    *what = "mount tmpfs on /proc";
    return mount("tmpfs", "/proc", "tmpfs", TMPFS_FLAGS, TMPFS_OPTS);
}

/* The view, in the mount namespace just unshared: a run's own, or with
 * SHARED the one every run without files joins (no workspace, /proc
 * empty). */
static int
build_tree(const struct pw_sbx_mounts *m, const char *scratch, bool shared,
           const char **what)
{
    *what = "make / private";
    if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) < 0) {
        return -1;
    }
    /* Opened in the new namespace: a bind source must belong to it. */
    struct held h;
    enum pw_sbx_ws kind = shared ? PW_SBX_WS_EMPTY : ws_kind(m);
    *what = "open(scratch)";
    int rc = held_open(&h, scratch, kind == PW_SBX_WS_HOST);
    if (rc == 0) {
        *what = "mount tmpfs";
        rc = cover_hidden(m, scratch);
    }
    if (rc == 0) {
        *what = "bind /etc files";
        rc = etc_back(&h);
    }
    if (rc == 0) {
        *what = "bind package sets";
        rc = trees_back(m, &h);
    }
    if (rc == 0) {
        *what = "mkdir scratch";
        rc = make_dirs(scratch);
    }
    if (rc == 0) {
        rc = scratch_mount(m, kind, h.scratch, scratch, what);
    }
    if (rc == 0) {
        rc = shared ? empty_proc(what) : reduce_proc(what);
    }
    if (rc == 0) {
        *what = "read-only remount";
        rc = read_only(kind == PW_SBX_WS_EMPTY ? NULL : scratch);
    }
    held_close(&h);
    return rc;
}

static int
build_view(const struct pw_sbx_mounts *m, const char *scratch,
           const char **what)
{
    *what = "unshare(mount)";
    if (unshare(CLONE_NEWNS) < 0) {
        return -1;
    }
    return build_tree(m, scratch, false, what);
}

/* Join the shared view: as root still, since the namespace belongs to
 * the host's user namespace. */
static int
join_shared(const struct pw_sbx_mounts *m, const char **what)
{
    *what = "setns(shared view)";
    int rc = setns(run_view_fd, CLONE_NEWNS);
    close_kept(&run_view_fd);
    run_joined = rc == 0;
    if (m->early) {
        close_kept(&run_proc_fd); /* no id maps to write */
    }
    return rc;
}

int
pw_sbx_mountns_early(const struct pw_sbx_mounts *m, const char *scratch,
                     const char **what)
{
    if (!m->active) {
        return 0;
    }
    if (run_view_fd >= 0) {
        return join_shared(m, what);
    }
    return m->early ? build_view(m, scratch, what) : 0;
}

int
pw_sbx_mountns_late(const struct pw_sbx_mounts *m, const char *scratch,
                    uid_t uid, gid_t gid, const char **what)
{
    if (!m->active || m->early) {
        return 0;
    }
    int rc = map_ids(uid, gid, what);
    close_kept(&run_proc_fd);
    if (rc < 0) {
        return -1;
    }
    return run_joined ? 0 : build_view(m, scratch, what);
}

bool
pw_sbx_mountns_plan(struct pw_sbx_mounts *m, const char *tmp_root, bool userns,
                    bool root)
{
    long long ws_bytes = m->ws_bytes;
    long long ws_files = m->ws_files;
    pw_sbx_mountns_clear(m);
    m->ws_bytes = ws_bytes;
    m->ws_files = ws_files;
    m->tmp_root = pw_xstrdup(tmp_root);
    if (!userns && !root) {
        snprintf(m->why, sizeof(m->why), "needs user namespaces");
        return false;
    }
    list_hidden(m);
    m->early = !userns;
    m->active = true;
    return true;
}

void
pw_sbx_mountns_settle(struct pw_sbx_mounts *m, bool works)
{
    m->active = works;
    if (m->active) {
        m->tmp_covered = tmp_covered(m);
        snprintf(m->why, sizeof(m->why),
                 "%zu directories hidden under empty tmpfs, /etc reduced, "
                 "/proc reduced to the run's own process, "
                 "read-only but for the scratch dir",
                 m->nhide);
    }
}

/* The helper: the shared view in a mount namespace of its own, whose fd
 * goes to SOCK with "ok", or what failed.  It joins the view itself
 * once built: a process with its privileges may (setns also needs
 * CAP_SYS_CHROOT, which a capability bounding set may lack). */
static PW_NORETURN void
share_child(const struct pw_sbx_mounts *m, const char *scratch, int sock)
{
    const char *what = "unshare(mount)";
    int ns = -1;
    int rc = unshare(CLONE_NEWNS);
    if (rc == 0) {
        what = "open(/proc/self/ns/mnt)";
        ns = open("/proc/self/ns/mnt", O_RDONLY | O_CLOEXEC);
        rc = ns < 0 ? -1 : build_tree(m, scratch, true, &what);
    }
    if (rc == 0) {
        what = "setns";
        rc = setns(ns, CLONE_NEWNS);
    }
    char msg[160];
    int n = rc == 0
                ? snprintf(msg, sizeof(msg), "ok")
                : snprintf(msg, sizeof(msg), "%s: %s", what, strerror(errno));
    (void)pw_send_fds(sock, msg, (size_t)n, &ns, rc == 0 ? 1 : 0);
    _exit(rc == 0 ? 0 : 1);
}

/* M->why gets "; WHAT DETAIL" (and a closing parenthesis after a
 * DETAIL). */
static void
share_note(struct pw_sbx_mounts *m, const char *what, const char *detail)
{
    size_t len = strlen(m->why);
    snprintf(m->why + len, sizeof(m->why) - len, "; %s%s%s", what, detail,
             detail[0] != '\0' ? ")" : "");
}

int
pw_sbx_mountns_copy(struct pw_sbx_mounts *dst, const struct pw_sbx_mounts *src)
{
    *dst = *src;
    dst->tmp_root = src->tmp_root != NULL ? pw_xstrdup(src->tmp_root) : NULL;
    for (size_t i = 0; i < src->nhide; i++) {
        dst->hide[i] = pw_xstrdup(src->hide[i]);
    }
    if (src->shared) {
        dst->shared_fd = fcntl(src->shared_fd, F_DUPFD_CLOEXEC, 3);
        dst->shared = dst->shared_fd >= 0;
        return dst->shared ? 0 : -1;
    }
    return 0;
}

void
pw_sbx_mountns_share(struct pw_sbx_mounts *m, const char *scratch)
{
    int sv[2];
    if (!m->active || !m->tmp_covered || m->shared ||
        socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0) {
        return;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(sv[0]);
        share_child(m, scratch, sv[1]);
    }
    close(sv[1]);
    char msg[160] = "";
    int fd = -1;
    size_t nfds = 0;
    ssize_t n =
        pid < 0 ? -1
                : pw_recv_fds(sv[0], msg, sizeof(msg) - 1, &fd, 1, &nfds, 0);
    close(sv[0]);
    int st = 0;
    bool ok = pid > 0 && PW_RETRY(waitpid(pid, &st, 0)) == pid &&
              WIFEXITED(st) && WEXITSTATUS(st) == 0 && n == 2 && nfds == 1;
    if (!ok) {
        if (nfds == 1) {
            close(fd);
        }
        msg[n > 0 && n < (ssize_t)sizeof(msg) ? n : 0] = '\0';
        share_note(m, "each run builds its own (no shared view: ",
                   msg[0] != '\0' ? msg : "no answer from its helper");
        return;
    }
    m->shared = true;
    m->shared_fd = fd;
    share_note(m, "runs without files share one such view, built once", "");
}

void
pw_sbx_mountns_hold(const struct pw_sbx_mounts *m)
{
    if (!m->active || !m->shared) {
        return;
    }
    int proc = open("/proc", O_PATH | O_DIRECTORY | O_CLOEXEC);
    if (proc >= 0) {
        held_view_fd = fcntl(m->shared_fd, F_DUPFD_CLOEXEC, 10);
        held_proc_fd = fcntl(proc, F_DUPFD_CLOEXEC, 10);
        close(proc);
    }
}

int
pw_sbx_mountns_keep(const struct pw_sbx_mounts *m, int slot)
{
    if (!m->active || held_view_fd < 0 || held_proc_fd < 0 ||
        run_ws != PW_SBX_WS_EMPTY || dup2(held_view_fd, slot) < 0 ||
        dup2(held_proc_fd, slot + 1) < 0) {
        return slot; /* this run builds its own view */
    }
    run_view_fd = slot;
    run_proc_fd = slot + 1;
    return slot + 2;
}

void
pw_sbx_mountns_clear(struct pw_sbx_mounts *m)
{
    if (m->shared && m->shared_fd >= 0) {
        close(m->shared_fd);
    }
    for (size_t i = 0; i < m->nhide; i++) {
        free(m->hide[i]);
    }
    free(m->tmp_root);
    memset(m, 0, sizeof(*m));
}
