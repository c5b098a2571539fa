/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * glob.h - path patterns of `pyward check`: the globs of `exclude` and
 * `per-file-ignores`, and the patterns of .gitignore and .ignore files.
 *
 * A glob is matched against a '/'-separated relative path: '*' matches
 * any run of characters but '/', '?' one character but '/', "[a-z]" and
 * "[!a-z]" (or "[^a-z]") one character of a class, '\' quotes the next
 * character, and "**" as a whole component ("**" + "/", "/" + "**" + "/",
 * a final "/" + "**") matches any number of components, none included.
 *
 * An ignore file follows gitignore(5): blank lines and '#' lines are
 * skipped, trailing blanks dropped unless quoted with '\', '!' re-includes,
 * a final '/' matches directories only, a pattern with a '/' at its start
 * or in its middle is anchored at the file's directory, one without
 * matches the name at any depth, and the last matching line decides.
 * The ignore files of a walk are a stack: a deeper directory's files
 * decide before those above, a directory's .ignore before its .gitignore,
 * and the repository's .git/info/exclude last.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/* A list of strings. */
struct pw_strv {
    char **v; /* owned, each owned */
    size_t n;
};

void pw_strv_add(struct pw_strv *s, const char *str);
void pw_strv_free(struct pw_strv *s);

/* True if the glob PAT matches the whole of PATH. */
bool pw_glob_match(const char *pat, const char *path);

struct pw_ignore_pat {
    char *glob; /* owned: the pattern without '!', the leading and the
                   final '/' */
    bool negate;
    bool dir_only;
    bool anchored;
};

/* The patterns of one ignore file, for paths below DIR. */
struct pw_ignore {
    char *dir; /* owned, absolute, no final '/' */
    struct pw_ignore_pat *v;
    size_t n;
};

/* Parse the text of an ignore file found in DIR into IG (owned; free it
 * with pw_ignore_free).  Lines that cannot match anything are dropped. */
void pw_ignore_parse(struct pw_ignore *ig, const char *dir, const char *text,
                     size_t len);
/* Read DIR/NAME; false (IG empty) when it does not exist or cannot be
 * read. */
bool pw_ignore_load(struct pw_ignore *ig, const char *dir, const char *name);
void pw_ignore_free(struct pw_ignore *ig);
/* 1 if the last pattern of IG matching the absolute path ABS ignores it,
 * -1 if it re-includes it ('!'), 0 if none matches (or ABS is not below
 * IG's directory). */
int pw_ignore_match(const struct pw_ignore *ig, const char *abs, bool is_dir);

/* The absolute form of PATH: its realpath when it exists, else PATH
 * joined to the working directory with "." and ".." taken out.  Owned. */
char *pw_path_abs(const char *path);

/* Add the pattern PAT of a setting whose relative paths start at BASE (an
 * absolute directory) to GLOBS: a pattern without '/' is kept to match a
 * name, any other is made absolute. */
void pw_globs_add(struct pw_strv *globs, const char *base, const char *pat);
/* True if a glob of GLOBS matches the absolute path ABS (or its name). */
bool pw_globs_match(const struct pw_strv *globs, const char *abs);

/* The ignore files in effect during a walk. */
struct pw_ignores {
    struct pw_ignore *v; /* owned */
    size_t n;
};

/* Before a walk from the absolute directory ROOT: inside a git work tree,
 * the ignore files of the directories from its top down to ROOT's parent,
 * and .git/info/exclude. */
void pw_ignores_start(struct pw_ignores *s, const char *root);
/* Push DIR's .gitignore and .ignore; returns how many were pushed. */
size_t pw_ignores_push(struct pw_ignores *s, const char *dir);
void pw_ignores_pop(struct pw_ignores *s, size_t n);
void pw_ignores_free(struct pw_ignores *s);
/* True if the ignore files leave out the absolute path ABS. */
bool pw_ignores_match(const struct pw_ignores *s, const char *abs,
                      bool is_dir);
