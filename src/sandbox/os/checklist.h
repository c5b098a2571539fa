/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * checklist.h - the child's checklist from the uid drop to the mount
 * namespace, written once: the child of each run (child.c) and the
 * start-up probe of the mount namespace run the same function, so the
 * probe cannot pass with an order the children no longer follow.
 */
#pragma once

#include <stdbool.h>

#include "sandbox/os/layers.h"

/* In the child: the mount namespace when it comes first (root without
 * user namespaces), the uid drop, the user, IPC and UTS namespaces (and
 * the network one when NETWORK is false and no held one was joined), the
 * mount namespace when it comes after them.  0 or -1 with errno set and
 * *WHAT naming the step that failed. */
int pw_sbx_checklist_ns(const struct pw_sbx_layers *l, const char *scratch,
                        bool network, const char **what);

/* Probe the mount namespace once (a short-lived child runs
 * pw_sbx_checklist_ns on a probe scratch directory under TMP_ROOT), after
 * pw_sbx_layers_probe.  Never fails: a refusal is recorded in
 * L->mounts.why and the layer stays inactive. */
void pw_sbx_checklist_probe(struct pw_sbx_layers *l, const char *tmp_root);
