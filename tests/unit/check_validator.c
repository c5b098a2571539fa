/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_validator.c - unit tests of the validator modules: the strict rule
 * loader, the matchers, the walk, findings, noqa and code selection.
 */
#include "config.h"

#include <check.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "validator/diag.h"
#include "validator/glob.h"
#include "validator/noqa.h"
#include "validator/report.h"
#include "core/rules.h"
#include "core/py.h"
#include "validator/select.h"
#include "core/util.h"
#include "validator/validator.h"
#include "validator/vproc.h"

static char tmpl[] = "/tmp/pyward-unit.XXXXXX";
static char *tmpdir;

static void
py_setup(void)
{
    struct pw_error err = {0};
    if (pw_py_init(&err) < 0) {
        (void)fprintf(stderr, "python: %s\n", err.message);
        abort();
    }
}

/* The shipped rules directory (borrowed, computed once). */
static const char *
shipped_dir(void)
{
    static char *dir;
    if (dir == NULL) {
        dir = pw_rules_dir(NULL);
    }
    return dir;
}

/* A rule directory holding the shipped meta.json and FAMILY.json with the
 * rule objects RULES (a JSON array body).  Returns an owned path. */
static char *
rule_dir(const char *family, const char *rules)
{
    if (tmpdir == NULL) {
        tmpdir = mkdtemp(tmpl);
        ck_assert_ptr_nonnull(tmpdir);
    }
    static int n;
    char *dir = pw_xasprintf("%s/d%d", tmpdir, n++);
    PW_AUTOFREE char *meta_src = pw_xasprintf("%s/meta.json", shipped_dir());
    PW_AUTOFREE char *cmd =
        pw_xasprintf("mkdir -p '%s' && cp '%s' '%s/'", dir, meta_src, dir);
    ck_assert_int_eq(system(cmd), 0);
    PW_AUTOFREE char *path = pw_xasprintf("%s/%s.json", dir, family);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    (void)fprintf(f, "{\"family\": \"%s\", \"rules\": [%s]}\n", family, rules);
    (void)fclose(f);
    return dir;
}

#define RULE(CODE, NAME, REST)                                                \
    "{\"code\": \"" CODE "\", \"name\": \"" NAME "\", \"summary\": \"s\", "   \
    "\"why\": \"w\", \"example\": {\"bad\": \"b\", \"good\": \"g\"}, "        \
    "\"sets\": [\"default\"], " REST "}"

/* Load must fail with an error message containing every one of NEEDLES. */
static void
expect_load_error(const char *rules, const char *n1, const char *n2,
                  const char *n3)
{
    PW_AUTOFREE char *dir = rule_dir("fam", rules);
    struct pw_error err = {0};
    struct pw_ruleset *rs = pw_ruleset_load(dir, "default", &err);
    ck_assert_ptr_null(rs);
    ck_assert_msg(strstr(err.message, n1) != NULL, "%s", err.message);
    ck_assert_msg(strstr(err.message, n2) != NULL, "%s", err.message);
    ck_assert_msg(n3 == NULL || strstr(err.message, n3) != NULL, "%s",
                  err.message);
}

/* ---- the rules directory ---------------------------------------------- */

static void
assert_rules_dir(const char *explicit_dir, const char *exe_dir,
                 const char *want)
{
    PW_AUTOFREE char *dir = pw_rules_dir_for(explicit_dir, exe_dir);
    ck_assert_str_eq(dir, want);
}

/* The lookup order: the flag, $PYWARD_RULES_DIR, rules/ beside the
 * executable, the source tree's for an executable in the build tree (a
 * build made outside the source tree), the installed directory. */
START_TEST(rules_dir_order)
{
    const char *env = getenv("PYWARD_RULES_DIR");
    PW_AUTOFREE char *saved = env != NULL ? pw_xstrdup(env) : NULL;
    setenv("PYWARD_RULES_DIR", "/from/env", 1);
    assert_rules_dir("/flag", PW_BUILD_DIR, "/flag");
    assert_rules_dir(NULL, PW_BUILD_DIR, "/from/env");
    unsetenv("PYWARD_RULES_DIR");
    PW_AUTOFREE char *top = pw_xstrdup(PW_SRC_RULES_DIR);
    *strrchr(top, '/') = '\0';
    assert_rules_dir(NULL, top, PW_SRC_RULES_DIR);
    assert_rules_dir(NULL, PW_BUILD_DIR "/tests/unit", PW_SRC_RULES_DIR);
    assert_rules_dir(NULL, PW_BUILD_DIR "-other", PW_RULES_DIR);
    assert_rules_dir(NULL, "/nonexistent/bin", PW_RULES_DIR);
    assert_rules_dir(NULL, NULL, PW_RULES_DIR);
    if (saved != NULL) {
        setenv("PYWARD_RULES_DIR", saved, 1);
    }
}
END_TEST

/* ---- loader --------------------------------------------------------- */

START_TEST(load_shipped_sets)
{
    const char *dir = shipped_dir();
    struct pw_error err = {0};
    struct pw_ruleset *d = pw_ruleset_load(dir, "default", &err);
    ck_assert_msg(d != NULL, "%s", err.message);
    struct pw_ruleset *r = pw_ruleset_load(dir, "restricted", &err);
    ck_assert_msg(r != NULL, "%s", err.message);
    ck_assert_uint_ge(pw_ruleset_count(d), 30);
    ck_assert_uint_eq(pw_ruleset_count(d), pw_ruleset_count(r));
    ck_assert_ptr_null(pw_ruleset_load(dir, "lenient", &err));
    ck_assert_int_eq(err.code, PW_ERR_USAGE);
    pw_ruleset_free(d);
    pw_ruleset_free(r);
}
END_TEST

START_TEST(load_unknown_key)
{
    expect_load_error(RULE("PW901", "x-rule",
                           "\"node\": \"Call\", "
                           "\"message\": \"m\", "
                           "\"severity\": \"error\""),
                      "fam.json", "rule PW901", "unknown key 'severity'");
}
END_TEST

START_TEST(load_unknown_node)
{
    expect_load_error(
        RULE("PW902", "x-rule", "\"node\": \"Cal\", \"message\": \"m\""),
        "fam.json: rule PW902", "unknown AST node type 'Cal'", NULL);
    /* A kind named twice would have the rule run twice on each node. */
    expect_load_error(RULE("PW903", "y-rule",
                           "\"node\": [\"Call\", \"Name\", \"Call\"], "
                           "\"message\": \"m\""),
                      "fam.json: rule PW903", "'Call' is named twice", NULL);
}
END_TEST

START_TEST(load_unknown_field)
{
    expect_load_error(RULE("PW903", "x-rule",
                           "\"node\": \"Call\", \"message\": \"m\", "
                           "\"where\": {\"fun.id\": {\"eq\": \"x\"}}"),
                      "rule PW903", "key 'where'", "unknown field 'fun'");
    expect_load_error(RULE("PW904", "x-rule",
                           "\"node\": \"Call\", \"message\": \"{func.idd}\""),
                      "rule PW904", "key 'message'", "unknown field 'idd'");
    expect_load_error(RULE("PW905", "x-rule",
                           "\"node\": \"Call\", \"message\": \"m\", "
                           "\"where\": {\"func\": {\"equals\": 1}}"),
                      "rule PW905", "unknown key 'equals'", NULL);
}
END_TEST

START_TEST(load_duplicates_and_format)
{
    expect_load_error(
        RULE("PW906", "a-rule",
             "\"node\": \"Call\", \"message\": \"m\"") ", " RULE("PW906",
                                                                 "b-rule",
                                                                 "\"node\": "
                                                                 "\"Call\", "
                                                                 "\"message\":"
                                                                 " \"m\""),
        "fam.json", "duplicate code PW906", NULL);
    expect_load_error(
        RULE("PW001", "a-rule", "\"node\": \"Call\", \"message\": \"m\""),
        "duplicate code PW001", "meta.json", NULL);
    expect_load_error(RULE("PX1", "a-rule",
                           "\"node\": \"Call\", "
                           "\"message\": \"m\""),
                      "rule PX1", "PW123", NULL);
    expect_load_error(RULE("PW907", "Bad_Name",
                           "\"node\": \"Call\", "
                           "\"message\": \"m\""),
                      "rule PW907", "kebab-case", NULL);
    expect_load_error(RULE("PW908", "a-rule", "\"message\": \"m\""),
                      "rule PW908", "needs a 'node' or an 'event'", NULL);
    expect_load_error(
        RULE("PW909", "a-rule", "\"node\": [], \"message\": \"m\""),
        "rule PW909", "names no node type", NULL);
    expect_load_error(RULE("PW910", "a-rule",
                           "\"event\": \"too-deep\", \"prune\": true, "
                           "\"message\": \"m\""),
                      "rule PW910", "takes no 'import' or 'prune'", NULL);
}
END_TEST

START_TEST(load_bad_json_and_events)
{
    expect_load_error("{", "fam.json", ":", NULL);
    PW_AUTOFREE char *dir = rule_dir("fam", "");
    PW_AUTOFREE char *meta = pw_xasprintf("%s/meta.json", dir);
    ck_assert_int_eq(unlink(meta), 0);
    struct pw_error err = {0};
    ck_assert_ptr_null(pw_ruleset_load(dir, "default", &err));
    ck_assert_msg(strstr(err.message, "event 'syntax-error'") != NULL, "%s",
                  err.message);
}
END_TEST

/* ---- matchers and walk ----------------------------------------------- */

/* Validate SRC with the rules RULES (or the shipped SET when RULES is
 * NULL); returns "CODE line:col-eline:ecol message\n" lines (owned). */
static char *
run_rules(const char *rules, const char *set, const char *src,
          struct pw_analysis *an)
{
    PW_AUTOFREE char *own = rules ? rule_dir("t", rules) : NULL;
    const char *dir = own != NULL ? own : shipped_dir();
    struct pw_error err = {0};
    struct pw_ruleset *rs = pw_ruleset_load(dir, set, &err);
    ck_assert_msg(rs != NULL, "%s", err.message);
    struct pw_profiles *prof = pw_profiles_load(shipped_dir(), &err);
    ck_assert_msg(prof != NULL, "%s", err.message);
    struct pw_importset imp = {prof, pw_profiles_default_mask(prof), NULL,
                               NULL};
    struct pw_diags d;
    pw_diags_init(&d);
    ck_assert_int_eq(pw_validate(rs, &imp, src, strlen(src), &d, an, &err), 0);
    pw_diags_sort(&d);
    struct pw_buf b;
    pw_buf_init(&b);
    for (size_t i = 0; i < d.n; i++) {
        pw_buf_printf(&b, "%s %d:%d-%d:%d %s\n", d.v[i].code, d.v[i].line,
                      d.v[i].col, d.v[i].end_line, d.v[i].end_col,
                      d.v[i].message);
    }
    pw_diags_free(&d);
    pw_ruleset_free(rs);
    pw_profiles_free(prof);
    return pw_buf_take(&b, NULL);
}

#define CHECK_OUT(RULES, SRC, WANT)                                           \
    do {                                                                      \
        PW_AUTOFREE char *got_ = run_rules(RULES, "default", SRC, NULL);      \
        ck_assert_str_eq(got_, WANT);                                         \
    } while (0)

/* Rules written with single quotes, for readability: R("910", rest) is
 * rule PW910 named r-910. */
#define R(NUM, REST)                                                          \
    "{'code': 'PW" NUM "', 'name': 'r-" NUM "', 'summary': 's', "             \
    "'why': 'w', 'example': {'bad': 'b', 'good': 'g'}, "                      \
    "'sets': ['default'], " REST "}"

/* Join the NULL-terminated rule list with commas, ' -> " (owned). */
static char *
join_rules(const char *const *rules)
{
    struct pw_buf b;
    pw_buf_init(&b);
    for (size_t i = 0; rules[i] != NULL; i++) {
        pw_buf_printf(&b, "%s%s", i ? ", " : "", rules[i]);
    }
    for (char *p = b.data; *p != '\0'; p++) {
        if (*p == '\'') {
            *p = '"';
        }
    }
    return pw_buf_take(&b, NULL);
}

#define CHECK_RULES(RULES, SRC, WANT)                                         \
    do {                                                                      \
        PW_AUTOFREE char *r_ = join_rules(RULES);                             \
        CHECK_OUT(r_, SRC, WANT);                                             \
    } while (0)

/* profiles.json "always": __future__ is allowed in every import set, also
 * one a client narrowed to other modules or one with no profile at all;
 * its modules' submodules and other modules are not. */
START_TEST(importset_always)
{
    struct pw_error err = {0};
    struct pw_profiles *prof = pw_profiles_load(shipped_dir(), &err);
    ck_assert_msg(prof != NULL, "%s", err.message);
    const char *const only[] = {"json", NULL};
    struct pw_importset narrowed = {prof, pw_profiles_default_mask(prof), NULL,
                                    only};
    struct pw_importset none = {prof, 0, NULL, NULL};
    ck_assert_int_eq(pw_importset_check(&narrowed, "__future__", NULL),
                     PW_IMPORT_ALLOWED);
    ck_assert_int_eq(pw_importset_check(&none, "__future__", NULL),
                     PW_IMPORT_ALLOWED);
    ck_assert_int_eq(pw_importset_check(&narrowed, "math", NULL),
                     PW_IMPORT_DENIED);
    ck_assert_int_eq(pw_importset_check(&none, "__futures__", NULL),
                     PW_IMPORT_DENIED);
    ck_assert_int_eq(pw_importset_check(&narrowed, "json", NULL),
                     PW_IMPORT_ALLOWED);
    pw_profiles_free(prof);
}
END_TEST

START_TEST(match_eq_in_prefix_suffix_regex)
{
    static const char *const rules[] = {
        R("910", "'node': 'Name', 'message': 'eq {id}', "
                 "'where': {'id': {'eq': 'a'}}"),
        R("911", "'node': 'Name', 'message': 'in {id}', "
                 "'where': {'id': {'in': ['b', 'c']}}"),
        R("912", "'node': 'Name', 'message': 'pre {id}', "
                 "'where': {'id': {'prefix': ['zz', 'p_']}}"),
        R("913", "'node': 'Name', 'message': 'suf {id}', "
                 "'where': {'id': {'suffix': '_s'}}"),
        R("914", "'node': 'Name', 'message': 're {id}', "
                 "'where': {'id': {'regex': '^x[0-9]+$'}}"),
        NULL,
    };
    CHECK_RULES(rules, "a\nb\nc\nd\np_q\nq_s\nx12\nx1y\n",
                "PW910 1:1-1:2 eq a\nPW911 2:1-2:2 in b\n"
                "PW911 3:1-3:2 in c\nPW912 5:1-5:4 pre p_q\n"
                "PW913 6:1-6:4 suf q_s\nPW914 7:1-7:4 re x12\n");
}
END_TEST

START_TEST(match_exists_type_numbers)
{
    static const char *const rules[] = {
        R("920", "'node': 'alias', 'message': 'as {asname}', "
                 "'where': {'asname': {'exists': true}}"),
        R("921", "'node': 'Call', 'message': 'attr call {func.attr}', "
                 "'where': {'func': {'type': 'Attribute'}}"),
        R("922", "'node': 'FunctionDef', 'message': 'indented {name}', "
                 "'where': {'col_offset': {'ne': 0}}"),
        R("923", "'node': 'ImportFrom', 'message': 'relative {level}', "
                 "'where': {'level': {'gt': 1}}"),
        NULL,
    };
    CHECK_RULES(rules,
                "import m as n, k\nf()\nx.y()\ndef a(): pass\nclass C:\n"
                "    def b(self): pass\nfrom . import z\nfrom .. import w\n",
                "PW920 1:8-1:14 as n\nPW921 3:1-3:6 attr call y\n"
                "PW922 6:5-6:22 indented b\nPW923 8:1-8:17 relative 2\n");
}
END_TEST

START_TEST(match_context_not_any_lists)
{
    static const char *const rules[] = {
        R("930", "'node': 'FunctionDef', "
                 "'message': 'method {name} of {$parent.name}', "
                 "'where': {'$parent': {'type': 'ClassDef'}}"),
        R("931", "'node': 'Name', 'message': '{id}', "
                 "'where': {'id': {'prefix': 'v'}, "
                 "'not': {'ctx': {'type': 'Load'}}}"),
        R("932", "'node': 'Call', 'message': 'kw {func.id}', "
                 "'where': {'any_of': [{'keywords.arg': {'eq': 'k'}}, "
                 "{'args.1.value': {'eq': 7}}]}"),
        R("933", "'node': ['Global', 'Nonlocal'], "
                 "'message': '{$node} {names}'"),
        NULL,
    };
    CHECK_RULES(rules,
                "class K:\n    def m(self): pass\ndef f():\n    global g\n"
                "v1 = v2\ndel v3\nh(k=1)\nh(1, 7)\nh(7)\n",
                "PW930 2:5-2:22 method m of K\nPW933 4:5-4:13 Global g\n"
                "PW931 5:1-5:3 v1\nPW931 6:5-6:7 v3\nPW932 7:1-7:7 kw h\n"
                "PW932 8:1-8:8 kw h\n");
}
END_TEST

START_TEST(walk_prune_and_positions)
{
    static const char *const rules[] = {
        R("940", "'node': 'ClassDef', 'message': 'class', 'prune': true"),
        R("941", "'node': 'Name', 'message': '{id}'"),
        NULL,
    };
    /* Nothing inside the pruned class is visited; columns count bytes. */
    CHECK_RULES(rules, "class A:\n    x = y\nz = '\xc3\xa9'; w\n",
                "PW940 1:1-2:10 class\nPW941 3:1-3:2 z\n"
                "PW941 3:11-3:12 w\n");
}
END_TEST

START_TEST(walk_deep_and_analysis)
{
    struct pw_buf b;
    pw_buf_init(&b);
    pw_buf_printf(&b, "x = a");
    for (int i = 0; i < 900; i++) {
        pw_buf_printf(&b, ".b");
    }
    pw_buf_printf(&b, "\n");
    struct pw_analysis an = {0};
    PW_AUTOFREE char *out = run_rules(NULL, "default", b.data, &an);
    ck_assert_str_eq(out, "");
    ck_assert_int_ge(an.max_depth, 900);
    pw_buf_free(&b);
    PW_AUTOFREE char *o2 = run_rules(
        NULL, "default",
        "def f(x):\n    if x and x > 1:\n        return [i for i in x if i]\n"
        "    while x:\n        x -= 1\n",
        &an);
    ck_assert_str_eq(o2, "");
    ck_assert_int_eq(an.line_count, 5);
    ck_assert_int_eq(an.estimated_complexity, 5); /* if, and, for-if, while */
    ck_assert_int_gt(an.node_count, 20);
}
END_TEST

/* A program with every kind of node the parser makes. */
static const char every_kind[] =
    "from __future__ import annotations\n"
    "import a.b as c, d\nfrom .. import e as f, g\n"
    "@dec(1, *xs, k=2, **kw)\n"
    "async def h(p, /, q: int = 1, *r, s, t=2, **u) -> None:\n"
    "    global G\n    async with m() as (n, o), v: await w\n"
    "    async for i in j: yield i\n"
    "    def inner():\n        nonlocal p\n        return (yield from z)\n"
    "    return [y async for y in aa if y]\n"
    "class K(B, metaclass=M):\n    x: int = 0\n    del x\n"
    "try:\n    pass\nexcept* (E, F) as ex:\n    raise X from Y\n"
    "try:\n    1 / 0\nexcept E:\n    pass\nelse:\n    pass\n"
    "finally:\n    assert a, 'm'\n"
    "match cmd:\n    case [1, *rest] if rest: pass\n"
    "    case {'k': v, **kw}: pass\n    case P(a, b=c) | None: pass\n"
    "    case (x as y): pass\n    case _: pass\n"
    "while not a < b <= c != d: break\nelse: continue\n"
    "for (i, j) in {1: 2, **dd}.items(): i += ~j ** 2 // 3 @ 4\n"
    "lam = lambda *a, b=1, **k: (a if b else k)\n"
    "s = (f'{x!r:>{width}}', b'', {1, 2}, {q for q in r},\n"
    "     {q: q for q in r})\n"
    "g = (q for q in r if q is not None and q in r or -q)\n"
    "sl = a[1:2:3, ::2][...]\n(n := 10)\nstarred, *rest = [*a, *b]\n"
    "with open(p) as fh: pass\nif a: pass\nelif b: pass\n"
    "x <<= 1; x >>= 1; x |= 1; x ^= 1; x &= 1; x %= 1; x -= +1\n"
    "c = (a == b, a > b, a >= b, a is b, a * b, a not in b)\n";

/* Python's own view of SRC: the sorted kinds of ast.walk() and the depth
 * of the deepest node, as "Kind Kind ... |depth" (owned). */
static char *
ast_module_view(const char *src)
{
    PW_PYAUTO PyObject *g = PyDict_New();
    ck_assert_ptr_nonnull(g);
    PW_PYAUTO PyObject *s = PyUnicode_FromString(src);
    ck_assert_int_eq(PyDict_SetItemString(g, "src", s), 0);
    ck_assert_int_eq(
        PyDict_SetItemString(g, "__builtins__", PyEval_GetBuiltins()), 0);
    PW_PYAUTO PyObject *r = PyRun_String(
        "import ast\n"
        "t = ast.parse(src)\n"
        "def depth(n):\n"
        "    return 1 + max(map(depth, ast.iter_child_nodes(n)), default=0)\n"
        "out = ' '.join(sorted(type(n).__name__ for n in ast.walk(t)))\n"
        "out += '|%d' % depth(t)\n",
        Py_file_input, g, g);
    ck_assert_msg(r != NULL, "the ast module's view failed");
    /* borrowed */ PyObject *out = PyDict_GetItemString(g, "out");
    return pw_xstrdup(PyUnicode_AsUTF8(out));
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* The walk reads CPython's C-level tree: it must meet the same nodes, as
 * deep, as the `ast` module shows (a rule on every kind names each node it
 * meets). */
START_TEST(walk_reads_the_tree_as_ast_does)
{
    PW_AUTOFREE char *want = ast_module_view(every_kind);
    struct pw_buf kinds;
    pw_buf_init(&kinds);
    const char *last = "";
    for (char *save = NULL, *k = strtok_r(want, " |", &save); k != NULL;
         k = strtok_r(NULL, " |", &save)) {
        if ((k[0] < '0' || k[0] > '9') && strcmp(k, last) != 0) {
            pw_buf_printf(&kinds, "%s'%s'", kinds.len ? ", " : "", k);
        }
        last = k; /* sorted: each kind once */
    }
    PW_AUTOFREE char *rule = pw_xasprintf(
        R("950", "'node': [%s], 'message': '{$node}'"), kinds.data);
    pw_buf_free(&kinds);
    for (char *q = strchr(rule, '\''); q != NULL; q = strchr(q, '\'')) {
        *q = '"';
    }
    struct pw_analysis an = {0};
    PW_AUTOFREE char *got = run_rules(rule, "default", every_kind, &an);
    /* One finding a node: "PW950 L:C-L:C Kind". */
    char *names[1024];
    size_t n = 0;
    for (char *save = NULL, *line = strtok_r(got, "\n", &save);
         line != NULL && n < 1024; line = strtok_r(NULL, "\n", &save)) {
        names[n++] = strrchr(line, ' ') + 1;
    }
    qsort(names, n, sizeof(char *), cmp_str);
    struct pw_buf b;
    pw_buf_init(&b);
    for (size_t i = 0; i < n; i++) {
        pw_buf_printf(&b, "%s%s", i ? " " : "", names[i]);
    }
    pw_buf_printf(&b, "|%ld", an.max_depth);
    PW_AUTOFREE char *mine = pw_buf_take(&b, NULL);
    PW_AUTOFREE char *again = ast_module_view(every_kind);
    ck_assert_str_eq(mine, again);
    ck_assert_int_eq(an.node_count, (long)n);
}
END_TEST

START_TEST(walk_compile_stage_only_when_clean)
{
    /* As in RestrictedPython: compile only a program the walk accepts. */
    PW_AUTOFREE char *a = run_rules(NULL, "default", "return 1\n", NULL);
    ck_assert_str_eq(a, "PW002 1:1-1:9 Python rejects this program: "
                        "'return' outside function\n");
    PW_AUTOFREE char *b =
        run_rules(NULL, "default", "eval(1)\nreturn 1\n", NULL);
    ck_assert_ptr_nonnull(strstr(b, "PW202"));
    ck_assert_ptr_null(strstr(b, "PW002"));
}
END_TEST

START_TEST(walk_compile_stage_for_clean_kinds)
{
    /* Trees made of kinds that usually cannot fail to compile still get
     * the compile stage when a node makes it fail. */
    PW_AUTOFREE char *a =
        run_rules(NULL, "default", "def f(a, b, a):\n    return a\n", NULL);
    ck_assert_str_eq(a, "PW002 1:13-1:14 Python rejects this program: "
                        "duplicate argument 'a' in function definition\n");
    PW_AUTOFREE char *b = run_rules(NULL, "default", "f(x=1, x=2)\n", NULL);
    ck_assert_ptr_nonnull(strstr(b, "keyword argument repeated: x"));
    PW_AUTOFREE char *c =
        run_rules(NULL, "default", "class A:\n    return 1\n", NULL);
    ck_assert_ptr_nonnull(strstr(c, "'return' outside function"));
    PW_AUTOFREE char *d =
        run_rules(NULL, "default", "def f(x):\n    return x\n", NULL);
    ck_assert_str_eq(d, "");
}
END_TEST

START_TEST(walk_syntax_error_columns)
{
    /* The column counts UTF-8 bytes, not characters. */
    PW_AUTOFREE char *a = run_rules(NULL, "default", "s = 'é' +\n", NULL);
    ck_assert_str_eq(a, "PW001 1:11-1:11 syntax error: invalid syntax; fix "
                        "the line shown before anything else can be "
                        "checked\n");
}
END_TEST

/* ---- findings, noqa, select ------------------------------------------ */

START_TEST(diags_sort_and_json)
{
    struct pw_diags d;
    pw_diags_init(&d);
    pw_diags_add(&d, "PW300", "c", pw_xstrdup("m3"), 2, 1, 2, 5);
    pw_diags_add(&d, "PW200", "b", pw_xstrdup("m2"), 1, 9, 1, 12);
    pw_diags_add(&d, "PW100", "a", pw_xstrdup("m1"), 2, 1, 0, 3);
    pw_diags_sort(&d);
    ck_assert_str_eq(d.v[0].code, "PW200");
    ck_assert_str_eq(d.v[1].code, "PW100");
    ck_assert_str_eq(d.v[2].code, "PW300");
    ck_assert_int_eq(d.v[1].end_line, 2); /* never before the start */
    json_auto_t *j = pw_diags_to_json(&d);
    ck_assert_ptr_nonnull(j);
    char *s = json_dumps(j, JSON_COMPACT);
    ck_assert_str_eq(s, "[{\"code\":\"PW200\",\"rule\":\"b\",\"line\":1,"
                        "\"column\":9,\"end_line\":1,\"end_column\":12,"
                        "\"message\":\"m2\"},{\"code\":\"PW100\",\"rule\":"
                        "\"a\",\"line\":2,\"column\":1,\"end_line\":2,"
                        "\"end_column\":3,\"message\":\"m1\"},{\"code\":"
                        "\"PW300\",\"rule\":\"c\",\"line\":2,\"column\":1,"
                        "\"end_line\":2,\"end_column\":5,\"message\":"
                        "\"m3\"}]");
    free(s);
    pw_diags_remove(&d, 1);
    ck_assert_uint_eq(d.n, 2);
    ck_assert_str_eq(d.v[1].code, "PW300");
    pw_diags_free(&d);
}
END_TEST

#define NOQA(LINE, CODE) pw_noqa_line(LINE, strlen(LINE), CODE)

START_TEST(noqa_lines)
{
    ck_assert(NOQA("x = 1  # noqa", "PW201"));
    ck_assert(NOQA("x = 1  #NOQA", "PW201"));
    ck_assert(NOQA("x = 1  # noqa: PW201", "PW201"));
    ck_assert(NOQA("x = 1  # noqa:PW3,PW201", "PW201"));
    ck_assert(NOQA("x = 1  # noqa: PW2", "PW201"));
    ck_assert(NOQA("x = 1  # noqa: PW1 PW2", "PW201"));
    ck_assert(!NOQA("x = 1  # noqa: PW3", "PW201"));
    ck_assert(!NOQA("x = 1  # noqa: PW2011", "PW201"));
    ck_assert(!NOQA("x = 1  # noqanda", "PW201"));
    ck_assert(!NOQA("x = 1  # no qa", "PW201"));
    ck_assert(!NOQA("x = 1", "PW201"));
    ck_assert(NOQA("x = 1  # comment # noqa", "PW201"));
}
END_TEST

START_TEST(noqa_files_and_apply)
{
    const char *src = "eval(1)  # noqa: PW2\nopen(1)\n# pyward: noqa\n";
    ck_assert(pw_noqa_file(src, strlen(src)));
    ck_assert(!pw_noqa_file("# pyward: noqa: PW1\n", 20));
    ck_assert(!pw_noqa_file("# noqa\n", 7));
    struct pw_diags d;
    pw_diags_init(&d);
    pw_diags_add(&d, "PW202", "a", pw_xstrdup("m"), 1, 1, 1, 2);
    pw_diags_add(&d, "PW204", "b", pw_xstrdup("m"), 2, 1, 2, 2);
    pw_noqa_apply(&d, src, strlen(src));
    ck_assert_uint_eq(d.n, 1);
    ck_assert_str_eq(d.v[0].code, "PW204");
    pw_diags_free(&d);
}
END_TEST

START_TEST(select_longest_prefix)
{
    struct pw_select s;
    pw_select_init(&s);
    ck_assert(pw_select_wants(&s, "PW201")); /* default: everything */
    ck_assert_int_eq(pw_select_add(&s, PW_SEL_IGNORE, "PW2"), 0);
    ck_assert(!pw_select_wants(&s, "PW201"));
    ck_assert(pw_select_wants(&s, "PW301"));
    ck_assert_int_eq(pw_select_add(&s, PW_SEL_EXTEND_SELECT, "PW20"), 0);
    ck_assert(pw_select_wants(&s, "PW201")); /* longer prefix wins */
    ck_assert(!pw_select_wants(&s, "PW211"));
    ck_assert_int_eq(pw_select_add(&s, PW_SEL_EXTEND_IGNORE, "PW20"), 0);
    ck_assert(!pw_select_wants(&s, "PW201")); /* a tie goes to ignore */
    pw_select_free(&s);
    pw_select_init(&s);
    ck_assert_int_eq(pw_select_add(&s, PW_SEL_SELECT, "pw3, PW101"), 0);
    ck_assert(pw_select_wants(&s, "PW305"));
    ck_assert(pw_select_wants(&s, "PW101"));
    ck_assert(!pw_select_wants(&s, "PW102"));
    ck_assert_int_eq(pw_select_add(&s, PW_SEL_SELECT, "E501"), -1);
    ck_assert_int_eq(pw_select_add(&s, PW_SEL_SELECT, "PW1234"), -1);
    pw_select_free(&s);
}
END_TEST

START_TEST(glob_patterns)
{
    ck_assert(pw_glob_match("*.py", "a.py"));
    ck_assert(!pw_glob_match("*.py", "d/a.py"));
    ck_assert(pw_glob_match("d/?.py", "d/a.py"));
    ck_assert(!pw_glob_match("?", "/"));
    ck_assert(pw_glob_match("**/a.py", "a.py"));
    ck_assert(pw_glob_match("**/a.py", "x/y/a.py"));
    ck_assert(pw_glob_match("x/**/a.py", "x/a.py"));
    ck_assert(pw_glob_match("x/**/a.py", "x/y/z/a.py"));
    ck_assert(!pw_glob_match("x/**/a.py", "xa.py"));
    ck_assert(pw_glob_match("x/**", "x/y/z"));
    ck_assert(!pw_glob_match("x/**", "x"));
    ck_assert(pw_glob_match("a**b", "axxb"));
    ck_assert(!pw_glob_match("a**b", "a/b"));
    ck_assert(pw_glob_match("[a-c]x", "bx"));
    ck_assert(!pw_glob_match("[!a-c]x", "bx"));
    ck_assert(pw_glob_match("[^a-c]x", "dx"));
    ck_assert(pw_glob_match("[]]", "]"));
    ck_assert(pw_glob_match("[a", "[a"));
    ck_assert(pw_glob_match("\\*", "*"));
    ck_assert(!pw_glob_match("\\*", "a"));
}
END_TEST

START_TEST(ignore_files)
{
    static const char text[] = "# comment\n\n*.log\n!keep.log\nbuild/\n"
                               "/top.py\ndocs/*.py\nsp\\ \ntrail  \n";
    struct pw_ignore ig;
    pw_ignore_parse(&ig, "/r/", text, sizeof(text) - 1);
    ck_assert_int_eq(pw_ignore_match(&ig, "/r/a.log", false), 1);
    ck_assert_int_eq(pw_ignore_match(&ig, "/r/d/e/a.log", false), 1);
    ck_assert_int_eq(pw_ignore_match(&ig, "/r/keep.log", false), -1);
    ck_assert_int_eq(pw_ignore_match(&ig, "/r/x/build", true), 1);
    ck_assert_int_eq(pw_ignore_match(&ig, "/r/x/build", false), 0);
    ck_assert_int_eq(pw_ignore_match(&ig, "/r/top.py", false), 1);
    ck_assert_int_eq(pw_ignore_match(&ig, "/r/d/top.py", false), 0);
    ck_assert_int_eq(pw_ignore_match(&ig, "/r/docs/a.py", false), 1);
    ck_assert_int_eq(pw_ignore_match(&ig, "/r/x/docs/a.py", false), 0);
    ck_assert_int_eq(pw_ignore_match(&ig, "/r/sp ", false), 1);
    ck_assert_int_eq(pw_ignore_match(&ig, "/r/trail", false), 1);
    ck_assert_int_eq(pw_ignore_match(&ig, "/other/a.log", false), 0);
    pw_ignore_free(&ig);
}
END_TEST

START_TEST(message_heads)
{
    const char *hint = NULL;
    const char *m = "'eval()' is not available: it runs code; write it";
    ck_assert_uint_eq(pw_message_head(m, &hint), 25);
    ck_assert_str_eq(hint, "it runs code; write it");
    m = "syntax error: '(' was never closed; fix the line";
    ck_assert_uint_eq(pw_message_head(m, &hint), 34);
    ck_assert_str_eq(hint, "fix the line");
    m = "syntax error: f-string: unmatched '['; fix it";
    ck_assert_uint_eq(pw_message_head(m, &hint), 37);
    m = "the interpreter's frames (a: b; c) are hidden; use x";
    ck_assert_uint_eq(pw_message_head(m, &hint), 45);
    m = "no separator at all";
    ck_assert_uint_eq(pw_message_head(m, &hint), strlen(m));
    ck_assert_str_eq(hint, "");
}
END_TEST

/* ---- the validator process --------------------------------------------- */

/* A check's end as a test sees it. */
struct seen {
    int calls;
    struct pw_vcheck_result r;
};

static void
seen_done(void *ctx, struct pw_vcheck_result *r)
{
    struct seen *s = ctx;
    s->calls++;
    s->r = *r; /* ours to clear */
}

/* A stand-in for the zygote's compile: the code itself, copied. */
static char *
copy_compile(void *ctx, const char *code, size_t len, unsigned caps,
             size_t *out_len)
{
    (void)ctx;
    (void)caps;
    *out_len = len;
    return pw_xstrndup(code, len);
}

/* Poll and step C until S has its answer (30 s at the most). */
static void
answer_of(struct pw_vproc *c, struct seen *s)
{
    for (int i = 0; i < 3000 && s->calls == 0; i++) {
        struct pollfd p = pw_vproc_pollfd(c);
        ck_assert_int_ge(p.fd, 0);
        ck_assert_int_ge(poll(&p, 1, 10), 0);
        if (p.revents != 0) {
            pw_vproc_step(c, p.revents);
        }
    }
    ck_assert_int_eq(s->calls, 1);
}

/* True once process PID has ended (a zombie until its parent reaps
 * it), within 10 s. */
static bool
ended(int pid)
{
    for (int i = 0; i < 1000; i++) {
        char path[64];
        char buf[256] = "";
        (void)snprintf(path, sizeof(path), "/proc/%d/stat", pid);
        FILE *f = fopen(path, "r");
        size_t n = f != NULL ? fread(buf, 1, sizeof(buf) - 1, f) : 0;
        if (f != NULL) {
            (void)fclose(f);
        }
        const char *paren = strrchr(buf, ')');
        if (n == 0 || (paren != NULL && paren[2] == 'Z')) {
            return true;
        }
        (void)usleep(10000);
    }
    return false;
}

/* The findings come back with their plain words; a compile-only request
 * is not checked; a process that ended while idle is replaced at the
 * next check, whose end never comes from pw_vproc_submit itself. */
/* The shipped profiles and default rules, and a validator process of
 * theirs that compiles with copy_compile. */
struct vproc_fixture {
    struct pw_profiles *p;
    struct pw_ruleset *rs;
    struct pw_vproc *c;
};

static struct vproc_fixture
vproc_fixture_new(void)
{
    struct pw_error err = {0};
    struct vproc_fixture f = {0};
    f.p = pw_profiles_load(shipped_dir(), &err);
    ck_assert_msg(f.p != NULL, "%s", err.message);
    f.rs = pw_ruleset_load(shipped_dir(), "default", &err);
    ck_assert_msg(f.rs != NULL, "%s", err.message);
    f.c = pw_vproc_new(f.rs, f.p, NULL, copy_compile, NULL, &err);
    ck_assert_msg(f.c != NULL, "%s", err.message);
    return f;
}

static void
vproc_fixture_free(struct vproc_fixture *f)
{
    pw_vproc_free(f->c);
    pw_ruleset_free(f->rs);
    pw_profiles_free(f->p);
}

START_TEST(vproc_words_compile_and_idle_death)
{
    struct vproc_fixture f = vproc_fixture_new();
    struct pw_profiles *p = f.p;
    struct pw_vproc *c = f.c;
    static const char bad[] = "import os\n";
    struct pw_vcheck_req req = {
        .code = bad, .len = strlen(bad), .mask = pw_profiles_default_mask(p)};
    struct seen s = {0};
    (void)pw_vproc_submit(c, &req, seen_done, &s);
    answer_of(c, &s);
    ck_assert_int_eq(s.r.rc, 0);
    ck_assert_uint_ge(s.r.d.n, 1);
    ck_assert_ptr_nonnull(s.r.d.v[0].student);
    ck_assert_msg(strstr(s.r.d.v[0].student, "'os'") != NULL, "%s",
                  s.r.d.v[0].student);
    pw_vcheck_result_clear(&s.r);

    req.compile = req.compile_only = true;
    memset(&s, 0, sizeof(s));
    (void)pw_vproc_submit(c, &req, seen_done, &s);
    answer_of(c, &s);
    ck_assert_int_eq(s.r.rc, 0);
    ck_assert_uint_eq(s.r.d.n, 0);
    ck_assert_uint_eq(s.r.blob_len, strlen(bad));
    ck_assert_mem_eq(s.r.blob, bad, strlen(bad));
    pw_vcheck_result_clear(&s.r);

    int pid = pw_vproc_pid(c);
    ck_assert_int_gt(pid, 0);
    ck_assert_int_eq(kill(pid, SIGKILL), 0);
    ck_assert(ended(pid));
    req.compile = req.compile_only = false;
    memset(&s, 0, sizeof(s));
    (void)pw_vproc_submit(c, &req, seen_done, &s);
    ck_assert_int_eq(s.calls, 0);
    answer_of(c, &s);
    ck_assert_int_eq(s.r.rc, 0);
    ck_assert_uint_ge(s.r.d.n, 1);
    ck_assert_int_ne(pw_vproc_pid(c), pid);
    pw_vcheck_result_clear(&s.r);
    vproc_fixture_free(&f);
}
END_TEST

/* The end of one of several checks: its name appended to the order. */
struct turn {
    char name[4];
    char *order; /* shared: the names as their checks end */
};

static void
turn_done(void *ctx, struct pw_vcheck_result *r)
{
    struct turn *t = ctx;
    strcat(t->order, t->name);
    pw_vcheck_result_clear(r);
}

/* Owners take turns: four checks of owner 1 submitted before one of
 * owner 2, which goes second (after the one already sent), not last; a
 * check cancelled while it waits never ends. */
START_TEST(vproc_owners_take_turns)
{
    struct vproc_fixture f = vproc_fixture_new();
    struct pw_profiles *p = f.p;
    struct pw_vproc *c = f.c;
    static const char code[] = "print(1)\n";
    struct pw_vcheck_req req = {.code = code,
                                .len = strlen(code),
                                .mask = pw_profiles_default_mask(p)};
    char order[64] = "";
    static const char *const names[] = {"a1", "a2", "a3", "a4", "a5", "b1"};
    struct turn t[6];
    struct pw_vcheck *k[6];
    for (int i = 0; i < 6; i++) {
        snprintf(t[i].name, sizeof(t[i].name), "%s", names[i]);
        t[i].order = order;
        req.owner = names[i][0] == 'a' ? 1 : 2;
        k[i] = pw_vproc_submit(c, &req, turn_done, &t[i]);
    }
    pw_vcheck_cancel(k[2]); /* a3, waiting */
    for (int i = 0; i < 3000 && strlen(order) < 10; i++) {
        struct pollfd pf = pw_vproc_pollfd(c);
        ck_assert_int_ge(poll(&pf, 1, 10), 0);
        if (pf.revents != 0) {
            pw_vproc_step(c, pf.revents);
        }
    }
    ck_assert_str_eq(order, "a1b1a2a4a5");
    ck_assert_uint_eq(pw_vproc_pending(c), 0);
    vproc_fixture_free(&f);
}
END_TEST

static Suite *
validator_suite(void)
{
    Suite *s = suite_create("validator");
    TCase *load = tcase_create("loader");
    tcase_add_unchecked_fixture(load, py_setup, NULL);
    tcase_add_test(load, rules_dir_order);
    tcase_add_test(load, load_shipped_sets);
    tcase_add_test(load, load_unknown_key);
    tcase_add_test(load, load_unknown_node);
    tcase_add_test(load, load_unknown_field);
    tcase_add_test(load, load_duplicates_and_format);
    tcase_add_test(load, load_bad_json_and_events);
    tcase_add_test(load, importset_always);
    suite_add_tcase(s, load);
    TCase *match = tcase_create("match-walk");
    tcase_add_unchecked_fixture(match, py_setup, NULL);
    tcase_set_timeout(match, 30);
    tcase_add_test(match, match_eq_in_prefix_suffix_regex);
    tcase_add_test(match, match_exists_type_numbers);
    tcase_add_test(match, match_context_not_any_lists);
    tcase_add_test(match, walk_prune_and_positions);
    tcase_add_test(match, walk_deep_and_analysis);
    tcase_add_test(match, walk_reads_the_tree_as_ast_does);
    tcase_add_test(match, walk_compile_stage_only_when_clean);
    tcase_add_test(match, walk_compile_stage_for_clean_kinds);
    tcase_add_test(match, walk_syntax_error_columns);
    tcase_add_test(match, vproc_words_compile_and_idle_death);
    tcase_add_test(match, vproc_owners_take_turns);
    suite_add_tcase(s, match);
    TCase *misc = tcase_create("diag-noqa-select");
    tcase_add_test(misc, diags_sort_and_json);
    tcase_add_test(misc, noqa_lines);
    tcase_add_test(misc, noqa_files_and_apply);
    tcase_add_test(misc, select_longest_prefix);
    tcase_add_test(misc, glob_patterns);
    tcase_add_test(misc, ignore_files);
    tcase_add_test(misc, message_heads);
    suite_add_tcase(s, misc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(validator_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    if (tmpdir != NULL) {
        PW_AUTOFREE char *cmd = pw_xasprintf("rm -rf '%s'", tmpdir);
        (void)system(cmd);
    }
    return failed == 0 ? 0 : 1;
}
