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
#include "validator/validator.h"

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
};

/* The zygotes runs are forked from (the full one first) into OUT; returns
 * how many (0 to 2).  Borrowed. */
size_t pw_tools_zygotes(const struct pw_tools *t, struct pw_zygote *out[2]);
/* Fill the get_sandbox_info cache (needs the interpreter).  0 or -1. */
int pw_tools_init(struct pw_tools *t, struct pw_error *err);
/* Borrowed: the get_sandbox_info cache, brought up to date once the
 * zygote has imported the profiles' modules (or failed to). */
json_t *pw_tools_info(struct pw_tools *t);

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
 * Check the arguments of call TOOL and validate the code.  Returns an
 * owned exec ready to submit, or NULL: either with *RESULT set to the
 * final CallToolResult (invalid arguments, the code was rejected, a
 * grade decided without a run), or with ERR on an internal failure.
 * ARGS is borrowed (a reference is kept while the exec lives).
 */
struct pw_exec *pw_tools_exec_new(struct pw_tools *t, const char *tool,
                                  json_t *args, json_t **result,
                                  struct pw_error *err);
/* True if E is one run (execute_code), counted in the server's stats. */
bool pw_tools_exec_runs_one(const struct pw_exec *e);
/* The time limit of the call, seconds (for progress notifications). */
double pw_tools_exec_timeout(const struct pw_exec *e);
/* The end of a call: RESULT its CallToolResult (stolen; NULL: it could
 * not be built), RUN the typed result of an execute_code's run (NULL
 * for other calls, or a run that did not start).  Called from the
 * queue's turn; it may free the exec and the group. */
typedef void (*pw_exec_done_fn)(void *ctx, json_t *result,
                                const struct pw_sbx_result *run);
/* Queue E's runs in G; DONE(CTX, ...) when the call is over.  Returns
 * NULL, or the final CallToolResult (a new reference; DONE is then never
 * called) when the call ends without a run (no sandbox). */
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
void pw_tools_exec_free(struct pw_exec *e);
