/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * profiles.h - capability profiles (rules/profiles.json): which modules a
 * program may import and what the OS layers additionally allow.
 *
 * Profiles are data; the C code knows only the capability words below.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "core/pyward.h"

/* What the OS layers additionally allow ("allows" in profiles.json). */
enum pw_cap {
    PW_CAP_NETWORK = 1u << 0,         /* "network": sockets, no netns cut */
    PW_CAP_WORKSPACE_FILES = 1u << 1, /* "workspace-files": read/write cwd */
    PW_CAP_OUTPUT_FILES = 1u << 2,    /* "output-files": output/ returned */
    PW_CAP_OPEN_BUILTIN = 1u << 3,    /* "open-builtin": open() on the
                                       * run's workspace */
    PW_CAP_TEMPLATE_NAMES = 1u << 4,  /* "template-names": names such as
                                       * __student_answer__ */
};

#define PW_PROFILES_MAX 32

struct pw_profile {
    char *name;
    char *summary;
    char **modules; /* NULL-terminated */
    size_t nmodules;
    /* Imported in the zygote too, never importable by a program: what
     * the modules would otherwise import lazily during a run. */
    char **preload; /* NULL-terminated or NULL */
    size_t npreload;
    /* The distributions (PEP 508 names, normalized) whose modules the
     * profile provides: what a PEP 723 dependency may name. */
    char **packages; /* NULL-terminated or NULL */
    size_t npackages;
    /* Their versions where known (a package set's), one for each of
     * PACKAGES (NULL entries: unknown), or NULL. */
    char **versions;
    /* Modules of MODULES the zygote does not import (a package set's,
     * but those the operator preloads): a run imports them itself. */
    char **lazy; /* NULL-terminated or NULL */
    size_t nlazy;
    /* A package set's own profile: in a run's profiles only when its
     * call names it or a PEP 723 dependency names one of its
     * distributions. */
    bool on_request;
    unsigned caps; /* enum pw_cap bits */
    bool is_default;
};

struct pw_profiles {
    struct pw_profile *v;
    size_t n;
    /* "always": modules every import set allows, whatever the profiles
     * and a client's narrowing ("__future__": compiler directives). */
    struct pw_profile always;
    /* The package sets' directories (pkgset.h), NULL-terminated or
     * NULL: on a run's sys.path and in its view, read-only. */
    char **paths;
    size_t npaths;
};

/* A selection of profiles: bit i stands for profiles->v[i]. */
typedef unsigned long pw_profile_mask;

/* Load and strictly check DIR/profiles.json.  Returns an owned set or NULL
 * with ERR naming the file and the offending key. */
struct pw_profiles *pw_profiles_load(const char *rules_dir,
                                     struct pw_error *err);
void pw_profiles_free(struct pw_profiles *p);

/* Borrowed, or NULL if no profile has that name. */
const struct pw_profile *pw_profiles_find(const struct pw_profiles *p,
                                          const char *name);
/* Index of NAME or -1. */
int pw_profiles_index(const struct pw_profiles *p, const char *name);
/* Mask of the profiles a package set brought (on_request). */
pw_profile_mask pw_profiles_on_request_mask(const struct pw_profiles *p);
/* Mask of the profiles marked "default". */
pw_profile_mask pw_profiles_default_mask(const struct pw_profiles *p);
/* The profiles of ENABLED that bring no third-party packages ("packages"
 * empty): a zygote of these alone is small, and a run that imports none
 * of the others' modules is forked from it (doc/PERFORMANCE.md). */
pw_profile_mask pw_profiles_light_mask(const struct pw_profiles *p,
                                       pw_profile_mask enabled);
/* Parse "basic,data_science" into a mask; -1 and ERR on an unknown name. */
int pw_profiles_parse_list(const struct pw_profiles *p, const char *list,
                           pw_profile_mask *out, struct pw_error *err);
/* The word for one capability BIT ("network", ...), or NULL. */
const char *pw_cap_word(unsigned bit);
/* Union of the capability bits of the profiles in MASK. */
unsigned pw_profiles_caps(const struct pw_profiles *p, pw_profile_mask mask);

/*
 * The import allow-list in force for one check or run.
 *   - the modules every set allows (profiles->always),
 *   - the modules of the profiles in MASK,
 *   - plus EXTRA (the operator's SANDBOX_ALLOWED_IMPORTS: trusted, widens),
 *   - then, if ONLY is non-NULL, narrowed to the modules also matched by
 *     ONLY (a client's allowed_imports: can never widen).
 * A listed name "a.b" allows "a.b" and its submodules "a.b.c", not the
 * parent "a" (so "os.path" never allows `import os`).
 * All pointers are borrowed and must outlive the set.
 */
struct pw_importset {
    const struct pw_profiles *profiles;
    pw_profile_mask mask;
    const char *const *extra; /* NULL-terminated or NULL */
    const char *const *only;  /* NULL-terminated or NULL */
};

enum pw_import_verdict {
    PW_IMPORT_ALLOWED,
    PW_IMPORT_OTHER_PROFILE, /* a profile not in the mask would allow it */
    PW_IMPORT_DENIED,
};

/* Check a dotted module name.  When the verdict is PW_IMPORT_OTHER_PROFILE
 * and WHICH is non-NULL, *WHICH is set to that profile's name (borrowed). */
enum pw_import_verdict pw_importset_check(const struct pw_importset *set,
                                          const char *module,
                                          const char **which);
/* True if NAME matches PATTERN: equal, or a submodule of it. */
bool pw_module_matches(const char *pattern, const char *name);
