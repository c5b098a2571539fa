/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * tools.h - the MCP tools execute_code, validate_code, get_sandbox_info and
 * grade_code (src/server/grade_tool.c), and the calls that run in the
 * run queue (src/grade/queue.c):
 * argument checking, schemas and result building around the validator
 * and the sandbox.
 *
 * Arguments only ever narrow what the operator allows: a timeout or memory
 * limit above the server's maximum, a profile that is not enabled, or a
 * malformed argument is refused with a CallToolResult with isError (MCP
 * 2025-11-25: the model reads it), whose text says why and what to do.
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>

#include "core/profiles.h"
#include "core/pyward.h"
#include "grade/queue.h"
#include "sandbox/sandbox.h"
#include "server/compat.h"
#include "server/conf.h"
#include "validator/vproc.h"
#include "validator/validator.h"

/* The validator processes, and the program size from which the second
 * takes the check. */
#define PW_TOOLS_VPROCS      2
#define PW_TOOLS_CHECK_LARGE (64 * 1024)

/* fork_session calls under way at once (more are refused), and the
 * pollfds each takes. */
#define PW_TOOLS_FORKS    4
#define PW_TOOLS_FORK_FDS 3

struct pw_exec;
struct pw_session_fork;
struct pw_session_file;

struct pw_tools {
    const struct pw_conf *cfg;          /* borrowed */
    const struct pw_profiles *profiles; /* borrowed */
    pw_profile_mask enabled;            /* profiles clients may use */
    const struct pw_ruleset *rules;     /* borrowed; NULL: unavailable */
    char rules_error[512];              /* why rules is NULL */
    const char *rules_name;             /* "default", "restricted", DIR */
    struct pw_zygote *zygote;           /* borrowed; NULL: unavailable */
    char zygote_error[512];             /* why zygote is NULL */
    /* Borrowed, or NULL: a zygote of the light profiles alone
     * (pw_profiles_light_mask), started when some enabled profile brings
     * third-party packages.  A run whose program imports only what those
     * profiles allow is forked from it, with their import set. */
    struct pw_zygote *zygote_light;
    pw_profile_mask light_mask;
    json_t *info;      /* owned get_sandbox_info cache */
    bool info_current; /* info has the warm zygote's isolation layers */
    struct pw_sessions *sessions; /* borrowed; NULL: none */
    /* The caller of the request being handled, set by the transport
     * (stdio: PW_OWNER_STDIO; HTTP: the authenticated token's identity):
     * the owner of the sessions it makes and reaches. */
    const char *owner;
    json_t *layers;           /* owned: the active layers' names */
    const char **extra;       /* owned vector of borrowed names: the operator's
                                 modules beyond the profiles' */
    bool container_available; /* the namespace layers are active */
    char container_missing[128]; /* those that are not */
    unsigned long runs;          /* executions started */
    enum pw_compat compat;       /* whose tool set is served */
    /* Owned, or NULL: the processes that validate programs longer than a
     * kilobyte off the server's loop (pw_tools_start_vprocs):
     * the first takes programs under PW_TOOLS_CHECK_LARGE bytes, the
     * second the larger ones, so that a short program never waits
     * behind a long one's check.  Without them, programs are validated
     * in the call. */
    struct pw_vproc *vprocs[PW_TOOLS_VPROCS];
    /* The fork_session calls under way: the copy being made (owned) and
     * the call waiting for it (borrowed; NULL once it is gone). */
    struct pw_tools_fork {
        struct pw_session_fork *sf;
        struct pw_exec *e;
    } forks[PW_TOOLS_FORKS];
    /* The read_file and write_file calls done in steps (owned list,
     * stepped in turn, one step a turn of the loop): the call (owned)
     * and its caller (borrowed; NULL once it is gone). */
    struct pw_tools_file {
        struct pw_session_file *sf;
        struct pw_exec *e;
        struct pw_tools_file *next;
    } * files;
};

/* The zygotes runs are forked from (the full one first) into OUT; returns
 * how many (0 to 2).  Borrowed. */
size_t pw_tools_zygotes(const struct pw_tools *t, struct pw_zygote *out[2]);
/* Fill the get_sandbox_info cache (needs the interpreter).  0 or -1. */
int pw_tools_init(struct pw_tools *t, struct pw_error *err);
/* Borrowed: the get_sandbox_info cache, brought up to date once the
 * zygote has imported the profiles' modules (or failed to). */
json_t *pw_tools_info(struct pw_tools *t);
/* Fork the validator processes (after pw_tools_init: they inherit the
 * rules, the profiles and the operator's modules).  0, or -1 with ERR. */
int pw_tools_start_vprocs(struct pw_tools *t, struct pw_error *err);
/* The validator processes' pollfds into FDS (PW_TOOLS_VPROCS of them, fd -1
 * for one with nothing under way), and their step with the same array after
 * the poll: the calls whose check ended go on (their runs queued, or
 * their end called). */
void pw_tools_vproc_pollfds(const struct pw_tools *t, struct pollfd *fds);
void pw_tools_vproc_step(struct pw_tools *t, const struct pollfd *fds);
/* The fork_session calls' pollfds into FDS (PW_TOOLS_FORKS *
 * PW_TOOLS_FORK_FDS, fd -1 where none), the time by which they must be
 * stepped (INFINITY: none), and their step with the same array: the
 * calls whose copy is made (or failed) end.  Stepped before the loop
 * reads new requests. */
void pw_tools_fork_pollfds(const struct pw_tools *t, struct pollfd *fds);
double pw_tools_fork_deadline(const struct pw_tools *t);
void pw_tools_fork_step(struct pw_tools *t, const struct pollfd *fds);
/* Checks waiting or under way (counted against the queued limit). */
size_t pw_tools_checks_pending(const struct pw_tools *t);

/* get_sandbox_info's text block into B: the version, each enabled
 * profile with its summary, modules and capabilities, the operator's
 * import list, whether the network is off, the limits and the active
 * isolation layers. */
void pw_tools_info_text(struct pw_tools *t, struct pw_buf *b);
void pw_tools_free(struct pw_tools *t);

/* Give R, a run's result as pw_sbx_result_to_json makes it, the fields
 * of execute_code's structured result (doc/MCP.md): ID as its
 * execution_id if it has none, result and result_repr, variables and
 * variable_details, error as "Type: message" with error_details and
 * traceback.  0, or -1 when a field cannot be set. */
int pw_tools_result_shape(json_t *r, const char *id);

/* New reference: the tools/list "tools" array, schemas included (another
 * server's tool set under --compat). */
json_t *pw_tools_list_json(const struct pw_tools *t);

/* True if NAME is one of the tools. */
bool pw_tools_exists(const struct pw_tools *t, const char *name);
/* True if the tool NAME runs in the run queue (execute_code, grade_code,
 * create_session: through pw_tools_exec_*, answered from the server's
 * loop). */
bool pw_tools_runs_code(const struct pw_tools *t, const char *name);
/* True if a call of NAME goes through pw_tools_exec_* (answered from the
 * server's loop): those that run code, validate_code (and a compat
 * mode's tool that validates, validate_script), whose long programs a
 * validator process checks, fork_session, whose copy is made as the
 * loop steps it, and read_file and write_file, a large file's done in
 * steps. */
bool pw_tools_answered_later(const struct pw_tools *t, const char *name);

/*
 * Run a synchronous tool (validate_code, get_sandbox_info, the session
 * tools but create_session).  Sets *RESULT to a new CallToolResult
 * (isError for invalid arguments) and returns 0, or returns -1 with ERR
 * on an internal failure.
 */
int pw_tools_call_sync(struct pw_tools *t, const char *name, json_t *args,
                       json_t **result, struct pw_error *err);

/* One call of a tool that runs in the queue: execute_code (one run, its
 * arguments validated), grade_code (its suite's runs), create_session
 * (the session's first call). */
struct pw_exec;

/*
 * Check the arguments of call TOOL (execute_code, grade_code,
 * create_session, validate_code) and validate a short program (a longer
 * one is validated by a validator process once submitted, the call going
 * on when its check ends).  Returns an owned exec ready to submit, or NULL:
 * either with *RESULT set to the final CallToolResult (invalid arguments, the
 * code was rejected, a grade decided without a run), or with ERR on an
 * internal failure. ARGS is borrowed (a reference is kept while the exec
 * lives).
 */
struct pw_exec *pw_tools_exec_new(struct pw_tools *t, const char *tool,
                                  json_t *args, json_t **result,
                                  struct pw_error *err);
/*
 * An execute_code call for a door that words a refusal for its own
 * readers (the Jobe API): as pw_tools_exec_new, and when the validator
 * refuses the code, REJECTED (initialised by the caller; may be NULL)
 * gets its findings besides *RESULT.  A long program is checked by a
 * validator process once submitted: its refusal is then read at the
 * call's end (pw_tools_exec_refusal).  *ID (owned; ID may be NULL): the
 * call's id ("exec-N", one counter for the server), whatever the end.
 */
struct pw_exec *pw_tools_run_new(struct pw_tools *t, json_t *args,
                                 json_t **result, struct pw_diags *rejected,
                                 char **id, struct pw_error *err);
/* What E is, for the event log: its tool, its session's handle (or
 * NULL), the profile its arguments name (or NULL).  Borrowed from E. */
void pw_tools_exec_about(const struct pw_exec *e, const char **tool,
                         const char **session, const char **profile);
/* E's arguments (borrowed from E; in the compat modes, as pyward's
 * tools name them). */
json_t *pw_tools_exec_args(const struct pw_exec *e);
/* True if E is one run (execute_code), counted in the server's stats. */
bool pw_tools_exec_runs_one(const struct pw_exec *e);
/* True if E ended without a run: its program was rejected (REJECTED
 * set), or its check failed. */
bool pw_tools_exec_unrun(const struct pw_exec *e, bool *rejected);
/* The refusal of a call of pw_tools_run_new's (NULL is ignored) that
 * ended without a run after a validator process checked its program:
 * the findings that refused it (borrowed from E), or NULL; *UNCHECKED
 * true when that process failed (the program was not checked, nor
 * run). */
const struct pw_diags *pw_tools_exec_refusal(const struct pw_exec *e,
                                             bool *unchecked);
/* The time limit of the call, seconds (for progress notifications). */
double pw_tools_exec_timeout(const struct pw_exec *e);
/* The end of a call: RESULT its CallToolResult (stolen; NULL: it could
 * not be built), RUN the typed result of an execute_code's run (NULL
 * for other calls, or a run that did not start).  Called from the
 * queue's turn; it may free the exec and the group. */
typedef void (*pw_exec_done_fn)(void *ctx, json_t *result,
                                const struct pw_sbx_result *run);
/* Queue E's runs in G (or E's check first); DONE(CTX, ...) when the
 * call is over.  Returns NULL, or the final CallToolResult (a new
 * reference; DONE is then never called) when the call ends without a
 * run (no sandbox). */
json_t *pw_tools_exec_submit(struct pw_tools *t, struct pw_exec *e,
                             struct pw_queue_group *g, pw_exec_done_fn done,
                             void *ctx);
/* Give E's run sys.argv ARGV (NULL-terminated) and the support FILES
 * (NFILES; names and bytes allocated, all taken; the fds of the files
 * given by fd belong to HOLD, which E keeps until it is freed, then calls
 * RELEASE on it; RELEASE may be NULL). */
void pw_tools_exec_set_extras(struct pw_exec *e, char **argv,
                              struct pw_sbx_file *files, size_t nfiles,
                              void (*release)(void *hold), void *hold);
/* Give E's run a CPU time limit of CPU_S seconds (its "timeout" stays
 * the wall clock's): Jobe's cputime. */
void pw_tools_exec_set_cpu_limit(struct pw_exec *e, double cpu_s);
void pw_tools_exec_free(struct pw_exec *e);
