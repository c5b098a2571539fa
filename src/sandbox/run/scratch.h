/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * scratch.h - the scratch directory of a run, and what runs leave to
 * reap (scratch.c).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/pyward.h"

struct pw_zygote;

/* The scratch path of a run with CAPS: a private host directory (owned
 * by nobody when root), Z's view_scratch when the run's view makes it,
 * or NULL. */
char *pw_sbx_scratch_new(const struct pw_zygote *z, unsigned caps,
                         struct pw_error *err);
/* Free DIR, removing it first if it is a host directory. */
void pw_sbx_scratch_drop(const struct pw_zygote *z, char *dir);

/* False when a run with CAPS needs no host directory: its scratch path
 * lies under a hidden directory and the view makes it (a tmpfs or an
 * empty directory). */
bool pw_sbx_scratch_on_host(const struct pw_zygote *z, unsigned caps);

/* Leave PID (0: reaped) and SCRATCH (owned) to pw_sbx_reap. */
void pw_sbx_reap_later(struct pw_zygote *z, pid_t pid, char *scratch);
/* Zygote: reap finished runs' processes left behind and remove their
 * scratch directories (non-blocking unless WAIT).  Returns how many are
 * still pending. */
size_t pw_sbx_reap(struct pw_zygote *z, bool wait);
