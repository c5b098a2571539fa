/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * tools.c - argument checking and results of the MCP tools.  The work is
 * done by the validator (pw_validate) and the sandbox (pw_sbx_*).
 *
 * Defines pw_tools_* and pw_exec_* (an execute_code call).
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "core/py.h"
#include "server/grade_tool.h"
#include "server/tools.h"
#include "core/util.h"

#define TEXT_MAX 4000 /* bytes of output shown in the text block */

enum {
    ARG_EXEC = 1u << 0,
    ARG_VALIDATE = 1u << 1,
    ARG_GRADE = 1u << 2,
};

/* The arguments of one call; strings are borrowed from the args object. */
struct call_args {
    const char *code;
    size_t code_len;
    const char *stdin_data;
    size_t stdin_len;
    double timeout;
    long long memory;
    pw_profile_mask mask;
    const char **only; /* owned vector of borrowed strings, or NULL */
    bool capture;
    json_t *tests; /* borrowed: grade_code's suite */
};

struct pw_exec {
    json_t *args; /* owned: keeps the borrowed strings alive */
    struct call_args a;
    struct pw_importset imports;
    char id[32];
    char **argv;               /* owned, NULL-terminated, or NULL */
    struct pw_sbx_file *files; /* owned names and bytes */
    size_t nfiles;
};

typedef int (*arg_fn)(const struct pw_tools *t, json_t *v, struct call_args *a,
                      struct pw_error *err);

static int
arg_code(const struct pw_tools *t, json_t *v, struct call_args *a,
         struct pw_error *err)
{
    if (!json_is_string(v)) {
        return pw_fail(err, PW_ERR_USAGE, "'code' must be a string");
    }
    a->code = json_string_value(v);
    a->code_len = json_string_length(v);
    if ((long long)a->code_len > t->cfg->max_code) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'code' is too large: %zu bytes (at most %lld)",
                       a->code_len, t->cfg->max_code);
    }
    return 0;
}

static int
arg_stdin(const struct pw_tools *t, json_t *v, struct call_args *a,
          struct pw_error *err)
{
    if (!json_is_string(v)) {
        return pw_fail(err, PW_ERR_USAGE, "'stdin' must be a string");
    }
    a->stdin_data = json_string_value(v);
    a->stdin_len = json_string_length(v);
    return 0;
}

static int
arg_timeout(const struct pw_tools *t, json_t *v, struct call_args *a,
            struct pw_error *err)
{
    double max = t->cfg->max_timeout_s;
    double d = json_number_value(v);
    if (!json_is_number(v) || !isfinite(d) || d <= 0 || d > max) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'timeout' must be a number of seconds above 0 and "
                       "at most %g",
                       max);
    }
    a->timeout = d;
    return 0;
}

static int
arg_memory(const struct pw_tools *t, json_t *v, struct call_args *a,
           struct pw_error *err)
{
    long long n = -1;
    if (json_is_integer(v)) {
        n = json_integer_value(v);
    } else if (json_is_string(v)) {
        n = pw_parse_size(json_string_value(v));
    }
    if (n <= 0 || n > t->cfg->max_memory) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'memory_limit' must be a size such as \"256m\" or "
                       "\"1g\", at most %lld bytes",
                       t->cfg->max_memory);
    }
    a->memory = n;
    return 0;
}

static int
arg_capture(const struct pw_tools *t, json_t *v, struct call_args *a,
            struct pw_error *err)
{
    if (!json_is_boolean(v)) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'capture_output' must be a "
                       "boolean");
    }
    a->capture = json_is_true(v);
    return 0;
}

static int
add_profile(const struct pw_tools *t, json_t *v, struct call_args *a,
            struct pw_error *err)
{
    if (!json_is_string(v)) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'profile' must be a name or a list of names");
    }
    const char *name = json_string_value(v);
    int i = pw_profiles_index(t->profiles, name);
    if (i < 0) {
        return pw_fail(err, PW_ERR_USAGE, "unknown profile '%s'", name);
    }
    if ((t->enabled & ((pw_profile_mask)1 << i)) == 0) {
        return pw_fail(err, PW_ERR_USAGE,
                       "profile '%s' is not enabled on this server", name);
    }
    a->mask |= (pw_profile_mask)1 << i;
    return 0;
}

static int
arg_profile(const struct pw_tools *t, json_t *v, struct call_args *a,
            struct pw_error *err)
{
    size_t i;
    json_t *item; /* borrowed */
    a->mask = 0;
    if (!json_is_array(v)) {
        return add_profile(t, v, a, err);
    }
    json_array_foreach(v, i, item) {
        if (add_profile(t, item, a, err) < 0) {
            return -1;
        }
    }
    if (a->mask == 0) {
        return pw_fail(err, PW_ERR_USAGE, "'profile' is an empty list");
    }
    return 0;
}

static int
arg_imports(const struct pw_tools *t, json_t *v, struct call_args *a,
            struct pw_error *err)
{
    size_t i;
    json_t *item; /* borrowed */
    if (!json_is_array(v)) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'allowed_imports' must be a list of module names");
    }
    a->only = pw_xcalloc(json_array_size(v) + 1, sizeof(char *));
    json_array_foreach(v, i, item) {
        if (!json_is_string(item) || json_string_length(item) == 0) {
            return pw_fail(err, PW_ERR_USAGE,
                           "'allowed_imports' must be a list of module "
                           "names (item %zu is not)",
                           i);
        }
        a->only[i] = json_string_value(item);
    }
    return 0;
}

static int
arg_tests(const struct pw_tools *t, json_t *v, struct call_args *a,
          struct pw_error *err)
{
    (void)t;
    if (!json_is_object(v)) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'tests' must be an object: {\"tests\": [...]}");
    }
    a->tests = v;
    return 0;
}

static const struct arg_def {
    const char *name;
    unsigned tools;
    arg_fn fn;
} arg_defs[] = {
    {"code", ARG_EXEC | ARG_VALIDATE | ARG_GRADE, arg_code},
    {"profile", ARG_EXEC | ARG_VALIDATE | ARG_GRADE, arg_profile},
    {"allowed_imports", ARG_EXEC | ARG_VALIDATE | ARG_GRADE, arg_imports},
    {"tests", ARG_GRADE, arg_tests},
    {"timeout", ARG_EXEC, arg_timeout},
    {"stdin", ARG_EXEC, arg_stdin},
    {"memory_limit", ARG_EXEC, arg_memory},
    {"capture_output", ARG_EXEC, arg_capture},
};

static int
parse_one(const struct pw_tools *t, unsigned tool, const char *key, json_t *v,
          struct call_args *a, struct pw_error *err)
{
    for (size_t i = 0; i < PW_N_ELEMENTS(arg_defs); i++) {
        if (strcmp(arg_defs[i].name, key) == 0 &&
            (arg_defs[i].tools & tool) != 0) {
            return arg_defs[i].fn(t, v, a, err);
        }
    }
    return pw_fail(err, PW_ERR_USAGE, "unknown argument '%s'", key);
}

/* Fill A from ARGS (an object or NULL) for TOOL; defaults first. */
static int
parse_args(const struct pw_tools *t, unsigned tool, json_t *args,
           struct call_args *a, struct pw_error *err)
{
    const char *key;
    json_t *v; /* borrowed */
    memset(a, 0, sizeof(*a));
    a->timeout = t->cfg->timeout_s;
    a->memory = t->cfg->memory;
    a->mask = t->enabled;
    a->capture = true;
    if (args != NULL && !json_is_object(args)) {
        return pw_fail(err, PW_ERR_USAGE, "'arguments' must be an object");
    }
    json_object_foreach(args, key, v) {
        if (parse_one(t, tool, key, v, a, err) < 0) {
            return -1;
        }
    }
    if (a->code == NULL) {
        return pw_fail(err, PW_ERR_USAGE,
                       "missing required argument "
                       "'code'");
    }
    if ((tool & ARG_GRADE) != 0 && a->tests == NULL) {
        return pw_fail(err, PW_ERR_USAGE, "missing required argument 'tests'");
    }
    return 0;
}

/* --- results ---------------------------------------------------------- */

/* New reference: {content: [{type: text, text}], structuredContent,
 * isError}.  STRUCT is stolen. */
static json_t *
tool_result(json_t *structured, const char *text, bool is_error)
{
    if (structured == NULL) {
        return NULL;
    }
    return json_pack("{s:[{s:s,s:s}],s:o,s:b}", "content", "type", "text",
                     "text", text, "structuredContent", structured, "isError",
                     is_error);
}

/* New reference: {valid, errors, message} for the diagnostics D. */
static json_t *
validation_json(const struct pw_diags *d)
{
    char msg[600];
    if (d->n == 0) {
        snprintf(msg, sizeof(msg), "Code is valid.");
    } else {
        snprintf(msg, sizeof(msg), "%zu problem%s found; line %d: %s (%s)",
                 d->n, d->n == 1 ? "" : "s", d->v[0].line, d->v[0].message,
                 d->v[0].code);
    }
    json_t *errors = pw_diags_to_json(d);
    return json_pack("{s:b,s:o,s:s}", "valid", d->n == 0, "errors", errors,
                     "message", msg);
}

static int
run_validator(const struct pw_tools *t, const struct call_args *a,
              struct pw_diags *d, struct pw_analysis *an, struct pw_error *err)
{
    if (t->rules == NULL) {
        return pw_fail(err, PW_ERR_INTERNAL,
                       "the validator is unavailable: "
                       "%s",
                       t->rules_error);
    }
    struct pw_importset imports = {
        t->profiles, a->mask, (const char *const *)t->cfg->allowed_imports,
        a->only};
    return pw_validate(t->rules, &imports, a->code, a->code_len, d, an, err);
}

/* Append a hint for each distinct rule that fired (at most a few). */
static int
add_rule_hints(const struct pw_tools *t, const struct pw_diags *d,
               json_t *hints)
{
    for (size_t i = 0; i < d->n && json_array_size(hints) < 5; i++) {
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++) {
            seen = strcmp(d->v[j].code, d->v[i].code) == 0;
        }
        for (size_t r = 0; !seen && r < pw_ruleset_count(t->rules); r++) {
            struct pw_rule_info info;
            pw_ruleset_info(t->rules, r, &info);
            if (strcmp(info.code, d->v[i].code) != 0) {
                continue;
            }
            const char *why = info.why != NULL ? info.why : info.summary;
            int wlen = (int)strlen(why != NULL ? why : "");
            while (wlen > 0 && why[wlen - 1] == '.') {
                wlen--; /* the hint adds its own full stop */
            }
            char hint[1024];
            snprintf(hint, sizeof(hint), "%s (%s): %.*s.%s%s", info.code,
                     info.name, wlen, why != NULL ? why : "",
                     info.example_good != NULL ? " Instead: " : "",
                     info.example_good != NULL ? info.example_good : "");
            if (json_array_append_new(hints, json_string(hint)) < 0) {
                return -1;
            }
            break;
        }
    }
    return 0;
}

/* New reference: the recommendations list for a learner. */
static json_t *
recommendations(const struct pw_tools *t, const struct pw_diags *d,
                const struct pw_analysis *an)
{
    json_auto_t *hints = json_array();
    if (add_rule_hints(t, d, hints) < 0) {
        return NULL;
    }
    char hint[256];
    if (an->estimated_complexity > 10) {
        snprintf(hint, sizeof(hint),
                 "The code has many branches (complexity %ld): splitting it "
                 "into small functions makes it easier to follow and test.",
                 an->estimated_complexity);
        if (json_array_append_new(hints, json_string(hint)) < 0) {
            return NULL;
        }
    }
    if (an->line_count > 300) {
        snprintf(hint, sizeof(hint),
                 "The program is long (%ld lines): consider keeping only the "
                 "part you are working on.",
                 an->line_count);
        if (json_array_append_new(hints, json_string(hint)) < 0) {
            return NULL;
        }
    }
    return pw_steal(&hints);
}

static json_t *
analysis_json(const struct pw_analysis *an)
{
    return json_pack(
        "{s:I,s:I,s:I,s:I,s:I}", "line_count", (json_int_t)an->line_count,
        "character_count", (json_int_t)an->character_count, "node_count",
        (json_int_t)an->node_count, "max_depth", (json_int_t)an->max_depth,
        "estimated_complexity", (json_int_t)an->estimated_complexity);
}

/* Set *RESULT to the validate_code CallToolResult for D and AN. */
static int
validate_result(const struct pw_tools *t, const struct pw_diags *d,
                const struct pw_analysis *an, json_t **result,
                struct pw_error *err)
{
    json_t *validation = validation_json(d);
    char text[700];
    snprintf(text, sizeof(text), "Code is %svalid: %s",
             d->n == 0 ? "" : "not ",
             validation != NULL
                 ? json_string_value(json_object_get(validation, "message"))
                 : "");
    json_t *structured = json_pack(
        "{s:o,s:o,s:o}", "validation", validation, "analysis",
        analysis_json(an), "recommendations", recommendations(t, d, an));
    *result = tool_result(structured, text, d->n != 0);
    /* NULL: a text cut inside a character (not valid UTF-8). */
    return *result != NULL ? 0
                           : pw_fail(err, PW_ERR_INTERNAL,
                                     "could not build the validation result");
}

static int
validate_code(struct pw_tools *t, json_t *args, json_t **result,
              struct pw_error *err)
{
    struct call_args a;
    struct pw_diags d;
    struct pw_analysis an = {0};
    pw_diags_init(&d);
    int rc = parse_args(t, ARG_VALIDATE, args, &a, err);
    if (rc == 0) {
        rc = run_validator(t, &a, &d, &an, err);
    }
    if (rc == 0) {
        rc = validate_result(t, &d, &an, result, err);
    }
    free(a.only);
    pw_diags_free(&d);
    return rc;
}

static int
sandbox_info(struct pw_tools *t, json_t *args, json_t **result,
             struct pw_error *err)
{
    if (args != NULL && json_object_size(args) > 0) {
        return pw_fail(err, PW_ERR_USAGE,
                       "get_sandbox_info takes no arguments");
    }
    char text[256];
    snprintf(text, sizeof(text), "pyward %s, Python %s; sandbox %s",
             PACKAGE_VERSION, pw_py_version(),
             t->zygote != NULL ? "available" : "UNAVAILABLE");
    *result = tool_result(json_deep_copy(t->info), text, false);
    return 0;
}

static int
grade_code(struct pw_tools *t, json_t *args, json_t **result,
           struct pw_error *err)
{
    struct call_args a;
    int rc = parse_args(t, ARG_GRADE, args, &a, err);
    if (rc == 0) {
        struct pw_importset set = {
            t->profiles, a.mask, (const char *const *)t->cfg->allowed_imports,
            a.only};
        struct pw_grade_ctx c = {t->cfg, t->profiles, t->rules, t->zygote,
                                 t->zygote == NULL ? t->zygote_error
                                                   : t->rules_error};
        rc = pw_grade_tool(&c, a.code, a.code_len, &set, a.tests, result, err);
    }
    free(a.only);
    return rc;
}

int
pw_tools_call_sync(struct pw_tools *t, const char *name, json_t *args,
                   json_t **result, struct pw_error *err)
{
    if (strcmp(name, "grade_code") == 0) {
        return grade_code(t, args, result, err);
    }
    if (strcmp(name, "validate_code") == 0) {
        return validate_code(t, args, result, err);
    }
    if (strcmp(name, "get_sandbox_info") == 0) {
        return sandbox_info(t, args, result, err);
    }
    return pw_fail(err, PW_ERR_USAGE, "unknown tool '%s'", name);
}

/* --- execute_code ----------------------------------------------------- */

/* New reference: an execute_code result for a run that never started. */
static json_t *
unrun_result(const char *id, const char *status, const char *etype,
             const char *message, int line)
{
    return json_pack("{s:b,s:s,s:s,s:n,s:s,s:s,s:b,s:b,s:f,s:f,s:i,s:n,s:n,"
                     "s:n,s:{s:s,s:s,s:i}}",
                     "success", 0, "execution_id", id, "status", status,
                     "result", "stdout", "", "stderr", "", "stdout_truncated",
                     0, "stderr_truncated", 0, "execution_time", 0.0,
                     "cpu_time", 0.0, "max_rss_kb", 0, "exit_code", "signal",
                     "variables", "error", "type", etype, "message", message,
                     "line", line);
}

/* The text block of a rejection: every problem with its line. */
static void
rejection_text(const struct pw_diags *d, struct pw_buf *b)
{
    pw_buf_printf(b, "Rejected before running: %zu problem%s found\n", d->n,
                  d->n == 1 ? "" : "s");
    size_t i = 0;
    for (; i < d->n && b->len < TEXT_MAX; i++) {
        pw_buf_printf(b, "line %d: %s (%s)\n", d->v[i].line, d->v[i].message,
                      d->v[i].code);
    }
    if (i < d->n) {
        pw_buf_printf(b, "and %zu more in the structured result\n", d->n - i);
    }
}

static json_t *
rejected_result(const struct pw_exec *e, const struct pw_diags *d)
{
    json_t *validation = validation_json(d);
    const char *msg =
        json_string_value(json_object_get(validation, "message"));
    json_t *structured = unrun_result(e->id, "rejected", "ValidationError",
                                      msg != NULL ? msg : "rejected",
                                      d->n > 0 ? d->v[0].line : 0);
    if (structured == NULL || validation == NULL ||
        json_object_set_new(structured, "validation", validation) < 0) {
        json_decref(structured);
        return NULL;
    }
    struct pw_buf b;
    pw_buf_init(&b);
    rejection_text(d, &b);
    json_t *res = tool_result(structured, b.data, true);
    pw_buf_free(&b);
    return res;
}

void
pw_exec_set_extras(struct pw_exec *e, char **argv, struct pw_sbx_file *files,
                   size_t nfiles)
{
    e->argv = argv;
    e->files = files;
    e->nfiles = nfiles;
}

void
pw_exec_free(struct pw_exec *e)
{
    if (e != NULL) {
        for (size_t i = 0; e->argv != NULL && e->argv[i] != NULL; i++) {
            free(e->argv[i]);
        }
        free(e->argv);
        for (size_t i = 0; i < e->nfiles; i++) {
            free((char *)e->files[i].name);
            free((char *)e->files[i].data);
        }
        free(e->files);
        json_decref(e->args);
        free(e->a.only);
        free(e);
    }
}

struct pw_exec *
pw_exec_new(struct pw_tools *t, json_t *args, json_t **result,
            struct pw_error *err)
{
    struct pw_exec *e = pw_xcalloc(1, sizeof(*e));
    struct pw_diags d;
    struct pw_analysis an;
    pw_diags_init(&d);
    e->args = json_incref(args);
    snprintf(e->id, sizeof(e->id), "exec-%lu", ++t->runs);
    *result = NULL;
    if (parse_args(t, ARG_EXEC, args, &e->a, err) < 0 ||
        run_validator(t, &e->a, &d, &an, err) < 0) {
        goto fail;
    }
    if (d.n > 0) {
        *result = rejected_result(e, &d);
        if (*result == NULL) {
            pw_fail(err, PW_ERR_INTERNAL, "could not build the rejection");
        }
        goto fail;
    }
    pw_diags_free(&d);
    e->imports = (struct pw_importset){
        t->profiles, e->a.mask, (const char *const *)t->cfg->allowed_imports,
        e->a.only};
    return e;
fail:
    pw_diags_free(&d);
    pw_exec_free(e);
    return NULL;
}

double
pw_exec_timeout(const struct pw_exec *e)
{
    return e->a.timeout;
}

struct pw_sbx_run *
pw_exec_start(struct pw_tools *t, struct pw_exec *e, json_t **result)
{
    struct pw_error err = {0};
    struct pw_sbx_request req = {
        .code = e->a.code,
        .code_len = e->a.code_len,
        .stdin_data = e->a.stdin_data,
        .stdin_len = e->a.stdin_len,
        .limits = {.timeout_s = e->a.timeout,
                   .memory_bytes = e->a.memory,
                   .max_output_bytes = t->cfg->max_output},
        .imports = &e->imports,
        .caps = pw_profiles_caps(t->profiles, e->a.mask),
        .capture_output = e->a.capture,
        .argv = (const char *const *)e->argv,
        .files = e->files,
        .nfiles = e->nfiles,
    };
    struct pw_sbx_run *run = NULL;
    if (t->zygote == NULL) {
        pw_fail(&err, PW_ERR_SANDBOX, "the sandbox is unavailable: %s",
                t->zygote_error);
    } else {
        run = pw_sbx_start(t->zygote, &req, &err);
    }
    if (run != NULL) {
        return run;
    }
    pw_log(PW_LOG_WARN, "%s: refused to run: %s", e->id, err.message);
    char text[600];
    snprintf(text, sizeof(text), "Not run: %s", err.message);
    *result = tool_result(
        unrun_result(e->id, "internal_error", "SandboxError", err.message, 0),
        text, true);
    return NULL;
}

/* At most TEXT_MAX bytes of S, cut on a character boundary (a cut
 * inside one would make the text block invalid UTF-8). */
static int
text_max(const char *s)
{
    return (int)pw_utf8_cut(s, strlen(s), TEXT_MAX);
}

/* STREAM of R ("stdout" or "stderr") into B under its HEADING (none for
 * stdout), then a line of its own when it was cut by the output cap or in
 * this text block. */
static void
stream_text(json_t *r, const char *stream, const char *heading,
            struct pw_buf *b)
{
    const char *s = json_string_value(json_object_get(r, stream));
    if (s == NULL || *s == '\0') {
        return;
    }
    char flag[32];
    snprintf(flag, sizeof(flag), "%s_truncated", stream);
    int shown = text_max(s);
    pw_buf_printf(b, "%s%.*s", heading, shown, s);
    if (b->len > 0 && b->data[b->len - 1] != '\n') {
        pw_buf_printf(b, "\n");
    }
    if (json_is_true(json_object_get(r, flag))) {
        pw_buf_printf(b,
                      "[%s cut: the program printed more than the "
                      "output limit]\n",
                      stream);
    }
    if ((size_t)shown < strlen(s)) {
        pw_buf_printf(b,
                      "[%s shortened here: %d of %zu bytes shown; all of "
                      "it is in the structured result]\n",
                      stream, shown, strlen(s));
    }
}

/* The text block of a finished run's result R: stdout, then stderr, then
 * the value of a final expression, then the status with the error's
 * trimmed traceback. */
static void
run_text(json_t *r, struct pw_buf *b)
{
    const char *status = json_string_value(json_object_get(r, "status"));
    const char *value = json_string_value(json_object_get(r, "result"));
    json_t *error = json_object_get(r, "error"); /* borrowed */
    stream_text(r, "stdout", "", b);
    stream_text(r, "stderr", "stderr:\n", b);
    if (value != NULL) {
        pw_buf_printf(b, "Result: %.*s\n", text_max(value), value);
    }
    if (status == NULL || strcmp(status, "ok") == 0) {
        return;
    }
    const char *tb = json_string_value(json_object_get(error, "traceback"));
    const char *type = json_string_value(json_object_get(error, "type"));
    const char *msg = json_string_value(json_object_get(error, "message"));
    pw_buf_printf(b, "Status: %s\n", status);
    if (tb != NULL && *tb != '\0') {
        pw_buf_printf(b, "%.*s", text_max(tb), tb);
    } else if (type != NULL) {
        pw_buf_printf(b, "%s: %s\n", type, msg != NULL ? msg : "");
    }
}

/* The files of a run (R's "files") in the text block. */
static void
files_text(json_t *r, struct pw_buf *b)
{
    size_t i;
    json_t *f; /* borrowed */
    json_array_foreach(json_object_get(r, "files"), i, f) {
        const char *why = json_string_value(json_object_get(f, "reason"));
        pw_buf_printf(
            b, "File: output/%s (%s, %lld bytes)%s%s\n",
            json_string_value(json_object_get(f, "name")),
            json_string_value(json_object_get(f, "mime_type")),
            (long long)json_integer_value(json_object_get(f, "size")),
            why != NULL ? ", not sent: " : "", why != NULL ? why : "");
    }
}

/* URI-escape NAME (RFC 3986 unreserved characters kept) into B. */
static void
uri_escape(struct pw_buf *b, const char *name)
{
    for (const unsigned char *c = (const unsigned char *)name; *c; c++) {
        bool keep = (*c >= 'a' && *c <= 'z') || (*c >= 'A' && *c <= 'Z') ||
                    (*c >= '0' && *c <= '9') || strchr("-._~", *c) != NULL;
        if (keep) {
            pw_buf_printf(b, "%c", *c);
        } else {
            pw_buf_printf(b, "%%%02X", *c);
        }
    }
}

/* New reference: the MCP content item for file F (its "data" stolen):
 * an image, or an embedded resource. */
static json_t *
file_content(json_t *f, json_t *data, const char *id)
{
    const char *mime = json_string_value(json_object_get(f, "mime_type"));
    const char *name = json_string_value(json_object_get(f, "name"));
    if (mime == NULL || name == NULL) {
        json_decref(data);
        return NULL;
    }
    if (strcmp(mime, "image/png") == 0 || strcmp(mime, "image/jpeg") == 0 ||
        strcmp(mime, "image/svg+xml") == 0) {
        return json_pack("{s:s,s:o,s:s}", "type", "image", "data", data,
                         "mimeType", mime);
    }
    struct pw_buf uri;
    pw_buf_init(&uri);
    pw_buf_printf(&uri, "pyward://runs/%s/output/", id);
    uri_escape(&uri, name);
    json_t *item =
        json_pack("{s:s,s:{s:s,s:s,s:o}}", "type", "resource", "resource",
                  "uri", uri.data, "mimeType", mime, "blob", data);
    pw_buf_free(&uri);
    return item;
}

/* Move the bytes of each sent file of R out of its entry into a content
 * item appended to CONTENT.  0 or -1. */
static int
files_content(json_t *r, json_t *content)
{
    const char *id = json_string_value(json_object_get(r, "execution_id"));
    size_t i;
    json_t *f; /* borrowed */
    json_array_foreach(json_object_get(r, "files"), i, f) {
        json_t *data = json_object_get(f, "data"); /* borrowed */
        if (data == NULL) {
            continue;
        }
        json_incref(data);
        if (json_object_del(f, "data") < 0 ||
            json_array_append_new(content,
                                  file_content(f, data, id ? id : "")) < 0) {
            return -1;
        }
    }
    return 0;
}

/* Make sure R has the fields the output schema requires. */
static void
complete_result(json_t *r, const char *id, bool ok)
{
    if (!json_is_string(json_object_get(r, "execution_id"))) {
        json_object_set_new(r, "execution_id", json_string(id));
    }
    if (!json_is_string(json_object_get(r, "status"))) {
        json_object_set_new(r, "status", json_string("internal_error"));
    }
    if (!json_is_boolean(json_object_get(r, "success"))) {
        json_object_set_new(r, "success", json_boolean(ok));
    }
    static const char *const streams[] = {"stdout", "stderr"};
    for (size_t i = 0; i < PW_N_ELEMENTS(streams); i++) {
        if (!json_is_string(json_object_get(r, streams[i]))) {
            json_object_set_new(r, streams[i], json_string(""));
        }
    }
}

json_t *
pw_exec_result(struct pw_exec *e, const struct pw_sbx_run *run)
{
    json_auto_t *r = pw_sbx_result_json(run);
    if (r == NULL) {
        return NULL;
    }
    const char *status = json_string_value(json_object_get(r, "status"));
    bool failed = status == NULL || strcmp(status, "ok") != 0;
    complete_result(r, e->id, !failed);
    struct pw_buf b;
    pw_buf_init(&b);
    json_auto_t *content = json_array();
    run_text(r, &b);
    files_text(r, &b);
    if (b.len == 0) {
        pw_buf_printf(&b, "(no output)");
    }
    json_t *res = NULL;
    if (files_content(r, content) == 0) {
        res = tool_result(json_incref(r), b.data, failed);
    }
    pw_buf_free(&b);
    if (res != NULL &&
        json_array_extend(json_object_get(res, "content"), content) < 0) {
        json_decref(res);
        res = NULL;
    }
    return res;
}

/* --- get_sandbox_info ------------------------------------------------- */

/* True if MODULE can be imported here (importlib.util.find_spec). */
static bool
importable(PyObject *find_spec, const char *module)
{
    PW_PYAUTO PyObject *spec = PyObject_CallFunction(find_spec, "s", module);
    if (spec == NULL) {
        PyErr_Clear();
        return false;
    }
    return spec != Py_None;
}

/* New reference: the capability words of CAPS. */
static json_t *
allows_json(unsigned caps)
{
    json_t *list = json_array();
    for (unsigned bit = 1; bit != 0 && bit <= caps; bit <<= 1) {
        const char *word = (caps & bit) ? pw_cap_word(bit) : NULL;
        if (word != NULL) {
            json_array_append_new(list, json_string(word));
        }
    }
    return list;
}

/* New reference: [{name, summary, default, modules, allows}] of enabled
 * profiles, each listing the modules actually importable on this host. */
static json_t *
profiles_json(const struct pw_tools *t)
{
    PW_PYAUTO PyObject *util = pw_py_import("importlib.util");
    PW_PYAUTO PyObject *find_spec =
        util != NULL ? PyObject_GetAttrString(util, "find_spec") : NULL;
    json_auto_t *list = json_array();
    if (find_spec == NULL) {
        PyErr_Clear();
        return NULL;
    }
    for (size_t i = 0; i < t->profiles->n; i++) {
        const struct pw_profile *p = &t->profiles->v[i];
        if ((t->enabled & ((pw_profile_mask)1 << i)) == 0) {
            continue;
        }
        json_t *mods = json_array();
        for (size_t m = 0; mods != NULL && m < p->nmodules; m++) {
            if (importable(find_spec, p->modules[m]) &&
                json_array_append_new(mods, json_string(p->modules[m])) < 0) {
                json_decref(mods);
                mods = NULL;
            }
        }
        if (json_array_append_new(
                list, json_pack("{s:s,s:s,s:b,s:o,s:o}", "name", p->name,
                                "summary", p->summary ? p->summary : "",
                                "default", p->is_default, "modules", mods,
                                "allows", allows_json(p->caps))) < 0) {
            return NULL;
        }
    }
    return pw_steal(&list);
}

static json_t *
limits_json(const struct pw_config *cfg)
{
    return json_pack(
        "{s:{s:f,s:f},s:{s:I,s:I},s:I,s:I,s:i}", "timeout", "default",
        cfg->timeout_s, "max", cfg->max_timeout_s, "memory_bytes", "default",
        (json_int_t)cfg->memory, "max", (json_int_t)cfg->max_memory,
        "max_output_bytes", (json_int_t)cfg->max_output, "max_code_bytes",
        (json_int_t)cfg->max_code, "max_concurrency", cfg->max_concurrency);
}

int
pw_tools_init(struct pw_tools *t, struct pw_error *err)
{
    json_t *layers =
        t->zygote != NULL ? pw_zygote_layers_json(t->zygote) : json_object();
    t->info = json_pack("{s:s,s:s,s:s,s:o,s:o,s:b,s:b,s:o}", "version",
                        PACKAGE_VERSION, "python_version", pw_py_version(),
                        "rules", t->rules_name, "profiles", profiles_json(t),
                        "limits", limits_json(t->cfg), "sandbox_available",
                        t->zygote != NULL, "validator_available",
                        t->rules != NULL, "isolation", layers);
    /* NULL: the profiles' modules could not be looked up (Python). */
    if (t->info == NULL) {
        return pw_fail(err, PW_ERR_INTERNAL,
                       "building the sandbox description");
    }
    /* -1: the error text was cut inside a character. */
    if (t->zygote == NULL &&
        json_object_set_new(t->info, "sandbox_error",
                            json_string(t->zygote_error)) < 0) {
        return pw_fail(err, PW_ERR_INTERNAL,
                       "building the sandbox description");
    }
    return 0;
}

void
pw_tools_free(struct pw_tools *t)
{
    json_decref(t->info);
    t->info = NULL;
}
