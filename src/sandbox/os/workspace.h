/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * workspace.h - a run's workspace (workspace.c): what its scratch
 * directory is in its view, and the tmpfs handed from the child to the
 * parent.
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>

#include "sandbox/os/mountns.h"

/* Child, before any user code: send an fd of the current directory (the
 * workspace) over SOCK.  0 or -1 with errno. */
int pw_sbx_workspace_send(int sock);

struct pw_zygote;
/* True if Z's runs get a private tmpfs workspace (with CAPS, a run's
 * enum pw_cap bits: one whose profiles let it write files; the others
 * cannot write: see pw_sbx_workspace_kind).  Only
 * then does the checklist send its fd, and the parent accept one. */
bool pw_sbx_workspace_tmpfs(const struct pw_zygote *z, unsigned caps);
/* What the scratch directory of a run with CAPS is in its view: the
 * workspace tmpfs, an empty read-only directory (no file caps, mount
 * namespace active), or the host directory. */
enum pw_sbx_ws pw_sbx_workspace_kind(const struct pw_zygote *z, unsigned caps);
/* A run's workspace tmpfs is counted in its memory limit: it takes at
 * most half of it, and the run's address-space limit the rest
 * (pw_sbx_as_allowance).  Its size is the largest of the policy's cap,
 * the cap halved, halved again, ... (whole pages) that is not above half
 * the limit; a limit below two pages leaves no room for one.  A spare
 * mounts its tmpfs before its request comes, so the size is part of what
 * the spare is prepared for: PW_SBX_OS_CAPS in the low bits of a spare's
 * key, and the number of halvings above PW_SBX_WS_CLASS_SHIFT. */
#define PW_SBX_WS_CLASS_SHIFT 16

/* The size of the workspace tmpfs of a run with CAPS and MEMORY bytes of
 * limit on Z: 0 when its workspace is no tmpfs, -1 when MEMORY is too
 * small for one. */
long long pw_sbx_workspace_bytes(const struct pw_zygote *z, unsigned caps,
                                 long long memory);
/* The key of the spares that serve a run with CAPS and MEMORY bytes of
 * limit: the OS capabilities and the workspace's size class. */
unsigned pw_sbx_spare_key(const struct pw_zygote *z, unsigned caps,
                          long long memory);
/* The size of the workspace tmpfs a spare prepared for KEY mounts (0:
 * no tmpfs; -1: a class with no room, which no spare may mount). */
long long pw_sbx_workspace_key_bytes(const struct pw_zygote *z, unsigned key);
/* Add the "workspace" layer entry to OBJ (doctor, get_sandbox_info). */
int pw_sbx_workspace_json(const struct pw_zygote *z, json_t *obj);
