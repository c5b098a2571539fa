/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * scratch.h - the scratch directory of a run (scratch.c).
 */
#pragma once

#include <stdbool.h>

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
