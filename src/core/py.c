/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * py.c - isolated initialisation of the embedded interpreter.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "core/py.h"
#include "core/util.h"

static int initialized;

static int
check_status(PyStatus st, PyConfig *config, struct pw_error *err)
{
    if (!PyStatus_Exception(st)) {
        return 0;
    }
    if (config != NULL) {
        PyConfig_Clear(config);
    }
    return pw_fail(err, PW_ERR_PYTHON, "python initialisation failed: %s%s%s",
                   st.func != NULL ? st.func : "", st.func != NULL ? ": " : "",
                   st.err_msg != NULL ? st.err_msg : "unknown error");
}

static int
pre_init(struct pw_error *err)
{
    PyPreConfig pre;
    PyPreConfig_InitIsolatedConfig(&pre);
    pre.utf8_mode = 1;
    return check_status(Py_PreInitialize(&pre), NULL, err);
}

static int
append_site_dirs(struct pw_error *err)
{
    /* borrowed */ PyObject *path = PySys_GetObject("path");
    if (path == NULL || !PyList_Check(path)) {
        return pw_fail(err, PW_ERR_PYTHON, "sys.path is missing");
    }
    char dirs[] = PW_PYTHON_SITE_DIRS;
    char *save = NULL;
    for (char *d = strtok_r(dirs, ":", &save); d != NULL;
         d = strtok_r(NULL, ":", &save)) {
        if (!pw_is_dir(d)) {
            continue;
        }
        PW_PYAUTO PyObject *s = PyUnicode_DecodeFSDefault(d);
        if (s == NULL || PyList_Append(path, s) < 0) {
            return pw_py_fetch_error(err);
        }
    }
    return 0;
}

int
pw_py_init(struct pw_error *err)
{
    if (initialized) {
        return 0;
    }
    if (pre_init(err) < 0) {
        return -1;
    }
    PyConfig config;
    PyConfig_InitIsolatedConfig(&config);
    config.install_signal_handlers = 0;
    config.site_import = 0;
    config.write_bytecode = 0;
    config.parse_argv = 0;
    config.buffered_stdio = 1;
    config.user_site_directory = 0;
    if (check_status(PyConfig_SetBytesString(&config, &config.program_name,
                                             PW_PYTHON_EXECUTABLE),
                     &config, err) < 0) {
        return -1;
    }
    if (check_status(Py_InitializeFromConfig(&config), &config, err) < 0) {
        return -1;
    }
    PyConfig_Clear(&config);
    initialized = 1;
    return append_site_dirs(err);
}

int
pw_py_initialized(void)
{
    return initialized;
}

void
pw_py_fini(void)
{
    if (initialized) {
        (void)Py_FinalizeEx();
        initialized = 0;
    }
}

static void
fill_syntax_position(PyObject *value, struct pw_error *err)
{
    PW_PYAUTO PyObject *lineno = PyObject_GetAttrString(value, "lineno");
    PW_PYAUTO PyObject *offset = PyObject_GetAttrString(value, "offset");
    PyErr_Clear();
    if (lineno != NULL && PyLong_Check(lineno)) {
        err->line = (int)PyLong_AsLong(lineno);
    }
    if (offset != NULL && PyLong_Check(offset)) {
        err->col = (int)PyLong_AsLong(offset);
    }
    PyErr_Clear();
}

int
pw_py_fetch_error(struct pw_error *err)
{
    PyObject *type = NULL, *value = NULL, *tb = NULL;
    PyErr_Fetch(&type, &value, &tb);
    if (type == NULL) {
        return pw_fail(err, PW_ERR_PYTHON, "unknown python error");
    }
    PyErr_NormalizeException(&type, &value, &tb);
    PW_PYAUTO PyObject *otype = type;
    PW_PYAUTO PyObject *ovalue = value;
    PW_PYAUTO PyObject *otb = tb;
    const char *tname = ((PyTypeObject *)otype)->tp_name;
    const char *msg = "";
    PW_PYAUTO PyObject *str = ovalue != NULL ? PyObject_Str(ovalue) : NULL;
    if (str != NULL) {
        msg = PyUnicode_AsUTF8(str);
    }
    if (msg == NULL) {
        msg = "";
    }
    PyErr_Clear();
    (void)pw_fail(err, PW_ERR_PYTHON, "%s: %s", tname, msg);
    if (err != NULL && ovalue != NULL &&
        PyErr_GivenExceptionMatches(otype, PyExc_SyntaxError)) {
        fill_syntax_position(ovalue, err);
    }
    return -1;
}

const char *
pw_py_version(void)
{
    static char version[32];
    if (version[0] == '\0') {
        const char *v = Py_GetVersion();
        size_t n = strcspn(v, " ");
        if (n >= sizeof(version)) {
            n = sizeof(version) - 1;
        }
        memcpy(version, v, n);
        version[n] = '\0';
    }
    return version;
}

PyObject *
pw_py_import(const char *name)
{
    return PyImport_ImportModule(name);
}

/* Borrowed, owned for the process lifetime: the attribute ATTR of
 * MODULE's attribute OWNER (or of MODULE when OWNER is NULL), looked up
 * once into *CACHE; NULL if it cannot be had. */
static PyObject *
cached_attr(PyObject **cache, const char *module, const char *owner,
            const char *attr)
{
    if (*cache == NULL) {
        PW_PYAUTO PyObject *mod = PyImport_ImportModule(module);
        PW_PYAUTO PyObject *obj = mod != NULL && owner != NULL
                                      ? PyObject_GetAttrString(mod, owner)
                                      : Py_XNewRef(mod);
        *cache = obj != NULL ? PyObject_GetAttrString(obj, attr) : NULL;
        PyErr_Clear();
    }
    return *cache;
}

/* importlib.util.find_spec (borrowed). */
static PyObject *
find_spec_fn(void)
{
    static PyObject *fn;
    return cached_attr(&fn, "importlib.util", NULL, "find_spec");
}

/* The package sets' top-level modules (pw_py_module_add). */
static char **set_modules;
static size_t nset_modules;

void
pw_py_module_add(const char *top)
{
    set_modules =
        pw_xrealloc(set_modules, (nset_modules + 1) * sizeof(char *));
    set_modules[nset_modules++] = pw_xstrdup(top);
}

/* NAME's top-level module is a package set's. */
static bool
set_module(const char *name)
{
    size_t n = strcspn(name, ".");
    for (size_t i = 0; i < nset_modules; i++) {
        if (strlen(set_modules[i]) == n &&
            strncmp(set_modules[i], name, n) == 0) {
            return true;
        }
    }
    return false;
}

int
pw_py_module_known(const char *name)
{
    if (set_module(name)) {
        return 1;
    }
    PyObject *find_spec = find_spec_fn(); /* borrowed */
    size_t n = strcspn(name, ".");
    PW_PYAUTO PyObject *top =
        find_spec != NULL ? PyUnicode_FromStringAndSize(name, (Py_ssize_t)n)
                          : NULL;
    /* Only a plain name is looked up (never a path); a lookup that fails
     * never claims a module is missing. */
    int ident = top != NULL ? PyUnicode_IsIdentifier(top) : 0;
    PW_PYAUTO PyObject *spec =
        ident > 0 ? PyObject_CallOneArg(find_spec, top) : NULL;
    int known = ident <= 0 || spec == NULL || spec != Py_None;
    PyErr_Clear();
    return known;
}

/* The spec of PREFIX (a dotted name's first components): the finders'
 * for a top-level name, else searched in LOCATIONS (borrowed; NULL: the
 * parent is no package).  New reference or NULL (not found, no error). */
static PyObject *
find_one(PyObject *prefix, PyObject *locations, bool top)
{
    static PyObject *path_find_fn;
    PyObject *find_spec = find_spec_fn(); /* borrowed */
    PyObject *path_find = cached_attr(&path_find_fn, "importlib.machinery",
                                      "PathFinder", "find_spec");
    PyObject *spec = NULL;
    if (top && find_spec != NULL) {
        spec = PyObject_CallOneArg(find_spec, prefix);
    } else if (!top && path_find != NULL && locations != NULL &&
               locations != Py_None) {
        spec =
            PyObject_CallFunctionObjArgs(path_find, prefix, locations, NULL);
    }
    PyErr_Clear();
    if (spec == Py_None) {
        Py_CLEAR(spec);
    }
    return spec;
}

bool
pw_py_module_findable(const char *name)
{
    if (set_module(name)) {
        return true; /* its package set's directory is the runs' */
    }
    PyObject *modules = PyImport_GetModuleDict(); /* borrowed */
    PW_PYAUTO PyObject *locations = NULL;
    for (size_t start = 0, end = 0;; start = ++end) {
        end += strcspn(name + end, ".");
        bool last = name[end] == '\0';
        PW_PYAUTO PyObject *prefix =
            PyUnicode_FromStringAndSize(name, (Py_ssize_t)end);
        if (prefix == NULL) {
            PyErr_Clear();
            return false;
        }
        PyObject *mod =
            PyDict_GetItemWithError(modules, prefix); /* borrowed */
        PW_PYAUTO PyObject *spec =
            mod != NULL ? NULL : find_one(prefix, locations, start == 0);
        PyErr_Clear();
        if (mod == NULL && spec == NULL) {
            return false;
        }
        if (last) {
            return true;
        }
        Py_CLEAR(locations);
        locations =
            mod != NULL
                ? PyObject_GetAttrString(mod, "__path__")
                : PyObject_GetAttrString(spec, "submodule_search_locations");
        PyErr_Clear();
    }
}
