/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * py.h - the embedded CPython interpreter: one isolated initialisation
 * per process, exception conversion, reference helpers.
 */
#pragma once

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdbool.h>

#include "core/pyward.h"

static inline void
pw_py_decrefp(PyObject **p)
{
    Py_XDECREF(*p);
}

/* An owned PyObject local: released with Py_XDECREF at end of scope. */
#define PW_PYAUTO __attribute__((cleanup(pw_py_decrefp)))

/*
 * Initialise the interpreter once (later calls are no-ops returning 0):
 * isolated config, no site, no signal handlers, no bytecode writing, the
 * system's package directories appended to sys.path.  Returns 0 or -1.
 */
int pw_py_init(struct pw_error *err);
int pw_py_initialized(void);
/* Finalize if initialised (tests and tools; the server never finalizes). */
void pw_py_fini(void);

/*
 * Convert the pending exception into ERR (type and message; line and column
 * for a SyntaxError) and clear it.  Always returns -1.
 */
int pw_py_fetch_error(struct pw_error *err);

/* "3.11.2" (borrowed, static). */
const char *pw_py_version(void);

/* Import a module by name. Returns a new reference, or NULL with an error. */
PyObject *pw_py_import(const char *name);

/* 1 if the top-level module of NAME ("a" of "a.b") exists for this
 * interpreter (built in, frozen or on sys.path: importlib's find_spec,
 * which imports nothing), 0 if no import of it could ever succeed.  The
 * import system's directory caches make later calls cheap: make the
 * first one before the file system is closed (the zygote does). */
int pw_py_module_known(const char *name);

/* True if the whole dotted module NAME can be found on the import path,
 * without importing it or a parent package: each package is looked up
 * by its finder and its submodules in its directories (a module already
 * imported counts as found, and its __path__ is searched).  Importing
 * "numpy" to learn whether "numpy.linalg" exists would cost the server
 * a data-science import at start-up. */
bool pw_py_module_findable(const char *name);

/* The top-level module TOP of a package set (on the runs' path, not the
 * server's): known and findable to the two above, with its submodules. */
void pw_py_module_add(const char *top);
