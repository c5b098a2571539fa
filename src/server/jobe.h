/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * jobe.h - a Jobe-compatible REST API (Moodle CodeRunner's grading
 * back end), independent of the transport: the routes under
 * /jobe/index.php/restapi/ (and /jobe/restapi/, /restapi/), run_spec
 * parsing, outcome codes and result objects as Jobe has them, the file
 * cache (jobe_files.c) and the X-API-KEY check.  A run becomes an
 * execute_code call (struct pw_exec) under every profile the server
 * has, queued by the server like any other; the typed result of its run
 * (struct pw_sbx_result) is turned into Jobe's result object by
 * pw_jobe_run_answer.  What a student reads (cmpinfo, stderr) names no
 * rule code, tool or profile.
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/pyward.h"
#include "core/util.h"
#include "server/conf.h"
#include "server/tools.h"
#include "validator/validator.h"

/* Jobe's outcome codes. */
enum pw_jobe_outcome {
    PW_JOBE_COMPILE_ERROR = 11,
    PW_JOBE_RUNTIME_ERROR = 12,
    PW_JOBE_TIME_LIMIT = 13,
    PW_JOBE_SUCCESS = 15,
    PW_JOBE_MEMORY_LIMIT = 17,
    PW_JOBE_ILLEGAL_SYSCALL = 19,
    PW_JOBE_INTERNAL_ERROR = 20,
    PW_JOBE_OVERLOAD = 21,
};

/* The defaults of a python3 run (Jobe's Python3Task). */
#define PW_JOBE_CPUTIME_S   5
#define PW_JOBE_MEMORY_MB   1000
#define PW_JOBE_SOURCE_NAME "prog.py"

struct pw_jobe;

/* Owned, or NULL with ERR (the keys file or the file directory cannot be
 * used).  CFG and TOOLS are borrowed and outlive it. */
struct pw_jobe *pw_jobe_new(const struct pw_conf *cfg, struct pw_tools *tools,
                            struct pw_error *err);
void pw_jobe_free(struct pw_jobe *j);

/* True if PATH is one of the API's routes' prefixes. */
bool pw_jobe_route(const char *path);

/* What to answer: STATUS with BODY (owned JSON text, or NULL for none),
 * or a run to submit (EXEC owned; the answer comes later from
 * pw_jobe_run_answer with RUN_ID and SOURCE_NAME, owned). */
struct pw_jobe_answer {
    unsigned status;
    char *body;
    struct pw_exec *exec;
    char *run_id;
    char *source_name;
};

/* Answer METHOD PATH with BODY (LEN bytes), the X-API-KEY header (NULL
 * if absent) and CLIENT, who asks (the key, or the address without
 * keys: whose files the cache holds). */
void pw_jobe_handle(struct pw_jobe *j, const char *method, const char *path,
                    const char *api_key, const char *client, const char *body,
                    size_t len, struct pw_jobe_answer *a);
/* True if METHOD PATH is a run (POST /runs), whose body the parse worker
 * may parse: pw_jobe_parse_run there, pw_jobe_handle_run then. */
bool pw_jobe_is_run(const char *method, const char *path);
/* A run's body BODY[0..LEN) parsed as pw_jobe_handle parses it (pure:
 * jansson only): a new reference, or NULL when it is not JSON. */
json_t *pw_jobe_parse_run(const char *body, size_t len);
/* pw_jobe_handle of a run whose body was parsed (ROOT borrowed, NULL:
 * not JSON). */
void pw_jobe_handle_run(struct pw_jobe *j, const char *api_key,
                        const char *client, json_t *root,
                        struct pw_jobe_answer *a);
/* --- a file PUT read as its body comes (jobe_put.c) ------------------ */

struct pw_jobe_put;
struct pw_jobe_files;

/* If METHOD PATH is a file PUT, true, with *PUT its state (owned) to
 * hand the body to as it comes, or NULL and A the answer now (a bad key or
 * id, or a CONTENT_LENGTH past the body's cap; -1: not known).  False
 * for any other request: pw_jobe_handle answers it once its body is in.
 * API_KEY and CLIENT as for pw_jobe_handle. */
bool pw_jobe_put_begin(struct pw_jobe *j, const char *method, const char *path,
                       const char *api_key, const char *client,
                       long long content_length, struct pw_jobe_put **put,
                       struct pw_jobe_answer *a);
/* A PUT of CLIENT's ID into FILES (borrowed, outlives it) whose body may
 * have BODY_MAX bytes. */
struct pw_jobe_put *pw_jobe_put_new(struct pw_jobe_files *files,
                                    const char *client, const char *id,
                                    long long body_max);
/* The body's next LEN bytes, parsed, decoded and written at once: 0 to
 * go on, or -1 with A the answer now (not JSON, past the body's or the
 * file's cap, a write that failed): the rest of the body is not wanted. */
int pw_jobe_put_feed(struct pw_jobe_put *p, const char *data, size_t len,
                     struct pw_jobe_answer *a);
/* The bytes the body may still have within its cap. */
long long pw_jobe_put_body_left(const struct pw_jobe_put *p);
/* The body is over: the answer (204 once the file is stored). */
void pw_jobe_put_end(struct pw_jobe_put *p, struct pw_jobe_answer *a);
/* Free P; a file it did not store leaves nothing behind. */
void pw_jobe_put_free(struct pw_jobe_put *p);
/* The cache's expiry, a step at a time (pw_jobe_files_tick). */
int pw_jobe_tick(struct pw_jobe *j);

/* The answer to a run from the typed result RUN of its execute_code call
 * CALL (RUN NULL: it did not start; CALL, NULL or borrowed, says whether
 * a validator process refused its program, outcome 11 with the findings'
 * plain words, or could not check it, outcome 20).  RUN_ID is Jobe's
 * run_id; SOURCE_NAME the run's file name (tracebacks and cmpinfo name
 * it). */
void pw_jobe_run_answer(const struct pw_sbx_result *run,
                        const struct pw_exec *call, const char *run_id,
                        const char *source_name, struct pw_jobe_answer *a);
/* The answer to a run the server refused before it was queued, from the
 * JSON-RPC error LINE (server busy: Jobe's overload outcome). */
void pw_jobe_refused_answer(const char *line, const char *run_id,
                            struct pw_jobe_answer *a);
void pw_jobe_answer_clear(struct pw_jobe_answer *a);
/* Jobe's refusal of a request without a valid key: 403 and its message
 * (with --jobe-keys, or the server's tokens when it has no keys). */
void pw_jobe_forbidden(struct pw_jobe_answer *a);

/* --- the parts, exposed for the unit tests --------------------------- */

/* A run_spec checked: the fields Jobe reads, borrowed from the JSON. */
struct pw_jobe_spec {
    const char *code; /* the program (sourcecode, or -c CODE) */
    size_t code_len;
    const char *input;
    size_t input_len;
    const char *source_name;
    double cputime_s;
    long long memory_bytes;
    char **argv;      /* owned: sys.argv */
    json_t *files;    /* borrowed file_list, or NULL */
    char *code_owned; /* owned: -c CODE taken from interpreterargs */
};

/* What a run_spec may ask at most. */
struct pw_jobe_limits {
    double max_cpu_s;     /* cputime, seconds (--max-timeout) */
    long long max_memory; /* memorylimit, bytes (--max-memory) */
};

/* Check RUN (the parsed POST body): 0, or -1 with *STATUS (400) and *MSG
 * (owned) Jobe's message (a number out of LIM's range, or not finite, is
 * refused naming its field). */
int pw_jobe_spec_parse(json_t *body, const struct pw_jobe_limits *lim,
                       struct pw_jobe_spec *spec, unsigned *status,
                       char **msg);
void pw_jobe_spec_clear(struct pw_jobe_spec *spec);
/* Split TEXT as a POSIX shell would its words (quotes and backslashes;
 * no expansion).  Returns a NULL-terminated owned vector, or NULL if a
 * quote is not closed. */
char **pw_jobe_shell_split(const char *text);
/* Jobe's result object (new reference; RUN_ID may be NULL). */
json_t *pw_jobe_result_object(const char *run_id, int outcome,
                              const char *cmpinfo, const char *out,
                              const char *err);
/* The result object (new reference) of the finished run R. */
json_t *pw_jobe_result_of(const struct pw_sbx_result *r, const char *run_id,
                          const char *source_name);
/* cmpinfo of a program the validator refused with the findings D: a
 * line "NAME:LINE: plain words" each (owned). */
char *pw_jobe_cmpinfo(const struct pw_diags *d, const char *name);

/* --- the file cache (jobe_files.c) ---------------------------------- */

struct pw_jobe_files;

/* The cache in DIR (created 0700 if missing, refused unless this user's
 * and 0700; NULL: a directory of its own under TMP (NULL: /tmp), made 0700 and
 * removed with its files once the cache is freed), a folder per client,
 * files of at most MAX_FILE bytes, QUOTA of one client's (0: MAX_TOTAL)
 * and MAX_TOTAL in all (a client's least recently used files go first
 * when it PUTs, never one a run holds, never another client's), each
 * kept TTL seconds after its last PUT.  NULL with ERR. */
struct pw_jobe_files *pw_jobe_files_new(const char *dir, const char *tmp,
                                        long long max_file,
                                        long long max_total, long long quota,
                                        double ttl, struct pw_error *err);
/* The cache's directory (borrowed). */
const char *pw_jobe_files_dir(const struct pw_jobe_files *f);
/* The owner lets F go (freed once no hold is left). */
void pw_jobe_files_free(struct pw_jobe_files *f);
/* At most N files held open by runs at once (default: a quarter of the
 * process's RLIMIT_NOFILE, 16 to 4096). */
void pw_jobe_files_set_max_open(struct pw_jobe_files *f, size_t n);
/* The files runs hold open now. */
size_t pw_jobe_files_open_count(const struct pw_jobe_files *f);
/* True if ID may name a file (letters and digits, 1 to 64); a CLIENT
 * (whose files: the key's, the token's or the address's, as the HTTP
 * layer names it) is named the same way. */
bool pw_jobe_file_id_ok(const char *id);
/* Store DATA (LEN bytes) as CLIENT's ID: 0; -1 with ERR (PW_ERR_USAGE:
 * too large for the cache; another code: it could not be written); -2
 * with ERR: the files runs hold, or other clients' files, leave no room
 * now. */
int pw_jobe_files_put(struct pw_jobe_files *f, const char *client,
                      const char *id, const char *data, size_t len,
                      struct pw_error *err);
/* True if CLIENT's ID is in the cache (fresh, or held by a run): the
 * index's answer, no file system call. */
bool pw_jobe_files_has(struct pw_jobe_files *f, const char *client,
                       const char *id);
/* The largest file the cache takes. */
long long pw_jobe_files_max_file(const struct pw_jobe_files *f);
/* Remove a few of the files whose time is over (at most 32 a call): the
 * milliseconds until the next is due (0: more are due now), or -1 for
 * none. */
int pw_jobe_files_tick(struct pw_jobe_files *f);

/* A file being PUT, written as its bytes come to a temporary file in its
 * client's folder (never held whole in memory), stored under its id by
 * pw_jobe_upload_commit, removed if freed before. */
struct pw_jobe_upload;

/* An empty upload of CLIENT's ID (a reference to F), or NULL with ERR. */
struct pw_jobe_upload *pw_jobe_upload_new(struct pw_jobe_files *f,
                                          const char *client, const char *id,
                                          struct pw_error *err);
/* Append LEN bytes of DATA: 0, or -1 with ERR (PW_ERR_USAGE: the file
 * would be larger than the cache takes, nothing written; another code:
 * a write failed). */
int pw_jobe_upload_write(struct pw_jobe_upload *u, const void *data,
                         size_t len, struct pw_error *err);
/* Start again from an empty file: 0, or -1 with ERR. */
int pw_jobe_upload_reset(struct pw_jobe_upload *u, struct pw_error *err);
/* The bytes written so far. */
long long pw_jobe_upload_len(const struct pw_jobe_upload *u);
/* Store the file under its id, as pw_jobe_files_put does (0, -1, -2 with
 * ERR); U is still freed by the caller. */
int pw_jobe_upload_commit(struct pw_jobe_upload *u, struct pw_error *err);
void pw_jobe_upload_free(struct pw_jobe_upload *u);

/* The files of one run, held from its POST to its end: each an open fd
 * (the file as it was when taken: a later PUT of its id does not change
 * it), pinned in the cache (never evicted or expired while held), its
 * access time set (the cache's recency). */
struct pw_jobe_hold;

/* An empty hold on CLIENT's files of F (a reference to F). */
struct pw_jobe_hold *pw_jobe_hold_new(struct pw_jobe_files *f,
                                      const char *client);
/* Take ID: 0 with *FD (borrowed from the hold, the same for one file
 * taken twice) and *SIZE; -1 if it is not in the cache; -2 if the cache
 * holds as many files open as it may (the server's overload). */
int pw_jobe_hold_add(struct pw_jobe_hold *h, const char *id, int *fd,
                     long long *size);
/* Let the files go (their fds closed; a pin released). */
void pw_jobe_hold_free(struct pw_jobe_hold *h);
