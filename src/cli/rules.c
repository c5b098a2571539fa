/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * rules.c - `pyward rules`: list the rules, explain one, or check the
 * rule files.
 */
#include "config.h"

#include <getopt.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "cli/cmd.h"
#include "core/log.h"
#include "core/rules.h"
#include "core/py.h"
#include "core/util.h"
#include "validator/validator.h"

struct rules_cfg {
    const char *rules;
    bool check;
};

static void
usage(FILE *out)
{
    (void)fprintf(
        out, "usage: pyward rules [--rules SET|DIR] [--list] [CODE|NAME]\n"
             "       pyward rules --check [--rules DIR]\n\n"
             "  (no argument), --list  list every rule: code, name, sets, "
             "summary\n"
             "  CODE|NAME              explain one rule (PW201 or its "
             "name) with why and an example\n"
             "  --check                load and strictly check the rule "
             "files, then report\n"
             "  --rules SET|DIR        default, restricted, or a directory "
             "of rule files\n"
             "  --help                 show this help\n");
}

static int
parse_args(int argc, char **argv, struct rules_cfg *c)
{
    static const struct option lo[] = {
        {"rules", 1, NULL, 'r'}, {"check", 0, NULL, 'c'},
        {"list", 0, NULL, 'l'},  {"help", 0, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    optind = 1;
    int o;
    while ((o = getopt_long(argc, argv, "h", lo, NULL)) != -1) {
        if (o == 'r') {
            c->rules = optarg;
        } else if (o == 'c') {
            c->check = true;
        } else if (o == 'h') {
            return -2;
        } else if (o != 'l') {
            return -1;
        }
    }
    return optind;
}

static void
print_indented(const char *s)
{
    for (const char *p = s; *p != '\0';) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        (void)printf("    %.*s\n", (int)n, p);
        p += n + (nl != NULL);
    }
}

static void
explain(const struct pw_rule_info *ri)
{
    (void)printf("%s %s (sets: %s)\n\n%s.\n\nWhy: %s\n\nBad:\n", ri->code,
                 ri->name, ri->sets, ri->summary, ri->why);
    print_indented(ri->example_bad);
    (void)printf("Good:\n");
    print_indented(ri->example_good);
}

static const struct pw_ruleset *sort_rs;

static int
cmp_code(const void *a, const void *b)
{
    struct pw_rule_info x, y;
    pw_ruleset_info(sort_rs, *(const size_t *)a, &x);
    pw_ruleset_info(sort_rs, *(const size_t *)b, &y);
    return strcmp(x.code, y.code);
}

static int
list_or_explain(const struct pw_ruleset *rs, const char *which)
{
    size_t n = pw_ruleset_count(rs);
    PW_AUTOFREE size_t *order = pw_xcalloc(n + 1, sizeof(*order));
    for (size_t i = 0; i < n; i++) {
        order[i] = i;
    }
    sort_rs = rs;
    qsort(order, n, sizeof(*order), cmp_code);
    for (size_t i = 0; i < n; i++) {
        struct pw_rule_info ri;
        pw_ruleset_info(rs, order[i], &ri);
        if (which == NULL) {
            (void)printf("%-6s %-26s %-19s %s\n", ri.code, ri.name, ri.sets,
                         ri.summary);
        } else if (strcasecmp(which, ri.code) == 0 ||
                   strcmp(which, ri.name) == 0) {
            explain(&ri);
            return 0;
        }
    }
    if (which != NULL) {
        pw_errorf("rules: no rule is called '%s' (see 'pyward rules')", which);
        return 2;
    }
    return 0;
}

static int
check_files(const char *dir)
{
    static const char *const sets[] = {"default", "restricted"};
    for (size_t i = 0; i < PW_N_ELEMENTS(sets); i++) {
        struct pw_error err = {0};
        struct pw_ruleset *rs = pw_ruleset_load(dir, sets[i], &err);
        if (rs == NULL) {
            (void)fprintf(stderr, "pyward: rules: %s\n", err.message);
            return 1;
        }
        if (i == 0) {
            (void)printf("%s: %zu rules, all valid\n", dir,
                         pw_ruleset_count(rs));
        }
        pw_ruleset_free(rs);
    }
    return 0;
}

int
pw_cmd_rules(int argc, char **argv)
{
    struct rules_cfg c = {NULL, false};
    int first = parse_args(argc, argv, &c);
    if (first < 0 || argc - first > 1) {
        usage(first == -2 ? stdout : stderr);
        return first == -2 ? 0 : 2;
    }
    struct pw_error err = {0};
    if (pw_py_init(&err) < 0) {
        pw_errorf("rules: %s", err.message);
        return 2;
    }
    const char *r = c.rules ? c.rules : "default";
    bool named = strcmp(r, "default") == 0 || strcmp(r, "restricted") == 0;
    PW_AUTOFREE char *dir = named ? pw_rules_dir(NULL) : pw_xstrdup(r);
    if (c.check) {
        return check_files(dir);
    }
    struct pw_ruleset *rs = pw_ruleset_load(dir, named ? r : "default", &err);
    if (rs == NULL) {
        pw_errorf("rules: %s", err.message);
        return 2;
    }
    int rc = list_or_explain(rs, first < argc ? argv[first] : NULL);
    pw_ruleset_free(rs);
    return rc;
}
