/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * scratch.c - the scratch directory of a run: a private host directory
 * (with its output/), or the path the run's own view makes; and the
 * processes and directories runs leave behind, reaped when the server is
 * idle.
 */
#include "config.h"

#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/util.h"
#include "sandbox/run/record.h"
#include "sandbox/os/workspace.h"
#include "sandbox/run/scratch.h"

static int
rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)(flag == FTW_DP ? rmdir(path) : unlink(path));
    return 0;
}

static void
scratch_remove(const char *dir)
{
    (void)nftw(dir, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
}

void
pw_sbx_scratch_drop(const struct pw_zygote *z, char *dir)
{
    if (dir != NULL && strcmp(dir, z->view_scratch) != 0) {
        scratch_remove(dir);
    }
    free(dir);
}

char *
pw_sbx_scratch_new(const struct pw_zygote *z, unsigned caps,
                   struct pw_error *err)
{
    if (!pw_sbx_scratch_on_host(z, caps)) {
        return pw_xstrdup(z->view_scratch);
    }
    char *dir = pw_xasprintf("%s/pyward-run.XXXXXX", z->tmp_root);
    if (mkdtemp(dir) == NULL) {
        pw_fail_errno(err, PW_ERR_SANDBOX, "mkdtemp %s", dir);
        free(dir);
        return NULL;
    }
    PW_AUTOFREE char *out = pw_xasprintf("%s/output", dir);
    if (mkdir(out, 0755) < 0 ||
        (z->layers.root &&
         (chown(dir, 65534, 65534) < 0 || chown(out, 65534, 65534) < 0))) {
        pw_fail_errno(err, PW_ERR_SANDBOX, "preparing %s", dir);
        scratch_remove(dir);
        free(dir);
        return NULL;
    }
    return dir;
}

bool
pw_sbx_scratch_on_host(const struct pw_zygote *z, unsigned caps)
{
    return !z->layers.mounts.tmp_covered ||
           pw_sbx_workspace_kind(z, caps) == PW_SBX_WS_HOST;
}

size_t
pw_sbx_reap(struct pw_zygote *z, bool wait)
{
    size_t keep = 0;
    for (size_t i = 0; i < z->nreap; i++) {
        struct pw_sbx_leftover *l = &z->reap[i];
        if (l->pid > 0 &&
            PW_RETRY(waitpid(l->pid, NULL, wait ? 0 : WNOHANG)) == 0) {
            z->reap[keep++] = *l;
            continue;
        }
        /* The process is gone, and with it the mount namespace that held
         * the directory: removing it is cheap now. */
        pw_sbx_scratch_drop(z, l->scratch);
    }
    z->nreap = keep;
    return keep;
}

void
pw_sbx_reap_later(struct pw_zygote *z, pid_t pid, char *scratch)
{
    z->reap = pw_xrealloc(z->reap, (z->nreap + 1) * sizeof(*z->reap));
    z->reap[z->nreap++] = (struct pw_sbx_leftover){pid, scratch};
}
