/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * guard.h - the interpreter layers: restricted builtins, guarded
 * attribute access and module views, the import guard (the modules under
 * src/sandbox/interp/guard/, trusted and embedded), and the audit hook
 * (PEP 578) installed from C.
 */
#pragma once

#include <stdbool.h>

#include "core/py.h"
#include "core/profiles.h"

/* Before the zygote: load the runtime policy (rules/runtime.json) and
 * run the guard's code.  0, or -1 with ERR. */
int pw_sbx_guard_init(struct pw_error *err);

/* After pw_sbx_guard_init, where spares are forked from (the zygote
 * process, or its owner before forking it): import the modules of the
 * enabled profiles (thread pools off, matplotlib on Agg), prepare the
 * runs' stdio and builtins and wrap the import system.  MISSING receives
 * an owned comma-separated list of modules that are not installed (or
 * NULL). */
int pw_sbx_guard_preload(const struct pw_profiles *profiles,
                         pw_profile_mask enabled, PyObject *only,
                         char **missing, struct pw_error *err);
/* After pw_sbx_guard_init: a new list of the modules SOURCES (a list of
 * bytes, borrowed) import by name (for pw_sbx_guard_preload's ONLY,
 * borrowed there: NULL imports every module of the profiles), or NULL
 * with a Python error set. */
PyObject *pw_sbx_guard_static_imports(PyObject *sources);

/* In the zygote: wipe the environment from os.environ, posix.environ and
 * the process memory (environ strings overwritten, then clearenv). */
int pw_sbx_scrub_env(struct pw_error *err);

/* In the child.  Everything a run needs to know, set before fork. */
struct pw_sbx_guard_run {
    const struct pw_importset *imports;
    unsigned caps;
    const char *scratch;
    int result_fd;
    const char *const *argv; /* sys.argv; NULL-terminated or NULL */
};

/* True if the code of every module of the guard embedded at build time
 * (guardc) is what its embedded source compiles to now, with this
 * interpreter. */
bool pw_sbx_guard_code_current(void);

/* The guard's attr_refused(NAME): true too when it cannot tell. */
bool pw_sbx_guard_attr_refused(const char *name);

/* Server, before a request is sent: the program compiled as
 * pw_sbx_guard_compile would, marshalled (a new bytes reference), or NULL
 * (no Python error set) when the child is to compile it itself. */
PyObject *pw_sbx_guard_code_blob(const char *code, size_t len, unsigned caps);
/* Child, before its run: parse, rewrite and compile the program (not
 * running it), or load BLOB (BLOB_LEN bytes of pw_sbx_guard_code_blob;
 * NULL: compile).  Returns a new reference (code, error, lines) or NULL
 * with ERR. */
PyObject *pw_sbx_guard_compile(const char *code, size_t len, unsigned caps,
                               const char *blob, size_t blob_len,
                               struct pw_error *err);
/* Spare child, before its request: the part of the interpreter layers no
 * request changes (the run's streams, its SIGINT handler, its globals), in
 * the workspace SCRATCH.  0 or -1; pw_sbx_guard_prepare does it if not. */
int pw_sbx_guard_ready(const char *scratch);
/* Child, before the hook: what ready() left (argv, open(), the program's
 * lines).  COMPILED is borrowed.  0 or -1 (a Python failure of pyward's
 * own). */
int pw_sbx_guard_prepare(const struct pw_sbx_guard_run *run,
                         PyObject *compiled);
/* Session child, after a call: the next call's COMPILED program
 * (borrowed) to run in the same globals, with STDIN_DATA (LEN bytes) as
 * its sys.stdin.  0 or -1. */
int pw_sbx_guard_next(PyObject *compiled, const char *stdin_data,
                      size_t stdin_len);
/* Batch child, before each test: the next test of the prepared program
 * (batch.py: fresh globals, the state the test before it changed undone,
 * a fresh contextvars context), its stdin the LEN bytes at IN.  WRITES:
 * the run may write to its workspace (checked unchanged after each
 * test).  COMPILED_HERE: the child compiled the program (its compile
 * warnings, printed for the first test, are printed again for each).  0; 1
 * when the state the tests before it left cannot be vouched for (its report,
 * asking for a fresh process, is written: the process ends); -1 on a failure
 * of pyward's own. */
int pw_sbx_guard_batch_test(const char *in, size_t len, bool writes,
                            bool compiled_here);
/* Spare child, before its request: warm up the run's paths (trusted
 * sample program; with PLOT and matplotlib loaded, a figure too), a step
 * at a time until STOP() is true.  Failures are ignored. */
void pw_sbx_guard_warmup(bool (*stop)(void), bool plot);
/* Child: install the audit hook. 0 or -1. */
int pw_sbx_guard_arm(void);
/* Child, after seccomp: run the prepared code, write the program's report
 * line; returns the exit status python3 would give (0 to 255). */
int pw_sbx_guard_execute(void);
