/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * guard.c - load the guard (the modules under src/sandbox/interp/guard/)
 * in the zygote, import the profiles' modules, scrub the environment, and
 * in the child prepare, arm and execute.
 */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <string.h>

#include "core/json.h"
#include "core/rules.h"
#include "core/py.h"
#include <marshal.h> /* after Python.h (core/py.h) */
#include "sandbox/interp/audit.h"
#include "sandbox/interp/batchstate.h"
#include "sandbox/interp/guard.h"
#include "core/util.h"

/* One module of the guard, embedded: its source (NUL-terminated) and its
 * code object compiled at build time by guardc, marshalled. */
struct guard_module {
    const char *name; /* pyward_guard.NAME; NULL ends the table */
    const unsigned char *src;
    size_t src_len;
    const unsigned char *code;
    size_t code_len;
};

/* PW_LINT_STUBS: the C linters (tests/lint) read one byte of each
 * generated array; their whole bytes cost them minutes and hold no C. */
#ifndef PW_LINT_STUBS
/* guard_code_magic and guard_modules[], in the order of GUARD_PY
 * (src/sandbox/sandbox.mk), the loader first. */
#include "src/sandbox/interp/guard-modules.inc"
#else
static const long guard_code_magic = 0;
static const struct guard_module guard_modules[] = {{NULL, NULL, 0, NULL, 0}};
#endif

/* The module that makes the others (loader.py) and the one whose names
 * guard_call calls (entry.py). */
#define GUARD_LOADER "pyward_guard.loader"
#define GUARD_ENTRY  "pyward_guard.entry"

static PyObject *guard_modules_made; /* owned: {name: module} */
static PyObject *guard_ns;           /* owned: the entry module's dict */
static const struct pw_importset *cur_imports;
static PyObject *prepared; /* child: (code, globals, error) */

static bool
is_allowed(const char *name)
{
    return cur_imports != NULL &&
           pw_importset_check(cur_imports, name, NULL) == PW_IMPORT_ALLOWED;
}

static PyObject *
py_allowed(PyObject *self, PyObject *arg)
{
    const char *name = PyUnicode_AsUTF8(arg);
    if (name == NULL) {
        return NULL;
    }
    return PyBool_FromLong(is_allowed(name));
}

static bool
list_below(char *const *list, const char *top, size_t n)
{
    for (size_t i = 0; list != NULL && list[i] != NULL; i++) {
        if (strncmp(list[i], top, n) == 0 && list[i][n] == '.' &&
            is_allowed(list[i])) {
            return true;
        }
    }
    return false;
}

static PyObject *
py_any_below(PyObject *self, PyObject *arg)
{
    const char *top = PyUnicode_AsUTF8(arg);
    if (top == NULL) {
        return NULL;
    }
    size_t n = strlen(top);
    const struct pw_importset *s = cur_imports;
    bool found = s != NULL && list_below((char *const *)s->extra, top, n);
    for (size_t i = 0; s != NULL && !found && i < s->profiles->n; i++) {
        found = list_below(s->profiles->v[i].modules, top, n);
    }
    return PyBool_FromLong(found);
}

static PyObject *
py_import_check(PyObject *self, PyObject *arg)
{
    const char *name = PyUnicode_AsUTF8(arg);
    if (name == NULL) {
        return NULL;
    }
    const char *which = NULL;
    enum pw_import_verdict v =
        cur_imports == NULL ? PW_IMPORT_DENIED
                            : pw_importset_check(cur_imports, name, &which);
    switch (v) {
    case PW_IMPORT_ALLOWED:
        Py_RETURN_NONE;
    case PW_IMPORT_OTHER_PROFILE:
    case PW_IMPORT_DENIED:
        break;
    }
    /* The program's reader may be a student: no profile named (the
     * validator's findings name it for the tools). */
    (void)which;
    return PyUnicode_FromFormat("import of '%s' is not allowed in this "
                                "sandbox",
                                name);
}

/* at_ok(dir_fd, path, flags): None, or PermissionError when the full
 * path of PATH relative to DIR_FD is refused by the path rules. */
static PyObject *
py_at_ok(PyObject *self, PyObject *args)
{
    int dir_fd;
    int flags;
    PW_PYAUTO PyObject *path = NULL;
    if (!PyArg_ParseTuple(args, "iO&i", &dir_fd, PyUnicode_FSConverter, &path,
                          &flags)) {
        return NULL;
    }
    if (pw_sbx_audit_check_at(dir_fd, PyBytes_AS_STRING(path), flags) < 0) {
        return NULL;
    }
    Py_RETURN_NONE;
}

/* known(name): whether the top-level module of NAME exists at all. */
static PyObject *
py_known(PyObject *self, PyObject *arg)
{
    const char *name = PyUnicode_AsUTF8(arg);
    if (name == NULL) {
        return NULL;
    }
    return PyBool_FromLong(pw_py_module_known(name));
}

static PyMethodDef callbacks[] = {
    {"allowed", py_allowed, METH_O, NULL},
    {"any_below", py_any_below, METH_O, NULL},
    {"import_check", py_import_check, METH_O, NULL},
    {"at_ok", py_at_ok, METH_VARARGS, NULL},
    {"known", py_known, METH_O, NULL},
};

static PyObject *
guard_call(const char *fn, const char *fmt, ...)
{
    /* A server loads the guard when it first needs it (its zygotes load
     * their own while it answers). */
    struct pw_error err = {0};
    if (guard_ns == NULL && pw_sbx_guard_init(&err) < 0) {
        PyErr_Format(PyExc_RuntimeError, "the guard: %s", err.message);
        return NULL;
    }
    /* borrowed */ PyObject *f = PyDict_GetItemString(guard_ns, fn);
    if (f == NULL) {
        PyErr_Format(PyExc_RuntimeError, "guard.%s missing", fn);
        return NULL;
    }
    va_list ap;
    va_start(ap, fmt);
    PW_PYAUTO PyObject *args = Py_VaBuildValue(fmt, ap);
    va_end(ap);
    if (args == NULL) {
        return NULL;
    }
    return PyObject_CallObject(f, args);
}

/* New reference: module M's code object as built (loading it takes a
 * fortieth of compiling the source), or compiled now if this interpreter
 * reads other bytecode than the one it was built with.  Every module
 * carries the one file name PW_SBX_GUARD_FILE. */
static PyObject *
guard_code_object(const struct guard_module *m, bool built)
{
    if (built && PyImport_GetMagicNumber() == guard_code_magic) {
        PyObject *c = PyMarshal_ReadObjectFromString((const char *)m->code,
                                                     (Py_ssize_t)m->code_len);
        if (c != NULL && PyCode_Check(c)) {
            return c;
        }
        Py_XDECREF(c);
        PyErr_Clear();
    }
    return Py_CompileString((const char *)m->src, PW_SBX_GUARD_FILE,
                            Py_file_input);
}

bool
pw_sbx_guard_code_current(void)
{
    bool current = PyImport_GetMagicNumber() == guard_code_magic &&
                   guard_modules[0].name != NULL;
    for (const struct guard_module *m = guard_modules;
         current && m->name != NULL; m++) {
        PW_PYAUTO PyObject *built = guard_code_object(m, true);
        PW_PYAUTO PyObject *now = guard_code_object(m, false);
        current = built != NULL && now != NULL &&
                  PyObject_RichCompareBool(built, now, Py_EQ) == 1;
    }
    PyErr_Clear();
    return current;
}

/* New reference: the loader's namespace (loader.py executed into a dict
 * of its own, with the real builtins), and in CODES (borrowed) each other
 * module's code and in ORDER its name. */
static PyObject *
guard_loader(PyObject *codes, PyObject *order)
{
    PW_PYAUTO PyObject *ns = PyDict_New();
    bool have_loader = false;
    if (ns == NULL ||
        PyDict_SetItemString(ns, "__builtins__", PyEval_GetBuiltins()) < 0) {
        return NULL;
    }
    for (const struct guard_module *m = guard_modules; m->name != NULL; m++) {
        PW_PYAUTO PyObject *code = guard_code_object(m, true);
        PW_PYAUTO PyObject *name = PyUnicode_FromString(m->name);
        if (code == NULL || name == NULL) {
            return NULL;
        }
        if (strcmp(m->name, GUARD_LOADER) == 0) {
            PW_PYAUTO PyObject *r =
                PyDict_SetItemString(ns, "__name__", name) == 0
                    ? PyEval_EvalCode(code, ns, ns)
                    : NULL;
            if (r == NULL) {
                return NULL;
            }
            have_loader = true;
        } else if (PyDict_SetItem(codes, name, code) < 0 ||
                   PyList_Append(order, name) < 0) {
            return NULL;
        }
    }
    if (!have_loader) {
        PyErr_SetString(PyExc_RuntimeError, "no " GUARD_LOADER " embedded");
        return NULL;
    }
    return pw_steal(&ns);
}

/* Make the guard's modules (loader.py's load()): guard_modules_made and
 * guard_ns, or -1 with a Python error. */
static int
make_modules(void)
{
    PW_PYAUTO PyObject *codes = PyDict_New();
    PW_PYAUTO PyObject *order = PyList_New(0);
    PW_PYAUTO PyObject *ns =
        codes != NULL && order != NULL ? guard_loader(codes, order) : NULL;
    /* borrowed */ PyObject *load =
        ns != NULL ? PyDict_GetItemString(ns, "load") : NULL;
    PW_PYAUTO PyObject *mods =
        load != NULL ? PyObject_CallFunctionObjArgs(load, codes, order, NULL)
                     : NULL;
    /* borrowed */ PyObject *entry =
        mods != NULL && PyDict_Check(mods)
            ? PyDict_GetItemString(mods, GUARD_ENTRY)
            : NULL;
    if (entry == NULL || !PyModule_Check(entry)) {
        if (!PyErr_Occurred()) {
            PyErr_SetString(PyExc_RuntimeError,
                            "the guard's loader made no " GUARD_ENTRY);
        }
        return -1;
    }
    guard_ns = Py_NewRef(PyModule_GetDict(entry));
    guard_modules_made = pw_steal(&mods);
    return 0;
}

static int
load_guard(void)
{
    if (make_modules() < 0) {
        return -1;
    }
    PW_PYAUTO PyObject *f0 = PyCFunction_New(&callbacks[0], NULL);
    PW_PYAUTO PyObject *f1 = PyCFunction_New(&callbacks[1], NULL);
    PW_PYAUTO PyObject *f2 = PyCFunction_New(&callbacks[2], NULL);
    PW_PYAUTO PyObject *f3 = PyCFunction_New(&callbacks[3], NULL);
    PW_PYAUTO PyObject *f4 = PyCFunction_New(&callbacks[4], NULL);
    if (f0 == NULL || f1 == NULL || f2 == NULL || f3 == NULL || f4 == NULL) {
        return -1;
    }
    /* Every directory of sys.path listed once here (the import system
     * keeps the listings), before any run closes the files. */
    (void)pw_py_module_known("pyward_no_such_module");
    PW_PYAUTO PyObject *r = guard_call("init", "(OOOOO)", f0, f1, f2, f3, f4);
    return r == NULL ? -1 : 0;
}

static bool
in_list(char *const *list, size_t n, const char *name)
{
    for (size_t k = 0; k < n; k++) {
        if (strcmp(list[k], name) == 0) {
            return true;
        }
    }
    return false;
}

/* NAMES but those of SKIP appended to LIST. */
static int
append_names_but(PyObject *list, char *const *names, size_t n,
                 char *const *skip, size_t nskip)
{
    for (size_t k = 0; k < n; k++) {
        if (in_list(skip, nskip, names[k])) {
            continue;
        }
        PW_PYAUTO PyObject *s = PyUnicode_FromString(names[k]);
        if (s == NULL || PyList_Append(list, s) < 0) {
            return -1;
        }
    }
    return 0;
}

/* New reference: the modules every run allows and those of the enabled
 * profiles (or, with PRELOAD, the enabled profiles' extra preloads). */
static PyObject *
module_list(const struct pw_profiles *profiles, pw_profile_mask enabled,
            bool preload)
{
    PW_PYAUTO PyObject *names = PyList_New(0);
    if (names != NULL && !preload &&
        append_names_but(names, profiles->always.modules,
                         profiles->always.nmodules, NULL, 0) < 0) {
        return NULL;
    }
    for (size_t i = 0; names != NULL && i < profiles->n; i++) {
        const struct pw_profile *p = &profiles->v[i];
        if (!(enabled & (1UL << i))) {
            continue;
        }
        /* A package set's modules but those it preloads: a run imports
         * them itself. */
        if (append_names_but(names, preload ? p->preload : p->modules,
                             preload ? p->npreload : p->nmodules,
                             preload ? NULL : p->lazy,
                             preload ? 0 : p->nlazy) < 0) {
            return NULL;
        }
    }
    return pw_steal(&names);
}

static char *
join_missing(PyObject *list)
{
    struct pw_buf b;
    pw_buf_init(&b);
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(list); i++) {
        const char *s = PyUnicode_AsUTF8(PyList_GET_ITEM(list, i));
        if (s == NULL) {
            PyErr_Clear();
            break;
        }
        pw_buf_printf(&b, "%s%s", i > 0 ? ", " : "", s);
    }
    return b.len > 0 ? pw_buf_take(&b, NULL) : (pw_buf_free(&b), NULL);
}

/* rules/runtime.json, the runtime policy: checked here (every key known,
 * every value of its type), applied by the guard (the whole file, see
 * src/sandbox/interp/guard/policy.py) and by the audit hook ("audit"). */
static bool
is_str_list(json_t *a)
{
    size_t i;
    json_t *v;
    if (!json_is_array(a)) {
        return false;
    }
    json_array_foreach(a, i, v) {
        if (!json_is_string(v)) {
            return false;
        }
    }
    return true;
}

/* A list of names: strings, none of them empty. */
static bool
is_name_list(json_t *a)
{
    size_t i;
    json_t *v;
    if (!is_str_list(a)) {
        return false;
    }
    json_array_foreach(a, i, v) {
        if (json_string_length(v) == 0) {
            return false;
        }
    }
    return true;
}

static bool
entry_ok(json_t *e)
{
    static const char *const keys[] = {
        "module", "name",         "why", "refuse_prefixes",
        "allow",  "check_dir_fd", NULL};
    json_t *pre = json_object_get(e, "refuse_prefixes");
    json_t *allow = json_object_get(e, "allow");
    json_t *at = json_object_get(e, "check_dir_fd");
    return json_is_object(e) &&
           pw_json_unknown_key(e, keys, SIZE_MAX) == NULL &&
           json_is_string(json_object_get(e, "module")) &&
           json_is_string(json_object_get(e, "name")) &&
           json_is_string(json_object_get(e, "why")) &&
           (pre == NULL || is_str_list(pre)) &&
           (allow == NULL || is_str_list(allow)) &&
           (at == NULL || json_is_boolean(at));
}

/* OBJ is an object with exactly the keys KEYS (N of them), each a list
 * of names; or the name of the first key that is missing, unknown or not
 * such a list. */
static const char *
name_lists_bad(json_t *obj, const char *const *keys, size_t n)
{
    const char *bad = pw_json_unknown_key(obj, keys, n);
    for (size_t k = 0; bad == NULL && k < n; k++) {
        if (!is_name_list(json_object_get(obj, keys[k]))) {
            bad = keys[k];
        }
    }
    return bad;
}

/* The "attributes" object (the guard's attribute policy): NULL, or the
 * key that is missing, unknown or of the wrong type. */
static const char *
attributes_bad(json_t *a)
{
    static const char *const keys[] = {
        "inspect",          "inspect_async",   "refused",
        "refused_prefixes", "allowed_dunders", "type_dunders",
        "owned_prefixes",   "super_refused",   "name_dunders",
        "facade_dunders",   "template_names",  "module_refused"};
    if (!json_is_object(a)) {
        return "(not an object)";
    }
    const char *bad = pw_json_unknown_key(a, keys, PW_N_ELEMENTS(keys));
    /* Every key but the last two is a list of names. */
    for (size_t k = 0; bad == NULL && k + 2 < PW_N_ELEMENTS(keys); k++) {
        if (!is_name_list(json_object_get(a, keys[k]))) {
            bad = keys[k];
        }
    }
    if (bad == NULL && !json_is_string(json_object_get(a, "template_names"))) {
        bad = "template_names";
    }
    json_t *mods = json_object_get(a, "module_refused");
    if (bad == NULL && !json_is_object(mods)) {
        bad = "module_refused";
    }
    const char *m;
    json_t *v;
    json_object_foreach(mods, m, v) {
        if (bad == NULL && !is_name_list(v)) {
            bad = "module_refused";
        }
    }
    return bad;
}

/* "facades": {module: [name, ...]}. */
static bool
facades_ok(json_t *f)
{
    const char *m;
    json_t *v;
    if (!json_is_object(f)) {
        return false;
    }
    json_object_foreach(f, m, v) {
        if (!is_name_list(v)) {
            return false;
        }
    }
    return true;
}

static int
runtime_check(json_t *root, const char *file, struct pw_error *err)
{
    static const char *const keys[] = {"comment",
                                       "deny",
                                       "wrap",
                                       "guarded_exec",
                                       "refused_builtins",
                                       "attributes",
                                       "audit",
                                       "facades",
                                       "facades_whole_with_open",
                                       NULL};
    const char *bad = json_is_object(root)
                          ? pw_json_unknown_key(root, keys, SIZE_MAX)
                          : "(not an object)";
    if (bad != NULL) {
        return pw_fail(err, PW_ERR_INPUT, "%s: unknown key '%s'", file, bad);
    }
    static const char *const lists[] = {"deny", "wrap"};
    for (size_t k = 0; k < PW_N_ELEMENTS(lists); k++) {
        json_t *arr = json_object_get(root, lists[k]);
        size_t i;
        json_t *e;
        if (!json_is_array(arr)) {
            return pw_fail(err, PW_ERR_INPUT, "%s: '%s' must be a list", file,
                           lists[k]);
        }
        json_array_foreach(arr, i, e) {
            if (!entry_ok(e)) {
                return pw_fail(err, PW_ERR_INPUT,
                               "%s: '%s' entry %zu: needs module, name and "
                               "why (strings) and only known keys",
                               file, lists[k], i);
            }
        }
    }
    static const char *const names[] = {"guarded_exec", "refused_builtins",
                                        "facades_whole_with_open"};
    for (size_t k = 0; k < PW_N_ELEMENTS(names); k++) {
        if (!is_str_list(json_object_get(root, names[k]))) {
            return pw_fail(err, PW_ERR_INPUT,
                           "%s: '%s' must be a list of strings", file,
                           names[k]);
        }
    }
    if (!facades_ok(json_object_get(root, "facades"))) {
        return pw_fail(err, PW_ERR_INPUT,
                       "%s: 'facades' must map module names to lists of "
                       "names",
                       file);
    }
    if ((bad = attributes_bad(json_object_get(root, "attributes"))) != NULL) {
        return pw_fail(err, PW_ERR_INPUT,
                       "%s: 'attributes': '%s' missing, unknown or not a "
                       "list of names",
                       file, bad);
    }
    json_t *audit = json_object_get(root, "audit");
    bad = json_is_object(audit)
              ? name_lists_bad(audit, pw_sbx_audit_keys, PW_SBX_AUDIT_NLISTS)
              : "(not an object)";
    if (bad != NULL) {
        return pw_fail(err, PW_ERR_INPUT,
                       "%s: 'audit': '%s' missing, unknown or not a list of "
                       "names",
                       file, bad);
    }
    return 0;
}

/* The audit hook's lists, from a checked policy. */
static void
audit_lists(json_t *audit)
{
    for (size_t k = 0; k < PW_SBX_AUDIT_NLISTS; k++) {
        size_t i;
        json_t *v;
        json_array_foreach(json_object_get(audit, pw_sbx_audit_keys[k]), i,
                           v) {
            pw_sbx_audit_add((enum pw_sbx_audit_list)k, json_string_value(v));
        }
    }
}

/* The runtime policy as compact JSON text (owned), or NULL with ERR. */
static char *
runtime_load(struct pw_error *err)
{
    PW_AUTOFREE char *dir = pw_rules_dir(NULL);
    PW_AUTOFREE char *file = pw_xasprintf("%s/runtime.json", dir);
    json_t *root = pw_json_load_file(file, err);
    if (root == NULL) {
        return NULL;
    }
    char *text = NULL;
    if (runtime_check(root, file, err) == 0) {
        audit_lists(json_object_get(root, "audit"));
        if (pw_sbx_audit_seal() < 0) {
            pw_fail(err, PW_ERR_SANDBOX, "the audit hook's lists: %s",
                    strerror(errno));
        } else {
            text = json_dumps(root, JSON_COMPACT); /* an object: never NULL */
        }
    }
    json_decref(root);
    return text;
}

/* The runtime policy's text, loaded once like the other rule files: a
 * later zygote starts after the environment (PYWARD_RULES_DIR) was
 * scrubbed. */
static char *runtime;

int
pw_sbx_guard_init(struct pw_error *err)
{
    if (runtime == NULL && (runtime = runtime_load(err)) == NULL) {
        return -1;
    }
    if (guard_ns == NULL) {
        PW_PYAUTO PyObject *r =
            load_guard() == 0 ? guard_call("rewrite_policy", "(s)", runtime)
                              : NULL;
        if (r == NULL) {
            return pw_py_fetch_error(err);
        }
    }
    return 0;
}

PyObject *
pw_sbx_guard_static_imports(PyObject *sources)
{
    return guard_call("static_imports", "(O)", sources);
}

int
pw_sbx_guard_preload(const struct pw_profiles *profiles,
                     pw_profile_mask enabled, PyObject *only, char **missing,
                     struct pw_error *err)
{
    *missing = NULL;
    /* The package sets' directories: on the zygote's sys.path (so on
     * its runs'), appended as they are (no site processing: their .pth
     * files are never read). */
    PyObject *path = PySys_GetObject("path"); /* borrowed */
    for (size_t i = 0; i < profiles->npaths; i++) {
        PW_PYAUTO PyObject *d = PyUnicode_DecodeFSDefault(profiles->paths[i]);
        if (path == NULL || d == NULL || PyList_Append(path, d) < 0) {
            return pw_py_fetch_error(err);
        }
    }
    PW_PYAUTO PyObject *names = module_list(profiles, enabled, false);
    PW_PYAUTO PyObject *more = module_list(profiles, enabled, true);
    PW_PYAUTO PyObject *miss =
        names && more ? guard_call("preload", "(OOsO)", names, more, runtime,
                                   only != NULL ? only : Py_None)
                      : NULL;
    if (miss == NULL || !PyList_Check(miss) ||
        pw_sbx_audit_wrap_import() < 0) {
        return pw_py_fetch_error(err);
    }
    *missing = join_missing(miss);
    return 0;
}

static void
wipe_values(PyObject *dict)
{
    PyObject *key, *value; /* borrowed */
    Py_ssize_t pos = 0;
    while (PyDict_Next(dict, &pos, &key, &value)) {
        if (PyBytes_Check(value) && PyBytes_GET_SIZE(value) > 1 &&
            Py_REFCNT(value) == 1) {
            memset(PyBytes_AS_STRING(value), 0, PyBytes_GET_SIZE(value));
        }
    }
}

int
pw_sbx_scrub_env(struct pw_error *err)
{
    PW_PYAUTO PyObject *posix = PyImport_ImportModule("posix");
    PW_PYAUTO PyObject *os = PyImport_ImportModule("os");
    PW_PYAUTO PyObject *penv =
        posix ? PyObject_GetAttrString(posix, "environ") : NULL;
    PW_PYAUTO PyObject *oenv =
        os ? PyObject_GetAttrString(os, "environ") : NULL;
    if (penv == NULL || oenv == NULL || !PyDict_Check(penv)) {
        return pw_py_fetch_error(err);
    }
    wipe_values(penv);
    /* First the strings themselves (the original block is what
     * /proc/self/environ shows), then every copy. */
    for (char **e = environ; e != NULL && *e != NULL; e++) {
        memset(*e, 0, strlen(*e));
    }
    PW_PYAUTO PyObject *r = PyObject_CallMethod(oenv, "clear", NULL);
    if (r == NULL) {
        return pw_py_fetch_error(err);
    }
    PyDict_Clear(penv);
    if (clearenv() != 0) {
        return pw_fail(err, PW_ERR_SANDBOX, "clearenv failed");
    }
    return 0;
}

PyObject *
pw_sbx_guard_code_blob(const char *code, size_t len, unsigned caps)
{
    PyObject *r =
        guard_call("code_blob", "(y#O)", code, (Py_ssize_t)len,
                   caps & PW_CAP_TEMPLATE_NAMES ? Py_True : Py_False);
    if (r == NULL || !PyBytes_Check(r)) {
        PyErr_Clear(); /* the child compiles, and reports what fails */
        Py_XDECREF(r);
        return NULL;
    }
    return r;
}

bool
pw_sbx_guard_attr_refused(const char *name)
{
    PyObject *r = guard_call("attr_refused", "(s)", name);
    int refused = r != NULL ? PyObject_IsTrue(r) : -1;
    Py_XDECREF(r);
    if (refused < 0) {
        PyErr_Clear();
        return true;
    }
    return refused == 1;
}

PyObject *
pw_sbx_guard_compile(const char *code, size_t len, unsigned caps,
                     const char *blob, size_t blob_len, struct pw_error *err)
{
    PW_PYAUTO PyObject *b =
        blob != NULL ? PyBytes_FromStringAndSize(blob, (Py_ssize_t)blob_len)
                     : Py_NewRef(Py_None);
    PyObject *r =
        b == NULL
            ? NULL
            : guard_call("precompile", "(y#OO)", code, (Py_ssize_t)len,
                         caps & PW_CAP_TEMPLATE_NAMES ? Py_True : Py_False, b);
    if (r == NULL) {
        pw_py_fetch_error(err);
    }
    return r;
}

/* New reference: ARGV as a list of str (undecodable bytes escaped), or
 * ["<user>"] when NULL. */
static PyObject *
argv_list(const char *const *argv)
{
    static const char *const none[] = {"<user>", NULL};
    const char *const *v = argv != NULL ? argv : none;
    PyObject *list = PyList_New(0);
    for (size_t i = 0; list != NULL && v[i] != NULL; i++) {
        PW_PYAUTO PyObject *s = PyUnicode_DecodeUTF8(
            v[i], (Py_ssize_t)strlen(v[i]), "backslashreplace");
        if (s == NULL || PyList_Append(list, s) < 0) {
            Py_CLEAR(list);
        }
    }
    return list;
}

int
pw_sbx_guard_ready(const char *scratch)
{
    PW_PYAUTO PyObject *r = guard_call("ready", "(s)", scratch);
    if (r == NULL) {
        PyErr_Print();
        return -1;
    }
    return 0;
}

int
pw_sbx_guard_prepare(const struct pw_sbx_guard_run *run, PyObject *compiled)
{
    cur_imports = run->imports;
    pw_sbx_audit_configure(run->caps, run->scratch, run->result_fd);
    PW_PYAUTO PyObject *argv = argv_list(run->argv);
    prepared =
        argv == NULL
            ? NULL
            : guard_call("prepare", "(OsOO)", compiled, run->scratch, argv,
                         run->caps & PW_CAP_OPEN_BUILTIN ? Py_True : Py_False);
    if (prepared == NULL || !PyTuple_Check(prepared) ||
        PyTuple_GET_SIZE(prepared) != 3) {
        PyErr_Print();
        return -1;
    }
    return 0;
}

int
pw_sbx_guard_next(PyObject *compiled, const char *stdin_data, size_t stdin_len)
{
    PyObject *next = guard_call("next_call", "(OOy#)", compiled,
                                PyTuple_GET_ITEM(prepared, 1), stdin_data,
                                (Py_ssize_t)stdin_len);
    if (next == NULL || !PyTuple_Check(next) || PyTuple_GET_SIZE(next) != 3) {
        Py_XDECREF(next);
        PyErr_Print();
        return -1;
    }
    Py_SETREF(prepared, next);
    return 0;
}

/* The context (contextvars: decimal's context among them) the test of a
 * batch runs in: a copy of the batch's first, so that what one test sets
 * there is gone for the next. */
static PyObject *batch_ctx;
static bool batch_started;

/* The report of a test the batch's process does not run: the state the
 * tests before it left cannot be vouched for (batch.py, batchstate.c). */
static void
batch_refuse(void)
{
    static const char rec[] = "R{\"exit_status\": 0, \"rerun\": true}\n";
    (void)pw_write_all(pw_sbx_audit_result_fd(), rec, sizeof(rec) - 1);
}

int
pw_sbx_guard_batch_test(const char *in, size_t len, bool writes,
                        bool compiled_here)
{
    if (batch_ctx != NULL) {
        if (PyContext_Exit(batch_ctx) < 0) {
            PyErr_Print();
            return -1;
        }
        Py_CLEAR(batch_ctx);
    }
    bool dirty = batch_started && pw_sbx_batch_state_changed();
    PyObject *next =
        dirty ? Py_NewRef(Py_None)
              : guard_call("batch_test", "(Oy#OO)", prepared, in,
                           (Py_ssize_t)len, writes ? Py_True : Py_False,
                           compiled_here ? Py_True : Py_False);
    if (next == Py_None) {
        Py_DECREF(next);
        batch_refuse();
        return 1;
    }
    if (next == NULL || !PyTuple_Check(next) || PyTuple_GET_SIZE(next) != 3) {
        Py_XDECREF(next);
        PyErr_Print();
        return -1;
    }
    Py_SETREF(prepared, next);
    if (!batch_started) {
        if (pw_sbx_batch_state_take() < 0) {
            PyErr_Print();
            return -1;
        }
        batch_started = true;
    } else {
        pw_sbx_batch_state_mark();
    }
    batch_ctx = PyContext_CopyCurrent();
    if (batch_ctx == NULL || PyContext_Enter(batch_ctx) < 0) {
        PyErr_Print();
        return -1;
    }
    return 0;
}

void
pw_sbx_guard_warmup(bool (*stop)(void), bool plot)
{
    PW_PYAUTO PyObject *steps =
        guard_call("warmup", "(O)", plot ? Py_True : Py_False);
    while (steps != NULL && !stop()) {
        PyObject *r = PyIter_Next(steps);
        if (r == NULL) {
            break;
        }
        Py_DECREF(r);
    }
    PyErr_Clear();
}

int
pw_sbx_guard_arm(void)
{
    return pw_sbx_audit_install();
}

int
pw_sbx_guard_execute(void)
{
    int fd = pw_sbx_audit_result_fd();
    PW_PYAUTO PyObject *r = guard_call(
        "execute", "(OOOi)", PyTuple_GET_ITEM(prepared, 0),
        PyTuple_GET_ITEM(prepared, 1), PyTuple_GET_ITEM(prepared, 2), fd);
    if (r == NULL) {
        PyErr_Print();
        return 1;
    }
    long status = PyLong_Check(r) ? PyLong_AsLong(r) : 1;
    return status >= 0 && status <= 255 ? (int)status : 1;
}
