/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * packages.h - the package sets a server attaches (`--packages
 * NAME[:PROFILE]`, SANDBOX_PACKAGES), and their description for
 * get_sandbox_info and `pyward doctor`.
 */
#pragma once

#include <jansson.h>

#include "core/pkgset.h"
#include "core/profiles.h"

/* Attach each set of SPECS ("NAME" or "NAME:PROFILE", NULL-terminated or
 * NULL) to P, the modules of PRELOAD preloaded by the zygote.  Needs the
 * interpreter.  0, or -1 and ERR (no such set, no such profile, more
 * than PW_PKGSETS_MAX sets, a preload no set provides). */
int pw_packages_attach(struct pw_profiles *p, char *const *specs,
                       char *const *preload, struct pw_error *err);

/* New reference: [{name, dir, profile, distributions: [{name, version,
 * modules}]}] of the sets P holds (read again from their directories). */
json_t *pw_packages_json(const struct pw_profiles *p);

/* New reference: the same for one set S. */
json_t *pw_pkgset_json(const struct pw_pkgset *s);

/* New reference: {active, detail} for `pyward doctor`: every set under
 * the state directory, its distributions and their modules. */
json_t *pw_packages_describe(void);
