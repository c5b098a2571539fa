/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * lintconf.h - the configuration of `pyward check`: the [tool.pyward]
 * table of a pyproject.toml, or a pyward.toml's top level, read by the
 * embedded interpreter's tomllib and checked strictly (an unknown key or
 * a value of the wrong type is an error naming the file, the line and the
 * key).
 *
 * Keys: rules, profile, select, extend-select, ignore, extend-ignore,
 * per-file-ignores, extend-per-file-ignores, exclude, extend-exclude,
 * respect-gitignore, force-exclude.
 *
 * The interpreter must be initialised (pw_py_init) before any call here.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

#include "core/pyward.h"
#include "validator/glob.h"

/* One entry of per-file-ignores: findings of files matching GLOB (or, with
 * NEGATE, not matching it) whose code starts with one of CODES are
 * dropped. */
struct pw_pfi {
    char *glob; /* owned, without the '!' */
    bool negate;
    struct pw_strv codes;
};

struct pw_lintconf {
    char *file;    /* owned: the file read, NULL when none was */
    char *root;    /* owned: its directory (absolute); globs with a '/'
                      are relative to it */
    char *rules;   /* owned or NULL: "default", "restricted" or a
                      directory (made absolute) */
    char *profile; /* owned or NULL: a comma list */
    bool has_select, has_exclude;
    struct pw_strv select, extend_select, ignore, extend_ignore;
    struct pw_strv exclude, extend_exclude;
    struct pw_pfi *pfi; /* owned */
    size_t npfi;
    int respect_gitignore; /* -1 unset, else 0 or 1 */
    int force_exclude;     /* -1 unset, else 0 or 1 */
};

void pw_lintconf_init(struct pw_lintconf *c);
void pw_lintconf_free(struct pw_lintconf *c);
/*
 * Read FILE into C (initialised): a file named pyproject.toml gives its
 * [tool.pyward] table, any other its top level.  Returns 1 when read, 0
 * for a pyproject.toml without [tool.pyward] (C untouched), -1 with ERR
 * ("FILE:LINE: ...") on an unreadable file, invalid TOML, an unknown key
 * or a value of the wrong type.
 */
int pw_lintconf_read(const char *file, struct pw_lintconf *c,
                     struct pw_error *err);
/* Where C's file sets KEY, for an error about its value found later:
 * "FILE:LINE: [tool.pyward] 'KEY'" (no line when it is not found). */
void pw_lintconf_where(const struct pw_lintconf *c, const char *key, char *buf,
                       size_t n);
/* The nearest setup.cfg, tox.ini or .flake8 from DIR upward that has a
 * [pyward] section (flake8's habit, which pyward does not read), or NULL.
 * Owned. */
char *pw_lintconf_legacy(const char *dir);
/*
 * The configuration of the directory DIR or the nearest above it: in each
 * directory pyward.toml, then a pyproject.toml holding [tool.pyward].
 * Returns 1 when one was read into C, 0 when none was found, -1 with ERR.
 * With UP false, only DIR itself is looked at.
 */
int pw_lintconf_find(const char *dir, bool up, struct pw_lintconf *c,
                     struct pw_error *err);
