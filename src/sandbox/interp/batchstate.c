/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * batchstate.c - the state a test of a batch could leave for the next
 * one where the guard's reset (src/sandbox/interp/guard/batch.py) does not
 * reach: an attribute set on a class of a library (json.JSONDecoder.x = ...),
 * on a module-level object or function (a function's attribute, a
 * module-level instance whose method stores on it), a module's public
 * dict or list filled in place, a module's namespace (a submodule bound
 * on its package).  CPython tells these apart cheaply: a class's version
 * tag is dropped whenever its namespace changes, and every dict carries a
 * version that changes with each store (3.11's ma_version_tag); a list's
 * items are compared by address.  The batch's process reads them between
 * two tests; a change means the next tests run each in a fresh process.
 */
#include "config.h"

#include <stdint.h>
#include <string.h>

#include "core/py.h"
#include "core/util.h"
#include "sandbox/interp/batchstate.h"

/* A class and its version tag, or a dict (a module's namespace, a
 * module's public dict) and its version, or an object's attribute dict
 * (OWNER's: the dict it has now, NULL if none yet), or a module's public
 * list and its items. */
struct watched {
    PyObject *obj;  /* owned */
    PyObject *dict; /* borrowed from OBJ (kind INSTANCE), or NULL */
    uint64_t version;
    /* A list: its items when marked (their addresses only), N of them. */
    uintptr_t *items;
    size_t n;
    enum { W_TYPE, W_DICT, W_INSTANCE, W_LIST } kind;
};

static struct watched *watch;
static size_t nwatch, cap;

static void
add(PyObject *obj, int kind)
{
    if (nwatch == cap) {
        cap = cap > 0 ? cap * 2 : 1024;
        watch = pw_xrealloc(watch, cap * sizeof(*watch));
    }
    watch[nwatch++] =
        (struct watched){.obj = Py_NewRef(obj), .kind = (int)kind};
}

/* Every mutable heap type below T (object.__subclasses__, recursively);
 * SEEN: the ids of those listed. */
static int
add_types(PyObject *t, PyObject *seen)
{
    PW_PYAUTO PyObject *subs = PyObject_CallMethod((PyObject *)&PyType_Type,
                                                   "__subclasses__", "(O)", t);
    if (subs == NULL || !PyList_Check(subs)) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(subs); i++) {
        PyObject *s = PyList_GET_ITEM(subs, i); /* borrowed */
        PW_PYAUTO PyObject *id = PyLong_FromVoidPtr(s);
        int known = id != NULL ? PySet_Contains(seen, id) : -1;
        if (known != 0) {
            if (known < 0) {
                return -1;
            }
            continue;
        }
        if (PySet_Add(seen, id) < 0) {
            return -1;
        }
        unsigned long fl = PyType_GetFlags((PyTypeObject *)s);
        if ((fl & Py_TPFLAGS_HEAPTYPE) && !(fl & Py_TPFLAGS_IMMUTABLETYPE)) {
            add(s, W_TYPE);
        }
        if (add_types(s, seen) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Modules whose state the guard itself changes for each run. */
static bool
skipped_module(const char *name)
{
    static const char *const skip[] = {"sys", "builtins", "__main__",
                                       "linecache"};
    for (size_t i = 0; i < PW_N_ELEMENTS(skip); i++) {
        if (strcmp(name, skip[i]) == 0) {
            return true;
        }
    }
    return false;
}

static void
add_module(PyObject *mod)
{
    PyObject *d = PyModule_GetDict(mod); /* borrowed */
    if (d == NULL) {
        PyErr_Clear();
        return;
    }
    add(d, W_DICT);
    PyObject *key, *value; /* borrowed */
    Py_ssize_t pos = 0;
    while (PyDict_Next(d, &pos, &key, &value)) {
        if (PyModule_Check(value) || PyType_Check(value)) {
            continue; /* listed as modules, or as classes */
        }
        const char *k = PyUnicode_Check(key) ? PyUnicode_AsUTF8(key) : NULL;
        if (k == NULL) {
            PyErr_Clear();
            continue;
        }
        if (PyDict_CheckExact(value) || PyList_CheckExact(value)) {
            if (k[0] != '_') { /* the private ones are the libraries'
                                * caches */
                add(value, PyDict_CheckExact(value) ? W_DICT : W_LIST);
            }
        } else if (_PyObject_GetDictPtr(value) != NULL) {
            add(value, W_INSTANCE);
        }
    }
}

int
pw_sbx_batch_state_take(void)
{
    PW_PYAUTO PyObject *seen = PySet_New(NULL);
    if (seen == NULL || add_types((PyObject *)&PyBaseObject_Type, seen) < 0) {
        return -1;
    }
    PyObject *mods = PyImport_GetModuleDict(); /* borrowed */
    PW_PYAUTO PyObject *items = PyDict_Items(mods);
    if (items == NULL) {
        return -1;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(items); i++) {
        PyObject *it = PyList_GET_ITEM(items, i); /* borrowed */
        PyObject *name = PyTuple_GET_ITEM(it, 0);
        PyObject *mod = PyTuple_GET_ITEM(it, 1);
        const char *n = PyUnicode_Check(name) ? PyUnicode_AsUTF8(name) : NULL;
        if (n == NULL) {
            PyErr_Clear();
            continue;
        }
        if (PyModule_Check(mod) && !skipped_module(n)) {
            add_module(mod);
        }
    }
    pw_sbx_batch_state_mark();
    return 0;
}

static uint64_t
dict_version(PyObject *d)
{
    /* Deprecated from 3.12 on; 3.11's dicts carry it. */
    _Pragma("GCC diagnostic push");
    _Pragma("GCC diagnostic ignored \"-Wdeprecated-declarations\"");
    uint64_t v = ((PyDictObject *)d)->ma_version_tag;
    _Pragma("GCC diagnostic pop");
    return v;
}

/* A list's items are those marked. */
static bool
list_same(const struct watched *w)
{
    size_t n = (size_t)PyList_GET_SIZE(w->obj);
    if (n != w->n) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        if ((uintptr_t)PyList_GET_ITEM(w->obj, (Py_ssize_t)i) != w->items[i]) {
            return false;
        }
    }
    return true;
}

static void
list_mark(struct watched *w)
{
    w->n = (size_t)PyList_GET_SIZE(w->obj);
    w->items = pw_xrealloc(w->items, (w->n + 1) * sizeof(uintptr_t));
    for (size_t i = 0; i < w->n; i++) {
        w->items[i] = (uintptr_t)PyList_GET_ITEM(w->obj, (Py_ssize_t)i);
    }
}

/* The present version of W (a type's tag, 0 if it has none; a dict's). */
static uint64_t
version_of(struct watched *w, PyObject **dict)
{
    *dict = NULL;
    if (w->kind == W_TYPE) {
        PyTypeObject *t = (PyTypeObject *)w->obj;
        return PyType_HasFeature(t, Py_TPFLAGS_VALID_VERSION_TAG)
                   ? t->tp_version_tag
                   : 0;
    }
    if (w->kind == W_DICT) {
        return dict_version(w->obj);
    }
    PyObject **p = _PyObject_GetDictPtr(w->obj);
    *dict = p != NULL ? *p : NULL;
    return *dict != NULL ? dict_version(*dict) : 0;
}

void
pw_sbx_batch_state_mark(void)
{
    static PyObject *name; /* a name looked up on each class: "__class__" */
    if (name == NULL) {
        name = PyUnicode_InternFromString("__class__");
        PyErr_Clear();
    }
    for (size_t i = 0; i < nwatch; i++) {
        struct watched *w = &watch[i];
        if (w->kind == W_TYPE && name != NULL &&
            !PyType_HasFeature((PyTypeObject *)w->obj,
                               Py_TPFLAGS_VALID_VERSION_TAG)) {
            /* A tag is given on a class's first lookup: give it now (a
             * class that gets none is not watched). */
            (void)_PyType_Lookup((PyTypeObject *)w->obj, name);
        }
        if (w->kind == W_LIST) {
            list_mark(w);
            continue;
        }
        w->version = version_of(w, &w->dict);
    }
}

bool
pw_sbx_batch_state_changed(void)
{
    for (size_t i = 0; i < nwatch; i++) {
        struct watched *w = &watch[i];
        PyObject *dict;
        if (w->kind == W_TYPE && w->version == 0) {
            continue;
        }
        if (w->kind == W_LIST) {
            if (!list_same(w)) {
                return true;
            }
            continue;
        }
        uint64_t v = version_of(w, &dict);
        if (v != w->version || dict != w->dict) {
            return true;
        }
    }
    return false;
}
