/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * jobe.c - the Jobe API's routes and run specs (see jobe.h): what
 * CodeRunner sends, checked as Jobe checks it, answered with Jobe's
 * statuses and messages; a run is an execute_code call under the
 * profiles basic and jobe.
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/log.h"
#include "core/py.h"
#include "core/util.h"
#include "sandbox/run/output.h"
#include "server/events.h"
#include "server/jobe.h"
#include "server/rpc.h"

#define KEYS_MAX      1024
#define KEYS_FILE_MAX (1u << 20)
#define FILE_MAX      (8LL << 20)
#define FILE_TTL_S    (24.0 * 3600)
#define MIN_MEMORY    (64LL << 20)
#define PAGE          4096

struct pw_jobe {
    const struct pw_conf *cfg;
    struct pw_tools *tools;
    struct pw_jobe_files *files;
    char **keys; /* NULL-terminated, or NULL: no key needed */
};

static const char *const prefixes[] = {
    "/jobe/index.php/restapi/",
    "/jobe/restapi/",
    "/restapi/",
};

/* What follows a route prefix in PATH, or NULL. */
static const char *
route_rest(const char *path)
{
    for (size_t i = 0; i < PW_N_ELEMENTS(prefixes); i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(path, prefixes[i], n) == 0) {
            return path + n;
        }
    }
    return NULL;
}

bool
pw_jobe_route(const char *path)
{
    return route_rest(path) != NULL;
}

/* The keys of FILE, one a line ('#' comments and blank lines skipped). */
static char **
keys_load(const char *file, struct pw_error *err)
{
    struct pw_buf b;
    pw_buf_init(&b);
    if (pw_read_file(file, KEYS_FILE_MAX, &b, err) < 0) {
        pw_buf_free(&b);
        return NULL;
    }
    char **keys = pw_xcalloc(KEYS_MAX + 1, sizeof(char *));
    size_t n = 0;
    char *save = NULL;
    for (char *line = strtok_r(b.data, "\r\n", &save);
         line != NULL && n < KEYS_MAX; line = strtok_r(NULL, "\r\n", &save)) {
        while (isspace((unsigned char)*line)) {
            line++;
        }
        size_t len = strlen(line);
        while (len > 0 && isspace((unsigned char)line[len - 1])) {
            line[--len] = '\0';
        }
        if (len > 0 && line[0] != '#') {
            keys[n++] = pw_xstrdup(line);
        }
    }
    pw_buf_free(&b);
    if (n == 0) {
        free(keys);
        pw_fail(err, PW_ERR_USAGE, "--jobe-keys %s: no key in it", file);
        return NULL;
    }
    return keys;
}

struct pw_jobe *
pw_jobe_new(const struct pw_conf *cfg, struct pw_tools *tools,
            struct pw_error *err)
{
    struct pw_jobe *j = pw_xcalloc(1, sizeof(*j));
    j->cfg = cfg;
    j->tools = tools;
    if (cfg->jobe_keys != NULL &&
        (j->keys = keys_load(cfg->jobe_keys, err)) == NULL) {
        pw_jobe_free(j);
        return NULL;
    }
    /* Each key's files take their share of the cache at most, unless the
     * operator says how much (a client without keys: the whole cap). */
    size_t nkeys = 0;
    while (j->keys != NULL && j->keys[nkeys] != NULL) {
        nkeys++;
    }
    long long quota = cfg->jobe_files_quota > 0 ? cfg->jobe_files_quota
                      : nkeys > 0 ? cfg->jobe_files_max / (long long)nkeys
                                  : 0;
    j->files = pw_jobe_files_new(cfg->jobe_files, cfg->tmpdir, FILE_MAX,
                                 cfg->jobe_files_max, quota, FILE_TTL_S, err);
    if (j->files == NULL) {
        pw_jobe_free(j);
        return NULL;
    }
    return j;
}

void
pw_jobe_free(struct pw_jobe *j)
{
    if (j == NULL) {
        return;
    }
    for (size_t i = 0; j->keys != NULL && j->keys[i] != NULL; i++) {
        free(j->keys[i]);
    }
    free(j->keys);
    pw_jobe_files_free(j->files);
    free(j);
}

static bool
key_ok(const struct pw_jobe *j, const char *key)
{
    if (j->keys == NULL) {
        return true;
    }
    /* Compared whole: the same time whichever byte differs. */
    bool ok = false;
    for (size_t i = 0; key != NULL && j->keys[i] != NULL; i++) {
        size_t n = strlen(j->keys[i]);
        unsigned diff = strlen(key) != n;
        for (size_t k = 0; k < n && key[k] != '\0'; k++) {
            diff |= (unsigned char)(key[k] ^ j->keys[i][k]);
        }
        ok |= diff == 0;
    }
    return ok;
}

/* --- answers ------------------------------------------------------------ */

static void
answer(struct pw_jobe_answer *a, unsigned status, json_t *body)
{
    a->status = status;
    a->body =
        body != NULL ? json_dumps(body, JSON_ENCODE_ANY | JSON_COMPACT) : NULL;
    json_decref(body);
}

/* Jobe's errors are a JSON string. */
static void
answer_msg(struct pw_jobe_answer *a, unsigned status, const char *msg)
{
    answer(a, status, json_string(msg));
}

void
pw_jobe_forbidden(struct pw_jobe_answer *a)
{
    memset(a, 0, sizeof(*a));
    answer_msg(a, 403, "Forbidden: a valid X-API-KEY header is needed");
}

void
pw_jobe_answer_clear(struct pw_jobe_answer *a)
{
    free(a->body);
    free(a->run_id);
    free(a->source_name);
    pw_tools_exec_free(a->exec);
    memset(a, 0, sizeof(*a));
}

/* --- runs --------------------------------------------------------------- */

static void
languages(struct pw_jobe_answer *a)
{
    char version[16];
    snprintf(version, sizeof(version), "%d.%d", PY_MAJOR_VERSION,
             PY_MINOR_VERSION);
    answer(a, 200, json_pack("[[s,s]]", "python3", version));
}

/* The workspace files of a run: the source and the support files, and
 * the hold on the cached ones. */
struct run_files {
    struct pw_sbx_file *v; /* owned names; the source's bytes owned */
    size_t n;
    struct pw_jobe_hold *hold;
};

static void
run_files_clear(struct run_files *rf)
{
    for (size_t i = 0; rf->v != NULL && i < rf->n; i++) {
        free((char *)rf->v[i].name);
        free((char *)rf->v[i].data);
    }
    free(rf->v);
    pw_jobe_hold_free(rf->hold);
    memset(rf, 0, sizeof(*rf));
}

/* Entry I of SPEC's file_list is the last of its name (Jobe writes them
 * in order, one over the other). */
static bool
last_of_name(const struct pw_jobe_spec *spec, size_t i)
{
    const char *name =
        json_string_value(json_array_get(json_array_get(spec->files, i), 1));
    for (size_t k = i + 1; k < json_array_size(spec->files); k++) {
        if (strcmp(name, json_string_value(json_array_get(
                             json_array_get(spec->files, k), 1))) == 0) {
            return false;
        }
    }
    return true;
}

static long long
pages(long long n)
{
    return (n + PAGE - 1) / PAGE * PAGE;
}

enum files_rc { FILES_OK, FILES_MISSING, FILES_BUSY, FILES_TOO_BIG };

/* The run's workspace files into RF: the source under its file name, as
 * Jobe saves it (unless a support file of that name replaces it), then
 * the support files of SPEC held in the cache by fd: never read here.
 * *BYTES: what they take in the workspace (each cached file once). */
static enum files_rc
load_files(struct pw_jobe *j, const struct pw_jobe_spec *spec,
           const char *client, const char *source, size_t source_len,
           struct run_files *rf, long long *bytes)
{
    size_t count = json_array_size(spec->files);
    rf->v = pw_xcalloc(count + 1, sizeof(*rf->v));
    rf->hold = pw_jobe_hold_new(j->files, client);
    bool source_kept = true;
    *bytes = 0;
    for (size_t i = 0; i < count; i++) {
        json_t *f = json_array_get(spec->files, i);
        const char *name = json_string_value(json_array_get(f, 1));
        if (!last_of_name(spec, i)) {
            continue;
        }
        int fd;
        long long size;
        int rc = pw_jobe_hold_add(
            rf->hold, json_string_value(json_array_get(f, 0)), &fd, &size);
        if (rc < 0) {
            return rc == -2 ? FILES_BUSY : FILES_MISSING;
        }
        /* A file named twice is copied once (the others are links). */
        bool again = false;
        for (size_t k = 0; k < rf->n; k++) {
            again |= rf->v[k].data == NULL && rf->v[k].fd == fd;
        }
        *bytes += again ? 0 : pages(size);
        source_kept &= strcmp(name, spec->source_name) != 0;
        rf->v[rf->n++] = (struct pw_sbx_file){
            .name = pw_xstrdup(name), .data = NULL, .len = 0, .fd = fd};
    }
    if (source_kept) {
        char *copy = pw_xmalloc(source_len + 1);
        memcpy(copy, source, source_len);
        rf->v[rf->n++] =
            (struct pw_sbx_file){.name = pw_xstrdup(spec->source_name),
                                 .data = copy,
                                 .len = source_len,
                                 .fd = -1};
        *bytes += pages((long long)source_len);
    }
    long long room = j->tools->zygote != NULL
                         ? pw_zygote_workspace_bytes(j->tools->zygote)
                         : 0;
    return room > 0 && *bytes > room ? FILES_TOO_BIG : FILES_OK;
}

static void
release_hold(void *hold)
{
    pw_jobe_hold_free(hold);
}

/* The execute_code arguments of SPEC (new reference). */
static json_t *
exec_args(const struct pw_jobe *j, const struct pw_jobe_spec *spec)
{
    /* cputime is the run's CPU time limit (pw_tools_exec_set_cpu_limit);
     * the wall clock gets PW_SBX_WALL_MULTIPLE times it. */
    double timeout = fmin(fmax(spec->cputime_s * PW_SBX_WALL_MULTIPLE, 1),
                          j->cfg->max_timeout_s);
    long long mem = spec->memory_bytes;
    mem = mem < MIN_MEMORY ? MIN_MEMORY : mem;
    mem = mem > j->cfg->max_memory ? j->cfg->max_memory : mem;
    /* Every profile the operator enabled (--jobe adds basic and jobe):
     * a course that needs numpy has the server started with
     * data_science. */
    json_t *profiles = json_array();
    const struct pw_profiles *pp = j->tools->profiles;
    for (size_t i = 0; pp != NULL && i < pp->n; i++) {
        if (j->tools->enabled & ((pw_profile_mask)1 << i)) {
            json_array_append_new(profiles, json_string(pp->v[i].name));
        }
    }
    return json_pack("{s:s%,s:s%,s:f,s:I,s:o}", "code", spec->code,
                     spec->code_len, "stdin", spec->input, spec->input_len,
                     "timeout", timeout, "memory_limit", (json_int_t)mem,
                     "profile", profiles);
}

/* The answer to a run execute_code ended at once: the validator refused
 * the program (REJECTED holds why: cmpinfo in plain words), or the tool
 * refused the arguments the spec made (RESULT, logged for the operator:
 * the student reads that the sandbox could not run it). */
static void
answer_now(struct pw_jobe_answer *a, json_t *result,
           const struct pw_diags *rejected, const char *run_id,
           const char *name)
{
    if (rejected->n > 0) {
        PW_AUTOFREE char *info = pw_jobe_cmpinfo(rejected, name);
        answer(a, 200,
               pw_jobe_result_object(run_id, PW_JOBE_COMPILE_ERROR, info, "",
                                     ""));
    } else {
        json_t *text = json_object_get(
            json_array_get(json_object_get(result, "content"), 0), "text");
        pw_log(PW_LOG_WARN, "jobe: run %s not run: %s", run_id,
               json_is_string(text) ? json_string_value(text) : "refused");
        answer(a, 200,
               pw_jobe_result_object(run_id, PW_JOBE_INTERNAL_ERROR, "", "",
                                     "the sandbox could not run the "
                                     "program"));
    }
    json_decref(result);
}

/* The source for which Jobe answers its overload outcome without running
 * anything, for its testsubmit.py to see that answer: never a program
 * (a syntax error in Python), so answered the same here. */
#define JOBE_OVERLOAD_TEST "!** TESTING OVERLOAD EXCEPTION **!"

/* The answer to a run whose files could not all be held (RC). */
static void
answer_files(struct pw_jobe_answer *a, enum files_rc rc, long long bytes,
             const struct pw_jobe *j)
{
    if (rc == FILES_MISSING) {
        answer_msg(
            a, 404,
            "One or more of the specified files is missing/unavailable");
    } else if (rc == FILES_BUSY) {
        answer(a, 200,
               pw_jobe_result_object(NULL, PW_JOBE_OVERLOAD, "", "",
                                     "server busy: the runs queued hold as "
                                     "many cached files open as it "
                                     "allows; try again later"));
    } else {
        PW_AUTOFREE char *m = pw_xasprintf(
            "file_list: the files and the source take %lld bytes, more "
            "than a run's workspace holds (%lld bytes)",
            bytes, pw_zygote_workspace_bytes(j->tools->zygote));
        answer_msg(a, 400, m);
    }
}

json_t *
pw_jobe_parse_run(const char *body, size_t len)
{
    json_error_t jerr;
    json_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL &&
        json_error_code(&jerr) == json_error_numeric_overflow) {
        /* An integer past 64 bits: read as a real, for its field's
         * check to name it. */
        root = json_loadb(
            body, len, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, NULL);
    }
    return root;
}

/* A run of the spec ROOT (borrowed; NULL: the body is not JSON). */
static void
post_run(struct pw_jobe *j, const char *client, json_t *root,
         struct pw_jobe_answer *a)
{
    struct pw_jobe_spec spec;
    unsigned status;
    char *msg = NULL;
    struct pw_jobe_limits lim = {j->cfg->max_timeout_s, j->cfg->max_memory};
    if (pw_jobe_spec_parse(root, &lim, &spec, &status, &msg) < 0) {
        answer_msg(a, status, msg);
        free(msg);
        return;
    }
    json_t *src =
        json_object_get(json_object_get(root, "run_spec"), "sourcecode");
    if (spec.code_len == strlen(JOBE_OVERLOAD_TEST) &&
        memcmp(spec.code, JOBE_OVERLOAD_TEST, spec.code_len) == 0) {
        pw_jobe_spec_clear(&spec);
        answer(a, 200,
               pw_jobe_result_object(NULL, PW_JOBE_OVERLOAD, "", "", ""));
        return;
    }
    struct run_files rf = {0};
    long long bytes = 0;
    enum files_rc frc = load_files(j, &spec, client, json_string_value(src),
                                   json_string_length(src), &rf, &bytes);
    if (frc != FILES_OK) {
        run_files_clear(&rf);
        pw_jobe_spec_clear(&spec);
        answer_files(a, frc, bytes, j);
        return;
    }
    json_auto_t *args = exec_args(j, &spec);
    struct pw_error err = {0};
    json_t *result = NULL;
    struct pw_diags rejected;
    pw_diags_init(&rejected);
    PW_AUTOFREE char *run_id = NULL;
    struct pw_exec *e = args != NULL
                            ? pw_tools_run_new(j->tools, args, &result,
                                               &rejected, &run_id, &err)
                            : NULL;
    if (e != NULL) {
        pw_tools_exec_set_extras(e, spec.argv, rf.v, rf.n, release_hold,
                                 rf.hold);
        pw_tools_exec_set_cpu_limit(e, spec.cputime_s);
        memset(&rf, 0, sizeof(rf));
        spec.argv = NULL;
        a->exec = e;
        a->run_id = pw_steal(&run_id);
        a->source_name = pw_xstrdup(spec.source_name);
    } else {
        run_files_clear(&rf);
        if (result != NULL) {
            pw_events_answered("execute_code", args, result);
            answer_now(a, result, &rejected, run_id, spec.source_name);
        } else {
            pw_log(PW_LOG_WARN, "jobe: run %s not run: %s",
                   run_id != NULL ? run_id : "?", err.message);
            answer(a, 200,
                   pw_jobe_result_object(run_id, PW_JOBE_INTERNAL_ERROR, "",
                                         "",
                                         "the sandbox could not run the "
                                         "program"));
        }
    }
    pw_diags_free(&rejected);
    pw_jobe_spec_clear(&spec);
}

/* --- files -------------------------------------------------------------- */

/* The longest body of a file PUT: the base64 of the largest file, an
 * eighth more for escapes ("\/" for '/') and white space, or --max-body
 * if larger (the body is read as it comes, never kept). */
static long long
put_body_max(const struct pw_jobe *j)
{
    long long b64 = (pw_jobe_files_max_file(j->files) + 2) / 3 * 4;
    long long max = b64 + b64 / 8 + 4096;
    return max > j->cfg->max_body ? max : j->cfg->max_body;
}

/* A PUT whose body is all in BODY (pw_jobe_handle's callers). */
static void
put_file(struct pw_jobe *j, const char *client, const char *id,
         const char *body, size_t len, struct pw_jobe_answer *a)
{
    struct pw_jobe_put *p =
        pw_jobe_put_new(j->files, client, id, put_body_max(j));
    if (pw_jobe_put_feed(p, body, len, a) == 0) {
        pw_jobe_put_end(p, a);
    }
    pw_jobe_put_free(p);
}

bool
pw_jobe_put_begin(struct pw_jobe *j, const char *method, const char *path,
                  const char *api_key, const char *client,
                  long long content_length, struct pw_jobe_put **put,
                  struct pw_jobe_answer *a)
{
    memset(a, 0, sizeof(*a));
    *put = NULL;
    const char *rest = route_rest(path);
    if (rest == NULL || strcmp(method, "PUT") != 0 ||
        strncmp(rest, "files/", 6) != 0) {
        return false;
    }
    const char *id = rest + 6;
    long long max = put_body_max(j);
    if (!key_ok(j, api_key)) {
        pw_events_refused(
            "jobe_key", api_key != NULL ? "unknown X-API-KEY" : "no X-API-KEY",
            NULL);
        pw_jobe_forbidden(a);
    } else if (!pw_jobe_file_id_ok(id)) {
        answer_msg(a, *id == '\0' ? 400 : 404,
                   *id == '\0' ? "No file id in URL" : "Not found");
    } else if (content_length > max) {
        PW_AUTOFREE char *m = pw_xasprintf(
            "put: failed to write file %s to cache: the request's body is "
            "more than %lld bytes",
            id, max);
        answer_msg(a, 413, m);
    } else {
        *put = pw_jobe_put_new(j->files, client, id, max);
    }
    return true;
}

int
pw_jobe_tick(struct pw_jobe *j)
{
    return pw_jobe_files_tick(j->files);
}

static void
files_route(struct pw_jobe *j, const char *method, const char *client,
            const char *id, const char *body, size_t len,
            struct pw_jobe_answer *a)
{
    if (!pw_jobe_file_id_ok(id)) {
        answer_msg(a, *id == '\0' ? 400 : 404,
                   *id == '\0' ? "No file id in URL" : "Not found");
    } else if (strcmp(method, "PUT") == 0) {
        put_file(j, client, id, body, len, a);
    } else if (strcmp(method, "HEAD") == 0) {
        answer(a, pw_jobe_files_has(j->files, client, id) ? 204 : 404, NULL);
    } else {
        answer_msg(a, 405, "Method not allowed");
    }
}

/* REST (may be NULL) is NAME, with or without a final '/'. */
static bool
route_is(const char *rest, const char *name)
{
    size_t n = strlen(name);
    return rest != NULL && strncmp(rest, name, n) == 0 &&
           (rest[n] == '\0' || strcmp(rest + n, "/") == 0);
}

void
pw_jobe_handle(struct pw_jobe *j, const char *method, const char *path,
               const char *api_key, const char *client, const char *body,
               size_t len, struct pw_jobe_answer *a)
{
    memset(a, 0, sizeof(*a));
    const char *rest = route_rest(path);
    if (rest != NULL && !key_ok(j, api_key)) {
        pw_events_refused(
            "jobe_key", api_key != NULL ? "unknown X-API-KEY" : "no X-API-KEY",
            NULL);
        pw_jobe_forbidden(a);
    } else if (route_is(rest, "languages")) {
        if (strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0) {
            languages(a);
        } else {
            answer_msg(a, 405, "Method not allowed");
        }
    } else if (route_is(rest, "runs")) {
        if (strcmp(method, "POST") == 0) {
            json_auto_t *root = pw_jobe_parse_run(body, len);
            post_run(j, client, root, a);
        } else {
            answer_msg(a, 405, "Method not allowed");
        }
    } else if (rest != NULL && strncmp(rest, "files/", 6) == 0) {
        files_route(j, method, client, rest + 6, body, len, a);
    } else {
        answer_msg(a, 404, "Not found");
    }
}

bool
pw_jobe_is_run(const char *method, const char *path)
{
    return strcmp(method, "POST") == 0 && route_is(route_rest(path), "runs");
}

void
pw_jobe_handle_run(struct pw_jobe *j, const char *api_key, const char *client,
                   json_t *root, struct pw_jobe_answer *a)
{
    memset(a, 0, sizeof(*a));
    if (!key_ok(j, api_key)) {
        pw_events_refused(
            "jobe_key", api_key != NULL ? "unknown X-API-KEY" : "no X-API-KEY",
            NULL);
        pw_jobe_forbidden(a);
        return;
    }
    post_run(j, client, root, a);
}
