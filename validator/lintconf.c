/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * lintconf.c - `pyward check`'s configuration files: found, read with
 * tomllib, checked key by key.
 *
 * Defines pw_lintconf_*.
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/py.h"
#include "core/util.h"
#include "validator/lintconf.h"
#include "validator/select.h"

/* Configuration files above this size are an error. */
#define CONF_MAX ((size_t)1 << 20)

void
pw_lintconf_init(struct pw_lintconf *c)
{
    memset(c, 0, sizeof(*c));
    c->respect_gitignore = -1;
    c->force_exclude = -1;
}

void
pw_lintconf_free(struct pw_lintconf *c)
{
    free(c->file);
    free(c->root);
    free(c->rules);
    free(c->profile);
    pw_strv_free(&c->select);
    pw_strv_free(&c->extend_select);
    pw_strv_free(&c->ignore);
    pw_strv_free(&c->extend_ignore);
    pw_strv_free(&c->exclude);
    pw_strv_free(&c->extend_exclude);
    for (size_t i = 0; i < c->npfi; i++) {
        free(c->pfi[i].glob);
        pw_strv_free(&c->pfi[i].codes);
    }
    free(c->pfi);
    pw_lintconf_init(c);
}

/* ---- lines of keys ------------------------------------------------- */

/* A table header's name without blanks and quotes ("tool.pyward"). */
static void
header_name(const char *s, size_t n, char *out, size_t outn)
{
    size_t o = 0;
    for (size_t i = 0; i < n && s[i] != ']' && o + 1 < outn; i++) {
        if (s[i] != ' ' && s[i] != '\t' && s[i] != '"' && s[i] != '\'') {
            out[o++] = s[i];
        }
    }
    out[o] = '\0';
}

/* Whether the line S (blanks skipped) assigns KEY, bare or quoted. */
static bool
line_sets(const char *s, size_t n, const char *key)
{
    size_t k = strlen(key);
    size_t at = 0;
    if (n > 0 && (s[0] == '"' || s[0] == '\'')) {
        if (n < k + 2 || strncmp(s + 1, key, k) != 0 || s[k + 1] != s[0]) {
            return false;
        }
        at = k + 2;
    } else {
        if (n < k || strncmp(s, key, k) != 0) {
            return false;
        }
        at = k;
    }
    while (at < n && (s[at] == ' ' || s[at] == '\t')) {
        at++;
    }
    return at < n && (s[at] == '=' || s[at] == '.');
}

/* The 1-based line where TABLE ("" for the top level) sets KEY (NULL:
 * the table's header), 0 if it is not found. */
static int
key_line(const char *text, size_t len, const char *table, const char *key)
{
    char cur[256] = "";
    int line = 0;
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t end = nl != NULL ? (size_t)(nl - text) : len;
        const char *s = text + i;
        size_t n = end - i;
        line++;
        i = end + 1;
        while (n > 0 && (*s == ' ' || *s == '\t')) {
            s++;
            n--;
        }
        if (n > 1 && s[0] == '[' && s[1] != '[') {
            header_name(s + 1, n - 1, cur, sizeof(cur));
            if (key == NULL && strcmp(cur, table) == 0) {
                return line;
            }
            continue;
        }
        if (key != NULL && strcmp(cur, table) == 0 && line_sets(s, n, key)) {
            return line;
        }
    }
    return 0;
}

/* ---- values --------------------------------------------------------- */

struct reader {
    const char *file;
    const char *text;
    size_t len;
    const char *table; /* "tool.pyward" or "" */
    struct pw_lintconf *c;
    struct pw_error *err;
};

static const char *
toml_type(PyObject *v)
{
    if (PyBool_Check(v)) {
        return "a boolean";
    }
    if (PyLong_Check(v)) {
        return "an integer";
    }
    if (PyFloat_Check(v)) {
        return "a float";
    }
    if (PyUnicode_Check(v)) {
        return "a string";
    }
    if (PyList_Check(v)) {
        return "an array";
    }
    if (PyDict_Check(v)) {
        return "a table";
    }
    return "a date or time";
}

/* Fail naming the file, the line of KEY in SUB (a table below the
 * configuration's, or NULL) and the key. */
static int PW_PRINTF(4, 5) fail_at(const struct reader *r, const char *sub,
                                   const char *key, const char *fmt, ...)
{
    char where[300];
    int line = 0;
    if (sub != NULL) {
        (void)snprintf(where, sizeof(where), "%s%s%s", r->table,
                       r->table[0] != '\0' ? "." : "", sub);
        line = key_line(r->text, r->len, where, key);
        if (line == 0) {
            line = key_line(r->text, r->len, r->table, sub);
        }
    } else {
        line = key_line(r->text, r->len, r->table, key);
    }
    if (line == 0) {
        line = key_line(r->text, r->len, r->table, NULL);
    }
    char msg[400];
    va_list ap;
    va_start(ap, fmt);
    (void)vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    char lbuf[24] = "";
    if (line > 0) {
        (void)snprintf(lbuf, sizeof(lbuf), ":%d", line);
    }
    char name[300];
    if (sub != NULL) {
        (void)snprintf(name, sizeof(name), "%s '%s'", sub, key);
    } else {
        (void)snprintf(name, sizeof(name), "'%s'", key);
    }
    bool top = r->table[0] == '\0';
    return pw_fail(r->err, PW_ERR_INPUT, "%s%s: %s%s%s%s %s", r->file, lbuf,
                   top ? "" : "[", r->table, top ? "" : "] ", name, msg);
}

static const char *
utf8_of(PyObject *s)
{
    const char *u = PyUnicode_AsUTF8(s);
    if (u == NULL) {
        PyErr_Clear();
    }
    return u;
}

/* A list of strings into OUT; CODES: each must be a code prefix. */
static int
read_list(const struct reader *r, const char *sub, const char *key,
          PyObject *v, struct pw_strv *out, bool codes)
{
    if (!PyList_Check(v)) {
        return fail_at(r, sub, key, "must be an array of strings, not %s",
                       toml_type(v));
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(v); i++) {
        PyObject *item = PyList_GET_ITEM(v, i); /* borrowed */
        const char *s = PyUnicode_Check(item) ? utf8_of(item) : NULL;
        if (s == NULL) {
            return fail_at(r, sub, key,
                           "must be an array of strings; item %zd is %s",
                           (Py_ssize_t)i + 1, toml_type(item));
        }
        if (codes) {
            struct pw_select sel;
            pw_select_init(&sel);
            int rc = strchr(s, ',') == NULL
                         ? pw_select_add(&sel, PW_SEL_SELECT, s)
                         : -1;
            pw_select_free(&sel);
            if (rc < 0 || s[0] == '\0') {
                return fail_at(r, sub, key,
                               "holds '%s', which is not a code prefix "
                               "(PW, PW2, PW201)",
                               s);
            }
        }
        pw_strv_add(out, s);
    }
    return 0;
}

static int
read_string(const struct reader *r, const char *key, PyObject *v, char **out)
{
    const char *s = PyUnicode_Check(v) ? utf8_of(v) : NULL;
    if (s == NULL) {
        return fail_at(r, NULL, key, "must be a string, not %s", toml_type(v));
    }
    free(*out);
    *out = pw_xstrdup(s);
    return 0;
}

static int
read_bool(const struct reader *r, const char *key, PyObject *v, int *out)
{
    if (!PyBool_Check(v)) {
        return fail_at(r, NULL, key, "must be true or false, not %s",
                       toml_type(v));
    }
    *out = v == Py_True;
    return 0;
}

static int
read_pfi(const struct reader *r, const char *key, PyObject *v)
{
    if (!PyDict_Check(v)) {
        return fail_at(r, NULL, key,
                       "must be a table of globs to arrays of codes, not %s",
                       toml_type(v));
    }
    PyObject *k = NULL, *val = NULL; /* borrowed */
    Py_ssize_t pos = 0;
    while (PyDict_Next(v, &pos, &k, &val)) {
        const char *g = utf8_of(k);
        if (g == NULL) {
            return pw_fail(r->err, PW_ERR_INPUT,
                           "%s: a key of '%s' is not "
                           "UTF-8",
                           r->file, key);
        }
        struct pw_pfi p = {0};
        if (read_list(r, key, g, val, &p.codes, true) < 0) {
            pw_strv_free(&p.codes);
            return -1;
        }
        p.negate = g[0] == '!';
        p.glob = pw_xstrdup(g + p.negate);
        struct pw_lintconf *c = r->c;
        c->pfi = pw_xrealloc(c->pfi, sizeof(*c->pfi) * (c->npfi + 1));
        c->pfi[c->npfi++] = p;
    }
    return 0;
}

static int
read_profile(const struct reader *r, const char *key, PyObject *v)
{
    if (PyUnicode_Check(v)) {
        return read_string(r, key, v, &r->c->profile);
    }
    struct pw_strv l = {0};
    if (!PyList_Check(v)) {
        return fail_at(r, NULL, key,
                       "must be a string or an array of strings, not %s",
                       toml_type(v));
    }
    if (read_list(r, NULL, key, v, &l, false) < 0) {
        pw_strv_free(&l);
        return -1;
    }
    struct pw_buf b;
    pw_buf_init(&b);
    for (size_t i = 0; i < l.n; i++) {
        pw_buf_printf(&b, "%s%s", i > 0 ? "," : "", l.v[i]);
    }
    pw_strv_free(&l);
    free(r->c->profile);
    r->c->profile = pw_buf_take(&b, NULL);
    if (r->c->profile == NULL) {
        r->c->profile = pw_xstrdup("");
    }
    return 0;
}

static int
read_key(const struct reader *r, const char *key, PyObject *v)
{
    struct pw_lintconf *c = r->c;
    static const struct {
        const char *name;
        size_t off;
        bool codes;
    } lists[] = {
        {"select", offsetof(struct pw_lintconf, select), true},
        {"extend-select", offsetof(struct pw_lintconf, extend_select), true},
        {"ignore", offsetof(struct pw_lintconf, ignore), true},
        {"extend-ignore", offsetof(struct pw_lintconf, extend_ignore), true},
        {"exclude", offsetof(struct pw_lintconf, exclude), false},
        {"extend-exclude", offsetof(struct pw_lintconf, extend_exclude),
         false},
    };
    for (size_t i = 0; i < PW_N_ELEMENTS(lists); i++) {
        if (strcmp(key, lists[i].name) == 0) {
            c->has_select = c->has_select || strcmp(key, "select") == 0;
            c->has_exclude = c->has_exclude || strcmp(key, "exclude") == 0;
            return read_list(r, NULL, key, v,
                             (struct pw_strv *)((char *)c + lists[i].off),
                             lists[i].codes);
        }
    }
    if (strcmp(key, "rules") == 0) {
        return read_string(r, key, v, &c->rules);
    }
    if (strcmp(key, "profile") == 0) {
        return read_profile(r, key, v);
    }
    if (strcmp(key, "per-file-ignores") == 0 ||
        strcmp(key, "extend-per-file-ignores") == 0) {
        return read_pfi(r, key, v);
    }
    if (strcmp(key, "respect-gitignore") == 0) {
        return read_bool(r, key, v, &c->respect_gitignore);
    }
    if (strcmp(key, "force-exclude") == 0) {
        return read_bool(r, key, v, &c->force_exclude);
    }
    return fail_at(r, NULL, key,
                   "is not a key of pyward's configuration (see pyward(1))");
}

/* The table of the configuration in DOC (borrowed), NULL if there is
 * none. */
static PyObject *
pyproject_table(PyObject *doc)
{
    PyObject *tool = PyDict_GetItemString(doc, "tool"); /* borrowed */
    if (tool == NULL || !PyDict_Check(tool)) {
        return NULL;
    }
    return PyDict_GetItemString(tool, "pyward"); /* borrowed */
}

static bool
is_pyproject(const char *file)
{
    const char *b = strrchr(file, '/');
    return strcmp(b != NULL ? b + 1 : file, "pyproject.toml") == 0;
}

/* The parsed document of TEXT (new reference), NULL with ERR. */
static PyObject *
toml_loads(const char *file, const char *text, size_t len,
           struct pw_error *err)
{
    PW_PYAUTO PyObject *s =
        PyUnicode_DecodeUTF8(text, (Py_ssize_t)len, "strict");
    if (s == NULL) {
        PyErr_Clear();
        (void)pw_fail(err, PW_ERR_INPUT, "%s: not UTF-8 text", file);
        return NULL;
    }
    PW_PYAUTO PyObject *mod = pw_py_import("tomllib");
    if (mod == NULL) {
        (void)pw_py_fetch_error(err);
        return NULL;
    }
    PyObject *doc = PyObject_CallMethod(mod, "loads", "O", s);
    if (doc == NULL) {
        PyObject *t = NULL, *v = NULL, *tb = NULL;
        PyErr_Fetch(&t, &v, &tb);
        PW_PYAUTO PyObject *msg = v != NULL ? PyObject_Str(v) : NULL;
        const char *m = msg != NULL ? utf8_of(msg) : NULL;
        PyErr_Clear();
        (void)pw_fail(err, PW_ERR_INPUT, "%s: invalid TOML: %s", file,
                      m != NULL ? m : "(no message)");
        Py_XDECREF(t);
        Py_XDECREF(v);
        Py_XDECREF(tb);
    }
    return doc;
}

int
pw_lintconf_read(const char *file, struct pw_lintconf *c, struct pw_error *err)
{
    struct pw_buf b;
    pw_buf_init(&b);
    if (pw_read_file(file, CONF_MAX, &b, err) < 0) {
        pw_buf_free(&b);
        return -1;
    }
    size_t len = 0;
    PW_AUTOFREE char *text = pw_buf_take(&b, &len);
    PW_PYAUTO PyObject *doc = toml_loads(file, text, len, err);
    if (doc == NULL) {
        return -1;
    }
    bool pyproject = is_pyproject(file);
    struct reader r = {file, text, len, pyproject ? "tool.pyward" : "",
                       c,    err};
    PyObject *table = pyproject ? pyproject_table(doc) : doc; /* borrowed */
    if (table == NULL) {
        return 0;
    }
    if (!PyDict_Check(table)) {
        return pw_fail(err, PW_ERR_INPUT, "%s: [tool.pyward] must be a table",
                       file);
    }
    char *abs = realpath(file, NULL);
    if (abs == NULL) {
        return pw_fail_errno(err, PW_ERR_IO, "%s", file);
    }
    pw_lintconf_free(c);
    c->file = pw_xstrdup(file);
    char *slash = strrchr(abs, '/');
    if (slash == abs) {
        slash[1] = '\0';
    } else if (slash != NULL) {
        *slash = '\0';
    }
    c->root = abs;
    PyObject *k = NULL, *v = NULL; /* borrowed */
    Py_ssize_t pos = 0;
    while (PyDict_Next(table, &pos, &k, &v)) {
        const char *key = utf8_of(k);
        if (key == NULL) {
            return pw_fail(err, PW_ERR_INPUT, "%s: a key is not UTF-8", file);
        }
        if (read_key(&r, key, v) < 0) {
            return -1;
        }
    }
    if (c->rules != NULL && strcmp(c->rules, "default") != 0 &&
        strcmp(c->rules, "restricted") != 0 && c->rules[0] != '/') {
        char *dir = pw_xasprintf("%s/%s", c->root, c->rules);
        free(c->rules);
        c->rules = dir;
    }
    return 1;
}

void
pw_lintconf_where(const struct pw_lintconf *c, const char *key, char *buf,
                  size_t n)
{
    const char *file = c->file != NULL ? c->file : "";
    bool pyproject = is_pyproject(file);
    struct pw_buf b;
    struct pw_error err = {0};
    pw_buf_init(&b);
    int line = 0;
    if (pw_read_file(file, CONF_MAX, &b, &err) == 0 && b.data != NULL) {
        line = key_line(b.data, b.len, pyproject ? "tool.pyward" : "", key);
    }
    pw_buf_free(&b);
    char lbuf[24] = "";
    if (line > 0) {
        (void)snprintf(lbuf, sizeof(lbuf), ":%d", line);
    }
    (void)snprintf(buf, n, "%s%s: %s'%s'", file, lbuf,
                   pyproject ? "[tool.pyward] " : "", key);
}

static bool
is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* Whether the INI file PATH has a [pyward] section. */
static bool
has_pyward_section(const char *path)
{
    struct pw_buf b;
    struct pw_error err = {0};
    pw_buf_init(&b);
    bool found = false;
    if (pw_read_file(path, CONF_MAX, &b, &err) == 0 && b.data != NULL) {
        for (const char *l = b.data; l != NULL && !found;) {
            while (*l == ' ' || *l == '\t') {
                l++;
            }
            found = strncmp(l, "[pyward]", 8) == 0;
            l = strchr(l, '\n');
            l = l != NULL ? l + 1 : NULL;
        }
    }
    pw_buf_free(&b);
    return found;
}

char *
pw_lintconf_legacy(const char *dir)
{
    PW_AUTOFREE char *d = realpath(dir, NULL);
    if (d == NULL) {
        return NULL;
    }
    for (;;) {
        static const char *const names[] = {"setup.cfg", "tox.ini", ".flake8"};
        for (size_t i = 0; i < PW_N_ELEMENTS(names); i++) {
            char *f =
                pw_xasprintf("%s/%s", strcmp(d, "/") == 0 ? "" : d, names[i]);
            if (is_file(f) && has_pyward_section(f)) {
                return f;
            }
            free(f);
        }
        char *slash = strrchr(d, '/');
        if (slash == NULL || strcmp(d, "/") == 0) {
            return NULL;
        }
        if (slash == d) {
            slash[1] = '\0';
        } else {
            *slash = '\0';
        }
    }
}

int
pw_lintconf_find(const char *dir, bool up, struct pw_lintconf *c,
                 struct pw_error *err)
{
    PW_AUTOFREE char *d = realpath(dir, NULL);
    if (d == NULL) {
        return pw_fail_errno(err, PW_ERR_IO, "%s", dir);
    }
    for (;;) {
        static const char *const names[] = {"pyward.toml", "pyproject.toml"};
        for (size_t i = 0; i < PW_N_ELEMENTS(names); i++) {
            PW_AUTOFREE char *f =
                pw_xasprintf("%s/%s", strcmp(d, "/") == 0 ? "" : d, names[i]);
            if (is_file(f)) {
                int rc = pw_lintconf_read(f, c, err);
                if (rc != 0) {
                    return rc;
                }
            }
        }
        char *slash = strrchr(d, '/');
        if (!up || slash == NULL || strcmp(d, "/") == 0) {
            return 0;
        }
        if (slash == d) {
            slash[1] = '\0';
        } else {
            *slash = '\0';
        }
    }
}
