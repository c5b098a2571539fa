/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * checklist.c - the namespace steps of the child's checklist, shared by
 * the children of runs and the start-up probe (see checklist.h).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"
#include "sandbox/os/checklist.h"

#define NOBODY 65534

int
pw_sbx_checklist_ns(const struct pw_sbx_layers *l, const char *scratch,
                    bool network, const char **what)
{
    if (pw_sbx_mountns_early(&l->mounts, scratch, what) < 0 ||
        pw_sbx_drop_uid(l, what) < 0) {
        return -1;
    }
    uid_t uid = geteuid();
    gid_t gid = getegid();
    *what = "unshare(user, ipc, uts)";
    if (pw_sbx_unshare(l, network) < 0) {
        return -1;
    }
    return pw_sbx_mountns_late(&l->mounts, scratch, uid, gid, what);
}

/* The probe child: the whole step on a throw-away scratch directory. */
static PW_NORETURN void
probe_child(const struct pw_sbx_layers *l, const char *scratch, int fd)
{
    const char *what = "?";
    char line[160];
    int rc = pw_sbx_checklist_ns(l, scratch, false, &what);
    int n = snprintf(line, sizeof(line), "%s: %s", what, strerror(errno));
    if (rc < 0 && n > 0) {
        (void)pw_write_all(fd, line, (size_t)n);
    }
    _exit(rc < 0 ? 1 : 0);
}

static int
probe_run(struct pw_sbx_layers *l, const char *scratch)
{
    int p[2];
    if (pipe2(p, O_CLOEXEC) < 0) {
        snprintf(l->mounts.why, sizeof(l->mounts.why), "pipe: %s",
                 strerror(errno));
        return -1;
    }
    pid_t pid = fork();
    if (pid == 0) {
        close(p[0]);
        probe_child(l, scratch, p[1]);
    }
    close(p[1]);
    ssize_t n = PW_RETRY(read(p[0], l->mounts.why, sizeof(l->mounts.why) - 1));
    close(p[0]);
    l->mounts.why[n > 0 ? n : 0] = '\0';
    int st = 0;
    if (pid < 0 || PW_RETRY(waitpid(pid, &st, 0)) < 0 || !WIFEXITED(st) ||
        WEXITSTATUS(st) != 0) {
        if (n <= 0) {
            snprintf(l->mounts.why, sizeof(l->mounts.why),
                     "the probe child failed");
        }
        return -1;
    }
    return 0;
}

void
pw_sbx_checklist_probe(struct pw_sbx_layers *l, const char *tmp_root)
{
    struct pw_sbx_mounts *m = &l->mounts;
    if (!pw_sbx_mountns_plan(m, tmp_root, l->userns, l->root)) {
        return;
    }
    bool works = false;
    char *scratch = pw_xasprintf("%s/pyward-probe.XXXXXX", tmp_root);
    if (mkdtemp(scratch) == NULL ||
        (l->root && chown(scratch, NOBODY, NOBODY) < 0)) {
        snprintf(m->why, sizeof(m->why), "probe directory: %s",
                 strerror(errno));
    } else {
        works = probe_run(l, scratch) == 0;
        (void)rmdir(scratch);
    }
    free(scratch);
    pw_sbx_mountns_settle(m, works);
}
