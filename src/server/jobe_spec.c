/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * jobe_spec.c - a Jobe run_spec checked as Jobe's RunSpecifier checks it
 * (the same messages), the interpreter arguments CodeRunner may send
 * (-c CODE and flags that change nothing here), and an execute_code
 * result turned into Jobe's result object and outcome code.
 */
#include "config.h"

#include <float.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/util.h"
#include "sandbox/sandbox.h"
#include "server/jobe.h"
#include "server/rpc.h"

#define WORDS_MAX 64

static int
bad(unsigned *status, char **msg, unsigned code, const char *text)
{
    *status = code;
    *msg = pw_xstrdup(text);
    return -1;
}

/* --- words ------------------------------------------------------------- */

/* Append the word that starts at *P (past blanks) to B; false at the end
 * of the text; *OPEN set if a quote is not closed. */
static bool
next_word(const char **p, struct pw_buf *b, bool *open)
{
    const char *s = *p;
    while (*s == ' ' || *s == '\t' || *s == '\n') {
        s++;
    }
    if (*s == '\0') {
        return false;
    }
    char quote = 0;
    for (;
         *s != '\0' && (quote != 0 || (*s != ' ' && *s != '\t' && *s != '\n'));
         s++) {
        if (quote == '\'') {
            if (*s == '\'') {
                quote = 0;
            } else {
                pw_buf_append(b, s, 1);
            }
        } else if (*s == '\\' && s[1] != '\0' &&
                   (quote == 0 || strchr("\"\\$`", s[1]) != NULL)) {
            pw_buf_append(b, ++s, 1);
        } else if (*s == '"' || (*s == '\'' && quote == 0)) {
            quote = quote == *s ? 0 : *s;
        } else {
            pw_buf_append(b, s, 1);
        }
    }
    *open = quote != 0;
    *p = s;
    return true;
}

char **
pw_jobe_shell_split(const char *text)
{
    char **v = pw_xcalloc(WORDS_MAX + 1, sizeof(char *));
    size_t n = 0;
    struct pw_buf b;
    pw_buf_init(&b);
    bool open = false;
    while (!open && n < WORDS_MAX && next_word(&text, &b, &open)) {
        v[n++] = pw_buf_take(&b, NULL);
    }
    pw_buf_free(&b);
    if (open) {
        for (size_t i = 0; i < n; i++) {
            free(v[i]);
        }
        free(v);
        return NULL;
    }
    return v;
}

static void
words_free(char **v)
{
    for (size_t i = 0; v != NULL && v[i] != NULL; i++) {
        free(v[i]);
    }
    free(v);
}

/* --- the run_spec ---------------------------------------------------------
 */

/* Jobe's RunSpecifier::isValidSourceFilename: no reserved, control or
 * URL-unsafe character, no leading '.' or '-'. */
static bool
source_name_ok(const char *s)
{
    if (*s == '\0' || *s == '.' || *s == '-' || strlen(s) > PW_SBX_NAME_MAX) {
        return false;
    }
    for (; *s != '\0'; s++) {
        unsigned char c = (unsigned char)*s;
        if (c < 0x20 || c == 0x7f ||
            strchr("<>:\"/\\|?*#[]@!$&'()+,;={}^~`", c) != NULL) {
            return false;
        }
    }
    return true;
}

/* Jobe's isValidFilespec: [id, name] or [id, name, x]; the id letters and
 * digits (at least 8), the name letters, digits, '-', '_' and '.'. */
static bool
filespec_ok(json_t *f)
{
    size_t n = json_array_size(f);
    const char *id = json_string_value(json_array_get(f, 0));
    const char *name = json_string_value(json_array_get(f, 1));
    if ((n != 2 && n != 3) || id == NULL || name == NULL || strlen(id) < 8 ||
        !pw_jobe_file_id_ok(id) || !pw_sbx_file_name_ok(name)) {
        return false;
    }
    for (const char *s = name; *s != '\0'; s++) {
        if (!(strchr("-_.", *s) != NULL || (*s >= 'a' && *s <= 'z') ||
              (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9'))) {
            return false;
        }
    }
    return true;
}

static int
parse_files(json_t *run, struct pw_jobe_spec *spec, unsigned *status,
            char **msg)
{
    json_t *list = json_object_get(run, "file_list");
    if (list == NULL || json_is_null(list)) {
        return 0;
    }
    if (!json_is_array(list)) {
        return bad(status, msg, 400, "Invalid file_list");
    }
    /* One place is the source's. */
    if (json_array_size(list) >= PW_SBX_FILES_MAX) {
        *status = 400;
        *msg = pw_xasprintf("Invalid file_list: %zu files, more than this "
                            "server takes (%d)",
                            json_array_size(list), PW_SBX_FILES_MAX - 1);
        return -1;
    }
    size_t i;
    json_t *f;
    json_array_foreach(list, i, f) {
        if (!filespec_ok(f)) {
            PW_AUTOFREE char *text = json_dumps(f, JSON_ENCODE_ANY);
            *status = 400;
            *msg = pw_xasprintf("Invalid file specifier: %s",
                                text != NULL ? text : "?");
            return -1;
        }
    }
    spec->files = list;
    return 0;
}

/* A flag of python3 that changes nothing in the sandbox (-B, -E, -u,
 * ...), possibly several in one word. */
static bool
harmless_flags(const char *w)
{
    if (w[0] != '-' || w[1] == '\0') {
        return false;
    }
    for (const char *s = w + 1; *s != '\0'; s++) {
        if (strchr("BEIOSbdqsuv", *s) == NULL) {
            return false;
        }
    }
    return true;
}

/* interpreterargs: -c CODE replaces the program (python3 -c CODE FILE
 * has argv ["-c", FILE, ...]); -W and -X take a value; the rest must be
 * harmless flags. */
static int
parse_interp(json_t *params, struct pw_jobe_spec *spec, bool *dash_c,
             unsigned *status, char **msg)
{
    json_t *args = json_object_get(params, "interpreterargs");
    struct pw_buf line;
    pw_buf_init(&line);
    size_t i;
    json_t *v;
    json_array_foreach(args, i, v) {
        pw_buf_printf(&line, "%s ",
                      json_is_string(v) ? json_string_value(v) : "");
    }
    char **w = pw_jobe_shell_split(line.len > 0 ? line.data : "");
    pw_buf_free(&line);
    if (w == NULL) {
        return bad(status, msg, 400, "interpreterargs: unclosed quote");
    }
    int rc = 0;
    for (size_t k = 0; rc == 0 && w[k] != NULL; k++) {
        if (strcmp(w[k], "-c") == 0 && w[k + 1] != NULL) {
            free(spec->code_owned);
            spec->code_owned = pw_xstrdup(w[++k]);
            *dash_c = true;
        } else if ((strcmp(w[k], "-W") == 0 || strcmp(w[k], "-X") == 0) &&
                   w[k + 1] != NULL) {
            k++;
        } else if (!harmless_flags(w[k])) {
            *status = 400;
            *msg = pw_xasprintf("interpreterargs: '%s' is not supported by "
                                "this server",
                                w[k]);
            rc = -1;
        }
    }
    words_free(w);
    if (spec->code_owned != NULL) {
        spec->code = spec->code_owned;
        spec->code_len = strlen(spec->code_owned);
    }
    return rc;
}

/* sys.argv: the file name (or "-c" then it), then runargs. */
static int
parse_argv(json_t *params, struct pw_jobe_spec *spec, bool dash_c,
           unsigned *status, char **msg)
{
    json_t *runargs = json_object_get(params, "runargs");
    size_t n = json_array_size(runargs);
    if (runargs != NULL &&
        (!json_is_array(runargs) || n + 2 > PW_SBX_ARGV_MAX)) {
        return bad(status, msg, 400, "runargs must be a list of strings");
    }
    spec->argv = pw_xcalloc(n + 3, sizeof(char *));
    size_t k = 0;
    if (dash_c) {
        spec->argv[k++] = pw_xstrdup("-c");
    }
    spec->argv[k++] = pw_xstrdup(spec->source_name);
    for (size_t i = 0; i < n; i++) {
        json_t *v = json_array_get(runargs, i);
        if (!json_is_string(v)) {
            return bad(status, msg, 400, "runargs must be a list of strings");
        }
        spec->argv[k++] = pw_xstrdup(json_string_value(v));
    }
    return 0;
}

/* parameters.cputime (seconds): a number from 0 (the default) up to
 * MAX_CPU, compared as Jobe does on whole seconds; other types are
 * ignored (the default).  0, or -1 with Jobe's message. */
static int
parse_cputime(json_t *params, double max_cpu, struct pw_jobe_spec *spec,
              unsigned *status, char **msg)
{
    json_t *cpu = json_object_get(params, "cputime");
    double d = 0;
    spec->cputime_s = PW_JOBE_CPUTIME_S;
    if (!json_is_number(cpu)) {
        return 0;
    }
    if (pw_json_number_in(cpu, "cputime", 0, DBL_MAX, &d, NULL) < 0) {
        *status = 400;
        *msg = pw_xasprintf("cputime must be a number of seconds from 0 to "
                            "%.0f (0: the default, %d)",
                            floor(max_cpu), PW_JOBE_CPUTIME_S);
        return -1;
    }
    if (floor(d) > floor(max_cpu)) {
        *status = 400;
        *msg = pw_xasprintf("cputime exceeds maximum allowed on this Jobe "
                            "server (%.0f secs)",
                            floor(max_cpu));
        return -1;
    }
    spec->cputime_s = d > 0 ? d : PW_JOBE_CPUTIME_S;
    return 0;
}

/* parameters.memorylimit (MB): a number from 0 (the default) up to
 * MAX_BYTES; other types are ignored (the default). */
static int
parse_memory(json_t *params, long long max_bytes, struct pw_jobe_spec *spec,
             unsigned *status, char **msg)
{
    json_t *mem = json_object_get(params, "memorylimit");
    double max_mb = (double)max_bytes / 1048576;
    double mb = 0;
    spec->memory_bytes = (long long)PW_JOBE_MEMORY_MB << 20;
    if (!json_is_number(mem)) {
        return 0;
    }
    if (pw_json_number_in(mem, "memorylimit", 0, DBL_MAX, &mb, NULL) < 0) {
        *status = 400;
        *msg = pw_xasprintf("memorylimit must be a number of MB from 0 to "
                            "%.0f (0: the default, %d)",
                            floor(max_mb), PW_JOBE_MEMORY_MB);
        return -1;
    }
    if (mb > max_mb) {
        *status = 400;
        *msg = pw_xasprintf("memorylimit exceeds maximum allowed on this Jobe "
                            "server (%.0f MB)",
                            floor(max_mb));
        return -1;
    }
    if (mb > 0) {
        spec->memory_bytes = (long long)(mb * 1048576);
    }
    return 0;
}

static int
parse_params(json_t *run, const struct pw_jobe_limits *lim,
             struct pw_jobe_spec *spec, unsigned *status, char **msg)
{
    json_t *params = json_object_get(run, "parameters");
    if (params != NULL && !json_is_object(params) && !json_is_array(params)) {
        return bad(status, msg, 400, "parameters must be an object");
    }
    if (parse_cputime(params, lim->max_cpu_s, spec, status, msg) < 0 ||
        parse_memory(params, lim->max_memory, spec, status, msg) < 0) {
        return -1;
    }
    bool dash_c = false;
    if (parse_interp(params, spec, &dash_c, status, msg) < 0) {
        return -1;
    }
    return parse_argv(params, spec, dash_c, status, msg);
}

/* language_id and sourcecode as Jobe requires them. */
static int
parse_required(json_t *run, struct pw_jobe_spec *spec, unsigned *status,
               char **msg)
{
    static const char *const attrs[] = {"sourcecode", "language_id"};
    for (size_t i = 0; i < PW_N_ELEMENTS(attrs); i++) {
        json_t *v = json_object_get(run, attrs[i]);
        if (v == NULL || json_is_null(v)) {
            *status = 400;
            *msg = pw_xasprintf("run_spec is missing the required attribute "
                                "'%s'",
                                attrs[i]);
            return -1;
        }
        if (!json_is_string(v)) {
            *status = 400;
            *msg = pw_xasprintf("run_spec attribute '%s' must be a string",
                                attrs[i]);
            return -1;
        }
    }
    PW_AUTOFREE char *lang =
        pw_xstrdup(json_string_value(json_object_get(run, "language_id")));
    for (char *c = lang; *c != '\0'; c++) {
        *c = (char)(*c >= 'A' && *c <= 'Z' ? *c - 'A' + 'a' : *c);
    }
    if (strcmp(lang, "python3") != 0) {
        *status = 400;
        *msg = pw_xasprintf("Language '%s' is not known", lang);
        return -1;
    }
    json_t *src = json_object_get(run, "sourcecode");
    spec->code = json_string_value(src);
    spec->code_len = json_string_length(src);
    return 0;
}

static int
parse_optional(json_t *run, struct pw_jobe_spec *spec, unsigned *status,
               char **msg)
{
    json_t *in = json_object_get(run, "input");
    if (in != NULL && !json_is_null(in) && !json_is_string(in)) {
        return bad(status, msg, 400, "input must be a string");
    }
    spec->input = json_is_string(in) ? json_string_value(in) : "";
    spec->input_len = json_is_string(in) ? json_string_length(in) : 0;
    json_t *name = json_object_get(run, "sourcefilename");
    spec->source_name = PW_JOBE_SOURCE_NAME;
    if (name != NULL && !json_is_null(name)) {
        const char *s = json_string_value(name);
        if (s == NULL || !source_name_ok(s)) {
            return bad(status, msg, 400,
                       "The sourcefilename for the run_spec is illegal");
        }
        spec->source_name = s;
    }
    return 0;
}

int
pw_jobe_spec_parse(json_t *body, const struct pw_jobe_limits *lim,
                   struct pw_jobe_spec *spec, unsigned *status, char **msg)
{
    memset(spec, 0, sizeof(*spec));
    if (!json_is_object(body)) {
        return bad(status, msg, 400, "Non-JSON post data received");
    }
    json_t *run = json_object_get(body, "run_spec");
    if (!json_is_object(run)) {
        return bad(status, msg, 400,
                   "No run_spec attribute found in post data");
    }
    if (parse_required(run, spec, status, msg) < 0 ||
        parse_optional(run, spec, status, msg) < 0 ||
        parse_files(run, spec, status, msg) < 0 ||
        parse_params(run, lim, spec, status, msg) < 0) {
        pw_jobe_spec_clear(spec);
        return -1;
    }
    return 0;
}

void
pw_jobe_spec_clear(struct pw_jobe_spec *spec)
{
    words_free(spec->argv);
    free(spec->code_owned);
    memset(spec, 0, sizeof(*spec));
}

/* --- results --------------------------------------------------------------
 */

json_t *
pw_jobe_result_object(const char *run_id, int outcome, const char *cmpinfo,
                      const char *out, const char *err)
{
    return json_pack("{s:s?,s:i,s:s,s:s,s:s}", "run_id", run_id, "outcome",
                     outcome, "cmpinfo", cmpinfo, "stdout", out, "stderr",
                     err);
}

char *
pw_jobe_cmpinfo(const struct pw_diags *d, const char *name)
{
    struct pw_buf b;
    pw_buf_init(&b);
    for (size_t i = 0; i < d->n; i++) {
        pw_buf_printf(&b, "%s:%d: %s\n", name, d->v[i].line,
                      pw_diag_student(&d->v[i]));
    }
    return pw_buf_take(&b, NULL);
}

/* TEXT with the program's file ("<user>" in the sandbox's tracebacks)
 * named NAME, appended to B. */
static void
append_named(struct pw_buf *b, const char *text, const char *name)
{
    PW_AUTOFREE char *file = pw_xasprintf("File \"%s\"", name);
    pw_buf_replace_all(b, text, "File \"<user>\"", file);
}

/* stderr as python3 would print it: the program's own stderr, then its
 * traceback with the frames naming NAME. */
static char *
stderr_of(const struct pw_sbx_result *r, const char *name)
{
    struct pw_buf b;
    pw_buf_init(&b);
    bool line_start = true;
    pw_buf_rename_lines(&b, r->err.data != NULL ? r->err.data : "", r->err.len,
                        "<user>", name, &line_start);
    append_named(&b, r->traceback != NULL ? r->traceback : "", name);
    return pw_buf_take(&b, NULL);
}

/* True if the run failed on compiling the program: a SyntaxError (or
 * IndentationError, TabError) with no frame of the program's. */
static bool
compile_failed(const struct pw_sbx_result *r)
{
    const char *type = r->error_type != NULL ? r->error_type : "";
    return r->status == PW_SBX_ERROR &&
           (strcmp(type, "SyntaxError") == 0 ||
            strcmp(type, "IndentationError") == 0 ||
            strcmp(type, "TabError") == 0) &&
           (r->traceback == NULL ||
            strncmp(r->traceback, "Traceback", 9) != 0);
}

static int
outcome_of(const struct pw_sbx_result *r, bool has_stderr)
{
    switch (r->status) {
    case PW_SBX_TIMEOUT:
        return PW_JOBE_TIME_LIMIT;
    case PW_SBX_MEMORY_LIMIT:
        return PW_JOBE_MEMORY_LIMIT;
    case PW_SBX_INTERNAL_ERROR:
        return PW_JOBE_INTERNAL_ERROR;
    case PW_SBX_OUTPUT_LIMIT:
        return PW_JOBE_RUNTIME_ERROR;
    case PW_SBX_KILLED:
        return r->blocked == PW_SBX_BLOCKED_SYSCALL ? PW_JOBE_ILLEGAL_SYSCALL
                                                    : PW_JOBE_RUNTIME_ERROR;
    case PW_SBX_OK:
    case PW_SBX_ERROR:
        break;
    }
    if (r->blocked == PW_SBX_BLOCKED_SYSCALL) {
        return PW_JOBE_ILLEGAL_SYSCALL;
    }
    /* Jobe's rule: a run that wrote to stderr had a runtime error; one
     * that exited non-zero without a word on it succeeded. */
    return has_stderr ? PW_JOBE_RUNTIME_ERROR : PW_JOBE_SUCCESS;
}

json_t *
pw_jobe_result_of(const struct pw_sbx_result *r, const char *run_id,
                  const char *name)
{
    PW_AUTOFREE char *err = stderr_of(r, name);
    const char *out = r->out.data != NULL ? r->out.data : "";
    if (compile_failed(r)) {
        /* As python3 -m py_compile reports it. */
        return pw_jobe_result_object(run_id, PW_JOBE_COMPILE_ERROR, err, "",
                                     "");
    }
    if (r->status == PW_SBX_OUTPUT_LIMIT) {
        PW_AUTOFREE char *more =
            pw_xasprintf("%s\n[output limit exceeded]\n", err);
        return pw_jobe_result_object(run_id, PW_JOBE_RUNTIME_ERROR, "", out,
                                     more);
    }
    return pw_jobe_result_object(run_id, outcome_of(r, *err != '\0'), "", out,
                                 err);
}

static void
answer_json(struct pw_jobe_answer *a, json_t *res)
{
    memset(a, 0, sizeof(*a));
    a->status = 200;
    a->body = res != NULL ? json_dumps(res, JSON_COMPACT) : NULL;
    json_decref(res);
}

void
pw_jobe_run_answer(const struct pw_sbx_result *run, const struct pw_exec *call,
                   const char *run_id, const char *source_name,
                   struct pw_jobe_answer *a)
{
    bool unchecked = false;
    const struct pw_diags *refused =
        run == NULL ? pw_tools_exec_refusal(call, &unchecked) : NULL;
    if (run != NULL) {
        answer_json(a, pw_jobe_result_of(run, run_id, source_name));
    } else if (refused != NULL) {
        PW_AUTOFREE char *info = pw_jobe_cmpinfo(refused, source_name);
        answer_json(a, pw_jobe_result_object(run_id, PW_JOBE_COMPILE_ERROR,
                                             info, "", ""));
    } else {
        answer_json(a, pw_jobe_result_object(
                           run_id, PW_JOBE_INTERNAL_ERROR, "", "",
                           unchecked ? "the server could not check the "
                                       "program: it was not run"
                                     : "the sandbox could not run the "
                                       "program"));
    }
}

void
pw_jobe_refused_answer(const char *line, const char *run_id,
                       struct pw_jobe_answer *a)
{
    json_auto_t *msg = line != NULL ? json_loads(line, 0, NULL) : NULL;
    json_t *error = json_object_get(msg, "error");
    bool busy = json_integer_value(json_object_get(error, "code")) ==
                PW_RPC_SERVER_BUSY;
    answer_json(a,
                pw_jobe_result_object(
                    run_id, busy ? PW_JOBE_OVERLOAD : PW_JOBE_INTERNAL_ERROR,
                    "", "",
                    busy ? "server busy: too many runs queued; try again "
                           "later"
                         : "the sandbox could not run the program"));
}
