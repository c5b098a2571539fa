/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * sandbox.h - run untrusted Python in a forked, locked-down child of the
 * warm interpreter.  The caller's process (the server) sets the
 * interpreter up and forks the zygote process from it before any
 * request; runs are forked by the zygote only (so no run's memory holds
 * another request's data) as children of the server, which observes
 * them.
 *
 * One run = one child.  The API is event-loop friendly: start, poll the
 * fds it reports, step, and collect the result when step says it is
 * done.  One caller drives it: the run queue (src/grade/queue.c), which
 * every command and door submits its runs to.
 */
#pragma once

#include <jansson.h>
#include <poll.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/blob.h"
#include "core/profiles.h"
#include "core/py.h"
#include "core/pyward.h"
#include "sandbox/os/limits.h"

/* A run that streams (pyward run): its stdin read from IN_FD as the
 * program asks for it, each chunk of its output handed to OUTPUT as it is
 * read (STREAM 1 stdout, 2 stderr; only what the output cap keeps). */
struct pw_sbx_io {
    int in_fd; /* borrowed; -1: the request's stdin_data */
    void (*output)(void *ctx, int stream, const char *data, size_t len);
    void *ctx;
};

/* A file the run's workspace holds before the program starts (a support
 * file): NAME a plain file name (no '/', not "." or ".."), one name per
 * file of a request.  Its bytes are DATA (sent with the request), or,
 * with DATA NULL, those of the regular file open at FD: never read into
 * the caller's memory, they are copied into the workspace by a thread of
 * the caller's before the request is sent (wsfiles.c), each file (each
 * inode) once, its other names hard links to that copy (what the program
 * writes through one name, the others show).  Together they may not take
 * more than pw_zygote_workspace_bytes; not for sessions. */
struct pw_sbx_file {
    const char *name; /* borrowed */
    const char *data; /* borrowed; LEN bytes, or NULL: FD */
    size_t len;
    int fd; /* borrowed (duplicated by pw_sbx_start) */
};

/* At most this many support files, names of at most PW_SBX_NAME_MAX
 * bytes, arguments in argv. */
#define PW_SBX_FILES_MAX 64
#define PW_SBX_NAME_MAX  128
#define PW_SBX_ARGV_MAX  64

struct pw_sbx_request {
    const char *code; /* borrowed; LEN bytes */
    size_t code_len;
    const char *stdin_data; /* borrowed; may be NULL */
    size_t stdin_len;
    struct pw_sbx_limits limits;
    const struct pw_importset *imports; /* borrowed: the import allow-list */
    unsigned caps;                      /* enum pw_cap bits of the profiles */
    bool capture_output;                /* false: discard stdout/stderr */
    const struct pw_sbx_io *io;         /* borrowed; NULL: no streaming */
    /* sys.argv under the profiles that give sys (NULL-terminated,
     * borrowed; NULL: ["<user>"]), and the support files written into
     * the workspace (needs the workspace-files capability). */
    const char *const *argv;
    const struct pw_sbx_file *files; /* borrowed; NFILES of them */
    size_t nfiles;
    bool session; /* the first call of a session (pw_sbx_session_new) */
    /* A test of a batch (pw_sbx_batch_new, pw_sbx_batch_test): STDIN_DATA
     * goes with the request and is the test's sys.stdin (the process
     * serves the batch's tests one after the other). */
    bool batch;
    bool fork; /* a session's copy (pw_sbx_session_fork): no code */
    /* STDIN_DATA sent with the request (a session's call) instead of
     * through the run's fd 0 (set by pw_sbx_session_call). */
    bool stdin_in_request;
    /* CODE compiled once for many runs of it (pw_sbx_compile; borrowed,
     * COMPILED_LEN bytes), or NULL: compiled when the run starts. */
    const char *compiled;
    size_t compiled_len;
    /* CODE was compiled before (by a validator process) and gave no code
     * (COMPILED NULL: an error or a warning its run reports): the run's
     * child compiles it, not the server again. */
    bool compile_tried;
};

/* Programs up to this size are compiled by the server for their run
 * (0.3 to 3 ms here); a larger one compiles in its child, which runs
 * beside the server instead of holding up its other requests. */
#define PW_SBX_COMPILE_HERE_MAX (16 * 1024)

/* True if the guard's rewrite refuses to compile a store or delete of
 * attribute NAME (UTF-8) that does not start with '_': the runtime
 * policy's inspection names (frames, code, tracebacks).  True too when it
 * cannot tell. */
bool pw_sbx_attr_store_refused(const char *name);

/* A compiler of small programs the caller registers on a zygote (the
 * validator's, pw_blob_compile): SRC compiled as the guard's rewrite would
 * compile it, marshalled (a new bytes reference), or NULL, its error
 * cleared, to leave SRC to the guard.  STORE_REFUSED is
 * pw_sbx_attr_store_refused. */
typedef PyObject *(*pw_sbx_compiler)(const char *src, size_t len,
                                     bool (*store_refused)(const char *name));

/* CODE compiled by the guard as a run under CAPS compiles it, for runs to
 * load (pw_sbx_request.compiled) instead of each compiling it: malloc'd,
 * *LEN bytes.  NULL when each run must compile it itself (it fails to
 * compile, or warns: the run reports that). */
char *pw_sbx_compile(const char *code, size_t len, unsigned caps,
                     size_t *out_len);

/* The limits a run gets when its request leaves them at 0: the "defaults"
 * of RULES_DIR/seccomp.json, the one place every command takes them
 * from.  0, or -1 with ERR. */
int pw_sbx_defaults_load(const char *rules_dir, struct pw_sbx_limits *out,
                         struct pw_error *err);

/* True if NAME may name a support file (pw_sbx_file). */
bool pw_sbx_file_name_ok(const char *name);

/* The warm interpreter: the modules of the enabled profiles imported once,
 * the seccomp filter compiled.  One per process. */
struct pw_zygote;

/* Returns an owned zygote or NULL with ERR (refuses if a mandatory layer
 * cannot work on this host).  PROFILES is borrowed and must outlive it. */
struct pw_zygote *pw_zygote_new(const struct pw_profiles *profiles,
                                pw_profile_mask enabled, struct pw_error *err);
/* A program's source (borrowed, LEN bytes). */
struct pw_sbx_source {
    const char *code;
    size_t len;
};
/* The same for the runs of one program (pyward run, judge): of the
 * profiles' modules, only those the N SOURCES import by name (and those
 * rules/runtime.json changes) are imported ahead; a run imports any other
 * module it is allowed by itself. */
struct pw_zygote *pw_zygote_new_for(const struct pw_profiles *profiles,
                                    pw_profile_mask enabled,
                                    const struct pw_sbx_source *sources,
                                    size_t n, struct pw_error *err);
/* The same, but the zygote process imports the profiles' modules itself
 * once forked, while the caller goes on (a server answers its clients in
 * the meantime): runs wait for its spares, which come once it is warm.
 * An import failure there ends the zygote (pw_zygote_error). */
struct pw_zygote *pw_zygote_new_warming(const struct pw_profiles *profiles,
                                        pw_profile_mask enabled,
                                        struct pw_error *err);
/* A second zygote warming like pw_zygote_new_warming, of the same host
 * as FIRST (made by this process): it takes the facts FIRST probed (the
 * layers that work, the mount views, the PID namespace) with fds of its
 * own, instead of forking the probes again. */
struct pw_zygote *pw_zygote_new_beside(const struct pw_zygote *first,
                                       const struct pw_profiles *profiles,
                                       pw_profile_mask enabled,
                                       struct pw_error *err);
/* True while the zygote process imports the profiles' modules. */
bool pw_zygote_warming(const struct pw_zygote *z);
/* Why the zygote process could not warm up, or NULL. */
const char *pw_zygote_error(const struct pw_zygote *z);
/* True if a run of REQ from Z starts on a prepared spare now (or cannot
 * start at all: pw_sbx_start then says why).  Otherwise the zygote is
 * asked for one, whose arrival makes pw_zygote_fd readable: a loop that
 * must not wait in pw_sbx_start for the zygote starts the run once this
 * is true (pw_queue_start does). */
bool pw_zygote_spare_ready(struct pw_zygote *z,
                           const struct pw_sbx_request *req);
void pw_zygote_free(struct pw_zygote *z);
/* The bytes a run's workspace may hold (rules/seccomp.json "workspace"
 * "max_bytes"). */
long long pw_zygote_workspace_bytes(const struct pw_zygote *z);
/* For a process forked from Z's owner after pw_zygote_new (a test harness
 * that forks each test): forget the owner's spares and start a zygote
 * process of this process's own (runs must be the children of the process
 * that observes them).  0 or -1 with ERR. */
int pw_zygote_adopt(struct pw_zygote *z, struct pw_error *err);

/* Keep N prepared spares (children forked ahead by the zygote process,
 * every request-independent layer installed, waiting for one request
 * each); 0: each run gets a spare forked for it.  Clamped to 0..8; the
 * default is 2, or the PYWARD_SPARES environment variable read by
 * pw_zygote_new.  Returns once the pool holds them. */
void pw_zygote_set_spares(struct pw_zygote *z, int n);

/* ON: each run, once started (its child running), forks the spare that
 * replaces the one it took, while the caller would only wait for the
 * run's output; the spare is then prepared by the time a client that
 * sends requests back to back sends its next one.  Off (the default, for
 * one-shot callers): runs fork no spare, the caller refills.  Returns
 * the setting it replaces. */
bool pw_zygote_refill_on_start(struct pw_zygote *z, bool on);
/* Compile the small programs of Z's runs (up to PW_SBX_COMPILE_HERE_MAX
 * bytes, pw_sbx_request.compiled NULL) with COMPILE first, and with the
 * guard's rewrite only where it leaves them; NULL: the guard's only. */
void pw_zygote_set_compiler(struct pw_zygote *z, pw_sbx_compiler compile);
/* pw_sbx_compile, with Z's compiler first. */
char *pw_zygote_compile(const struct pw_zygote *z, const char *code,
                        size_t len, unsigned caps, size_t *out_len);
/* Fork one spare if the pool is short.  Also reaps what it can
 * (pw_zygote_reap).  Returns true if the pool is still short. */
bool pw_zygote_refill(struct pw_zygote *z);
/* True if the pool is short of spares prepared for what new runs get
 * (the next idle moment should call pw_zygote_refill). */
bool pw_zygote_short(const struct pw_zygote *z);
/* Spares prepared in the pool now (for /metrics). */
int pw_zygote_spares(const struct pw_zygote *z);
/* The fd on which the zygote process answers (poll it for POLLIN), or -1
 * once it is gone; pw_zygote_collect takes in what has come, without
 * waiting, so that spares are ready in the pool before a request needs
 * them. */
int pw_zygote_fd(const struct pw_zygote *z);
void pw_zygote_collect(struct pw_zygote *z);

/* Reap the processes of finished runs that were answered before their
 * exit completed (done without blocking on every pw_sbx_start and
 * pw_sbx_free; WAIT blocks until they are gone).  Returns how many are
 * still pending. */
size_t pw_zygote_reap(struct pw_zygote *z, bool wait);

/* New reference: {layer: {active: bool, detail: str}} for doctor and
 * get_sandbox_info. */
json_t *pw_zygote_layers_json(const struct pw_zygote *z);

struct pw_sbx_run;

/* Fork a child for REQ (copied as needed).  Returns an owned run or NULL
 * with ERR (a mandatory layer that cannot be installed refuses the run). */
struct pw_sbx_run *pw_sbx_start(struct pw_zygote *z,
                                const struct pw_sbx_request *req,
                                struct pw_error *err);
/* Fill up to MAX pollfds the caller must poll for this run; returns n. */
int pw_sbx_pollfds(const struct pw_sbx_run *run, struct pollfd *fds, int max);
/* Handle the revents of the fds from pw_sbx_pollfds and the clock.
 * Returns 1 when the run has finished (result ready), 0 if still going. */
int pw_sbx_step(struct pw_sbx_run *run, const struct pollfd *fds, int n);
/* Monotonic time (pw_now) by which pw_sbx_step must be called again. */
double pw_sbx_deadline(const struct pw_sbx_run *run);
/* Kill the child's process group now; the run finishes as "killed". */
void pw_sbx_cancel(struct pw_sbx_run *run);
/* Interrupt the program as Ctrl-C would (SIGINT: KeyboardInterrupt). */
void pw_sbx_interrupt(struct pw_sbx_run *run);
/* The output RUN captured on STREAM (1 stdout, 2 stderr) from byte FROM
 * on, at most MAX bytes of it, ending before a character not all
 * written yet: valid UTF-8 (invalid bytes U+FFFD), owned, NUL-terminated,
 * *LEN bytes; NULL when there is none.  *NEXT: where the next look
 * starts. */
char *pw_sbx_output_since(const struct pw_sbx_run *run, int stream,
                          size_t from, size_t max, size_t *len, size_t *next);
/* Seconds since start, for progress notifications. */
double pw_sbx_elapsed(const struct pw_sbx_run *run);
/* Reaps the child if still there; frees everything. */
void pw_sbx_free(struct pw_sbx_run *run);

/* How a run ended (the "status" of doc/MCP.md). */
enum pw_sbx_status {
    PW_SBX_OK,
    PW_SBX_ERROR,          /* the program failed (an exception, exit != 0) */
    PW_SBX_TIMEOUT,        /* wall clock, or its CPU time */
    PW_SBX_MEMORY_LIMIT,   /* a MemoryError under the limit */
    PW_SBX_OUTPUT_LIMIT,   /* more output than the cap (the run stopped) */
    PW_SBX_KILLED,         /* a signal, a refused call, a cancel */
    PW_SBX_INTERNAL_ERROR, /* the sandbox could not run it */
};
/* "ok", "error", ...: a static string. */
const char *pw_sbx_status_name(enum pw_sbx_status st);

/* Valid UTF-8 text (invalid bytes became U+FFFD), owned. */
struct pw_sbx_text {
    char *data; /* NUL-terminated; LEN bytes before it */
    size_t len;
    bool truncated; /* the output cap cut it */
};

/* What stopped a run, when a layer did. */
enum pw_sbx_blocked {
    PW_SBX_BLOCKED_NONE,
    PW_SBX_BLOCKED_SYSCALL, /* observed: the seccomp listener */
    PW_SBX_BLOCKED_AUDIT,   /* the program's report: an audit event */
    PW_SBX_BLOCKED_HOOK,    /* observed: the audit hook found altered */
};

/* A session's call that reached its time limit (pw_sbx_session_call):
 * the program got a KeyboardInterrupt and stopped within the grace period
 * (the session kept), or did not and was killed (the session ended). */
enum pw_sbx_interrupt {
    PW_SBX_INTERRUPT_NONE,
    PW_SBX_INTERRUPT_STOPPED,
    PW_SBX_INTERRUPT_KILLED,
};

/* A finished run's result, as the server observed it and the program
 * reported it (checked and capped).  Every pointer owned
 * (pw_sbx_result_clear). */
struct pw_sbx_result {
    char execution_id[48];
    enum pw_sbx_status status;
    int exit_code; /* -1: it did not exit by itself */
    int signal;    /* the signal that ended it, 0: none */
    double wall_s; /* from the request to the end */
    double cpu_s;  /* the program's own */
    long long max_rss_kb;
    struct pw_sbx_text out, err;
    /* The error ("error" of the result), when ERROR_TYPE is set: the
     * server's own (SandboxError, SystemExit) or the program's. */
    char *error_type, *error_message, *traceback;
    long error_line; /* -1: none */
    enum pw_sbx_blocked blocked;
    char *blocked_name; /* the call's or the event's name */
    enum pw_sbx_interrupt interrupt;
    /* The program's report ("R" record): REPORTED says it came. */
    bool reported;
    char *result_repr; /* the last expression's repr, or NULL */
    /* A final expression's rich form as a notebook shows it (a pandas
     * table as markdown, a class's _repr_markdown_), or NULL. */
    char *result_markdown;
    json_t *result_value; /* its JSON value, or null */
    json_t *variables;    /* {name: {type, repr}} */
    /* A test of a batch whose process could not vouch for it (a thread
     * left, the workspace changed, a state the guard could not undo):
     * its result stands for nothing, it must run in a fresh process. */
    bool rerun;
    /* The output/ files (output.h's list), or NULL: none read; each
     * sent file's "data" is the placeholder of its blob in BLOBS. */
    json_t *files;
    long long files_omitted;
    struct pw_blobs blobs;
};

/* Fill OUT with the result of RUN, finished. */
void pw_sbx_result_get(const struct pw_sbx_run *run,
                       struct pw_sbx_result *out);
void pw_sbx_result_clear(struct pw_sbx_result *r);
/* New reference: R as the execute_code result fields (doc/MCP.md), or
 * NULL when it cannot be built. */
json_t *pw_sbx_result_to_json(const struct pw_sbx_result *r);
/* New reference: the execute_code result fields of RUN (get, then
 * to_json). */
json_t *pw_sbx_result_json(const struct pw_sbx_run *run);
