/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * wscopy.c - a session copy's own workspace (fork_session).
 *
 * A session whose workspace is a private tmpfs is cloned with a mount
 * namespace of its own (CLONE_NEWNS), a copy of the session's in which
 * the same tmpfs is still mounted.  While the copy waits in its hello,
 * the server starts a helper that shares its memory and fd table
 * (CLONE_VM | CLONE_VFORK | CLONE_FILES: no fork of the server's
 * address space, no allocation) and joins the copy's user and mount
 * namespaces through its pidfd.  The helper mounts a fresh tmpfs of the
 * same caps (the size the session's memory limit gave its own: the
 * copy has the session's AS limit too) over the workspace path, copies
 * the files of the one it covers into it (directories, regular files,
 * symbolic links) and leaves its root open for the server (the copy's
 * output/ files are read there).  The copy then changes into the path
 * again, which lands in the new tmpfs; the session keeps the old one,
 * untouched.  The copy's landlock rule still covers the path: landlock
 * walks up from the new tmpfs's root to the mount point, the old root,
 * which the rule names.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "sandbox/run/record.h"
#include "sandbox/session/wscopy.h"

#define DEPTH_MAX 32

struct job {
    pid_t server;
    const struct pw_sbx_mounts *m;
    long long bytes;
    const char *scratch;
    int pidfd;
    int new_fd;
    int err;
    const char *what;
};

static int copy_dir(int from, int to, int depth);

/* Close A and B (either may be -1) and return RC, errno kept. */
static int
close_both(int a, int b, int rc)
{
    int e = errno;
    if (a >= 0) {
        close(a);
    }
    if (b >= 0) {
        close(b);
    }
    errno = e;
    return rc;
}

/* A regular file, with its times (output/ files already reported are
 * known by them). */
static int
copy_file(int from, int to, const char *name, const struct stat *st)
{
    int in = openat(from, name, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    int out =
        in < 0 ? -1
               : openat(to, name,
                        O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                        st->st_mode & 07777);
    int rc = in < 0 || out < 0 ? -1 : 0;
    char buf[16384];
    ssize_t n = 0;
    while (rc == 0 && (n = read(in, buf, sizeof(buf))) > 0) {
        for (ssize_t off = 0; rc == 0 && off < n;) {
            ssize_t w = write(out, buf + off, (size_t)(n - off));
            rc = w < 0 ? -1 : 0;
            off += w > 0 ? w : 0;
        }
    }
    rc = n < 0 ? -1 : rc;
    struct timespec times[2] = {st->st_atim, st->st_mtim};
    if (rc == 0 && futimens(out, times) < 0) {
        rc = -1;
    }
    return close_both(in, out, rc);
}

static int
copy_link(int from, int to, const char *name)
{
    char target[4096];
    ssize_t n = readlinkat(from, name, target, sizeof(target) - 1);
    if (n < 0) {
        return -1;
    }
    target[n] = '\0';
    return symlinkat(target, to, name);
}

static int
copy_subdir(int from, int to, const char *name, mode_t mode, int depth)
{
    if (depth >= DEPTH_MAX) {
        errno = ELOOP;
        return -1;
    }
    if (mkdirat(to, name, mode & 07777) < 0) {
        return -1;
    }
    int a =
        openat(from, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int b = openat(to, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    int rc = a < 0 || b < 0 ? -1 : copy_dir(a, b, depth + 1);
    return close_both(a, b, rc);
}

static int
copy_entry(int from, int to, const char *name, int depth)
{
    struct stat st;
    if (fstatat(from, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
        return -1;
    }
    if (S_ISDIR(st.st_mode)) {
        return copy_subdir(from, to, name, st.st_mode, depth);
    }
    if (S_ISREG(st.st_mode)) {
        return copy_file(from, to, name, &st);
    }
    if (S_ISLNK(st.st_mode)) {
        return copy_link(from, to, name);
    }
    return 0; /* a fifo or a socket: not a file's content */
}

/* Every entry of directory FROM into directory TO (getdents64: no
 * allocation in the helper). */
static int
copy_dir(int from, int to, int depth)
{
    char buf[8192] __attribute__((aligned(8)));
    for (;;) {
        long n = syscall(SYS_getdents64, from, buf, sizeof(buf));
        if (n <= 0) {
            return (int)n;
        }
        for (long off = 0; off < n;) {
            struct dirent64 *d = (struct dirent64 *)(void *)(buf + off);
            off += d->d_reclen;
            if (strcmp(d->d_name, ".") == 0 || strcmp(d->d_name, "..") == 0) {
                continue;
            }
            if (copy_entry(from, to, d->d_name, depth) < 0) {
                return -1;
            }
        }
    }
}

static int
fail(struct job *j, const char *what)
{
    j->err = errno;
    j->what = what;
    return 1;
}

/* The server waits for the helper (CLONE_VFORK), but a server killed
 * meanwhile takes it along: SIGKILL at its death, asked when the helper
 * starts and again once its credentials changed (joining the user
 * namespace and setresuid each clear it), the server checked to be its
 * parent still each time. */
static int
arm_death(const struct job *j)
{
    if (syscall(SYS_prctl, PR_SET_PDEATHSIG, SIGKILL, 0UL, 0UL, 0UL) < 0) {
        return -1;
    }
    /* setpgid into its own group: a no-op under the kernel's task-list
     * lock, which orders the check below against the handover of a dead
     * parent's children (child.c, arm_death). */
    long group = syscall(SYS_getpgid, 0);
    if (group > 0) {
        (void)syscall(SYS_setpgid, 0, group);
    }
    if (syscall(SYS_getppid) != j->server) {
        errno = ESRCH;
        return -1;
    }
    return 0;
}

static int
helper(void *arg)
{
    struct job *j = arg;
    if (arm_death(j) < 0) {
        return fail(j, "the server's death signal");
    }
    if (setns(j->pidfd, CLONE_NEWUSER | CLONE_NEWNS) < 0) {
        return fail(j, "setns");
    }
    int old = open(j->scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    struct stat st;
    if (old < 0 || fstat(old, &st) < 0) {
        if (old >= 0) {
            close(old);
        }
        return fail(j, "the workspace");
    }
    if (pw_sbx_mountns_ws_mount(j->m, j->bytes, j->scratch, st.st_uid,
                                st.st_gid) < 0) {
        close(old);
        return fail(j, "mount workspace tmpfs");
    }
    /* The files are made as the workspace's owner (the server's own ids
     * have no mapping in the namespace).  Raw calls: glibc's would signal
     * the threads of the server, whose memory this helper shares. */
    if (syscall(SYS_setresgid, st.st_gid, st.st_gid, st.st_gid) < 0 ||
        syscall(SYS_setresuid, st.st_uid, st.st_uid, st.st_uid) < 0) {
        close(old);
        return fail(j, "setresuid");
    }
    if (arm_death(j) < 0) {
        close(old);
        return fail(j, "the server's death signal");
    }
    j->new_fd = open(j->scratch, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (j->new_fd < 0 || copy_dir(old, j->new_fd, 0) < 0) {
        close(old);
        return fail(j, "copy the workspace");
    }
    close(old);
    return 0;
}

int
pw_sbx_copy_workspace(const struct pw_zygote *z, long long bytes, int pidfd,
                      const char *scratch, struct pw_error *err)
{
    static char stack[256 * 1024] __attribute__((aligned(16)));
    struct job j = {.server = getpid(),
                    .m = &z->layers.mounts,
                    .bytes = bytes,
                    .scratch = scratch,
                    .pidfd = pidfd,
                    .new_fd = -1};
    pid_t pid = clone(helper, stack + sizeof(stack),
                      CLONE_VM | CLONE_VFORK | CLONE_FILES | SIGCHLD, &j);
    int st = 0;
    if (pid < 0 || PW_RETRY(waitpid(pid, &st, 0)) < 0) {
        return pw_fail(err, PW_ERR_SANDBOX, "the copy's workspace: clone: %s",
                       strerror(errno));
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        if (j.new_fd >= 0) {
            close(j.new_fd);
        }
        return pw_fail(err, PW_ERR_SANDBOX, "the copy's workspace: %s: %s",
                       j.what != NULL ? j.what : "helper", strerror(j.err));
    }
    return j.new_fd;
}
