/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * validator.h - static checks of Python source against data-driven rules.
 *
 * The source is parsed by the embedded interpreter (PyCF_ONLY_AST), the AST
 * is walked against the rules loaded from the JSON files in rules/, and
 * the source is also compiled so that compile-stage SyntaxErrors become
 * diagnostics.  The C code knows no rule by name.
 *
 * The interpreter must be initialised (pw_py_init) before any call here.
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/profiles.h"
#include "core/pyward.h"

/* One finding.  Positions are 1-based; columns count UTF-8 bytes + 1. */
struct pw_diag {
    char code[8];  /* "PW201" */
    char *rule;    /* owned, kebab-case name: "exec-builtin" */
    char *message; /* owned, for a learner: names the thing, why, instead */
    int line;
    int col;
    int end_line;
    int end_col;
    char *module; /* owned or NULL: the module an import rule names */
    /* Owned or NULL: the finding in plain words for a learner, with no
     * rule code, tool or profile name (the rule's "student" text). */
    char *student;
};

struct pw_diags {
    struct pw_diag *v;
    size_t n;
    size_t cap;
};

void pw_diags_init(struct pw_diags *d);
void pw_diags_free(struct pw_diags *d);
/* Sort by line, column, code. */
void pw_diags_sort(struct pw_diags *d);
/* New reference: [{code, rule, line, column, end_line, end_column,
 * message}, ...] (the validate_code "errors" list).  NULL if a message
 * is not valid UTF-8. */
json_t *pw_diags_to_json(const struct pw_diags *d);
/* True if D holds findings and every one is a mistake the interpreter
 * itself reports when the program runs, as python3 would: a syntax or
 * compile error, an import of a module that does not exist at all (not
 * one that exists but is not allowed).  Such a program may be run so the
 * learner sees python3's own error. */
bool pw_diags_interpreter_only(const struct pw_diags *d);

/* D's plain words for a learner (borrowed): its rule's student text, or
 * a sentence that names nothing of the tool when the rule has none. */
const char *pw_diag_student(const struct pw_diag *d);

/* Figures about the program (validate_code's "analysis"). */
struct pw_analysis {
    long line_count;
    long character_count;
    long node_count;
    long max_depth;
    long estimated_complexity; /* 1 + decision points (McCabe) */
};

struct pw_ruleset;

/*
 * Load the rule set NAME from the rule files in RULES_DIR.  NAME is
 * "default" or "restricted" for the shipped sets; a directory given with
 * `--rules DIR` is loaded with NAME "default".  Every unknown key, AST node
 * type or field is an error naming the file, the rule and the key.
 * Returns an owned rule set or NULL with ERR set.
 */
struct pw_ruleset *pw_ruleset_load(const char *rules_dir, const char *name,
                                   struct pw_error *err);
void pw_ruleset_free(struct pw_ruleset *rs);

/* Rule metadata for `pyward rules` (borrowed; valid while RS lives).
 * Count and info cover every rule in the files, whichever set it belongs
 * to; SETS says which ("default", "restricted" or "default,restricted"). */
struct pw_rule_info {
    const char *code;
    const char *name;
    const char *summary;
    const char *why;
    const char *example_bad;
    const char *example_good;
    const char *sets;
};
size_t pw_ruleset_count(const struct pw_ruleset *rs);
void pw_ruleset_info(const struct pw_ruleset *rs, size_t i,
                     struct pw_rule_info *out);

/* Append to OUT the finding of a program of LEN bytes that a door takes
 * no further than LIMIT (RS's "too-large" event, PW005, at line 1): what
 * the validator says of a program past its own limit. */
void pw_validate_too_large(const struct pw_ruleset *rs, size_t len,
                           size_t limit, struct pw_diags *out);

/*
 * Validate SRC (LEN bytes, any bytes at all) against RS and the import
 * allow-list IMPORTS.  Appends findings to OUT; fills AN if non-NULL.
 * Returns 0 when the check ran (OUT may be empty or not), -1 with ERR on
 * an internal failure.  Never crashes or hangs on hostile input: invalid
 * UTF-8, NUL bytes, deep nesting and huge files are diagnostics.
 * noqa comments are NOT applied here (lint mode applies them itself).
 */
int pw_validate(const struct pw_ruleset *rs,
                const struct pw_importset *imports, const char *src,
                size_t len, struct pw_diags *out, struct pw_analysis *an,
                struct pw_error *err);
