/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check.c - `pyward check`: validate files without running them, in
 * the manner of flake8 and ruff.  Exit 0 clean, 1 findings, 2 usage or
 * internal error.
 */
#include "config.h"

#include <dirent.h>
#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "cli/cmd.h"
#include "validator/diag.h"
#include "core/log.h"
#include "validator/noqa.h"
#include "core/rules.h"
#include "core/py.h"
#include "validator/report.h"
#include "validator/select.h"
#include "core/util.h"
#include "validator/validator.h"

/* Files are read up to this size; larger ones are an error (exit 2). The
 * validator itself reports anything above its own limit as too large. */
#define READ_MAX ((size_t)64 << 20)

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
    {"format", 1, OPT_FORMAT, "FMT", "text (default), json, sarif, github"},
    {"select", 1, OPT_SELECT, "PREFIXES",
     "report only codes starting with these prefixes (PW2,PW301)"},
    {"ignore", 1, OPT_IGNORE, "PREFIXES", "do not report these prefixes"},
    {"extend-select", 1, OPT_EXTEND_SELECT, "PREFIXES", "add to --select"},
    {"extend-ignore", 1, OPT_EXTEND_IGNORE, "PREFIXES", "add to --ignore"},
    {"statistics", 0, OPT_STATISTICS, NULL,
     "print how many findings each code has"},
    {"exit-zero", 0, OPT_EXIT_ZERO, NULL, "exit 0 even with findings"},
    {"disable-noqa", 0, OPT_DISABLE_NOQA, NULL,
     "ignore '# noqa' and '# pyward: noqa' comments"},
    {"stdin-filename", 1, OPT_STDIN_FILENAME, "NAME",
     "name shown for source read from '-'"},
    {"help", 0, OPT_HELP, NULL, "show this help"},
};

struct check_cfg {
    const char *rules;
    const char *format;
    const char *stdin_name;
    char profiles[1024];
    struct pw_select sel;
    bool statistics, exit_zero, disable_noqa;
};

struct check_run {
    struct check_cfg *cfg;
    struct pw_ruleset *rs;
    struct pw_importset imports;
    struct pw_report report;
    int status; /* 2 once an error happened */
};

static void
usage(FILE *out)
{
    (void)fprintf(out,
                  "usage: pyward check [OPTIONS] PATH... | -\n\n"
                  "Check Python files (directories: every *.py below them; "
                  "'-': stdin)\nagainst pyward's rules without running "
                  "them.  Output: path:line:col: CODE message.\n"
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

static int
apply_opt(struct check_cfg *c, int id, const char *arg)
{
    static const enum pw_select_list lists[] = {PW_SEL_SELECT, PW_SEL_IGNORE,
                                                PW_SEL_EXTEND_SELECT,
                                                PW_SEL_EXTEND_IGNORE};
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
    case OPT_EXTEND_IGNORE:
        return pw_select_add(&c->sel, lists[id - OPT_SELECT], arg);
    case OPT_STATISTICS:
        c->statistics = true;
        return 0;
    case OPT_EXIT_ZERO:
        c->exit_zero = true;
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
    optind = 1;
    int id;
    while ((id = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        if (id == 'h' || id == OPT_HELP) {
            return -2;
        }
        if (id == '?' || apply_opt(c, id, optarg) < 0) {
            if (id != '?') {
                pw_errorf("check: bad value '%s'", optarg ? optarg : "");
            }
            return -1;
        }
    }
    return optind;
}

static void
check_source(struct check_run *x, const char *path, const char *src,
             size_t len)
{
    if (!x->cfg->disable_noqa && pw_noqa_file(src, len)) {
        return;
    }
    struct pw_diags d;
    pw_diags_init(&d);
    struct pw_error err = {0};
    if (pw_validate(x->rs, &x->imports, src, len, &d, NULL, &err) < 0) {
        pw_errorf("%s: %s", path, err.message);
        x->status = 2;
    }
    if (!x->cfg->disable_noqa) {
        pw_noqa_apply(&d, src, len);
    }
    for (size_t i = d.n; i-- > 0;) {
        if (!pw_select_wants(&x->cfg->sel, d.v[i].code)) {
            pw_diags_remove(&d, i);
        }
    }
    pw_report_take(&x->report, path, &d);
}

static void
check_file(struct check_run *x, const char *path)
{
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
        check_source(x, is_stdin ? shown : path, b.data ? b.data : "", b.len);
    }
    pw_buf_free(&b);
}

static int
cmp_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static void check_path(struct check_run *x, const char *path, bool top);

static void
check_dir(struct check_run *x, const char *dir)
{
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
        if (e->d_name[0] == '.' || strcmp(e->d_name, "__pycache__") == 0) {
            continue;
        }
        names = pw_xrealloc(names, sizeof(*names) * (n + 1));
        names[n++] = pw_xstrdup(e->d_name);
    }
    closedir(d);
    if (n > 1) {
        qsort(names, n, sizeof(*names), cmp_names);
    }
    size_t dl = strlen(dir);
    const char *sep = dl > 0 && dir[dl - 1] == '/' ? "" : "/";
    for (size_t i = 0; i < n; i++) {
        PW_AUTOFREE char *p = pw_xasprintf("%s%s%s", dir, sep, names[i]);
        check_path(x, p, false);
        free(names[i]);
    }
    free(names);
}

static void
check_path(struct check_run *x, const char *path, bool top)
{
    struct stat st;
    if (strcmp(path, "-") == 0) {
        check_file(x, path);
        return;
    }
    if (stat(path, &st) < 0) {
        pw_errorf_errno("%s", path);
        x->status = 2;
        return;
    }
    if (S_ISDIR(st.st_mode)) {
        check_dir(x, path);
        return;
    }
    size_t n = strlen(path);
    if (top ||
        (S_ISREG(st.st_mode) && n > 3 && strcmp(path + n - 3, ".py") == 0)) {
        check_file(x, path);
    }
}

static int
setup(struct check_run *x, struct pw_profiles **profiles)
{
    struct pw_error err = {0};
    const char *r = x->cfg->rules ? x->cfg->rules : "default";
    bool named = strcmp(r, "default") == 0 || strcmp(r, "restricted") == 0;
    PW_AUTOFREE char *shipped = pw_rules_dir(NULL);
    pw_profile_mask mask = 0;
    if (pw_py_init(&err) < 0 ||
        (*profiles = pw_profiles_load(shipped, &err)) == NULL ||
        (x->rs = pw_ruleset_load(named ? shipped : r, named ? r : "default",
                                 &err)) == NULL) {
        pw_errorf("check: %s", err.message);
        return -1;
    }
    mask = pw_profiles_default_mask(*profiles);
    if (x->cfg->profiles[0] != '\0' &&
        pw_profiles_parse_list(*profiles, x->cfg->profiles, &mask, &err) < 0) {
        pw_errorf("check: %s", err.message);
        return -1;
    }
    x->imports = (struct pw_importset){*profiles, mask, NULL, NULL};
    return 0;
}

static int
finish(struct check_run *x)
{
    const struct check_cfg *c = x->cfg;
    pw_report_sort(&x->report);
    enum pw_format fmt =
        (enum pw_format)(c->format ? pw_format_parse(c->format) : 0);
    if (pw_report_print(stdout, &x->report, fmt, x->rs) < 0) {
        pw_errorf("check: cannot write the report (a path that is not UTF-8, "
                  "or an output error)");
        return 2;
    }
    if (c->statistics) {
        pw_report_statistics(stdout, &x->report);
    }
    (void)fflush(stdout);
    if (x->status != 0) {
        return x->status;
    }
    return x->report.n > 0 && !c->exit_zero ? 1 : 0;
}

int
pw_cmd_check(int argc, char **argv)
{
    struct check_cfg cfg;
    memset(&cfg, 0, sizeof(cfg));
    pw_select_init(&cfg.sel);
    int first = parse_args(argc, argv, &cfg);
    if (first < 0 || first >= argc) {
        usage(first == -2 ? stdout : stderr);
        pw_select_free(&cfg.sel);
        return first == -2 ? 0 : 2;
    }
    struct check_run x = {.cfg = &cfg};
    struct pw_profiles *profiles = NULL;
    pw_report_init(&x.report);
    int rc = 2;
    if (setup(&x, &profiles) == 0) {
        for (int i = first; i < argc; i++) {
            check_path(&x, argv[i], true);
        }
        rc = finish(&x);
    }
    pw_report_free(&x.report);
    pw_ruleset_free(x.rs);
    pw_profiles_free(profiles);
    pw_select_free(&cfg.sel);
    return rc;
}
