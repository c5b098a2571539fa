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

#include "sandbox/mountns.h"

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
/* Add the "workspace" layer entry to OBJ (doctor, get_sandbox_info). */
int pw_sbx_workspace_json(const struct pw_zygote *z, json_t *obj);
