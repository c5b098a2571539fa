/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * workspace.c - a run's workspace: its kind (a private tmpfs, an empty
 * read-only directory, or the host directory), the tmpfs's fd sent from
 * the child to the parent, and its entry in the layer report.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

#include "core/util.h"
#include "sandbox/run/record.h"
#include "sandbox/os/workspace.h"

int
pw_sbx_workspace_send(int sock)
{
    int fd = open(".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    int rc = pw_send_fds(sock, "W\n", 2, &fd, 1);
    int saved = errno;
    close(fd);
    errno = saved;
    return rc;
}

bool
pw_sbx_workspace_tmpfs(const struct pw_zygote *z, unsigned caps)
{
    const struct pw_sbx_mounts *m = &z->layers.mounts;
    return m->active && m->ws_bytes > 0 && m->ws_files > 0 &&
           (caps & (PW_CAP_WORKSPACE_FILES | PW_CAP_OUTPUT_FILES)) != 0;
}

/* The tmpfs size CAP halved K times, in whole pages. */
static long long
halved(long long cap, unsigned k)
{
    long long page = sysconf(_SC_PAGESIZE);
    page = page > 0 ? page : 4096;
    long long b = k < 62 ? cap >> k : 0;
    return b - b % page;
}

/* How many times the cap is halved for a run with MEMORY bytes of
 * limit, or -1 when not even one page fits in half of it. */
static int
ws_class(long long cap, long long memory)
{
    for (unsigned k = 0; k < 62; k++) {
        long long b = halved(cap, k);
        if (b <= 0) {
            return -1;
        }
        if (b <= memory / 2) {
            return (int)k;
        }
    }
    return -1;
}

long long
pw_sbx_workspace_bytes(const struct pw_zygote *z, unsigned caps,
                       long long memory)
{
    if (!pw_sbx_workspace_tmpfs(z, caps)) {
        return 0;
    }
    long long cap = z->layers.mounts.ws_bytes;
    int k = ws_class(cap, memory);
    return k < 0 ? -1 : halved(cap, (unsigned)k);
}

unsigned
pw_sbx_spare_key(const struct pw_zygote *z, unsigned caps, long long memory)
{
    unsigned key = caps & PW_SBX_OS_CAPS;
    if (!pw_sbx_workspace_tmpfs(z, caps)) {
        return key;
    }
    int k = ws_class(z->layers.mounts.ws_bytes, memory);
    /* No room (refused before a spare is asked): the smallest class. */
    unsigned cls = k < 0 ? 0xffu : (unsigned)k;
    return key | cls << PW_SBX_WS_CLASS_SHIFT;
}

long long
pw_sbx_workspace_key_bytes(const struct pw_zygote *z, unsigned key)
{
    if (!pw_sbx_workspace_tmpfs(z, key)) {
        return 0;
    }
    long long b =
        halved(z->layers.mounts.ws_bytes, key >> PW_SBX_WS_CLASS_SHIFT);
    return b > 0 ? b : -1; /* never size=0: a tmpfs without a cap */
}

enum pw_sbx_ws
pw_sbx_workspace_kind(const struct pw_zygote *z, unsigned caps)
{
    const struct pw_sbx_mounts *m = &z->layers.mounts;
    if (pw_sbx_workspace_tmpfs(z, caps)) {
        return PW_SBX_WS_TMPFS;
    }
    bool files = (caps & (PW_CAP_WORKSPACE_FILES | PW_CAP_OUTPUT_FILES)) != 0;
    return m->active && m->tmp_covered && !files ? PW_SBX_WS_EMPTY
                                                 : PW_SBX_WS_HOST;
}

int
pw_sbx_workspace_json(const struct pw_zygote *z, json_t *obj)
{
    const struct pw_sbx_mounts *m = &z->layers.mounts;
    const struct pw_sbx_policy *p = &z->policy;
    bool tmpfs = pw_sbx_workspace_tmpfs(z, PW_CAP_WORKSPACE_FILES);
    char where[192];
    char detail[320];
    if (tmpfs) {
        snprintf(where, sizeof(where),
                 "a private tmpfs per run that may write files (%lld bytes "
                 "and at most half the memory limit, %lld files)",
                 m->ws_bytes, m->ws_files);
    } else {
        snprintf(where, sizeof(where),
                 "a host scratch directory (files capped by RLIMIT_FSIZE)");
    }
    snprintf(detail, sizeof(detail),
             "%s; output/: %lld files listed, %lld bytes per file and %lld "
             "in all returned",
             where, p->output_files, p->output_file_bytes,
             p->output_total_bytes);
    return json_object_set_new(
        obj, "workspace",
        json_pack("{s:b,s:s}", "active", tmpfs, "detail", detail));
}
