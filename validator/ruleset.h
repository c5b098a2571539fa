/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * ruleset.h - the loaded rules (private to the validator).
 */
#pragma once

#include "validator/match.h"
#include "validator/validator.h"

#define PW_SET_DEFAULT    1u
#define PW_SET_RESTRICTED 2u

/* Events raised by C and bound to meta rules through their "event" key. */
enum pw_event {
    PW_EV_SYNTAX_ERROR,
    PW_EV_COMPILE_ERROR,
    PW_EV_TOO_DEEP,
    PW_EV_NOT_UTF8,
    PW_EV_TOO_LARGE,
    PW_EV_NULL_BYTE,
    PW_EV_DEPENDENCY,  /* optional: a PEP 723 dependency no profile gives */
    PW_EV_SCRIPT_META, /* optional: requires-python, a malformed block */
    PW_EV_COUNT,
};

enum pw_tpl_kind {
    PW_TPL_TEXT,
    PW_TPL_PATH,
    PW_TPL_NODE,
    PW_TPL_MODULE,
    PW_TPL_PROFILE,
    PW_TPL_DETAIL,
};

struct pw_tpl_part {
    enum pw_tpl_kind kind;
    char *text; /* PW_TPL_TEXT (owned) */
    struct pw_path path;
};

struct pw_rule {
    char *code, *name, *summary, *why, *bad, *good, *message;
    char *sets_text; /* "default,restricted" */
    unsigned sets;
    int *kinds;
    int nkinds;
    bool has_where, has_import, has_import_names, prune;
    struct pw_cond where;
    struct pw_path import_module, import_names;
    int import_verdict; /* enum pw_import_verdict, or PW_RULE_NOT_INSTALLED */
    int event;          /* enum pw_event or -1 */
    unsigned unless_caps; /* enum pw_cap bits: not fired when granted */
    struct pw_tpl_part *tpl;
    int ntpl;
    /* "student": the finding in plain words for a learner (no rule code,
     * tool or profile name), or NULL; its template. */
    char *student;
    struct pw_tpl_part *stpl;
    int nstpl;
};

struct pw_ruleset {
    const struct pw_nodes *nt;
    unsigned set;
    struct pw_rule *rules;
    size_t n;
    int **by_kind; /* active rule indexes per node kind, -1 terminated */
    int events[PW_EV_COUNT];
};

/* Variables a message may use besides field paths. */
/* The import verdict of a module the selection allows but this
 * interpreter does not have: its import fails as python3's would
 * (ModuleNotFoundError). */
#define PW_RULE_NOT_INSTALLED (PW_IMPORT_DENIED + 1)

struct pw_tpl_vars {
    const char *module, *profile, *detail;
};

/* Render rule R's message (owned string).  MC may be NULL for events. */
char *pw_rule_render(const struct pw_rule *r, const struct pw_mctx *mc,
                     const struct pw_tpl_vars *vars);
/* The same of R's student text (owned), or NULL if it has none. */
char *pw_rule_render_student(const struct pw_rule *r, const struct pw_mctx *mc,
                             const struct pw_tpl_vars *vars);
