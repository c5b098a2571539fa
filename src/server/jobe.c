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

#include "core/base64.h"
#include "core/py.h"
#include "core/util.h"
#include "sandbox/output.h"
#include "server/jobe.h"
#include "server/rpc.h"

#define KEYS_MAX        1024
#define KEYS_FILE_MAX   (1u << 20)
#define FILE_MAX        (8LL << 20)
#define FILES_TOTAL_MAX (256LL << 20)
#define FILE_TTL_S      (24.0 * 3600)
#define MIN_MEMORY      (64LL << 20)

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
    j->files = pw_jobe_files_new(cfg->jobe_files, FILE_MAX, FILES_TOTAL_MAX,
                                 FILE_TTL_S, err);
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

/* Put NAME with DATA (LEN bytes, taken) among FILES: a file of the same
 * name is replaced, as Jobe writes one over the other. */
static void
add_file(struct pw_sbx_file *files, size_t *n, const char *name, char *data,
         size_t len)
{
    size_t i = 0;
    while (i < *n && strcmp(files[i].name, name) != 0) {
        i++;
    }
    if (i == *n) {
        files[(*n)++].name = pw_xstrdup(name);
    } else {
        free((char *)files[i].data);
    }
    files[i].data = data;
    files[i].len = len;
}

/* The run's workspace files into FILES (owned names and bytes): the
 * source under its file name, as Jobe saves it, then the support files
 * of SPEC from the cache; -1 if one of those is missing. */
static int
load_files(struct pw_jobe *j, const struct pw_jobe_spec *spec,
           const char *source, size_t source_len, struct pw_sbx_file **files,
           size_t *n)
{
    size_t count = json_array_size(spec->files);
    *files = pw_xcalloc(count + 2, sizeof(**files));
    *n = 0;
    char *copy = pw_xmalloc(source_len + 1);
    memcpy(copy, source, source_len);
    add_file(*files, n, spec->source_name, copy, source_len);
    for (size_t i = 0; i < count; i++) {
        json_t *f = json_array_get(spec->files, i);
        struct pw_buf b;
        pw_buf_init(&b);
        if (pw_jobe_files_get(
                j->files, json_string_value(json_array_get(f, 0)), &b) < 0) {
            pw_buf_free(&b);
            return -1;
        }
        size_t len = b.len;
        add_file(*files, n, json_string_value(json_array_get(f, 1)),
                 pw_buf_take(&b, NULL), len);
    }
    return 0;
}

static void
files_free(struct pw_sbx_file *files, size_t n)
{
    for (size_t i = 0; files != NULL && i < n; i++) {
        free((char *)files[i].name);
        free((char *)files[i].data);
    }
    free(files);
}

/* The execute_code arguments of SPEC (new reference). */
static json_t *
exec_args(const struct pw_jobe *j, const struct pw_jobe_spec *spec)
{
    double timeout = fmin(fmax(spec->cputime_s * 2, 1), j->cfg->max_timeout_s);
    long long mem = spec->memory_bytes;
    mem = mem < MIN_MEMORY ? MIN_MEMORY : mem;
    mem = mem > j->cfg->max_memory ? j->cfg->max_memory : mem;
    return json_pack("{s:s%,s:s%,s:f,s:I,s:[ss]}", "code", spec->code,
                     spec->code_len, "stdin", spec->input, spec->input_len,
                     "timeout", timeout, "memory_limit", (json_int_t)mem,
                     "profile", "basic", "jobe");
}

/* A result execute_code gave at once (a rejection by the validator, or
 * arguments it refused) as Jobe's answer. */
static void
answer_now(struct pw_jobe_answer *a, json_t *result, const char *name)
{
    json_t *sc = json_object_get(result, "structuredContent");
    if (json_is_object(sc)) {
        answer(a, 200, pw_jobe_result_json(sc, name));
    } else {
        /* Arguments the tool refused: the text says why. */
        json_t *text = json_object_get(
            json_array_get(json_object_get(result, "content"), 0), "text");
        answer(a, 200,
               pw_jobe_result_object(NULL, PW_JOBE_INTERNAL_ERROR, "", "",
                                     json_is_string(text)
                                         ? json_string_value(text)
                                         : "the run was refused"));
    }
    json_decref(result);
}

/* The source for which Jobe answers its overload outcome without running
 * anything, for its testsubmit.py to see that answer: never a program
 * (a syntax error in Python), so answered the same here. */
#define JOBE_OVERLOAD_TEST "!** TESTING OVERLOAD EXCEPTION **!"

static void
post_run(struct pw_jobe *j, const char *body, size_t len,
         struct pw_jobe_answer *a)
{
    json_error_t jerr;
    json_auto_t *root = json_loadb(body, len, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL &&
        json_error_code(&jerr) == json_error_numeric_overflow) {
        /* An integer past 64 bits: read as a real, for its field's
         * check to name it. */
        root = json_loadb(
            body, len, JSON_REJECT_DUPLICATES | JSON_DECODE_INT_AS_REAL, NULL);
    }
    struct pw_jobe_spec spec;
    unsigned status;
    char *msg = NULL;
    struct pw_jobe_limits lim = {j->cfg->max_timeout_s, j->cfg->max_memory};
    if (pw_jobe_spec_parse(root, &lim, &spec, &status, &msg) < 0) {
        answer_msg(a, status, msg);
        free(msg);
        return;
    }
    struct pw_sbx_file *files = NULL;
    size_t n = 0;
    json_t *src =
        json_object_get(json_object_get(root, "run_spec"), "sourcecode");
    if (spec.code_len == strlen(JOBE_OVERLOAD_TEST) &&
        memcmp(spec.code, JOBE_OVERLOAD_TEST, spec.code_len) == 0) {
        pw_jobe_spec_clear(&spec);
        answer(a, 200,
               pw_jobe_result_object(NULL, PW_JOBE_OVERLOAD, "", "", ""));
        return;
    }
    if (load_files(j, &spec, json_string_value(src), json_string_length(src),
                   &files, &n) < 0) {
        files_free(files, n);
        pw_jobe_spec_clear(&spec);
        answer_msg(
            a, 404,
            "One or more of the specified files is missing/unavailable");
        return;
    }
    json_auto_t *args = exec_args(j, &spec);
    struct pw_error err = {0};
    json_t *result = NULL;
    struct pw_exec *e =
        args != NULL
            ? pw_tools_exec_new(j->tools, "execute_code", args, &result, &err)
            : NULL;
    if (e != NULL) {
        pw_tools_exec_set_extras(e, spec.argv, files, n);
        spec.argv = NULL;
        a->exec = e;
        a->source_name = pw_xstrdup(spec.source_name);
    } else {
        files_free(files, n);
        if (result != NULL) {
            answer_now(a, result, spec.source_name);
        } else {
            answer(a, 200,
                   pw_jobe_result_object(NULL, PW_JOBE_INTERNAL_ERROR, "", "",
                                         err.message));
        }
    }
    pw_jobe_spec_clear(&spec);
}

/* --- files -------------------------------------------------------------- */

static void
put_file(struct pw_jobe *j, const char *id, const char *body, size_t len,
         struct pw_jobe_answer *a)
{
    json_auto_t *root = json_loadb(body, len, 0, NULL);
    const char *b64 =
        json_string_value(json_object_get(root, "file_contents"));
    if (b64 == NULL) {
        answer_msg(a, 400, "put: missing file_contents parameter");
        return;
    }
    struct pw_buf data;
    pw_buf_init(&data);
    if (pw_base64_decode(b64, &data) < 0) {
        pw_buf_free(&data);
        PW_AUTOFREE char *m =
            pw_xasprintf("put: contents of file %s are not valid base-64", id);
        answer_msg(a, 400, m);
        return;
    }
    struct pw_error err = {0};
    int rc = pw_jobe_files_put(j->files, id, data.data, data.len, &err);
    pw_buf_free(&data);
    if (rc < 0) {
        PW_AUTOFREE char *m = pw_xasprintf(
            "put: failed to write file %s to cache: %s", id, err.message);
        answer_msg(a, err.code == PW_ERR_USAGE ? 413 : 500, m);
        return;
    }
    answer(a, 204, NULL);
}

static void
files_route(struct pw_jobe *j, const char *method, const char *id,
            const char *body, size_t len, struct pw_jobe_answer *a)
{
    if (!pw_jobe_file_id_ok(id)) {
        answer_msg(a, *id == '\0' ? 400 : 404,
                   *id == '\0' ? "No file id in URL" : "Not found");
    } else if (strcmp(method, "PUT") == 0) {
        put_file(j, id, body, len, a);
    } else if (strcmp(method, "HEAD") == 0) {
        answer(a, pw_jobe_files_has(j->files, id) ? 204 : 404, NULL);
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
               const char *api_key, const char *body, size_t len,
               struct pw_jobe_answer *a)
{
    memset(a, 0, sizeof(*a));
    const char *rest = route_rest(path);
    if (rest != NULL && !key_ok(j, api_key)) {
        pw_jobe_forbidden(a);
    } else if (route_is(rest, "languages")) {
        if (strcmp(method, "GET") == 0 || strcmp(method, "HEAD") == 0) {
            languages(a);
        } else {
            answer_msg(a, 405, "Method not allowed");
        }
    } else if (route_is(rest, "runs")) {
        if (strcmp(method, "POST") == 0) {
            post_run(j, body, len, a);
        } else {
            answer_msg(a, 405, "Method not allowed");
        }
    } else if (rest != NULL && strncmp(rest, "files/", 6) == 0) {
        files_route(j, method, rest + 6, body, len, a);
    } else {
        answer_msg(a, 404, "Not found");
    }
}
