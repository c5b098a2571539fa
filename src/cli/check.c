/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check.c - `pyward check`: validate files without running them, in
 * the manner of flake8 and ruff.  Exit 0 clean, 1 findings, 2 usage or
 * internal error.
 *
 * Each path is checked with the configuration found from it upward
 * (validator/lintconf.h), or with --config's, or none (--isolated); a
 * directory below holding its own configuration is checked with that one.
 * Directories are walked in name order, leaving out hidden entries, the
 * excluded ones and, unless told otherwise, those the ignore files leave
 * out (validator/glob.h); links to directories are not followed.
 */
#include "config.h"

#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "cli/opts.h"
#include "core/log.h"
#include "core/py.h"
#include "core/rules.h"
#include "core/util.h"
#include "validator/diag.h"
#include "validator/glob.h"
#include "validator/lintconf.h"
#include "validator/noqa.h"
#include "validator/report.h"
#include "validator/select.h"
#include "validator/validator.h"

/* Files are read up to this size; larger ones are an error (exit 2). The
 * validator itself reports anything above its own limit as too large. */
#define READ_MAX ((size_t)64 << 20)

/* What is excluded when neither `exclude` nor --exclude says otherwise. */
static const char *const default_excludes[] = {
    ".bzr",
    ".direnv",
    ".eggs",
    ".git",
    ".git-rewrite",
    ".hg",
    ".ipynb_checkpoints",
    ".mypy_cache",
    ".nox",
    ".pants.d",
    ".pyenv",
    ".pytest_cache",
    ".pytype",
    ".ruff_cache",
    ".svn",
    ".tox",
    ".venv",
    ".vscode",
    "__pycache__",
    "__pypackages__",
    "_build",
    "buck-out",
    "build",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
};

enum opt_id {
    OPT_RULES = 256,
    OPT_PROFILE,
    OPT_FORMAT,
    OPT_SELECT,
    OPT_IGNORE,
    OPT_EXTEND_SELECT,
    OPT_EXTEND_IGNORE,
    OPT_STATISTICS,
    OPT_EXIT_ZERO,
    OPT_DISABLE_NOQA,
    OPT_STDIN_FILENAME,
    OPT_CONFIG,
    OPT_ISOLATED,
    OPT_EXCLUDE,
    OPT_EXTEND_EXCLUDE,
    OPT_FORCE_EXCLUDE,
    OPT_RESPECT_GITIGNORE,
    OPT_NO_RESPECT_GITIGNORE,
    OPT_QUIET,
    OPT_SHOW_SOURCE,
    OPT_SHOW_HINT,
    OPT_HELP,
};

static const struct opt {
    const char *name;
    int has_arg;
    int id;
    const char *arg;
    const char *help;
} opts[] = {
    {"rules", 1, OPT_RULES, "SET|DIR",
     "rule set: default (the default), restricted (RestrictedPython's "
     "policy), or a directory of rule files"},
    {"profile", 1, OPT_PROFILE, "NAME",
     "allow the imports of this profile (repeatable; comma lists too); "
     "default: the default profiles"},
    {"output-format", 1, OPT_FORMAT, "FMT",
     "concise (or text; the default), full (with the source and the hint), "
     "json, sarif, github"},
    {"format", 1, OPT_FORMAT, "FMT", "the same as --output-format"},
    {"select", 1, OPT_SELECT, "PREFIXES",
     "report only codes starting with these prefixes (PW2,PW301)"},
    {"ignore", 1, OPT_IGNORE, "PREFIXES", "do not report these prefixes"},
    {"extend-select", 1, OPT_EXTEND_SELECT, "PREFIXES", "add to --select"},
    {"extend-ignore", 1, OPT_EXTEND_IGNORE, "PREFIXES", "add to --ignore"},
    {"config", 1, OPT_CONFIG, "FILE",
     "read this pyproject.toml or pyward.toml instead of looking for one"},
    {"isolated", 0, OPT_ISOLATED, NULL, "read no configuration file"},
    {"exclude", 1, OPT_EXCLUDE, "GLOBS",
     "leave out these files and directories (replaces the defaults and "
     "the configuration's)"},
    {"extend-exclude", 1, OPT_EXTEND_EXCLUDE, "GLOBS", "add to --exclude"},
    {"force-exclude", 0, OPT_FORCE_EXCLUDE, NULL,
     "leave out excluded files even when named on the command line"},
    {"respect-gitignore", 0, OPT_RESPECT_GITIGNORE, NULL,
     "leave out what .gitignore and .ignore files leave out (the default)"},
    {"no-respect-gitignore", 0, OPT_NO_RESPECT_GITIGNORE, NULL,
     "do not read .gitignore and .ignore files"},
    {"statistics", 0, OPT_STATISTICS, NULL,
     "print how many findings each code has"},
    {"exit-zero", 0, OPT_EXIT_ZERO, NULL, "exit 0 even with findings (-e)"},
    {"quiet", 0, OPT_QUIET, NULL,
     "print the findings and nothing else: no summary line (-q)"},
    {"show-source", 0, OPT_SHOW_SOURCE, NULL,
     "print each finding's line with carets under it"},
    {"show-hint", 0, OPT_SHOW_HINT, NULL,
     "print each finding's hint: why, and what to do instead"},
    {"disable-noqa", 0, OPT_DISABLE_NOQA, NULL,
     "ignore '# noqa' and '# pyward: noqa' comments"},
    {"stdin-filename", 1, OPT_STDIN_FILENAME, "NAME",
     "read the source from stdin and report it as NAME (its configuration "
     "and per-file ignores apply)"},
    {"help", 0, OPT_HELP, NULL, "show this help (-h)"},
};

struct check_cfg {
    const char *rules;
    const char *format;
    const char *stdin_name;
    const char *config;
    char profiles[1024];
    struct pw_strv sel[PW_SEL_NLISTS]; /* the options' lists, as given */
    bool has_select;
    struct pw_strv exclude, extend_exclude;
    bool has_exclude;
    int respect_gitignore; /* -1 unset */
    bool statistics, exit_zero, disable_noqa, isolated, force_exclude;
    bool quiet;
    struct pw_report_show show;
};

/* A configuration and what it implies. */
struct check_ctx {
    struct pw_lintconf conf; /* conf.file NULL: none */
    struct pw_select sel;
    struct pw_ruleset *rs;
    struct pw_importset imports;
    struct pw_strv exclude; /* absolute globs or names */
    struct pw_pfi *pfi;     /* borrowed from conf, globs made absolute */
    size_t npfi;
    bool respect_gitignore, force_exclude;
    bool broken; /* its setup failed (reported) */
};

/* The absolute paths checked so far: a file named twice (on the command
 * line and in a directory walked) is checked once. */
struct seen {
    char **v; /* owned, a hash table with linear probing */
    size_t cap, n;
};

struct check_run {
    struct check_cfg *cfg;
    struct pw_profiles *profiles;
    char *cwd;
    struct check_ctx **ctx; /* owned */
    size_t nctx;
    struct pw_ignores ign;
    struct seen seen;
    struct pw_report report;
    bool keep_source;
    bool ctx_failed;  /* the last ctx_for failed (reported) */
    bool legacy_told; /* a [pyward] section of setup.cfg was warned of */
    int status;       /* 2 once an error happened */
};

static void
usage(FILE *out)
{
    (void)fprintf(
        out,
        "usage: pyward check [OPTIONS] PATH... | -\n\n"
        "Check Python files (directories: every *.py below them; "
        "'-': stdin)\nagainst pyward's rules without running "
        "them.  Output: path:line:col: CODE message,\nthen 'Found N "
        "errors.'  Settings come from [tool.pyward] in pyproject.toml or\n"
        "from pyward.toml, looked for from each path upward (see "
        "pyward(1)).\n"
        "Exit status: 0 clean, 1 findings, 2 usage or internal "
        "error.\n'# noqa' and '# noqa: PW201,PW3' silence a line; "
        "'# pyward: noqa' a file.\n\noptions:\n");
    for (size_t i = 0; i < PW_N_ELEMENTS(opts); i++) {
        char left[64];
        (void)snprintf(left, sizeof(left), "--%s%s%s", opts[i].name,
                       opts[i].arg ? " " : "", opts[i].arg ? opts[i].arg : "");
        (void)fprintf(out, "  %-26s %s\n", left, opts[i].help);
    }
}

/* Split the comma list ARG into L. */
static void
add_list(struct pw_strv *l, const char *arg)
{
    PW_AUTOFREE char *copy = pw_xstrdup(arg);
    char *save = NULL;
    for (char *t = strtok_r(copy, ",", &save); t != NULL;
         t = strtok_r(NULL, ",", &save)) {
        while (*t == ' ') {
            t++;
        }
        if (*t != '\0') {
            pw_strv_add(l, t);
        }
    }
}

static int
apply_opt(struct check_cfg *c, int id, const char *arg)
{
    switch (id) {
    case OPT_RULES:
        c->rules = arg;
        return 0;
    case OPT_PROFILE: {
        size_t n = strlen(c->profiles);
        (void)snprintf(c->profiles + n, sizeof(c->profiles) - n, "%s%s",
                       n ? "," : "", arg);
        return 0;
    }
    case OPT_FORMAT:
        c->format = arg;
        return pw_format_parse(arg) < 0 ? -1 : 0;
    case OPT_SELECT:
    case OPT_IGNORE:
    case OPT_EXTEND_SELECT:
    case OPT_EXTEND_IGNORE: {
        struct pw_select probe;
        pw_select_init(&probe);
        int rc = pw_select_add(&probe, PW_SEL_SELECT, arg);
        pw_select_free(&probe);
        if (rc < 0) {
            return -1;
        }
        if (id == OPT_SELECT) {
            c->has_select = true;
            pw_strv_free(&c->sel[PW_SEL_SELECT]);
        }
        pw_strv_add(&c->sel[id - OPT_SELECT], arg);
        return 0;
    }
    case OPT_CONFIG:
        c->config = arg;
        return 0;
    case OPT_ISOLATED:
        c->isolated = true;
        return 0;
    case OPT_EXCLUDE:
        c->has_exclude = true;
        add_list(&c->exclude, arg);
        return 0;
    case OPT_EXTEND_EXCLUDE:
        add_list(&c->extend_exclude, arg);
        return 0;
    case OPT_FORCE_EXCLUDE:
        c->force_exclude = true;
        return 0;
    case OPT_RESPECT_GITIGNORE:
    case OPT_NO_RESPECT_GITIGNORE:
        c->respect_gitignore = id == OPT_RESPECT_GITIGNORE;
        return 0;
    case OPT_STATISTICS:
        c->statistics = true;
        return 0;
    case OPT_EXIT_ZERO:
        c->exit_zero = true;
        return 0;
    case OPT_QUIET:
        c->quiet = true;
        return 0;
    case OPT_SHOW_SOURCE:
        c->show.source = true;
        return 0;
    case OPT_SHOW_HINT:
        c->show.hint = true;
        return 0;
    case OPT_DISABLE_NOQA:
        c->disable_noqa = true;
        return 0;
    case OPT_STDIN_FILENAME:
        c->stdin_name = arg;
        return 0;
    default:
        return -1;
    }
}

static const char *
opt_name(int id)
{
    for (size_t i = 0; i < PW_N_ELEMENTS(opts); i++) {
        if (opts[i].id == id) {
            return opts[i].name;
        }
    }
    return "?";
}

/* Returns optind, or -1 on a usage error, -2 after --help. */
static int
parse_args(int argc, char **argv, struct check_cfg *c)
{
    struct option lo[PW_N_ELEMENTS(opts) + 1];
    memset(lo, 0, sizeof(lo));
    for (size_t i = 0; i < PW_N_ELEMENTS(opts); i++) {
        lo[i] =
            (struct option){opts[i].name, opts[i].has_arg, NULL, opts[i].id};
    }
    /* getopt names the program after argv[0] in its messages. */
    char *name = argv[0];
    argv[0] = (char *)"pyward check";
    optind = 1;
    int id;
    int rc = 0;
    int li = -1;
    while (rc == 0 && (id = getopt_long(argc, argv, "hqe", lo, &li)) != -1) {
        if (id == 'h' || id == OPT_HELP) {
            rc = -2;
        } else if (id == '?') {
            rc = -1;
        } else if (apply_opt(c,
                             id == 'q'   ? OPT_QUIET
                             : id == 'e' ? OPT_EXIT_ZERO
                                         : id,
                             optarg) < 0) {
            (void)fprintf(stderr, "pyward check: bad value '%s' for --%s\n",
                          optarg ? optarg : "",
                          li >= 0 ? lo[li].name : opt_name(id));
            rc = -1;
        }
        li = -1; /* a short option leaves it as it was */
    }
    argv[0] = name;
    return rc < 0 ? rc : optind;
}

/* ---- configurations ----------------------------------------------- */

static void
ctx_free(struct check_ctx *t)
{
    if (t == NULL) {
        return;
    }
    pw_lintconf_free(&t->conf);
    pw_select_free(&t->sel);
    pw_ruleset_free(t->rs);
    pw_strv_free(&t->exclude);
    for (size_t i = 0; i < t->npfi; i++) {
        free(t->pfi[i].glob);
    }
    free(t->pfi);
    free(t);
}

/* Add the strings of L to the selection list W of T; -1 if one is not a
 * code prefix. */
static int
sel_add(struct check_ctx *t, enum pw_select_list w, const struct pw_strv *l)
{
    for (size_t i = 0; i < l->n; i++) {
        if (pw_select_add(&t->sel, w, l->v[i]) < 0) {
            return -1;
        }
    }
    return 0;
}

/* T's rule set and imports, from the options or its configuration.  -1
 * after printing the error. */
static int
ctx_rules(struct check_run *x, struct check_ctx *t)
{
    const struct check_cfg *c = x->cfg;
    const struct pw_lintconf *f = &t->conf;
    struct pw_error err = {0};
    char where[600];
    bool conf_rules = c->rules == NULL && f->rules != NULL;
    const char *rules = conf_rules ? f->rules : c->rules;
    PW_AUTOFREE char *shipped = pw_rules_dir(NULL);
    t->rs = pw_cli_ruleset(rules, shipped, &err);
    if (t->rs == NULL) {
        if (conf_rules) {
            pw_lintconf_where(f, "rules", where, sizeof(where));
            pw_errorf("check: %s: %s", where, err.message);
        } else {
            pw_errorf("check: %s", err.message);
        }
        return -1;
    }
    pw_profile_mask mask = pw_profiles_default_mask(x->profiles);
    bool conf_prof = c->profiles[0] == '\0' && f->profile != NULL;
    const char *prof = conf_prof ? f->profile : c->profiles;
    if (prof[0] != '\0' &&
        pw_profiles_parse_list(x->profiles, prof, &mask, &err) < 0) {
        if (conf_prof) {
            pw_lintconf_where(f, "profile", where, sizeof(where));
            pw_errorf("check: %s: %s", where, err.message);
        } else {
            pw_errorf("check: %s", err.message);
        }
        return -1;
    }
    t->imports = (struct pw_importset){x->profiles, mask, NULL, NULL};
    return 0;
}

/* Fill T's selection, rules, excludes and per-file ignores from its
 * configuration and the options.  -1 after printing the error. */
static int
ctx_setup(struct check_run *x, struct check_ctx *t)
{
    const struct check_cfg *c = x->cfg;
    const struct pw_lintconf *f = &t->conf;
    const char *base = f->root != NULL ? f->root : x->cwd;
    pw_select_init(&t->sel);
    t->sel.explicit_select = c->has_select || f->has_select;
    if ((c->has_select ? sel_add(t, PW_SEL_SELECT, &c->sel[PW_SEL_SELECT])
                       : sel_add(t, PW_SEL_SELECT, &f->select)) < 0 ||
        sel_add(t, PW_SEL_EXTEND_SELECT, &f->extend_select) < 0 ||
        sel_add(t, PW_SEL_EXTEND_SELECT, &c->sel[PW_SEL_EXTEND_SELECT]) < 0 ||
        sel_add(t, PW_SEL_IGNORE, &f->ignore) < 0 ||
        sel_add(t, PW_SEL_IGNORE, &c->sel[PW_SEL_IGNORE]) < 0 ||
        sel_add(t, PW_SEL_EXTEND_IGNORE, &f->extend_ignore) < 0 ||
        sel_add(t, PW_SEL_EXTEND_IGNORE, &c->sel[PW_SEL_EXTEND_IGNORE]) < 0) {
        pw_errorf("check: %s: too many code prefixes",
                  f->file != NULL ? f->file : "the options");
        return -1;
    }
    if (c->has_exclude) {
        for (size_t i = 0; i < c->exclude.n; i++) {
            pw_globs_add(&t->exclude, x->cwd, c->exclude.v[i]);
        }
    } else if (f->has_exclude) {
        for (size_t i = 0; i < f->exclude.n; i++) {
            pw_globs_add(&t->exclude, base, f->exclude.v[i]);
        }
    } else {
        for (size_t i = 0; i < PW_N_ELEMENTS(default_excludes); i++) {
            pw_globs_add(&t->exclude, base, default_excludes[i]);
        }
    }
    for (size_t i = 0; i < f->extend_exclude.n; i++) {
        pw_globs_add(&t->exclude, base, f->extend_exclude.v[i]);
    }
    for (size_t i = 0; i < c->extend_exclude.n; i++) {
        pw_globs_add(&t->exclude, x->cwd, c->extend_exclude.v[i]);
    }
    t->pfi = pw_xcalloc(f->npfi + 1, sizeof(*t->pfi));
    for (size_t i = 0; i < f->npfi; i++) {
        struct pw_strv g = {0};
        pw_globs_add(&g, base, f->pfi[i].glob);
        t->pfi[i] = f->pfi[i];
        t->pfi[i].glob = g.v[0];
        free(g.v);
    }
    t->npfi = f->npfi;
    t->respect_gitignore = c->respect_gitignore >= 0 ? c->respect_gitignore
                           : f->respect_gitignore >= 0
                               ? f->respect_gitignore != 0
                               : true;
    t->force_exclude = c->force_exclude || f->force_exclude > 0;
    return ctx_rules(x, t);
}

/* The context of the configuration file FILE (NULL: none), made on first
 * use; takes CONF.  NULL after printing an error. */
static struct check_ctx *
ctx_get(struct check_run *x, struct pw_lintconf *conf)
{
    for (size_t i = 0; i < x->nctx; i++) {
        const char *f = x->ctx[i]->conf.file;
        if ((f == NULL && conf->file == NULL) ||
            (f != NULL && conf->file != NULL && strcmp(f, conf->file) == 0)) {
            pw_lintconf_free(conf);
            if (x->ctx[i]->broken) {
                x->ctx_failed = true;
                return NULL;
            }
            return x->ctx[i];
        }
    }
    struct check_ctx *t = pw_xcalloc(1, sizeof(*t));
    t->conf = *conf;
    pw_lintconf_init(conf);
    x->ctx = pw_xrealloc(x->ctx, sizeof(struct check_ctx *) * (x->nctx + 1));
    x->ctx[x->nctx++] = t;
    if (ctx_setup(x, t) < 0) {
        t->broken = true;
        x->ctx_failed = true;
        x->status = 2;
        return NULL;
    }
    return t;
}

/* The context for the directory DIR: --config's, none, or the one found
 * from DIR (upward when UP).  NULL after an error (x->ctx_failed), or
 * with UP false when DIR holds none. */
static struct check_ctx *
ctx_for(struct check_run *x, const char *dir, bool up)
{
    const struct check_cfg *c = x->cfg;
    struct pw_lintconf conf;
    pw_lintconf_init(&conf);
    struct pw_error err = {0};
    x->ctx_failed = false;
    if (c->isolated || c->config != NULL) {
        if (!up) {
            return NULL;
        }
        if (c->config != NULL) {
            int rc = pw_lintconf_read(c->config, &conf, &err);
            if (rc <= 0) {
                if (rc == 0) {
                    pw_errorf("check: %s: no [tool.pyward] table", c->config);
                } else {
                    pw_errorf("check: %s", err.message);
                }
                pw_lintconf_free(&conf);
                x->ctx_failed = true;
                x->status = 2;
                return NULL;
            }
        }
        return ctx_get(x, &conf);
    }
    int rc = pw_lintconf_find(dir, up, &conf, &err);
    if (rc < 0) {
        pw_errorf("check: %s", err.message);
        pw_lintconf_free(&conf);
        x->ctx_failed = true;
        x->status = 2;
        return NULL;
    }
    if (rc == 0 && !up) {
        return NULL;
    }
    if (rc == 0 && !x->legacy_told) {
        PW_AUTOFREE char *legacy = pw_lintconf_legacy(dir);
        if (legacy != NULL) {
            pw_warn("%s: its [pyward] section is not read; move it to "
                    "[tool.pyward] in pyproject.toml, or to pyward.toml "
                    "(see pyward(1))",
                    legacy);
            x->legacy_told = true;
        }
    }
    return ctx_get(x, &conf);
}

/* ---- one file ------------------------------------------------------- */

/* Whether a per-file ignore of T drops CODE in the file ABS. */
static bool
pfi_drops(const struct check_ctx *t, const char *abs, const char *code)
{
    for (size_t i = 0; i < t->npfi; i++) {
        const struct pw_pfi *p = &t->pfi[i];
        struct pw_strv one = {(char *[]){p->glob}, 1};
        if (pw_globs_match(&one, abs) == p->negate) {
            continue;
        }
        for (size_t k = 0; k < p->codes.n; k++) {
            if (strncasecmp(code, p->codes.v[k], strlen(p->codes.v[k])) == 0) {
                return true;
            }
        }
    }
    return false;
}

static void
check_source(struct check_run *x, const struct check_ctx *t, const char *path,
             const char *abs, const char *src, size_t len)
{
    if (!x->cfg->disable_noqa && pw_noqa_file(src, len)) {
        return;
    }
    struct pw_diags d;
    pw_diags_init(&d);
    struct pw_error err = {0};
    if (pw_validate(t->rs, &t->imports, src, len, &d, NULL, &err) < 0) {
        pw_errorf("%s: %s", path, err.message);
        x->status = 2;
    }
    if (!x->cfg->disable_noqa) {
        pw_noqa_apply(&d, src, len);
    }
    for (size_t i = d.n; i-- > 0;) {
        if (!pw_select_wants(&t->sel, d.v[i].code) ||
            pfi_drops(t, abs, d.v[i].code)) {
            pw_diags_remove(&d, i);
        }
    }
    pw_report_take(&x->report, path, &d, x->keep_source ? src : NULL, len);
}

static size_t
hash_str(const char *s)
{
    size_t h = 14695981039346656037U;
    for (; *s != '\0'; s++) {
        h = (h ^ (unsigned char)*s) * 1099511628211U;
    }
    return h;
}

/* Add ABS to S; false if it was there already. */
static bool
seen_add(struct seen *s, const char *abs)
{
    if (2 * (s->n + 1) > s->cap) {
        struct seen bigger = {
            pw_xcalloc(s->cap ? s->cap * 2 : 64, sizeof(char *)),
            s->cap ? s->cap * 2 : 64, 0};
        for (size_t i = 0; i < s->cap; i++) {
            if (s->v[i] != NULL) {
                size_t k = hash_str(s->v[i]) % bigger.cap;
                while (bigger.v[k] != NULL) {
                    k = (k + 1) % bigger.cap;
                }
                bigger.v[k] = s->v[i];
                bigger.n++;
            }
        }
        free(s->v);
        *s = bigger;
    }
    size_t k = hash_str(abs) % s->cap;
    for (; s->v[k] != NULL; k = (k + 1) % s->cap) {
        if (strcmp(s->v[k], abs) == 0) {
            return false;
        }
    }
    s->v[k] = pw_xstrdup(abs);
    s->n++;
    return true;
}

static void
seen_free(struct seen *s)
{
    for (size_t i = 0; i < s->cap; i++) {
        free(s->v[i]);
    }
    free(s->v);
    memset(s, 0, sizeof(*s));
}

/* Check PATH (ABS: its absolute form) with T, unless it was checked
 * already; "-" reads stdin. */
static void
check_file(struct check_run *x, const struct check_ctx *t, const char *path,
           const char *abs)
{
    if (strcmp(path, "-") != 0 && !seen_add(&x->seen, abs)) {
        return;
    }
    struct pw_buf b;
    struct pw_error err = {0};
    pw_buf_init(&b);
    bool is_stdin = strcmp(path, "-") == 0;
    int rc = is_stdin ? pw_read_fd(0, READ_MAX, &b, &err)
                      : pw_read_file(path, READ_MAX, &b, &err);
    if (rc < 0) {
        pw_errorf("%s", err.message);
        x->status = 2;
    } else {
        const char *shown = x->cfg->stdin_name ? x->cfg->stdin_name : "-";
        check_source(x, t, is_stdin ? shown : path, abs, b.data ? b.data : "",
                     b.len);
    }
    pw_buf_free(&b);
}

/* ---- the walk --------------------------------------------------------- */

static int
cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void walk_dir(struct check_run *x, const struct check_ctx *t,
                     const char *dir, const char *abs, bool top);

/* An entry found in a directory: checked, walked or left out. */
static void
walk_entry(struct check_run *x, const struct check_ctx *t, const char *path,
           const char *abs)
{
    struct stat st;
    if (lstat(path, &st) < 0) {
        return; /* a file gone meanwhile */
    }
    /* A link to a file is checked as the file; a link to a directory is
     * not followed (no loops, no walk out of the tree). */
    if (S_ISLNK(st.st_mode) && (stat(path, &st) < 0 || S_ISDIR(st.st_mode))) {
        return;
    }
    bool dir = S_ISDIR(st.st_mode);
    if (pw_globs_match(&t->exclude, abs) ||
        (t->respect_gitignore && pw_ignores_match(&x->ign, abs, dir))) {
        return;
    }
    size_t n = strlen(path);
    if (dir) {
        walk_dir(x, t, path, abs, false);
    } else if (S_ISREG(st.st_mode) && n > 3 &&
               strcmp(path + n - 3, ".py") == 0) {
        check_file(x, t, path, abs);
    }
}

static void
walk_dir(struct check_run *x, const struct check_ctx *t, const char *dir,
         const char *abs, bool top)
{
    if (!top) {
        const struct check_ctx *own = ctx_for(x, dir, false);
        if (own != NULL) {
            t = own;
        } else if (x->ctx_failed) {
            return;
        }
    }
    DIR *d = opendir(dir);
    if (d == NULL) {
        pw_errorf_errno("%s", dir);
        x->status = 2;
        return;
    }
    char **names = NULL;
    size_t n = 0;
    /* readdir is thread-safe on one DIR (glibc); readdir_r is deprecated */
    /* cppcheck-suppress readdirCalled */
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (e->d_name[0] == '.') {
            continue;
        }
        names = pw_xrealloc(names, sizeof(*names) * (n + 1));
        names[n++] = pw_xstrdup(e->d_name);
    }
    closedir(d);
    if (n > 1) {
        qsort(names, n, sizeof(*names), cmp_names);
    }
    size_t pushed = t->respect_gitignore ? pw_ignores_push(&x->ign, abs) : 0;
    size_t dl = strlen(dir);
    const char *sep = dl > 0 && dir[dl - 1] == '/' ? "" : "/";
    if (strcmp(dir, ".") == 0) {
        dir = ""; /* "a.py", not "./a.py", as ruff shows them */
        sep = "";
    }
    const char *asep = strcmp(abs, "/") == 0 ? "" : "/";
    for (size_t i = 0; i < n; i++) {
        PW_AUTOFREE char *p = pw_xasprintf("%s%s%s", dir, sep, names[i]);
        PW_AUTOFREE char *a = pw_xasprintf("%s%s%s", abs, asep, names[i]);
        walk_entry(x, t, p, a);
        free(names[i]);
    }
    free(names);
    pw_ignores_pop(&x->ign, pushed);
}

/* With --force-exclude: whether PATH (as given; ABS its absolute form) or
 * a directory above it is excluded. */
static bool
force_excluded(const struct check_ctx *t, const char *path, const char *abs)
{
    PW_AUTOFREE char *a = pw_xstrdup(abs);
    size_t depth = 0;
    for (const char *p = path; *p != '\0'; p++) {
        depth += *p == '/' && p[1] != '/' && p[1] != '\0';
    }
    /* The path as given and each directory it names. */
    for (size_t i = 0; i <= depth; i++) {
        if (pw_globs_match(&t->exclude, a)) {
            return true;
        }
        char *slash = strrchr(a, '/');
        if (slash == NULL || slash == a) {
            break;
        }
        *slash = '\0';
    }
    return false;
}

/* The directory whose configuration applies to PATH. */
static char *
dir_of(const char *path, bool is_dir)
{
    if (is_dir) {
        return pw_xstrdup(path);
    }
    const char *slash = strrchr(path, '/');
    if (slash == NULL) {
        return pw_xstrdup(".");
    }
    return slash == path ? pw_xstrdup("/") : pw_xstrndup(path, slash - path);
}

/* A path of the command line. */
static void
check_arg(struct check_run *x, const char *path)
{
    bool is_stdin = strcmp(path, "-") == 0;
    const char *named =
        is_stdin && x->cfg->stdin_name ? x->cfg->stdin_name : path;
    struct stat st;
    if (!is_stdin && stat(path, &st) < 0) {
        pw_errorf_errno("%s", path);
        x->status = 2;
        return;
    }
    bool is_dir = !is_stdin && S_ISDIR(st.st_mode);
    PW_AUTOFREE char *abs = pw_path_abs(named);
    PW_AUTOFREE char *dir = dir_of(named, is_dir);
    /* A directory of stdin's name that does not exist: the working one. */
    const struct check_ctx *t =
        ctx_for(x, is_stdin && !pw_is_dir(dir) ? "." : dir, true);
    if (t == NULL) {
        return;
    }
    if (t->force_exclude && force_excluded(t, named, abs)) {
        return;
    }
    if (!is_dir) {
        check_file(x, t, path, abs);
        return;
    }
    if (t->respect_gitignore) {
        pw_ignores_start(&x->ign, abs);
    }
    walk_dir(x, t, path, abs, true);
    pw_ignores_pop(&x->ign, x->ign.n);
}

static int
setup(struct check_run *x)
{
    struct pw_error err = {0};
    PW_AUTOFREE char *shipped = pw_rules_dir(NULL);
    if (pw_py_init(&err) < 0 ||
        (x->profiles = pw_profiles_load(shipped, &err)) == NULL) {
        pw_errorf("check: %s", err.message);
        return -1;
    }
    x->cwd = pw_path_abs(".");
    return 0;
}

static int
finish(struct check_run *x)
{
    const struct check_cfg *c = x->cfg;
    pw_report_sort(&x->report);
    enum pw_format fmt =
        (enum pw_format)(c->format ? pw_format_parse(c->format) : 0);
    const struct pw_ruleset *rs = x->nctx > 0 ? x->ctx[0]->rs : NULL;
    if ((rs != NULL || fmt != PW_FMT_SARIF) &&
        pw_report_print(stdout, &x->report, fmt, rs, &c->show) < 0) {
        pw_errorf("check: cannot write the report (a path that is not UTF-8, "
                  "or an output error)");
        return 2;
    }
    if (c->statistics) {
        pw_report_statistics(stdout, &x->report);
    }
    bool text = fmt == PW_FMT_TEXT || fmt == PW_FMT_FULL;
    if (text && !c->quiet && (x->report.n > 0 || c->statistics)) {
        (void)printf("Found %zu error%s.\n", x->report.n,
                     x->report.n == 1 ? "" : "s");
    }
    (void)fflush(stdout);
    if (x->status != 0) {
        return x->status;
    }
    return x->report.n > 0 && !c->exit_zero ? 1 : 0;
}

static void
cfg_free(struct check_cfg *c)
{
    for (int l = 0; l < PW_SEL_NLISTS; l++) {
        pw_strv_free(&c->sel[l]);
    }
    pw_strv_free(&c->exclude);
    pw_strv_free(&c->extend_exclude);
}

int
pw_cmd_check(int argc, char **argv)
{
    struct check_cfg cfg;
    memset(&cfg, 0, sizeof(cfg));
    cfg.respect_gitignore = -1;
    int first = parse_args(argc, argv, &cfg);
    /* Without a path, --stdin-filename reads stdin. */
    char *dash[] = {(char *)"-", NULL};
    char **paths = argv + (first > 0 ? first : 0);
    int npaths = first > 0 ? argc - first : 0;
    if (first > 0 && npaths == 0 && cfg.stdin_name != NULL) {
        paths = dash;
        npaths = 1;
    }
    if (first < 0 || npaths == 0) {
        if (first == -2) {
            usage(stdout);
        } else {
            if (first >= 0) {
                (void)fprintf(stderr, "pyward check: no path given\n");
            }
            (void)fprintf(stderr, "usage: pyward check [OPTIONS] PATH... | "
                                  "-\nTry 'pyward check --help' for more "
                                  "information.\n");
        }
        cfg_free(&cfg);
        return first == -2 ? 0 : 2;
    }
    if (cfg.isolated && cfg.config != NULL) {
        (void)fprintf(stderr,
                      "pyward check: --config and --isolated exclude each "
                      "other\n");
        cfg_free(&cfg);
        return 2;
    }
    struct check_run x = {.cfg = &cfg};
    enum pw_format fmt =
        (enum pw_format)(cfg.format ? pw_format_parse(cfg.format) : 0);
    x.keep_source = cfg.show.source || fmt == PW_FMT_FULL;
    pw_report_init(&x.report);
    int rc = 2;
    if (setup(&x) == 0) {
        for (int i = 0; i < npaths; i++) {
            check_arg(&x, paths[i]);
        }
        rc = finish(&x);
    }
    pw_report_free(&x.report);
    for (size_t i = 0; i < x.nctx; i++) {
        ctx_free(x.ctx[i]);
    }
    free(x.ctx);
    free(x.cwd);
    pw_ignores_free(&x.ign);
    seen_free(&x.seen);
    pw_profiles_free(x.profiles);
    cfg_free(&cfg);
    return rc;
}
