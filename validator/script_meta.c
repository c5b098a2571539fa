/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * script_meta.c - PEP 723 inline script metadata: the "# /// script"
 * block's dependencies and requires-python, checked against the profiles
 * (pyward installs nothing: a dependency names the profile whose modules
 * it is) and the embedded interpreter.
 *
 * Defines pw_script_meta_check.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <string.h>

#include "core/py.h"
#include "core/util.h"
#include "validator/diag.h"
#include "validator/pep440.h"
#include "validator/script_meta.h"

/* Where a finding points: its line, and the rules that word it. */
struct meta_ctx {
    const struct pw_ruleset *rs;
    const struct pw_importset *set;
    struct pw_diags *out;
    int line;        /* the block's first line; 0: the dependencies argument */
    const char *src; /* the program, or NULL */
    size_t len;
};

/* The line of the block that holds TEXT, or the block's first line. */
static int
line_of(const struct meta_ctx *c, const char *text)
{
    const char *p = c->src;
    const char *end = c->src + c->len;
    size_t n = strlen(text);
    for (int line = 1; p != NULL && p < end && n > 0; line++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        const char *stop = nl != NULL ? nl : end;
        if (line >= c->line && (size_t)(stop - p) >= n &&
            memmem(p, (size_t)(stop - p), text, n) != NULL) {
            return line;
        }
        p = nl != NULL ? nl + 1 : NULL;
    }
    return c->line;
}

static void
finding_at(const struct meta_ctx *c, enum pw_event ev, const char *detail,
           int line)
{
    if (c->rs->events[ev] < 0) {
        return; /* an older rule set without this event */
    }
    const struct pw_rule *r = &c->rs->rules[c->rs->events[ev]];
    struct pw_tpl_vars vars = {NULL, NULL, detail};
    pw_diags_add(c->out, r->code, r->name, pw_rule_render(r, NULL, &vars),
                 line, 1, line, 1);
    c->out->v[c->out->n - 1].student = pw_rule_render_student(r, NULL, &vars);
}

static void
finding(const struct meta_ctx *c, enum pw_event ev, const char *detail)
{
    finding_at(c, ev, detail, c->line);
}

/* ---- the block ------------------------------------------------------ */

/* The length of the line at P (without its newline), END the text's. */
static size_t
line_len(const char *p, const char *end)
{
    const char *nl = memchr(p, '\n', (size_t)(end - p));
    return nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
}

static bool
line_is(const char *p, size_t n, const char *text)
{
    while (n > 0 && p[n - 1] == '\r') {
        n--;
    }
    return n == strlen(text) && memcmp(p, text, n) == 0;
}

/* Into TOML: the content of the first "# /// script" block of SRC (its
 * lines without "# " or "#"), *LINE its first line.  False if SRC has no
 * closed block. */
static bool
find_block(const char *src, size_t len, struct pw_buf *toml, int *line)
{
    const char *end = src + len;
    int n = 1;
    bool in = false;
    for (const char *p = src; p < end; n++) {
        size_t l = line_len(p, end);
        if (!in && line_is(p, l, "# /// script")) {
            in = true;
            *line = n;
        } else if (in && line_is(p, l, "# ///")) {
            return true;
        } else if (in && l > 0 && p[0] == '#') {
            size_t skip = l > 1 && p[1] == ' ' ? 2 : 1;
            pw_buf_append(toml, p + skip, l - skip);
            pw_buf_append(toml, "\n", 1);
        } else if (in) {
            pw_buf_free(toml); /* not a comment: no block here */
            pw_buf_init(toml);
            in = false;
        }
        p += l + 1;
    }
    return false;
}

/* ---- dependencies --------------------------------------------------- */

/* The PEP 503 normal form of the PEP 508 name at the start of REQ into
 * NAME (lower case, runs of -_. as one -); false if REQ has no name. */
static bool
requirement_name(const char *req, char *name, size_t size)
{
    size_t n = 0;
    while (isspace((unsigned char)*req)) {
        req++;
    }
    if (!isalnum((unsigned char)*req)) {
        return false;
    }
    for (; (isalnum((unsigned char)*req) || strchr("-_.", *req)) &&
           *req != '\0' && n + 1 < size;
         req++) {
        bool sep = strchr("-_.", *req) != NULL;
        if (sep && n > 0 && name[n - 1] == '-') {
            continue;
        }
        name[n++] = sep ? '-' : (char)tolower((unsigned char)*req);
    }
    while (n > 0 && name[n - 1] == '-') {
        n--;
    }
    name[n] = '\0';
    return n > 0;
}

/* The profile providing the package NAME, or -1; *K its index there.
 * A profile of MASK first. */
static int
provider(const struct pw_profiles *p, pw_profile_mask mask, const char *name,
         size_t *k)
{
    int found = -1;
    for (size_t i = 0; i < p->n; i++) {
        for (size_t j = 0; j < p->v[i].npackages; j++) {
            if (strcmp(p->v[i].packages[j], name) == 0 &&
                (found < 0 || (mask & (1UL << i)) != 0)) {
                found = (int)i;
                *k = j;
            }
        }
    }
    return found;
}

/* Into B: the packages the profiles of SET provide and those of the
 * package sets (a dependency brings its set), with the versions known,
 * or "none". */
static void
available(const struct pw_importset *set, struct pw_buf *b)
{
    const struct pw_profiles *p = set->profiles;
    size_t start = b->len;
    for (size_t i = 0; i < p->n; i++) {
        const struct pw_profile *pr = &p->v[i];
        bool in = (set->mask & (1UL << i)) != 0 || pr->on_request;
        for (size_t k = 0; in && k < pr->npackages; k++) {
            const char *v = pr->versions != NULL ? pr->versions[k] : NULL;
            pw_buf_printf(b, "%s%s%s%s", b->len > start ? ", " : "",
                          pr->packages[k], v != NULL ? " " : "",
                          v != NULL ? v : "");
        }
    }
    if (b->len == start) {
        pw_buf_printf(b, "none");
    }
}

/* Where the name at the start of REQ ends. */
static const char *
name_end(const char *req)
{
    while (isspace((unsigned char)*req)) {
        req++;
    }
    while (isalnum((unsigned char)*req) ||
           (*req != '\0' && strchr("-_.", *req) != NULL)) {
        req++;
    }
    return req;
}

/* After the name of a PEP 508 requirement: its extras skipped, the
 * version specifier into SPEC (without parentheses; empty: any).  False
 * for a direct reference ("name @ URL"). */
static bool
requirement_spec(const char *rest, char *spec, size_t size)
{
    while (isspace((unsigned char)*rest)) {
        rest++;
    }
    if (*rest == '[') {
        const char *close = strchr(rest, ']');
        rest = close != NULL ? close + 1 : rest + strlen(rest);
    }
    while (isspace((unsigned char)*rest)) {
        rest++;
    }
    if (*rest == '@') {
        return false;
    }
    size_t n = strcspn(rest, ";");
    if (*rest == '(') {
        rest++;
        n = strcspn(rest, ");");
    }
    if (n >= size) {
        n = size - 1;
    }
    memcpy(spec, rest, n);
    spec[n] = '\0';
    return true;
}

/* The version of the distribution NAME the server's interpreter finds on
 * its path (importlib.metadata reads its METADATA; nothing of it runs),
 * owned, or NULL. */
static char *
site_version(const char *name)
{
    PW_PYAUTO PyObject *md = pw_py_import("importlib.metadata");
    PW_PYAUTO PyObject *v =
        md != NULL ? PyObject_CallMethod(md, "version", "s", name) : NULL;
    const char *s =
        v != NULL && PyUnicode_Check(v) ? PyUnicode_AsUTF8(v) : NULL;
    char *out = s != NULL ? pw_xstrdup(s) : NULL;
    PyErr_Clear();
    return out;
}

/* The version specifier SPEC of NAME against what is installed: the
 * version profile I knows (a package set's), else the site's.  Appends
 * to WHY and returns false when it is not met. */
static bool
version_ok(const struct pw_profile *pr, size_t k, const char *name,
           const char *spec, struct pw_buf *why)
{
    if (strspn(spec, " \t") == strlen(spec)) {
        return true;
    }
    const char *known = pr->versions != NULL ? pr->versions[k] : NULL;
    PW_AUTOFREE char *site = known == NULL ? site_version(name) : NULL;
    const char *have = known != NULL ? known : site;
    if (have == NULL) {
        pw_buf_printf(why,
                      "'%s' is not installed on this server (its profile "
                      "'%s' names it), so '%s' cannot be met; ",
                      name, pr->name, spec);
        return false;
    }
    char detail[200];
    int ok = pw_pep440_satisfies(have, spec, detail, sizeof(detail));
    if (ok == 1) {
        return true;
    }
    if (ok < 0) {
        pw_buf_printf(why, "'%s%s': %s; ", name, spec, detail);
    } else {
        pw_buf_printf(why,
                      "'%s' %s is installed on this server, which does not "
                      "satisfy '%s'; ",
                      name, have, spec);
    }
    return false;
}

static void
check_dependency(const struct meta_ctx *c, const char *req)
{
    char name[128];
    char spec[256];
    struct pw_buf why;
    if (c->set == NULL) {
        return; /* no import policy to judge it by */
    }
    pw_buf_init(&why);
    size_t k = 0;
    if (!requirement_name(req, name, sizeof(name))) {
        pw_buf_printf(&why, "'%s' is not a PEP 508 requirement", req);
    } else if (!requirement_spec(name_end(req), spec, sizeof(spec))) {
        pw_buf_printf(&why,
                      "'%s' is a direct reference: nothing is installed at "
                      "run time; name the distribution instead",
                      req);
    } else {
        const struct pw_profiles *p = c->set->profiles;
        int i = provider(p, c->set->mask, name, &k);
        if (i >= 0 && (c->set->mask & (1UL << i)) != 0 &&
            version_ok(&p->v[i], k, name, spec, &why)) {
            pw_buf_free(&why);
            return;
        }
        if (i >= 0 && (c->set->mask & (1UL << i)) == 0) {
            pw_buf_printf(&why,
                          "'%s' needs the '%s' profile, which is not enabled "
                          "here; ",
                          name, p->v[i].name);
        } else if (i < 0) {
            pw_buf_printf(&why,
                          "'%s' is not installed on this server (no profile "
                          "or package set provides it; nothing is installed "
                          "at run time); ",
                          name);
        }
        pw_buf_printf(&why, "packages available here: ");
        available(c->set, &why);
        pw_buf_printf(&why, " (the standard library needs no dependency)");
    }
    finding_at(c, PW_EV_DEPENDENCY, why.data,
               c->line > 0 ? line_of(c, req) : 0);
    pw_buf_free(&why);
}

/* ---- requires-python ------------------------------------------------ */

/* Parse "3.11.2" or "3.11.*" into V (at most 4 parts); *N parts, *WILD
 * for ".*".  False if malformed. */
static bool
parse_version(const char *s, long v[4], int *n, bool *wild)
{
    *n = 0;
    *wild = false;
    while (isspace((unsigned char)*s)) {
        s++;
    }
    while (*n < 4 && isdigit((unsigned char)*s)) {
        char *e;
        v[(*n)++] = strtol(s, &e, 10);
        s = e;
        if (*s != '.') {
            break;
        }
        s++;
        if (*s == '*') {
            *wild = true;
            s++;
            break;
        }
    }
    while (isspace((unsigned char)*s)) {
        s++;
    }
    return *n > 0 && *s == '\0';
}

/* -1, 0 or 1: the interpreter's version against the first N parts of V. */
static int
compare(const long v[4], int n)
{
    const long have[4] = {PY_MAJOR_VERSION, PY_MINOR_VERSION, PY_MICRO_VERSION,
                          0};
    for (int i = 0; i < n; i++) {
        if (have[i] != v[i]) {
            return have[i] < v[i] ? -1 : 1;
        }
    }
    return 0;
}

/* Does the interpreter satisfy one clause ("~=3.10", ">=3.8", "==3.11.*")?
 * -1 if the clause is malformed. */
static int
clause_ok(const char *clause)
{
    static const char *const ops[] = {
        "===", "~=", "==", "!=", "<=", ">=", "<", ">"};
    while (isspace((unsigned char)*clause)) {
        clause++;
    }
    for (size_t i = 0; i < PW_N_ELEMENTS(ops); i++) {
        size_t ol = strlen(ops[i]);
        long v[4];
        int n;
        bool wild;
        if (strncmp(clause, ops[i], ol) != 0 ||
            !parse_version(clause + ol, v, &n, &wild) ||
            (wild && i != 2 && i != 3) || (i == 1 && n < 2)) {
            continue;
        }
        int full = compare(v, n > 3 ? 3 : n);
        switch (i) {
        case 0:
        case 2:
            return full == 0;
        case 1: /* ~=X.Y[.Z]: >= it, and == it without its last part */
            return full >= 0 && compare(v, n - 1) == 0;
        case 3:
            return full != 0;
        case 4:
            return full <= 0;
        case 5:
            return full >= 0;
        case 6:
            return full < 0;
        default:
            return full > 0;
        }
    }
    return -1;
}

static void
check_requires_python(const struct meta_ctx *c, const char *spec)
{
    PW_AUTOFREE char *copy = pw_xstrdup(spec);
    char *save = NULL;
    char detail[512];
    for (char *cl = strtok_r(copy, ",", &save); cl != NULL;
         cl = strtok_r(NULL, ",", &save)) {
        int ok = clause_ok(cl);
        if (ok == 1) {
            continue;
        }
        (void)snprintf(detail, sizeof(detail),
                       ok < 0 ? "requires-python '%s' is not a version "
                                "specifier such as '>=3.10'"
                              : "requires-python '%s' excludes Python %s, "
                                "the interpreter of this sandbox",
                       spec, PY_VERSION);
        finding(c, PW_EV_SCRIPT_META, detail);
        return;
    }
}

/* ---- the TOML ------------------------------------------------------- */

/* New reference: the parsed TOML text, or NULL with a finding. */
static PyObject *
parse_toml(const struct meta_ctx *c, const struct pw_buf *toml)
{
    PW_PYAUTO PyObject *mod = pw_py_import("tomllib");
    PW_PYAUTO PyObject *doc =
        mod != NULL ? PyObject_CallMethod(mod, "loads", "s#",
                                          toml->data != NULL ? toml->data : "",
                                          (Py_ssize_t)toml->len)
                    : NULL;
    if (doc != NULL && PyDict_Check(doc)) {
        return Py_NewRef(doc);
    }
    char detail[400];
    PyObject *type = NULL;
    PyObject *value = NULL;
    PyObject *tb = NULL;
    PyErr_Fetch(&type, &value, &tb);
    Py_XDECREF(type);
    Py_XDECREF(tb);
    PW_PYAUTO PyObject *exc = value;
    PW_PYAUTO PyObject *msg = exc != NULL ? PyObject_Str(exc) : NULL;
    const char *m = msg != NULL ? PyUnicode_AsUTF8(msg) : NULL;
    PyErr_Clear();
    (void)snprintf(detail, sizeof(detail),
                   "the '# /// script' block is not valid TOML: %s",
                   m != NULL ? m : "not a table");
    finding(c, PW_EV_SCRIPT_META, detail);
    return NULL;
}

/* The strings of the list V (borrowed), each given to FN; a finding when
 * V is not a list of strings. */
static void
each_string(const struct meta_ctx *c, PyObject *v,
            void (*fn)(const struct meta_ctx *, const char *))
{
    for (Py_ssize_t i = 0; PyList_Check(v) && i < PyList_GET_SIZE(v); i++) {
        PyObject *item = PyList_GET_ITEM(v, i); /* borrowed */
        const char *s = PyUnicode_Check(item) ? PyUnicode_AsUTF8(item) : NULL;
        if (s == NULL) {
            PyErr_Clear();
            break;
        }
        fn(c, s);
        if (i + 1 == PyList_GET_SIZE(v)) {
            return;
        }
    }
    if (!PyList_Check(v) || PyList_GET_SIZE(v) > 0) {
        finding(c, PW_EV_SCRIPT_META,
                "'dependencies' must be a list of strings");
    }
}

static void
check_table(const struct meta_ctx *c, PyObject *doc)
{
    PyObject *deps = PyDict_GetItemString(doc, "dependencies"); /* borrowed */
    PyObject *py = PyDict_GetItemString(doc, "requires-python");
    if (deps != NULL) {
        each_string(c, deps, check_dependency);
    }
    if (py != NULL && !PyUnicode_Check(py)) {
        finding(c, PW_EV_SCRIPT_META, "'requires-python' must be a string");
    } else if (py != NULL) {
        const char *s = PyUnicode_AsUTF8(py);
        if (s != NULL) {
            check_requires_python(c, s);
        }
        PyErr_Clear();
    }
}

void
pw_script_meta_check(const struct pw_ruleset *rs,
                     const struct pw_importset *set, const char *src,
                     size_t len, const char *const *deps, struct pw_diags *out)
{
    struct meta_ctx c = {rs, set, out, 0, src, len};
    for (size_t i = 0; deps != NULL && deps[i] != NULL; i++) {
        check_dependency(&c, deps[i]);
    }
    struct pw_buf toml;
    pw_buf_init(&toml);
    if (src != NULL && find_block(src, len, &toml, &c.line)) {
        PW_PYAUTO PyObject *doc = parse_toml(&c, &toml);
        if (doc != NULL) {
            check_table(&c, doc);
        }
    }
    pw_buf_free(&toml);
}

/* The strings of the Python list V (borrowed) appended to OUT. */
static void
append_strings(json_t *out, PyObject *v)
{
    for (Py_ssize_t i = 0;
         v != NULL && PyList_Check(v) && i < PyList_GET_SIZE(v); i++) {
        PyObject *item = PyList_GET_ITEM(v, i); /* borrowed */
        const char *str =
            PyUnicode_Check(item) ? PyUnicode_AsUTF8(item) : NULL;
        if (str != NULL) {
            json_array_append_new(out, json_string(str));
        }
        PyErr_Clear();
    }
}

size_t
pw_script_meta_size(const char *src, size_t len)
{
    struct pw_buf toml;
    int line = 0;
    pw_buf_init(&toml);
    size_t n = find_block(src, len, &toml, &line) ? toml.len : 0;
    pw_buf_free(&toml);
    return n;
}

json_t *
pw_script_meta_read(const char *src, size_t len)
{
    struct pw_buf toml;
    int line = 0;
    json_t *out = NULL;
    pw_buf_init(&toml);
    if (find_block(src, len, &toml, &line)) {
        PW_PYAUTO PyObject *mod = pw_py_import("tomllib");
        PW_PYAUTO PyObject *doc =
            mod != NULL
                ? PyObject_CallMethod(mod, "loads", "s#",
                                      toml.data != NULL ? toml.data : "",
                                      (Py_ssize_t)toml.len)
                : NULL;
        PyErr_Clear();
        PyObject *py = doc != NULL && PyDict_Check(doc)
                           ? PyDict_GetItemString(doc, "requires-python")
                           : NULL; /* borrowed */
        const char *spec =
            py != NULL && PyUnicode_Check(py) ? PyUnicode_AsUTF8(py) : NULL;
        PyErr_Clear();
        out = json_pack("{s:o,s:[]}", "requires-python",
                        spec != NULL ? json_string(spec) : json_null(),
                        "dependencies");
        if (out != NULL && doc != NULL && PyDict_Check(doc)) {
            append_strings(json_object_get(out, "dependencies"),
                           PyDict_GetItemString(doc, "dependencies"));
        }
    }
    pw_buf_free(&toml);
    return out;
}

/* Bit I of the profiles of ENABLED brought by a package set
 * (on_request) whose distributions include the requirement REQ's. */
static pw_profile_mask
set_of(const struct pw_profiles *p, pw_profile_mask enabled, const char *req)
{
    char name[128];
    pw_profile_mask m = 0;
    if (!requirement_name(req, name, sizeof(name))) {
        return 0;
    }
    for (size_t i = 0; i < p->n; i++) {
        for (size_t k = 0; p->v[i].on_request && (enabled & (1UL << i)) != 0 &&
                           k < p->v[i].npackages;
             k++) {
            if (strcmp(p->v[i].packages[k], name) == 0) {
                m |= 1UL << i;
            }
        }
    }
    return m;
}

pw_profile_mask
pw_script_meta_sets(const struct pw_profiles *p, pw_profile_mask enabled,
                    const char *src, size_t len, const char *const *deps)
{
    pw_profile_mask m = 0;
    for (size_t i = 0; deps != NULL && deps[i] != NULL; i++) {
        m |= set_of(p, enabled, deps[i]);
    }
    json_t *meta = src != NULL ? pw_script_meta_read(src, len) : NULL;
    size_t i;
    json_t *d; /* borrowed */
    json_array_foreach(json_object_get(meta, "dependencies"), i, d) {
        m |= set_of(p, enabled, json_string_value(d));
    }
    json_decref(meta);
    return m;
}
