/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * pkgset.h - package sets: directories of installed distributions an
 * operator manages (`pyward packages`), one per name under the state
 * directory, laid out as pip's --target makes them (the modules and one
 * NAME-VERSION.dist-info directory per distribution).  Read here from
 * the files alone (METADATA, top_level.txt, RECORD): no package code
 * runs.  A server attaches a set to a profile (`--packages NAME:PROFILE`)
 * or to a profile of its own named after the set.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "core/profiles.h"
#include "core/pyward.h"

#define PW_PKGSETS_MAX 8

/* One installed distribution. */
struct pw_dist {
    char *name;     /* as METADATA spells it */
    char *key;      /* PEP 503 normal form */
    char *version;  /* METADATA's Version */
    char **modules; /* top-level modules and packages, NULL-terminated */
    size_t nmodules;
    bool pth; /* ships a .pth file (never processed) */
};

struct pw_pkgset {
    char *name;
    char *dir; /* absolute */
    struct pw_dist *v;
    size_t n;
};

/* The directory sets live in: $PYWARD_STATE_DIR/packages, or
 * /var/lib/pyward/packages (owned). */
char *pw_pkgset_root(void);
/* The directory of set NAME (owned), or NULL and ERR if NAME is not a
 * set name (letters, digits, '-', '_', '.', not starting with '.'). */
char *pw_pkgset_dir(const char *name, struct pw_error *err);
/* Read the set NAME (or an absolute DIR holding one) into S.  0, or -1
 * and ERR (no such set). */
int pw_pkgset_read(struct pw_pkgset *s, const char *name,
                   struct pw_error *err);
void pw_pkgset_clear(struct pw_pkgset *s);
/* The distribution of S named (any spelling) NAME, or NULL. */
const struct pw_dist *pw_pkgset_find(const struct pw_pkgset *s,
                                     const char *name);
/* The PEP 503 normal form of NAME's first LEN bytes into OUT. */
void pw_pkgset_normalize(const char *name, size_t len, char *out, size_t size);

/*
 * Attach the set S to PROFILES: its modules become importable in the
 * profile PROFILE (NULL: a new profile named after the set, enabled for
 * a run by its `profile` argument or by a PEP 723 dependency on one of
 * its distributions), its distributions what a PEP 723 dependency may
 * name there (with their versions), and its directory one of the
 * directories runs read and import from (profiles->paths).  The zygote
 * imports none of its modules but those of PRELOAD (NULL-terminated or
 * NULL).  A module Debian's trees or the standard library already
 * provide is left out with a warning.  0, or -1 and ERR.
 */
int pw_pkgset_attach(struct pw_profiles *profiles, const struct pw_pkgset *s,
                     const char *profile, const char *const *preload,
                     struct pw_error *err);
