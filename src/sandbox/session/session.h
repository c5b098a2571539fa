/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * session.h - a sandboxed interpreter that serves many calls (session.c):
 * its globals, imports, functions and scratch workspace persist from one
 * call to the next, under every layer of a fresh run.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

#include "core/pyward.h"
#include "sandbox/sandbox.h"

struct pw_sbx_session;

/*
 * Start a session on a prepared spare: REQ's profiles, allow-list and
 * capabilities for its whole life, REQ's memory limit over the whole
 * session (RLIMIT_AS), CPU_S seconds of CPU over its whole life
 * (RLIMIT_CPU).  REQ's code runs as the first call: *FIRST is its run
 * (owned; drive it with pw_sbx_step, free it with pw_sbx_free before the
 * next call).  Returns an owned session, or NULL with ERR.
 */
struct pw_sbx_session *pw_sbx_session_new(struct pw_zygote *z,
                                          const struct pw_sbx_request *req,
                                          double cpu_s,
                                          struct pw_sbx_run **first,
                                          struct pw_error *err);
/* Seconds a session's call has, once interrupted at its time limit, to
 * report before it is killed (and the session ended). */
#define PW_SBX_INTERRUPT_GRACE_S 1.0

/*
 * Start the next call: REQ's code with its timeout, output cap and stdin
 * (sent with the request: the call's sys.stdin holds it, empty without;
 * its profiles and memory limit are not used).  Returns an owned run,
 * driven like any run, whose result has the fields of a fresh run's; or
 * NULL with ERR when a call is already running or the session has ended.
 * A call that reaches its time limit gets SIGINT (a KeyboardInterrupt at
 * its next bytecode): if it reports within PW_SBX_INTERRUPT_GRACE_S, it
 * ends as "timeout" with the session kept (the result's interrupt
 * PW_SBX_INTERRUPT_STOPPED), else it is killed.  A call that ends other
 * than "ok" or "error" or so interrupted (the memory limit, output limit,
 * a refused system call, a crash, a kill) ends the session.
 */
struct pw_sbx_run *pw_sbx_session_call(struct pw_sbx_session *s,
                                       const struct pw_sbx_request *req,
                                       struct pw_error *err);
/*
 * A batch: the tests of one program in one process, one after the other
 * (batch grading).  Like a session, but REQ's program is compiled once
 * and runs once per test, REQ itself being the first test (with
 * REQ->stdin_data as its stdin; its limits.cpu_limit_s the test's CPU
 * limit); CPU_S is the batch's RLIMIT_CPU.  Each test starts from fresh
 * __main__ globals, with what the tests before it changed undone where
 * the guard can (src/sandbox/interp/guard/batch.py); the process keeps every
 * layer of a fresh run, and may not clone itself.  A test that ends any
 * other way than "ok" or "error" after its report, or whose result says
 * rerun, ends the batch.  Returns an owned session (free it with
 * pw_sbx_session_free), or NULL with ERR.
 */
struct pw_sbx_session *pw_sbx_batch_new(struct pw_zygote *z,
                                        const struct pw_sbx_request *req,
                                        double cpu_s,
                                        struct pw_sbx_run **first,
                                        struct pw_error *err);
/* The next test of batch S: REQ's stdin, CPU limit, wall clock and
 * output cap (its code is not used).  As pw_sbx_session_call. */
struct pw_sbx_run *pw_sbx_batch_test(struct pw_sbx_session *s,
                                     const struct pw_sbx_request *req,
                                     struct pw_error *err);
/* NULL while the session can take calls; else why it ended (borrowed).
 * Notices a process that died between calls. */
const char *pw_sbx_session_ended(struct pw_sbx_session *s);
/* True while a call runs or a copy is being made. */
bool pw_sbx_session_busy(const struct pw_sbx_session *s);
/* The session's process (0 once it ended), for tests and benchmarks. */
pid_t pw_sbx_session_pid(const struct pw_sbx_session *s);
/* End the session (its process killed, its scratch directory removed
 * once the process is gone, off the caller's way) and free it.  With a
 * call in flight, the call ends as killed and the record goes with the
 * call's run. */
void pw_sbx_session_free(struct pw_sbx_session *s);
