/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * layers.c - uid drop, namespaces and landlock for a run.
 *
 * Namespaces: user+IPC+UTS are unshared per run (measured free next to
 * fork).  A new network namespace per run costs about 0.35 ms here, so a
 * root zygote makes ONE empty network namespace at start and each child
 * joins it with setns (cheap); without root the child unshares NET with
 * its user namespace.  Runs with the network capability keep the host's.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#ifdef HAVE_LINUX_LANDLOCK_H
#include <linux/landlock.h>
#endif

#include "core/profiles.h"
#include "sandbox/os/layers.h"

#define NOBODY 65534

const char *const pw_sbx_read_trees[] = {
    "/usr/lib",
    "/usr/local/lib",
    "/usr/share/zoneinfo",
    "/usr/share/fonts",
    "/usr/share/matplotlib",
    "/usr/share/javascript",
    NULL,
};

#define NS_FLAGS (CLONE_NEWUSER | CLONE_NEWIPC | CLONE_NEWUTS)

static int
probe_child(int flags)
{
    pid_t pid = fork();
    if (pid < 0) {
        return -errno;
    }
    if (pid == 0) {
        if (geteuid() == 0 &&
            (setgroups(0, NULL) < 0 || setresgid(NOBODY, NOBODY, NOBODY) < 0 ||
             setresuid(NOBODY, NOBODY, NOBODY) < 0)) {
            _exit(100 + errno % 100);
        }
        _exit(unshare(flags) < 0 ? errno % 100 : 0);
    }
    int st = 0;
    if (PW_RETRY(waitpid(pid, &st, 0)) < 0 || !WIFEXITED(st)) {
        return -EIO;
    }
    return -WEXITSTATUS(st);
}

static void
probe_netns(struct pw_sbx_layers *l)
{
    l->netns_fd = -1;
    if (!l->root) {
        l->netns_unshare = l->userns;
        snprintf(l->netns_why, sizeof(l->netns_why), "%s",
                 l->userns ? "unshared per run with the user namespace"
                           : "needs user namespaces");
        return;
    }
    int orig = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
    if (orig < 0 || unshare(CLONE_NEWNET) < 0) {
        snprintf(l->netns_why, sizeof(l->netns_why), "unshare(NET): %s",
                 strerror(errno));
    } else {
        l->netns_fd = open("/proc/self/ns/net", O_RDONLY | O_CLOEXEC);
        if (setns(orig, CLONE_NEWNET) < 0) {
            /* Cannot go back: stay cut off rather than half-configured. */
            snprintf(l->netns_why, sizeof(l->netns_why), "setns back: %s",
                     strerror(errno));
        } else {
            snprintf(l->netns_why, sizeof(l->netns_why),
                     "one empty namespace made at start, joined per run");
        }
    }
    if (orig >= 0) {
        close(orig);
    }
}

static void
probe_landlock(struct pw_sbx_layers *l)
{
#if defined(HAVE_LINUX_LANDLOCK_H) && defined(SYS_landlock_create_ruleset)
    long abi = syscall(SYS_landlock_create_ruleset, NULL, 0,
                       LANDLOCK_CREATE_RULESET_VERSION);
    l->landlock_abi = abi > 0 ? (int)abi : 0;
    snprintf(l->landlock_why, sizeof(l->landlock_why), "%s",
             abi > 0 ? "read-only Python/library trees, the scratch dir rw"
                     : strerror(errno));
#else
    snprintf(l->landlock_why, sizeof(l->landlock_why),
             "built without linux/landlock.h");
#endif
}

/* The first line of PATH in BUF, or "" (-1). */
static int
read_line(const char *path, char *buf, size_t n)
{
    FILE *f = fopen(path, "re");
    buf[0] = '\0';
    if (f == NULL) {
        return -1;
    }
    char *got = fgets(buf, (int)n, f);
    fclose(f);
    buf[got != NULL ? strcspn(buf, "\n") : 0] = '\0';
    return got != NULL ? 0 : -1;
}

/* Whether our cgroup v2 group (/proc/self/cgroup "0::PATH") has the
 * memory controller and is writable: what a memory cgroup per run would
 * need.  Runs do not use one yet: the workspace is counted in their AS
 * limit instead (pw_sbx_as_allowance); doctor says which. */
static void
probe_memcg(struct pw_sbx_layers *l)
{
    char self[512] = "";
    char line[512];
    FILE *f = fopen("/proc/self/cgroup", "re");
    while (f != NULL && fgets(line, sizeof(line), f) != NULL) {
        if (strncmp(line, "0::", 3) == 0) {
            snprintf(self, sizeof(self), "%.*s", (int)strcspn(line + 3, "\n"),
                     line + 3);
        }
    }
    if (f != NULL) {
        fclose(f);
    }
    char path[700];
    char ctl[256];
    snprintf(path, sizeof(path), "/sys/fs/cgroup%s/cgroup.controllers",
             strcmp(self, "/") == 0 ? "" : self);
    const char *why = "no cgroup v2 group of our own";
    if (self[0] == '\0') {
        why = "no cgroup v2 hierarchy (/proc/self/cgroup)";
    } else if (read_line(path, ctl, sizeof(ctl)) < 0) {
        why = "cgroup v2 is not mounted on /sys/fs/cgroup";
    } else if (strstr(ctl, "memory") == NULL) {
        why = "the memory controller is not enabled in our cgroup v2 group";
    } else {
        snprintf(path, sizeof(path), "/sys/fs/cgroup%s/cgroup.subtree_control",
                 strcmp(self, "/") == 0 ? "" : self);
        l->memcg = access(path, W_OK) == 0;
        why = l->memcg ? "delegated" : "our cgroup v2 group is not writable";
    }
    snprintf(l->memcg_why, sizeof(l->memcg_why), "%s", why);
}

void
pw_sbx_layers_probe(struct pw_sbx_layers *l)
{
    memset(l, 0, sizeof(*l));
    l->root = geteuid() == 0;
    int rc = probe_child(NS_FLAGS);
    l->userns = rc == 0;
    snprintf(l->userns_why, sizeof(l->userns_why), "%s",
             rc == 0 ? "user, IPC and UTS namespaces per run (host name "
                       "\"" PW_SBX_HOSTNAME "\")"
                     : strerror(-rc % 100));
    probe_netns(l);
    probe_landlock(l);
    probe_memcg(l);
}

void
pw_sbx_layers_clear(struct pw_sbx_layers *l)
{
    if (l->netns_fd >= 0) {
        close(l->netns_fd);
        l->netns_fd = -1;
    }
    pw_sbx_mountns_clear(&l->mounts);
}

int
pw_sbx_layers_copy(struct pw_sbx_layers *dst, const struct pw_sbx_layers *src)
{
    *dst = *src;
    dst->netns_fd = -1;
    if (pw_sbx_mountns_copy(&dst->mounts, &src->mounts) < 0) {
        return -1;
    }
    if (src->netns_fd >= 0) {
        dst->netns_fd = fcntl(src->netns_fd, F_DUPFD_CLOEXEC, 3);
    }
    return src->netns_fd >= 0 && dst->netns_fd < 0 ? -1 : 0;
}

int
pw_sbx_enter_netns(const struct pw_sbx_layers *l, bool network)
{
    if (network || l->netns_fd < 0) {
        return 0;
    }
    return setns(l->netns_fd, CLONE_NEWNET);
}

int
pw_sbx_drop_uid(const struct pw_sbx_layers *l, const char **what)
{
    if (!l->root) {
        return 0;
    }
    *what = "setgroups";
    if (setgroups(0, NULL) < 0) {
        return -1;
    }
    *what = "setresgid(nobody)";
    if (setresgid(NOBODY, NOBODY, NOBODY) < 0) {
        return -1;
    }
    *what = "setresuid(nobody)";
    return setresuid(NOBODY, NOBODY, NOBODY);
}

int
pw_sbx_unshare(const struct pw_sbx_layers *l, bool network)
{
    if (!l->userns) {
        return 0;
    }
    int flags = NS_FLAGS;
    if (!network && l->netns_unshare) {
        flags |= CLONE_NEWNET;
    }
    if (unshare(flags) < 0) {
        return -1;
    }
    /* The UTS namespace is a copy of the host's: its names go, replaced
     * by fixed neutral ones (the new user namespace owns it). */
    static const char host[] = PW_SBX_HOSTNAME;
    if (sethostname(host, sizeof(host) - 1) < 0 ||
        setdomainname(host, sizeof(host) - 1) < 0) {
        return -1;
    }
    return 0;
}

#if defined(HAVE_LINUX_LANDLOCK_H) && defined(SYS_landlock_create_ruleset)
#define LL_READ (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define LL_FILE (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_WRITE_FILE)

static int
ll_add(int rfd, const char *path, unsigned long long access)
{
    int fd = open(path, O_PATH | O_CLOEXEC);
    if (fd < 0) {
        return 0; /* a tree this host does not have */
    }
    struct landlock_path_beneath_attr pb = {.allowed_access = access,
                                            .parent_fd = fd};
    long rc = syscall(SYS_landlock_add_rule, rfd, LANDLOCK_RULE_PATH_BENEATH,
                      &pb, 0);
    int saved = errno;
    close(fd);
    errno = saved;
    return rc < 0 ? -1 : 0;
}

/* The workspace rules: SCRATCH read-write (RW access bits) as CAPS
 * allow, else read-only with output/ writable or not.  A private
 * workspace tmpfs whose parent exists in the view alone (a directory of
 * a read-only hiding tmpfs that holds nothing but the scratch directory)
 * gets one read-write rule on that parent instead: a session's copy
 * (fork_session, wscopy.c) mounts its own tmpfs over the path, and
 * landlock meets no rule on a covered mount point, only above it.  For
 * the workspace-files capability that grants what the rule on SCRATCH
 * granted; for output-files alone it also lets the private tmpfs be
 * written outside output/, which the audit hook still refuses to the
 * program (and nothing but output/ is ever read from it). */
static int
ll_workspace(const struct pw_sbx_layers *l, int rfd, const char *scratch,
             unsigned caps, unsigned long long rw)
{
    char parent[4200];
    snprintf(parent, sizeof(parent), "%s", scratch);
    char *slash = strrchr(parent, '/');
    if (pw_sbx_ws_copyable(l, caps) && slash != NULL && slash != parent) {
        *slash = '\0';
        return ll_add(rfd, parent, rw);
    }
    if (caps & PW_CAP_WORKSPACE_FILES) {
        return ll_add(rfd, scratch, rw);
    }
    int rc = ll_add(rfd, scratch, LL_READ);
    if (rc == 0 && (caps & PW_CAP_OUTPUT_FILES)) {
        char out[4200];
        snprintf(out, sizeof(out), "%s/output", scratch);
        rc = ll_add(rfd, out, rw);
    }
    return rc;
}

bool
pw_sbx_ws_copyable(const struct pw_sbx_layers *l, unsigned caps)
{
    const struct pw_sbx_mounts *m = &l->mounts;
    unsigned files = PW_CAP_WORKSPACE_FILES | PW_CAP_OUTPUT_FILES;
    return m->active && !m->early && m->tmp_covered && m->ws_bytes > 0 &&
           m->ws_files > 0 && (caps & files) != 0;
}

int
pw_sbx_landlock(const struct pw_sbx_layers *l, const char *scratch,
                unsigned caps)
{
    if (l->landlock_abi <= 0) {
        return 0;
    }
    unsigned long long all = (1ULL << 13) - 1;
    if (l->landlock_abi >= 2) {
        all |= 1ULL << 13; /* REFER */
    }
    if (l->landlock_abi >= 3) {
        all |= 1ULL << 14; /* TRUNCATE */
    }
    struct landlock_ruleset_attr attr = {.handled_access_fs = all};
    int rfd =
        (int)syscall(SYS_landlock_create_ruleset, &attr, sizeof(attr), 0);
    if (rfd < 0) {
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && pw_sbx_read_trees[i] != NULL; i++) {
        rc = ll_add(rfd, pw_sbx_read_trees[i], LL_READ);
    }
    const char *const *sets = pw_sbx_trees(); /* the package sets' */
    for (size_t i = 0; rc == 0 && sets[i] != NULL; i++) {
        rc = ll_add(rfd, sets[i], LL_READ);
    }
    unsigned long long rw =
        all & ~(unsigned long long)(LANDLOCK_ACCESS_FS_EXECUTE |
                                    LANDLOCK_ACCESS_FS_MAKE_CHAR |
                                    LANDLOCK_ACCESS_FS_MAKE_BLOCK |
                                    LANDLOCK_ACCESS_FS_MAKE_SOCK |
                                    LANDLOCK_ACCESS_FS_MAKE_FIFO |
                                    LANDLOCK_ACCESS_FS_MAKE_SYM);
    if (rc == 0) {
        rc = ll_workspace(l, rfd, scratch, caps, rw);
    }
    if (rc == 0) {
        rc = (int)syscall(SYS_landlock_restrict_self, rfd, 0);
    }
    int saved = errno;
    close(rfd);
    errno = saved;
    return rc < 0 ? -1 : 0;
}
#else
int
pw_sbx_landlock(const struct pw_sbx_layers *l, const char *scratch,
                unsigned caps)
{
    return 0;
}
#endif

static int
layer(json_t *obj, const char *name, bool active, const char *detail)
{
    return json_object_set_new(
        obj, name, json_pack("{s:b,s:s}", "active", active, "detail", detail));
}

/* How the workspace tmpfs's pages are counted against a run's memory
 * limit: "workspace_memory" {active, method, detail}. */
static int
workspace_memory(const struct pw_sbx_layers *l, json_t *obj)
{
    char d[480];
    long long ws = l->mounts.active ? l->mounts.ws_bytes : 0;
    if (ws <= 0) {
        snprintf(d, sizeof(d), "no workspace tmpfs (memory cgroup: %s)",
                 l->memcg_why);
    } else {
        snprintf(d, sizeof(d),
                 "a run's workspace tmpfs is sized from its memory limit "
                 "(the cap, %lld MiB, halved until it is at most half the "
                 "limit) and its AS limit is the rest (limit - tmpfs): "
                 "files and memory together stay within the limit; memory "
                 "cgroup per run: not used (%s)",
                 ws >> 20, l->memcg_why);
    }
    json_t *v = json_pack("{s:b,s:s,s:s}", "active", ws > 0, "method",
                          ws > 0 ? "as_limit" : "none", "detail", d);
    return json_object_set_new(obj, "workspace_memory", v);
}

int
pw_sbx_layers_json(const struct pw_sbx_layers *l, json_t *obj)
{
    char ll[160];
    snprintf(ll, sizeof(ll), "ABI %d: %s", l->landlock_abi, l->landlock_why);
    int rc = 0;
    rc |= layer(obj, "uid_drop", l->root,
                l->root ? "runs as nobody (65534), no groups"
                        : "not root: runs as the caller's uid");
    rc |= layer(obj, "user_namespace", l->userns, l->userns_why);
    rc |= layer(obj, "network_namespace", l->netns_fd >= 0 || l->netns_unshare,
                l->netns_why);
    rc |= layer(obj, "mount_namespace", l->mounts.active, l->mounts.why);
    rc |= layer(obj, "landlock", l->landlock_abi > 0,
                l->landlock_abi > 0 ? ll : l->landlock_why);
    rc |= layer(obj, "no_new_privs", true, "prctl(PR_SET_NO_NEW_PRIVS)");
    rc |= workspace_memory(l, obj);
    return rc < 0 ? -1 : 0;
}
