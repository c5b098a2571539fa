/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * vproc.h - the validator in a process of its own, for a loop that must
 * not wait for it: the server's.  A vproc, a validator process, is a copy of
 * the server (forked once the rules are loaded, the interpreter and the rule
 * set inherited) that validates one program at a time, sent over a socket
 * (and compiles it for its runs when asked); the loop polls that socket with
 * its own fds and gets each check's findings in a callback.  A large program
 * takes the process's time, not the loop's: pings, probes and other clients'
 * requests are answered meanwhile.
 *
 * Checks wait in order; only the one the process works on is held as
 * bytes of a message (the others point to their caller's code), so a
 * queue of waiting checks costs no copies.  A vproc whose process
 * ended (killed, out of memory) fails the check it had, and the next
 * check forks a new one (one found ended while it had no check is
 * replaced, no check failed).
 */
#pragma once

#include <poll.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/profiles.h"
#include "core/pyward.h"
#include "validator/validator.h"

struct pw_vproc;
struct pw_vcheck;

/* What one check is: CODE (LEN bytes) under the import set of MASK and
 * ONLY; if LIGHT_MASK is not 0, first under MASK & LIGHT_MASK (with
 * DEPS), which decides when it finds nothing (the result says light);
 * else under MASK, with DEPS checked too if DEPS_IN_FULL.  Pointers are
 * borrowed until the check ends or is cancelled. */
struct pw_vcheck_req {
    const char *code;
    size_t len;
    pw_profile_mask mask;
    pw_profile_mask light_mask;
    const char *const *only; /* NULL-terminated or NULL */
    const char *const *deps; /* NULL-terminated or NULL */
    bool deps_in_full;
    /* Compile CODE for runs under CAPS too, if it passes (no finding):
     * the vproc's COMPILE (pw_vproc_new). */
    bool compile;
    /* Compile CODE alone, unchecked (a program the caller does not
     * validate, such as a suite's checker program): the result has no
     * findings, and the blob if it compiled. */
    bool compile_only;
    unsigned caps;
    /* Whose check (a client's key): the checks of different owners take
     * turns, one each, so that one owner's many long programs do not
     * hold up another's. */
    unsigned long long owner;
};

/* A check's end: RC 0 with the findings D and the analysis AN (LIGHT:
 * found under the light profiles alone), or -1 with ERR (the validator
 * failed, or its process ended). */
struct pw_vcheck_result {
    int rc;
    struct pw_error err;
    bool light;
    struct pw_diags d;
    struct pw_analysis an;
    char *blob; /* owned or NULL: CODE compiled, if asked and it passed */
    size_t blob_len;
};

void pw_vcheck_result_clear(struct pw_vcheck_result *r);

/* The end of a check with context CTX: R is the callee's to keep (its
 * findings to free with pw_vcheck_result_clear). */
typedef void (*pw_vcheck_done_fn)(void *ctx, struct pw_vcheck_result *r);

/* How a vproc compiles a program for runs (in its process): a malloc'd
 * blob of *OUT_LEN bytes, or NULL when the run must compile it. */
typedef char *(*pw_vproc_compile_fn)(void *ctx, const char *code, size_t len,
                                     unsigned caps, size_t *out_len);

/* Returns an owned vproc validating against RS with the profiles P and
 * the operator's EXTRA modules, compiling with COMPILE(CTX, ...) (may be
 * NULL: no compile) (all borrowed, living as long as it), its process
 * forked now (needs the interpreter); NULL with ERR. */
struct pw_vproc *pw_vproc_new(const struct pw_ruleset *rs,
                              const struct pw_profiles *p,
                              const char *const *extra,
                              pw_vproc_compile_fn compile, void *ctx,
                              struct pw_error *err);
/* Its process killed and reaped; the waiting checks dropped without a
 * call.  NULL is ignored. */
void pw_vproc_free(struct pw_vproc *c);

/* Queue a check of REQ (copied; its pointers borrowed); DONE(CTX, ...)
 * from a later pw_vproc_step, never from this call (a check that fails
 * at once, no process forked, ends at the next step).  Returns the check
 * (borrowed: valid until DONE is called or it is cancelled). */
struct pw_vcheck *pw_vproc_submit(struct pw_vproc *c,
                                  const struct pw_vcheck_req *req,
                                  pw_vcheck_done_fn done, void *ctx);
/* Drop K: its DONE is never called (a check the process works on is
 * finished and its answer thrown away). */
void pw_vcheck_cancel(struct pw_vcheck *k);

/* Checks waiting or under way. */
size_t pw_vproc_pending(const struct pw_vproc *c);
/* The pollfd the loop polls for C (fd -1 when it has nothing to wait
 * for). */
struct pollfd pw_vproc_pollfd(const struct pw_vproc *c);
/* Move C on with the REVENTS of its pollfd: send, read, and end the
 * checks that are answered (their DONE, in order; a DONE may submit or
 * cancel checks, of C too). */
void pw_vproc_step(struct pw_vproc *c, short revents);
/* The pid of C's process, or -1 when it has none (tests). */
int pw_vproc_pid(const struct pw_vproc *c);
