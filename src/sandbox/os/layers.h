/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * layers.h - the OS isolation layers besides seccomp and rlimits:
 * uid drop (when root), namespaces (the mount namespace: mountns.h),
 * no_new_privs, landlock.  Probed once
 * in the zygote, applied in each child.
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>

#include "core/pyward.h"
#include "sandbox/os/mountns.h"

/* The host and domain name a run sees (its own UTS namespace). */
#define PW_SBX_HOSTNAME "pyward"

struct pw_sbx_layers {
    bool root;          /* the zygote runs as root: children drop to nobody */
    bool userns;        /* unshare(USER|IPC|UTS) works for a child */
    int netns_fd;       /* a pre-made empty network namespace, or -1 */
    bool netns_unshare; /* no held netns: unshare(NET) per run instead */
    int landlock_abi;   /* 0: not available */
    struct pw_sbx_mounts mounts; /* probed by pw_sbx_checklist_probe */
    bool memcg; /* a cgroup v2 memory controller is delegated to us */
    char memcg_why[160];
    char userns_why[128];
    char landlock_why[128];
    char netns_why[128];
};

/* The read-only trees a run may read (imports, zoneinfo, fonts). */
extern const char *const pw_sbx_read_trees[];

/* Probe the host once (forks a short-lived child).  Never fails: what
 * does not work is recorded with a reason. */
void pw_sbx_layers_probe(struct pw_sbx_layers *l);
void pw_sbx_layers_clear(struct pw_sbx_layers *l);
/* DST (cleared) becomes what SRC probed, with fds and strings of its own
 * (a second zygote on the same host).  0, or -1 with errno when an fd
 * cannot be held twice: DST would lack a layer SRC has, and is only to
 * be cleared. */
int pw_sbx_layers_copy(struct pw_sbx_layers *dst,
                       const struct pw_sbx_layers *src);

/* In the child, in checklist order.  Each returns 0 or -1 with errno set
 * and *WHAT naming the step. */
int pw_sbx_enter_netns(const struct pw_sbx_layers *l, bool network);
int pw_sbx_drop_uid(const struct pw_sbx_layers *l, const char **what);
/* New user, IPC and UTS namespaces (and network, see netns_unshare); the
 * UTS namespace's host and domain names set to PW_SBX_HOSTNAME. */
int pw_sbx_unshare(const struct pw_sbx_layers *l, bool network);
/* True if a session with CAPS can be copied with a workspace of its own
 * (fork_session): its workspace is a private tmpfs under a view whose
 * scratch parent exists in the view alone (its landlock rule is then on
 * that parent: pw_sbx_landlock). */
bool pw_sbx_ws_copyable(const struct pw_sbx_layers *l, unsigned caps);
/* Read-only trees; the workspace SCRATCH read-write with the
 * "workspace-files" capability in CAPS, else read-only with only its
 * output/ writable ("output-files") or nothing writable; a private
 * workspace tmpfs that a session's copy may replace, read-write through
 * its parent (pw_sbx_ws_copyable). */
int pw_sbx_landlock(const struct pw_sbx_layers *l, const char *scratch,
                    unsigned caps);

/* Add the layer entries to OBJ (doctor / get_sandbox_info). */
int pw_sbx_layers_json(const struct pw_sbx_layers *l, json_t *obj);
