/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * tools.c - argument checking and results of the MCP tools.  The work is
 * done by the validator (pw_validate) and the sandbox (pw_sbx_*).
 *
 * Defines pw_tools_call_sync and pw_tools_exec_* (an execute_code call);
 * tools_info.c starts and stops the tools, tools_schema.c lists them.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/base64.h"
#include "core/json.h"
#include "core/log.h"
#include "core/py.h"
#include "server/grade_tool.h"
#include "server/compat.h"
#include "server/session_tool.h"
#include "server/tools.h"
#include "validator/script_meta.h"
#include "validator/diag.h"
#include "core/util.h"

#define TEXT_MAX 4000 /* bytes of output shown in the text block */
/* Programs up to this many bytes are validated in the call, on the
 * server's loop (and compiled there for their runs: 0.4 ms at the most
 * on the development host, a program of nested lambdas, whose cost grows
 * with the square of its length: 4.5 ms at 1 KiB; doc/HACKING.md); longer
 * ones by a validator process (validator/vproc.h), the loop serving
 * others meanwhile. */
#define CHECK_HERE_MAX 256
/* The largest "# /// script" block a call may hold: it is read (tomllib)
 * on the loop, about 1 ms a KiB at worst (doc/PERFORMANCE.md). */
#define SCRIPT_META_MAX 1024

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
    const char **deps; /* owned vector of borrowed strings, or NULL */
    bool capture;
    bool container; /* use_container: the namespace layers are required */
    json_t *tests;  /* borrowed: grade_code's suite */
    const char *session_id; /* borrowed: execute_code in a session */
    json_t *files;          /* borrowed: execute_code's input files */
};

/* What a call that runs in the queue is. */
enum exec_kind {
    EXEC_RUN,      /* execute_code: one run (of a session, or not) */
    EXEC_GRADE,    /* grade_code: its tests */
    EXEC_SESSION,  /* create_session: the session's first call */
    EXEC_VALIDATE, /* validate_code of a program a validator process checks */
    EXEC_FORK,     /* fork_session: the copy made as the loop steps it */
    EXEC_FILE,     /* read_file, write_file of a large file, in steps */
};

struct pw_exec {
    const struct pw_tools *tools; /* borrowed */
    enum exec_kind kind;
    struct pw_grade_call *grade;    /* owned (EXEC_GRADE) */
    struct pw_session_start *start; /* owned (EXEC_SESSION) */
    pw_exec_done_fn done;           /* the call's end */
    void *ctx;
    json_t *args; /* owned: keeps the borrowed strings alive */
    /* Owned, a compat mode's validating tool (validate_script): its
     * name and its own arguments (ARGS are validate_code's). */
    char *compat_tool;
    json_t *compat_args;
    char *owner; /* owned: the caller (sessions) */
    struct call_args a;
    struct pw_importset imports;
    char id[32];
    char **argv;               /* owned, NULL-terminated, or NULL */
    double cpu_limit;          /* > 0: the run's CPU time limit */
    struct pw_sbx_file *files; /* owned names and bytes; fds HOLD's */
    size_t nfiles;
    void (*release)(void *hold); /* called on HOLD once E is freed */
    void *hold;
    bool light; /* forked from tools->zygote_light */
    /* Borrowed, or NULL: where a rejection's findings go when the call
     * validates the program (a door that words them itself,
     * pw_tools_run_new); FINDINGS (owned) keeps them when a validator
     * process found them, for that door (WORDS_FINDINGS) to read at the
     * call's end (pw_tools_exec_refusal). */
    struct pw_diags *rejected;
    struct pw_diags findings;
    /* A program validated by a validator process: CHECKING until the check is
     * submitted, CHECK (owned) while it is under way; GROUP where the
     * runs go once it has ended. */
    bool checking;
    struct pw_vcheck *check;
    struct pw_queue_group *group; /* borrowed */
    char *blob; /* owned or NULL: the program compiled by that process */
    size_t blob_len;
    struct pw_tools_fork *fork; /* borrowed: its slot (EXEC_FORK) */
    struct pw_tools_file *file; /* borrowed: its entry (EXEC_FILE) */
    bool compile_asked;         /* that process was asked to compile it */
    bool words_findings;        /* see REJECTED */
    bool unrun;     /* ended without a run: rejected, or not checked */
    bool refused;   /* the validator refused the program */
    bool unchecked; /* its validator process failed: not checked */
};

typedef int (*arg_fn)(const struct pw_tools *t, json_t *v, struct call_args *a,
                      struct pw_error *err);

/* The JSON type of V, as a message names it. */
static const char *
type_name(const json_t *v)
{
    switch (json_typeof(v)) {
    case JSON_OBJECT:
        return "an object";
    case JSON_ARRAY:
        return "a list";
    case JSON_STRING:
        return "a string";
    case JSON_INTEGER:
    case JSON_REAL:
        return "a number";
    case JSON_TRUE:
    case JSON_FALSE:
        return "a boolean";
    case JSON_NULL:
        break;
    }
    return "null";
}

/* B's text ("" when empty). */
static const char *
buf_str(const struct pw_buf *b)
{
    return b->data != NULL ? b->data : "";
}

/* Into B: the names of the profiles in MASK, comma-separated. */
static void
profile_names(const struct pw_tools *t, pw_profile_mask mask, struct pw_buf *b)
{
    for (size_t i = 0; i < t->profiles->n; i++) {
        if ((mask & ((pw_profile_mask)1 << i)) != 0) {
            pw_buf_printf(b, "%s%s", b->len > 0 ? ", " : "",
                          t->profiles->v[i].name);
        }
    }
}

static int
arg_code(const struct pw_tools *t, json_t *v, struct call_args *a,
         struct pw_error *err)
{
    if (!json_is_string(v)) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'code' must be a string of Python source, not %s",
                       type_name(v));
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
        return pw_fail(err, PW_ERR_USAGE,
                       "'stdin' must be a string (the program's input), not "
                       "%s",
                       type_name(v));
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
    double d = 0;
    if (!json_is_number(v)) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'timeout' must be a number of seconds, not %s; leave "
                       "it out for the default of %g s",
                       type_name(v), t->cfg->timeout_s);
    }
    if (pw_json_number_in(v, "timeout", 0, max, &d, NULL) < 0 || d <= 0) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'timeout' is %g s: it must be above 0 and at most %g "
                       "s, the maximum of this server; leave it out for the "
                       "default of %g s",
                       json_number_value(v), max, t->cfg->timeout_s);
    }
    a->timeout = d;
    return 0;
}

/* 'memory_limit': a size string or a whole number of bytes, from 1 to
 * the server's maximum. */
static int
arg_memory(const struct pw_tools *t, json_t *v, struct call_args *a,
           struct pw_error *err)
{
    long long max = t->cfg->max_memory;
    long long n = -1;
    if (json_is_string(v)) {
        n = pw_parse_size(json_string_value(v));
        if (n <= 0) {
            return pw_fail(err, PW_ERR_USAGE,
                           "'memory_limit' \"%s\" is not a size: give a "
                           "number of bytes, or a number followed by k, m or "
                           "g (\"512k\", \"256m\", \"1g\")",
                           json_string_value(v));
        }
    } else if (!json_is_number(v)) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'memory_limit' must be a string such as \"256m\" or "
                       "a number of bytes, not %s",
                       type_name(v));
    } else if (pw_json_integer_in(v, "memory_limit", 1, max, &n, NULL) < 0) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'memory_limit' is %.15g: a number of bytes must be a "
                       "whole number above 0 and at most %lld (%lld MiB), "
                       "this server's maximum; leave it out for the default "
                       "of %lld MiB",
                       json_number_value(v), max, max >> 20,
                       t->cfg->memory >> 20);
    }
    if (n > max) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'memory_limit' is %lld bytes: this server allows at "
                       "most %lld bytes (%lld MiB); leave it out for the "
                       "default of %lld MiB",
                       n, max, max >> 20, t->cfg->memory >> 20);
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
                       "'capture_output' must be true or false, not %s",
                       type_name(v));
    }
    a->capture = json_is_true(v);
    return 0;
}

/* Refuse the profile NAME (index I, -1 if unknown): say which profiles
 * this call may use and, for a known one, how the operator enables it. */
static int
profile_refused(const struct pw_tools *t, const char *name, int i,
                struct pw_error *err)
{
    struct pw_buf on;
    pw_buf_init(&on);
    profile_names(t, t->enabled, &on);
    if (i < 0) {
        struct pw_buf all;
        pw_buf_init(&all);
        profile_names(t, ~(pw_profile_mask)0, &all);
        pw_fail(err, PW_ERR_USAGE,
                "unknown profile '%s': the profiles are %s, and this server "
                "enabled %s",
                name, buf_str(&all), buf_str(&on));
        pw_buf_free(&all);
    } else {
        const char *env = pw_conf_profile_env(name);
        pw_fail(err, PW_ERR_USAGE,
                "profile '%s' is not enabled on this server, which enabled "
                "only %s: 'profile' can only choose among those; leave it "
                "out or use one of them. The server's operator can enable "
                "'%s' (pyward serve --profiles %s,%s%s%s%s)",
                name, buf_str(&on), name, buf_str(&on), name,
                env ? ", or " : "", env ? env : "", env ? "=1" : "");
    }
    pw_buf_free(&on);
    return -1;
}

static int
arg_container(const struct pw_tools *t, json_t *v, struct call_args *a,
              struct pw_error *err)
{
    (void)t;
    if (!json_is_boolean(v)) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'use_container' must be true or false, not %s",
                       type_name(v));
    }
    a->container = json_is_true(v);
    return 0;
}

static int
add_profile(const struct pw_tools *t, json_t *v, struct call_args *a,
            struct pw_error *err)
{
    if (!json_is_string(v)) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'profile' must be a profile name or a list of names, "
                       "not %s",
                       type_name(v));
    }
    const char *name = json_string_value(v);
    int i = pw_profiles_index(t->profiles, name);
    if (i < 0 || (t->enabled & ((pw_profile_mask)1 << i)) == 0) {
        return profile_refused(t, name, i, err);
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
                       "'allowed_imports' must be a list of module names "
                       "such as [\"math\"], not %s",
                       type_name(v));
    }
    a->only = pw_xcalloc(json_array_size(v) + 1, sizeof(char *));
    json_array_foreach(v, i, item) {
        if (!json_is_string(item) || json_string_length(item) == 0) {
            return pw_fail(
                err, PW_ERR_USAGE,
                "'allowed_imports' must be a list of module "
                "names: item %zu is %s",
                i, json_is_string(item) ? "an empty string" : type_name(item));
        }
        a->only[i] = json_string_value(item);
    }
    return 0;
}

static int
arg_deps(const struct pw_tools *t, json_t *v, struct call_args *a,
         struct pw_error *err)
{
    size_t i;
    json_t *item; /* borrowed */
    (void)t;
    if (!json_is_array(v)) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'dependencies' must be a list of PEP 508 requirements "
                       "such as [\"numpy>=1.24\"], not %s",
                       type_name(v));
    }
    a->deps = pw_xcalloc(json_array_size(v) + 1, sizeof(char *));
    json_array_foreach(v, i, item) {
        if (!json_is_string(item)) {
            return pw_fail(err, PW_ERR_USAGE,
                           "'dependencies' must be a list of strings: item "
                           "%zu is %s",
                           i, type_name(item));
        }
        a->deps[i] = json_string_value(item);
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

static int
arg_session(const struct pw_tools *t, json_t *v, struct call_args *a,
            struct pw_error *err)
{
    if (!json_is_string(v)) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'session_id' must be the string create_session "
                       "returned");
    }
    a->session_id = json_string_value(v);
    return 0;
}

static int
arg_files(const struct pw_tools *t, json_t *v, struct call_args *a,
          struct pw_error *err)
{
    (void)t;
    if (!json_is_array(v) || json_array_size(v) > PW_SBX_FILES_MAX) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'files' must be a list of at most %d objects "
                       "{path, content | content_base64}",
                       PW_SBX_FILES_MAX);
    }
    a->files = v;
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
    {"session_id", ARG_EXEC, arg_session},
    {"files", ARG_EXEC, arg_files},
    {"use_container", ARG_EXEC, arg_container},
    {"dependencies", ARG_EXEC | ARG_VALIDATE, arg_deps},
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
    struct pw_buf names;
    pw_buf_init(&names);
    for (size_t i = 0; i < PW_N_ELEMENTS(arg_defs); i++) {
        if ((arg_defs[i].tools & tool) != 0) {
            pw_buf_printf(&names, "%s%s", names.len > 0 ? ", " : "",
                          arg_defs[i].name);
        }
    }
    pw_fail(err, PW_ERR_USAGE, "unknown argument '%s': the arguments are %s",
            key, buf_str(&names));
    pw_buf_free(&names);
    return -1;
}

/* True if some pattern of LIST matches NAME. */
static bool
any_matches(const char *const *list, const char *name)
{
    for (size_t i = 0; list != NULL && list[i] != NULL; i++) {
        if (pw_module_matches(list[i], name)) {
            return true;
        }
    }
    return false;
}

/* Narrow A's module list to the operator's (SANDBOX_ALLOWED_IMPORTS, the
 * only modules runs may import): the call's list within it, or all of it
 * when the call has none. */
static void
narrow_to_operator(const struct pw_conf *cfg, struct call_args *a)
{
    const char *const *op = (const char *const *)cfg->only_imports;
    const char **call = a->only;
    size_t n = 0;
    size_t nop = 0;
    size_t ncall = 0;
    while (op != NULL && op[nop] != NULL) {
        nop++;
    }
    while (call != NULL && call[ncall] != NULL) {
        ncall++;
    }
    if (op == NULL) {
        return;
    }
    const char **out = pw_xcalloc(nop + ncall + 1, sizeof(char *));
    for (size_t i = 0; i < nop; i++) {
        if (call == NULL || any_matches((const char *const *)call, op[i])) {
            out[n++] = op[i];
        }
    }
    for (size_t i = 0; i < ncall; i++) {
        if (any_matches(op, call[i]) &&
            !any_matches((const char *const *)out, call[i])) {
            out[n++] = call[i];
        }
    }
    free(call);
    a->only = out;
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
    /* A package set's own profile only when asked for (below). */
    a->mask = t->enabled & ~pw_profiles_on_request_mask(t->profiles);
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
    /* The package sets the program's PEP 723 dependencies name: its
     * block is read here, on the server's loop, so it is kept short. */
    size_t meta = pw_script_meta_size(a->code, a->code_len);
    if (meta > SCRIPT_META_MAX) {
        return pw_fail(err, PW_ERR_USAGE,
                       "the program's '# /// script' block is %zu bytes; "
                       "this server reads such a block (its "
                       "requires-python and dependencies) of at most %d",
                       meta, SCRIPT_META_MAX);
    }
    a->mask |= pw_script_meta_sets(t->profiles, t->enabled, a->code,
                                   a->code_len, a->deps);
    narrow_to_operator(t->cfg, a);
    return 0;
}

/* --- results ---------------------------------------------------------- */

/* New reference: the result of a call TOOL refused: "TOOL: WHAT: WHY". */
static json_t *
refusal(const char *tool, const char *what, const char *why)
{
    PW_AUTOFREE char *text = pw_xasprintf("%s: %s: %s", tool, what, why);
    json_t *r = json_pack("{s:[{s:s,s:s}],s:b}", "content", "type", "text",
                          "text", text, "isError", 1);
    /* NULL: the message was cut inside a character. */
    return r != NULL ? r
                     : json_pack("{s:[{s:s,s:s}],s:b}", "content", "type",
                                 "text", "text", what, "isError", 1);
}

/* New reference: the result of a call refused for its arguments (MCP
 * 2025-11-25: input errors are tool results, so the model sees them). */
static json_t *
argument_error(const char *tool, const char *message)
{
    return refusal(tool, "invalid arguments", message);
}

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

/* New reference: "Line L: MESSAGE (CODE)" for each finding of D. */
static json_t *
error_strings(const struct pw_diags *d)
{
    json_auto_t *list = json_array();
    for (size_t i = 0; i < d->n; i++) {
        PW_AUTOFREE char *s = pw_xasprintf("Line %d: %s (%s)", d->v[i].line,
                                           d->v[i].message, d->v[i].code);
        if (json_array_append_new(list, json_string(s)) < 0) {
            return NULL;
        }
    }
    return pw_steal(&list);
}

/* New reference: {valid, errors, findings, message} for the diagnostics
 * D: errors as strings (the python sandbox contract), findings as
 * objects. */
static json_t *
validation_json(const struct pw_diags *d)
{
    char msg[600];
    if (d->n == 0) {
        snprintf(msg, sizeof(msg), "Code passed validation");
    } else {
        snprintf(msg, sizeof(msg),
                 "Code contains restricted operations: %zu problem%s; line "
                 "%d: %s (%s)",
                 d->n, d->n == 1 ? "" : "s", d->v[0].line, d->v[0].message,
                 d->v[0].code);
    }
    return json_pack("{s:b,s:o,s:o,s:s}", "valid", d->n == 0, "errors",
                     error_strings(d), "findings", pw_diags_to_json(d),
                     "message", msg);
}

static int run_validator_with(const struct pw_tools *t,
                              const struct call_args *a,
                              const char *const *extra, struct pw_diags *d,
                              struct pw_analysis *an, struct pw_error *err);

static int
run_validator(const struct pw_tools *t, const struct call_args *a,
              struct pw_diags *d, struct pw_analysis *an, struct pw_error *err)
{
    return run_validator_with(t, a, (const char *const *)t->extra, d, an, err);
}

/* run_validator with EXTRA as the operator's modules beyond the
 * profiles'. */
static int
run_validator_with(const struct pw_tools *t, const struct call_args *a,
                   const char *const *extra, struct pw_diags *d,
                   struct pw_analysis *an, struct pw_error *err)
{
    if (t->cfg->skip_validation) {
        return 0; /* --skip-validation: the runtime layers alone */
    }
    if (t->rules == NULL) {
        return pw_fail(err, PW_ERR_INTERNAL,
                       "the validator is unavailable: "
                       "%s",
                       t->rules_error);
    }
    struct pw_importset imports = {t->profiles, a->mask, extra, a->only};
    if (pw_validate(t->rules, &imports, a->code, a->code_len, d, an, err) <
        0) {
        return -1;
    }
    /* The dependencies argument, as a '# /// script' block's (line 0). */
    pw_script_meta_check(t->rules, &imports, NULL, 0,
                         (const char *const *)a->deps, d);
    return 0;
}

/* True if the light zygote works (warm, or warming: a run then waits
 * for it, a few tens of milliseconds) and A's program passes the checks
 * with A's profiles narrowed to the light ones: then it imports nothing
 * the light zygote has not loaded, and runs there with that narrowed set
 * (whose guard refuses the other profiles' modules).  D and AN hold that
 * check's results (D empty); otherwise D is emptied again. */
static bool
passes_light(const struct pw_tools *t, const struct call_args *a,
             struct pw_diags *d, struct pw_analysis *an)
{
    if (t->cfg->skip_validation || t->zygote_light == NULL ||
        pw_zygote_fd(t->zygote_light) < 0 ||
        pw_zygote_error(t->zygote_light) != NULL) {
        return false; /* none, or its process is gone */
    }
    struct call_args narrow = *a;
    narrow.mask &= t->light_mask;
    struct pw_error err = {0};
    /* The operator's modules that a profile outside the light ones
     * provides (numpy in SANDBOX_ALLOWED_IMPORTS) are loaded by the full
     * zygote only: a program importing one goes there. */
    size_t n = 0;
    while (t->extra != NULL && t->extra[n] != NULL) {
        n++;
    }
    PW_AUTOFREE const char **extra = pw_xcalloc(n + 1, sizeof(char *));
    struct pw_importset heavy = {t->profiles, ~t->light_mask, NULL, NULL};
    for (size_t i = 0, k = 0; i < n; i++) {
        if (pw_importset_check(&heavy, t->extra[i], NULL) !=
            PW_IMPORT_ALLOWED) {
            extra[k++] = t->extra[i];
        }
    }
    if (run_validator_with(t, &narrow, extra, d, an, &err) == 0 && d->n == 0) {
        return true;
    }
    pw_diags_free(d);
    pw_diags_init(d);
    return false;
}

/* The light zygote takes E's run if E is no session's and passes_light;
 * otherwise the checks run with the call's profiles, and their findings
 * are the verdict, as without a light zygote. */
static int
validate_routed(const struct pw_tools *t, struct pw_exec *e,
                struct pw_diags *d, struct pw_analysis *an,
                struct pw_error *err)
{
    e->light = e->a.session_id == NULL && passes_light(t, &e->a, d, an);
    return e->light ? 0 : run_validator(t, &e->a, d, an, err);
}

/* The validator process that checks a program of LEN bytes (under
 * --skip-validation: only compiles it), or NULL when the call does it
 * (short, or no such process). */
static struct pw_vproc *
vproc_for(const struct pw_tools *t, size_t len)
{
    if (len <= CHECK_HERE_MAX) {
        return NULL;
    }
    struct pw_vproc *c = t->vprocs[len >= PW_TOOLS_CHECK_LARGE ? 1 : 0];
    return c != NULL ? c : t->vprocs[0];
}

/* Whether E's program goes to a validator process before E goes on:
 * checked there, or under --skip-validation (nothing to check) compiled
 * there when the loop would compile it (a suite's program, a short
 * program's run). */
static bool
check_off_loop(const struct pw_tools *t, const struct pw_exec *e)
{
    if (vproc_for(t, e->a.code_len) == NULL) {
        return false;
    }
    return !t->cfg->skip_validation || e->kind == EXEC_GRADE ||
           (e->kind == EXEC_RUN && e->a.session_id == NULL &&
            e->a.code_len <= PW_SBX_COMPILE_HERE_MAX);
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

/* The contract's complexity level of a McCabe estimate. */
static const char *
complexity_level(long mccabe)
{
    return mccabe <= 5 ? "low" : mccabe <= 10 ? "medium" : "high";
}

static json_t *
analysis_json(const struct pw_analysis *an)
{
    return json_pack(
        "{s:I,s:I,s:I,s:I,s:s,s:I}", "line_count", (json_int_t)an->line_count,
        "character_count", (json_int_t)an->character_count, "node_count",
        (json_int_t)an->node_count, "max_depth", (json_int_t)an->max_depth,
        "estimated_complexity", complexity_level(an->estimated_complexity),
        "cyclomatic_complexity", (json_int_t)an->estimated_complexity);
}

/* Set *RESULT to the validate_code CallToolResult for D and AN. */
static int
validate_result(const struct pw_tools *t, const struct pw_diags *d,
                const struct pw_analysis *an, json_t **result,
                struct pw_error *err)
{
    json_t *validation = validation_json(d);
    struct pw_buf text;
    pw_buf_init(&text);
    pw_buf_printf(&text, "%s",
                  d->n == 0 ? "Code passed validation."
                            : "Code is not valid:");
    size_t i;
    json_t *e; /* borrowed */
    json_array_foreach(json_object_get(validation, "errors"), i, e) {
        pw_buf_printf(&text, "\n%s", json_string_value(e));
    }
    json_t *structured = json_pack(
        "{s:o,s:o,s:o}", "validation", validation, "analysis",
        analysis_json(an), "recommendations", recommendations(t, d, an));
    *result = tool_result(structured, text.data, d->n != 0);
    pw_buf_free(&text);
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
    free(a.deps);
    pw_diags_free(&d);
    return rc;
}

static int
sandbox_info(struct pw_tools *t, json_t *args, json_t **result,
             struct pw_error *err)
{
    if (args != NULL && json_object_size(args) > 0) {
        return pw_fail(err, PW_ERR_USAGE,
                       "get_sandbox_info takes no arguments; call it with {}");
    }
    struct pw_buf text;
    pw_buf_init(&text);
    pw_tools_info_text(t, &text);
    *result = tool_result(json_deep_copy(pw_tools_info(t)), text.data, false);
    pw_buf_free(&text);
    return 0;
}

static struct pw_session_ctx
session_ctx(const struct pw_tools *t, const char *owner)
{
    return (struct pw_session_ctx){t->cfg,
                                   t->profiles,
                                   t->enabled,
                                   t->zygote,
                                   t->zygote_error,
                                   t->sessions,
                                   owner != NULL ? owner : ""};
}

/* mcp-python-exec-sandbox's check_environment and validate_script. */
static int
call_compat(struct pw_tools *t, const char *name, json_t *args,
            json_t **result, struct pw_error *err)
{
    if (strcmp(name, "check_environment") == 0) {
        if (args != NULL && json_object_size(args) > 0) {
            return pw_fail(err, PW_ERR_USAGE,
                           "check_environment takes no arguments");
        }
        *result = pw_compat_environment(pw_tools_info(t));
        return *result != NULL ? 0 : pw_fail(err, PW_ERR_INTERNAL, "%s", name);
    }
    json_auto_t *mine =
        pw_compat_args(t->compat, name, args, t->cfg->max_timeout_s, err);
    if (mine == NULL) {
        return -1;
    }
    (void)json_object_del(mine, "timeout");
    int rc = validate_code(t, mine, result, err);
    json_t *code = json_object_get(mine, "code"); /* borrowed */
    json_auto_t *meta = rc == 0 && json_is_string(code)
                            ? pw_script_meta_read(json_string_value(code),
                                                  json_string_length(code))
                            : NULL;
    if (rc == 0) {
        *result = pw_compat_validation(*result, meta,
                                       json_object_get(args, "dependencies"));
    }
    return rc;
}

static int
call_tool(struct pw_tools *t, const char *name, json_t *args, json_t **result,
          struct pw_error *err)
{
    if (t->compat != PW_COMPAT_NONE) {
        return call_compat(t, name, args, result, err);
    }
    if (strcmp(name, "validate_code") == 0) {
        return validate_code(t, args, result, err);
    }
    if (strcmp(name, "get_sandbox_info") == 0) {
        return sandbox_info(t, args, result, err);
    }
    if (pw_session_tool_exists(name)) {
        struct pw_session_ctx c = session_ctx(t, t->owner);
        return pw_session_tool_call(&c, name, args, result, err);
    }
    return pw_fail(err, PW_ERR_INTERNAL, "no synchronous tool '%s'", name);
}

int
pw_tools_call_sync(struct pw_tools *t, const char *name, json_t *args,
                   json_t **result, struct pw_error *err)
{
    *result = NULL;
    int rc = call_tool(t, name, args, result, err);
    if (rc < 0 && err->code == PW_ERR_USAGE) {
        json_decref(*result);
        *result = argument_error(name, err->message);
        return *result != NULL ? 0 : -1;
    }
    return rc;
}

/* --- execute_code ----------------------------------------------------- */

/* The fields the program's report fills, as the result names them. */
static const struct {
    const char *reported; /* name in the sandbox's program_reported */
    const char *fields[3];
} reported_moves[] = {
    {"result", {"result", "result_repr", NULL}},
    {"variables", {"variables", "variable_details", NULL}},
    {"error", {"error", "error_details", "traceback"}},
    {"blocked", {"blocked", NULL, NULL}},
};

/* New reference: R's program_reported list with the moved names. */
static json_t *
reported_json(json_t *r)
{
    json_t *out = json_array();
    size_t i;
    json_t *v; /* borrowed */
    json_array_foreach(json_object_get(r, "program_reported"), i, v) {
        for (size_t m = 0; m < PW_N_ELEMENTS(reported_moves); m++) {
            if (strcmp(reported_moves[m].reported, json_string_value(v)) !=
                0) {
                continue;
            }
            for (size_t f = 0; f < 3 && reported_moves[m].fields[f]; f++) {
                json_array_append_new(
                    out, json_string(reported_moves[m].fields[f]));
            }
        }
    }
    return out;
}

/* New reference: the names of the variables map VARS, in its order. */
static json_t *
names_json(json_t *vars)
{
    json_t *names = json_array();
    const char *key;
    json_t *v; /* borrowed */
    json_object_foreach(vars, key, v) {
        json_array_append_new(names, json_string(key));
    }
    return names;
}

/* Move R (an execute_code result) to the python sandbox contract, with
 * pyward's own fields next to it (doc/MCP.md lists the moves):
 *   result (repr) -> result_repr, and result_value -> result;
 *   variables {name: {type, repr}} -> variable_details, and variables is
 *   the list of names;
 *   error {type, message, line, traceback} -> error_details, and error is
 *   "Type: message", traceback the traceback text (on failure).
 * 0, or -1 when a field cannot be set. */
static int
contract_fields(json_t *r)
{
    json_auto_t *repr = json_incref(json_object_get(r, "result"));
    json_auto_t *value = json_incref(json_object_get(r, "result_value"));
    json_auto_t *vars = json_incref(json_object_get(r, "variables"));
    json_auto_t *error = json_incref(json_object_get(r, "error"));
    if (!json_is_object(vars)) {
        json_decref(vars);
        vars = json_object();
    }
    (void)json_object_del(r, "result_value"); /* -1: it was not there */
    int rc = json_object_set_new(r, "result",
                                 value ? json_incref(value) : json_null());
    rc |= json_object_set_new(r, "result_repr",
                              json_is_string(repr) ? json_incref(repr)
                                                   : json_null());
    rc |= json_object_set_new(r, "variables", names_json(vars));
    rc |= json_object_set(r, "variable_details", vars);
    json_t *reported = reported_json(r); /* owned */
    if (json_is_string(json_object_get(r, "result_markdown"))) {
        rc |= json_array_append_new(reported, json_string("result_markdown"));
    }
    rc |= json_object_set_new(r, "program_reported", reported);
    if (!json_is_object(error)) {
        return rc | json_object_set_new(r, "error", json_null());
    }
    const char *type = json_string_value(json_object_get(error, "type"));
    const char *msg = json_string_value(json_object_get(error, "message"));
    const char *tb = json_string_value(json_object_get(error, "traceback"));
    PW_AUTOFREE char *line =
        pw_xasprintf("%s%s%s", type ? type : "Error", msg && *msg ? ": " : "",
                     msg ? msg : "");
    rc |= json_object_set_new(r, "error", json_string(line));
    rc |= json_object_set_new(r, "traceback", json_string(tb ? tb : ""));
    rc |= json_object_set(r, "error_details", error);
    return rc != 0 ? -1 : 0;
}

/* Say in R which isolation the run had, and whether use_container was
 * asked (a run is never weaker than asked: see container_refused). */
static int
isolation_field(const struct pw_tools *t, bool asked, json_t *r)
{
    const char *how =
        t->container_available
            ? "its own process in its own user, PID, mount, IPC, UTS and "
              "network namespaces, under a seccomp allow-list, rlimits, "
              "landlock and the interpreter's guards (no container image: "
              "pyward runs none)"
            : "its own process under a seccomp allow-list, rlimits and the "
              "interpreter's guards (this host gives no namespaces)";
    return json_object_set_new(r, "isolation",
                               json_pack("{s:b,s:b,s:s,s:O}", "use_container",
                                         asked, "container_equivalent",
                                         t->container_available, "summary",
                                         how, "layers", t->layers));
}

/* New reference: the result of a call that asks for container-grade
 * isolation (use_container, or the operator's container mode) on a host
 * that cannot give it; NULL when it can. */
static json_t *
container_refused(const struct pw_tools *t, bool asked)
{
    if (t->container_available || (!asked && !t->cfg->container_mode)) {
        return NULL;
    }
    PW_AUTOFREE char *why = pw_xasprintf(
        "%s asks for container-grade isolation (its own user, PID, mount and "
        "network namespaces), which this host cannot give (not active: %s)%s",
        asked ? "use_container: true" : "this server's container mode",
        t->container_missing,
        asked && !t->cfg->container_mode
            ? "; pass use_container: false to run with the layers it has "
              "(get_sandbox_info lists them)"
            : "");
    return refusal("execute_code", "not run", why);
}

/* New reference: an execute_code result for a run that never started. */
static json_t *
unrun_result(const char *id, const char *status, const char *etype,
             const char *message, int line)
{
    json_t *r =
        json_pack("{s:b,s:s,s:s,s:n,s:s,s:s,s:b,s:b,s:f,s:f,s:i,s:n,"
                  "s:n,s:n,s:{s:s,s:s,s:i}}",
                  "success", 0, "execution_id", id, "status", status, "result",
                  "stdout", "", "stderr", "", "stdout_truncated", 0,
                  "stderr_truncated", 0, "execution_time", 0.0, "cpu_time",
                  0.0, "max_rss_kb", 0, "exit_code", "signal", "variables",
                  "error", "type", etype, "message", message, "line", line);
    if (r != NULL && contract_fields(r) < 0) {
        json_decref(r);
        r = NULL;
    }
    return r;
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
pw_tools_exec_set_extras(struct pw_exec *e, char **argv,
                         struct pw_sbx_file *files, size_t nfiles,
                         void (*release)(void *hold), void *hold)
{
    e->argv = argv;
    e->files = files;
    e->nfiles = nfiles;
    e->release = release;
    e->hold = hold;
}

void
pw_tools_exec_set_cpu_limit(struct pw_exec *e, double cpu_s)
{
    e->cpu_limit = cpu_s;
}

void
pw_tools_exec_free(struct pw_exec *e)
{
    if (e != NULL) {
        pw_vcheck_cancel(e->check);
        free(e->blob);
        pw_diags_free(&e->findings);
        if (e->fork != NULL) {
            e->fork->e = NULL; /* the copy, once made, is closed */
        }
        if (e->file != NULL) {
            /* Its fds closed, its temporary file removed, now; the
             * entry goes at the next step. */
            pw_session_file_free(e->file->sf);
            e->file->sf = NULL;
            e->file->e = NULL;
        }
        for (size_t i = 0; e->argv != NULL && e->argv[i] != NULL; i++) {
            free(e->argv[i]);
        }
        free(e->argv);
        for (size_t i = 0; i < e->nfiles; i++) {
            free((char *)e->files[i].name);
            free((char *)e->files[i].data);
        }
        free(e->files);
        if (e->release != NULL) {
            e->release(e->hold);
        }
        pw_grade_call_free(e->grade);
        pw_session_start_free(e->start);
        json_decref(e->args);
        free(e->compat_tool);
        json_decref(e->compat_args);
        free(e->owner);
        free(e->a.only);
        free(e->a.deps);
        free(e);
    }
}

static int grade_checked(const struct pw_tools *t, struct pw_exec *e,
                         bool light, struct pw_diags *checked, json_t **result,
                         struct pw_error *err);

/* E as a grade_code call: the suite checked, the code validated (a CE
 * is the final *RESULT), graded from the light zygote like a run
 * (validate_routed) unless a checker program, with imports of its own,
 * comes too.  0, or -1 with *RESULT or ERR. */
static int
grade_new(struct pw_tools *t, struct pw_exec *e, json_t **result,
          struct pw_error *err)
{
    if (parse_args(t, ARG_GRADE, e->args, &e->a, err) < 0) {
        return -1;
    }
    if (check_off_loop(t, e)) {
        e->checking = true; /* validated once submitted */
        return 0;
    }
    struct pw_diags d;
    pw_diags_init(&d);
    bool light = json_object_get(e->a.tests, "checker_code") == NULL &&
                 passes_light(t, &e->a, &d, NULL);
    pw_diags_free(&d);
    return grade_checked(t, e, light, NULL, result, err);
}

/* E as a grade_code call, graded from the light zygote if LIGHT, with
 * the findings CHECKED of a validator process (NULL: validated now).  0, or -1
 * with *RESULT or ERR. */
static int
grade_checked(const struct pw_tools *t, struct pw_exec *e, bool light,
              struct pw_diags *checked, json_t **result, struct pw_error *err)
{
    struct pw_diags none;
    pw_diags_init(&none);
    if (checked == NULL && t->cfg->skip_validation) {
        checked = &none; /* --skip-validation: the runtime's layers alone */
    }
    e->light = light;
    e->imports = (struct pw_importset){
        t->profiles, e->light ? e->a.mask & t->light_mask : e->a.mask,
        (const char *const *)t->extra, e->a.only};
    struct pw_grade_ctx c = {t->cfg,
                             t->profiles,
                             t->rules,
                             e->light ? t->zygote_light : t->zygote,
                             t->zygote == NULL ? t->zygote_error
                                               : t->rules_error,
                             pw_profiles_caps(t->profiles, e->a.mask),
                             checked,
                             e->blob,
                             e->blob_len,
                             e->compile_asked};
    e->grade = pw_grade_call_new(&c, e->a.code, e->a.code_len, &e->imports,
                                 e->a.tests, result, err);
    return e->grade != NULL ? 0 : -1;
}

/* E as a create_session call.  0, or -1 with *RESULT or ERR. */
static int
session_new(struct pw_tools *t, struct pw_exec *e, json_t **result,
            struct pw_error *err)
{
    if (e->args != NULL && !json_is_object(e->args)) {
        return pw_fail(err, PW_ERR_USAGE, "'arguments' must be an object");
    }
    struct pw_session_ctx c = session_ctx(t, e->owner);
    e->start = pw_session_start_new(&c, e->args, result, err);
    return e->start != NULL ? 0 : -1;
}

/* One of execute_code's input files, F, into OUT (its name and bytes
 * owned); *TOTAL counts the bytes.  0, or -1 with ERR. */
static int
input_file(json_t *f, struct pw_sbx_file *out, long long *total,
           struct pw_error *err)
{
    const char *path = json_string_value(json_object_get(f, "path"));
    json_t *text = json_object_get(f, "content");       /* borrowed */
    json_t *b64 = json_object_get(f, "content_base64"); /* borrowed */
    size_t nkeys = 1 + (text != NULL) + (b64 != NULL);
    if (!json_is_object(f) || path == NULL || json_object_size(f) != nkeys ||
        (text != NULL) == (b64 != NULL) ||
        !json_is_string(text != NULL ? text : b64)) {
        return pw_fail(err, PW_ERR_USAGE,
                       "each of 'files' must be {\"path\": name, "
                       "\"content\": text} or {\"path\": name, "
                       "\"content_base64\": data}");
    }
    if (!pw_sbx_file_name_ok(path)) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'files': '%.200s' is not a plain file name (no '/', "
                       "not '.' or '..', at most %d bytes)",
                       path, PW_SBX_NAME_MAX);
    }
    struct pw_buf b;
    pw_buf_init(&b);
    if (text != NULL) {
        pw_buf_append(&b, json_string_value(text), json_string_length(text));
    } else if (pw_base64_decode(json_string_value(b64), &b) < 0) {
        pw_buf_free(&b);
        return pw_fail(err, PW_ERR_USAGE,
                       "'files': the content_base64 of '%.200s' is not "
                       "base64",
                       path);
    }
    *total += (long long)b.len;
    out->name = pw_xstrdup(path);
    out->len = b.len;
    out->data = b.data != NULL ? b.data : pw_xstrdup("");
    out->fd = -1;
    return 0;
}

/* execute_code's 'files' (A->files) into E's support files: plain names,
 * each once, for a fresh run whose profiles write files, at most the
 * workspace's bytes together.  0, or -1 with ERR. */
static int
input_files(const struct pw_tools *t, struct pw_exec *e, struct pw_error *err)
{
    json_t *list = e->a.files; /* borrowed */
    size_t i;
    json_t *f; /* borrowed */
    if (list == NULL || json_array_size(list) == 0) {
        return 0;
    }
    if (e->a.session_id != NULL) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'files' cannot be given with 'session_id': put a "
                       "session's files with write_file");
    }
    long long total = 0;
    e->files = pw_xcalloc(json_array_size(list), sizeof(*e->files));
    json_array_foreach(list, i, f) {
        for (size_t k = 0; k < e->nfiles; k++) {
            const char *path = json_string_value(json_object_get(f, "path"));
            if (path != NULL && strcmp(e->files[k].name, path) == 0) {
                return pw_fail(err, PW_ERR_USAGE,
                               "'files': '%.200s' is given twice", path);
            }
        }
        if (input_file(f, &e->files[e->nfiles], &total, err) < 0) {
            return -1;
        }
        e->nfiles++;
    }
    if ((pw_profiles_caps(t->profiles, e->a.mask) & PW_CAP_WORKSPACE_FILES) ==
        0) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'files' needs a profile that writes files (such as "
                       "filesystem): the run's workspace is read-only "
                       "otherwise");
    }
    long long cap =
        t->zygote != NULL ? pw_zygote_workspace_bytes(t->zygote) : 0;
    if (cap > 0 && total > cap) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'files' hold %lld bytes: the workspace holds at most "
                       "%lld",
                       total, cap);
    }
    return 0;
}

/* The name of E, a validate_code call or a compat mode's tool that
 * validates. */
static const char *
validate_name(const struct pw_exec *e)
{
    return e->compat_tool != NULL ? e->compat_tool : "validate_code";
}

/* RESULT (validate_code's, stolen) of E as its compat tool answers it
 * (mcp-python-exec-sandbox's validate_script), or kept as it is. */
static json_t *
compat_validation(const struct pw_exec *e, json_t *result)
{
    if (e->compat_tool == NULL || result == NULL) {
        return result;
    }
    json_auto_t *meta = pw_script_meta_read(e->a.code, e->a.code_len);
    return pw_compat_validation(
        result, meta, json_object_get(e->compat_args, "dependencies"));
}

/* E as a validate_code call (or its compat mode's tool): a program the
 * call validates is answered now (-1 with *RESULT); a longer one a
 * validator process's, once submitted.  -1 with ERR on an internal
 * failure. */
static int
validate_new(struct pw_tools *t, struct pw_exec *e, json_t **result,
             struct pw_error *err)
{
    if (e->args == NULL) { /* compat arguments refused (ERR) */
        *result = argument_error(validate_name(e), err->message);
        return -1;
    }
    if (parse_args(t, ARG_VALIDATE, e->args, &e->a, err) == 0 &&
        check_off_loop(t, e)) {
        e->checking = true;
        return 0;
    }
    int rc = validate_code(t, e->args, result, err);
    if (rc < 0 && *result == NULL && err->code == PW_ERR_USAGE) {
        *result = argument_error(validate_name(e), err->message);
    } else if (rc == 0) {
        *result = compat_validation(e, *result);
    }
    return -1;
}

/* E as a fork_session call: the copy started, in a free slot (stepped
 * by pw_tools_fork_step).  0, or -1 with *RESULT (a refusal) or ERR. */
static int
fork_new(struct pw_tools *t, struct pw_exec *e, json_t **result,
         struct pw_error *err)
{
    struct pw_tools_fork *slot = NULL;
    for (size_t i = 0; i < PW_TOOLS_FORKS && slot == NULL; i++) {
        slot = t->forks[i].sf == NULL ? &t->forks[i] : NULL;
    }
    if (slot == NULL) {
        *result = pw_session_tool_error(
            "fork_session: the server is making as many copies as it may at "
            "once; try again in a moment");
        return -1;
    }
    struct pw_session_ctx c = session_ctx(t, e->owner);
    slot->sf = pw_session_fork_start(&c, e->args, result, err);
    if (slot->sf == NULL) {
        if (*result == NULL && err->code == PW_ERR_USAGE) {
            *result = argument_error("fork_session", err->message);
        }
        return -1;
    }
    slot->e = e;
    e->fork = slot;
    e->unrun = true; /* no run: its end is the copy's */
    return 0;
}

/* E as a read_file or write_file call (TOOL): answered now (a small
 * file, a refusal), or its steps started (stepped by pw_tools_fork_step).
 * 0, or -1 with *RESULT or ERR. */
static int
file_new(struct pw_tools *t, struct pw_exec *e, const char *tool,
         json_t **result, struct pw_error *err)
{
    struct pw_session_ctx c = session_ctx(t, e->owner);
    struct pw_session_file *sf =
        pw_session_file_start(&c, tool, e->args, result, err);
    if (sf == NULL) {
        if (*result == NULL && err->code == PW_ERR_USAGE) {
            *result = argument_error(tool, err->message);
        }
        return -1;
    }
    struct pw_tools_file *f = pw_xcalloc(1, sizeof(*f));
    f->sf = sf;
    f->e = e;
    struct pw_tools_file **tail = &t->files;
    while (*tail != NULL) {
        tail = &(*tail)->next;
    }
    *tail = f;
    e->file = f;
    e->unrun = true; /* no run */
    return 0;
}

/* For a door that words a rejection from its findings (Jobe): a program
 * longer than the server takes is the validator's too-large finding
 * (what a student reads: make it shorter), not an argument error.  True
 * with *RESULT, the rejection, and E's findings. */
static bool
code_too_large(const struct pw_tools *t, struct pw_exec *e, json_t **result)
{
    if (e->rejected == NULL || t->rules == NULL ||
        (long long)e->a.code_len <= t->cfg->max_code) {
        return false;
    }
    pw_validate_too_large(t->rules, e->a.code_len, (size_t)t->cfg->max_code,
                          e->rejected);
    if (e->rejected->n == 0) {
        return false;
    }
    e->unrun = e->refused = true;
    *result = rejected_result(e, e->rejected);
    return *result != NULL;
}

/* E as an execute_code call whose program's findings are D: 0 if it
 * runs, or -1 with *RESULT, its rejection (or ERR). */
static int
run_checked(const struct pw_tools *t, struct pw_exec *e,
            const struct pw_diags *d, json_t **result, struct pw_error *err)
{
    /* A syntax error or a missing module: the run shows python3's error. */
    if (d->n > 0 && !pw_diags_interpreter_only(d)) {
        e->unrun = e->refused = true;
        *result = rejected_result(e, d);
        if (e->rejected != NULL) {
            pw_diags_copy(e->rejected, d);
        } else if (e->words_findings) {
            pw_diags_copy(&e->findings, d);
        }
        return *result != NULL ? -1
                               : pw_fail(err, PW_ERR_INTERNAL,
                                         "could not build the rejection");
    }
    e->imports = (struct pw_importset){
        t->profiles, e->light ? e->a.mask & t->light_mask : e->a.mask,
        (const char *const *)t->extra, e->a.only};
    return 0;
}

/* E as an execute_code call: its arguments, its session, its
 * validation.  0, or -1 with *RESULT or ERR. */
static int
run_new(struct pw_tools *t, struct pw_exec *e, const char *tool,
        json_t **result, struct pw_error *err)
{
    struct pw_diags d;
    struct pw_analysis an;
    pw_diags_init(&d);
    snprintf(e->id, sizeof(e->id), "exec-%lu", ++t->runs);
    struct pw_session_ctx c = session_ctx(t, e->owner);
    if ((t->compat != PW_COMPAT_NONE && e->args == NULL) ||
        parse_args(t, ARG_EXEC, e->args, &e->a, err) < 0 ||
        (e->a.session_id != NULL &&
         pw_session_exec_check(&c, e->a.session_id, e->args, &e->a.mask,
                               &e->a.timeout, result, err) < 0) ||
        input_files(t, e, err) < 0) {
        if (*result == NULL && !code_too_large(t, e, result)) {
            *result = argument_error(tool, err->message);
        }
        return -1;
    }
    *result = container_refused(t, e->a.container);
    if (*result != NULL) {
        return -1;
    }
    if (check_off_loop(t, e)) {
        /* Validated once submitted (a door that words a rejection itself,
         * Jobe, reads the findings at the call's end:
         * pw_tools_exec_refusal). */
        e->checking = true;
        return 0;
    }
    int rc = validate_routed(t, e, &d, &an, err) < 0
                 ? -1
                 : run_checked(t, e, &d, result, err);
    pw_diags_free(&d);
    return rc;
}

/* pw_tools_exec_new, and pw_tools_run_new with REJECTED and ID. */
static struct pw_exec *
exec_new(struct pw_tools *t, const char *tool, json_t *args, json_t **result,
         struct pw_diags *rejected, char **id, struct pw_error *err)
{
    struct pw_exec *e = pw_xcalloc(1, sizeof(*e));
    e->tools = t;
    e->rejected = rejected;
    e->words_findings = rejected != NULL;
    bool native = t->compat == PW_COMPAT_NONE;
    bool checks = pw_compat_validates(t->compat, tool);
    e->kind = native && strcmp(tool, "grade_code") == 0       ? EXEC_GRADE
              : native && strcmp(tool, "create_session") == 0 ? EXEC_SESSION
              : (native && strcmp(tool, "validate_code") == 0) || checks
                  ? EXEC_VALIDATE
              : native && strcmp(tool, "fork_session") == 0 ? EXEC_FORK
              : native && (strcmp(tool, "read_file") == 0 ||
                           strcmp(tool, "write_file") == 0)
                  ? EXEC_FILE
                  : EXEC_RUN;
    e->args =
        t->compat != PW_COMPAT_NONE
            ? pw_compat_args(t->compat, tool, args, t->cfg->max_timeout_s, err)
            : json_incref(args);
    if (checks) {
        e->compat_tool = pw_xstrdup(tool);
        e->compat_args = json_incref(args);
        (void)json_object_del(e->args, "timeout"); /* -1: not there */
    }
    *result = NULL;
    e->owner = pw_xstrdup(t->owner != NULL ? t->owner : "");
    int rc = e->kind == EXEC_GRADE      ? grade_new(t, e, result, err)
             : e->kind == EXEC_SESSION  ? session_new(t, e, result, err)
             : e->kind == EXEC_VALIDATE ? validate_new(t, e, result, err)
             : e->kind == EXEC_FORK     ? fork_new(t, e, result, err)
             : e->kind == EXEC_FILE     ? file_new(t, e, tool, result, err)
                                        : run_new(t, e, tool, result, err);
    e->rejected = NULL;
    if (id != NULL) {
        *id = pw_xstrdup(e->id);
    }
    if (rc == 0) {
        return e;
    }
    enum exec_kind kind = e->kind;
    pw_tools_exec_free(e);
    if (kind == EXEC_VALIDATE || kind == EXEC_FORK || kind == EXEC_FILE) {
        return NULL; /* its result as the tool makes it */
    }
    /* Malformed arguments of grade_code and create_session are tool
     * results the model reads, as execute_code's. */
    if (*result == NULL && kind != EXEC_RUN && err->code == PW_ERR_USAGE) {
        *result = argument_error(tool, err->message);
    }
    if (*result != NULL) {
        *result = pw_compat_result(t->compat, *result);
    }
    return NULL;
}

struct pw_exec *
pw_tools_exec_new(struct pw_tools *t, const char *tool, json_t *args,
                  json_t **result, struct pw_error *err)
{
    return exec_new(t, tool, args, result, NULL, NULL, err);
}

struct pw_exec *
pw_tools_run_new(struct pw_tools *t, json_t *args, json_t **result,
                 struct pw_diags *rejected, char **id, struct pw_error *err)
{
    return exec_new(t, "execute_code", args, result, rejected, id, err);
}

size_t
pw_tools_zygotes(const struct pw_tools *t, struct pw_zygote *out[2])
{
    size_t n = 0;
    if (t->zygote != NULL) {
        out[n++] = t->zygote;
    }
    if (t->zygote_light != NULL) {
        out[n++] = t->zygote_light;
    }
    return n;
}

void
pw_tools_exec_about(const struct pw_exec *e, const char **tool,
                    const char **session, const char **profile)
{
    *tool = e->kind == EXEC_GRADE     ? "grade_code"
            : e->kind == EXEC_SESSION ? "create_session"
                                      : "execute_code";
    *session = e->kind == EXEC_RUN ? e->a.session_id : NULL;
    *profile = json_string_value(json_object_get(e->args, "profile"));
}

json_t *
pw_tools_exec_args(const struct pw_exec *e)
{
    return e->args;
}

bool
pw_tools_exec_runs_one(const struct pw_exec *e)
{
    return e->kind == EXEC_RUN;
}

bool
pw_tools_exec_unrun(const struct pw_exec *e, bool *rejected)
{
    *rejected = e->refused;
    return e->unrun;
}

const struct pw_diags *
pw_tools_exec_refusal(const struct pw_exec *e, bool *unchecked)
{
    *unchecked = e != NULL && e->unchecked;
    return e != NULL && e->refused && e->findings.n > 0 ? &e->findings : NULL;
}

double
pw_tools_exec_timeout(const struct pw_exec *e)
{
    return e->kind == EXEC_GRADE && e->grade != NULL
               ? pw_grade_call_timeout(e->grade)
           : e->kind == EXEC_SESSION ? pw_session_start_timeout(e->start)
           : e->kind == EXEC_VALIDATE || e->kind == EXEC_FORK ||
                   e->kind == EXEC_FILE
               ? 0
               : e->a.timeout;
}

/* New reference: the result of E's run that the sandbox refused to
 * start (ERR). */
static json_t *
not_run_result(const struct pw_exec *e, const struct pw_error *err)
{
    if (e->a.session_id != NULL) {
        return pw_session_tool_error(err->message);
    }
    pw_log(PW_LOG_WARN, "%s: refused to run: %s", e->id, err->message);
    char text[600];
    snprintf(text, sizeof(text), "Not run: %s", err->message);
    return pw_compat_result(
        e->tools->compat,
        tool_result(unrun_result(e->id, "internal_error", "SandboxError",
                                 err->message, 0),
                    text, true));
}

/* The start of E's run as the next call of its session (the session is
 * looked up when the entry's turn comes: it may have ended meanwhile). */
static struct pw_sbx_run *
session_call_start(void *ctx, const struct pw_run_spec *spec,
                   struct pw_error *err)
{
    struct pw_exec *e = ctx;
    struct pw_session_ctx c = session_ctx(e->tools, e->owner);
    return pw_session_exec_start(&c, e->a.session_id, &spec->req, err);
}

static json_t *exec_result(struct pw_exec *e, const struct pw_sbx_result *res);

static void
run_done(void *ctx, size_t index, struct pw_sbx_result *res,
         const struct pw_error *err)
{
    struct pw_exec *e = ctx;
    (void)index;
    json_t *result =
        res != NULL ? exec_result(e, res) : not_run_result(e, err);
    e->done(e->ctx, result, res); /* last: it may free E */
}

static void
call_done(void *ctx, json_t *result)
{
    struct pw_exec *e = ctx;
    e->done(e->ctx, result, NULL); /* last: it may free E */
}

static json_t *queue_runs(const struct pw_tools *t, struct pw_exec *e,
                          struct pw_queue_group *g);

/* The end of E's call, ended without a run with NOW (stolen). */
static void
end_unrun(struct pw_exec *e, json_t *now)
{
    e->unrun = true;
    e->done(e->ctx, now, NULL); /* last: it may free E */
}

/* E's suite's checker program compiled by a validator process (R): its
 * tests queued. */
static void
checker_compiled(void *ctx, struct pw_vcheck_result *r)
{
    struct pw_exec *e = ctx;
    e->check = NULL;
    if (r->rc < 0) {
        e->unchecked = true;
        json_t *now = refusal("grade_code", "not checked", r->err.message);
        pw_vcheck_result_clear(r);
        end_unrun(e, now);
        return;
    }
    pw_grade_call_take_checker_blob(e->grade, r->blob, r->blob_len);
    r->blob = NULL;
    pw_vcheck_result_clear(r);
    pw_grade_call_submit(e->grade, e->group, call_done, e);
}

/* Queue E's tests (E graded: its suite checked, its program validated);
 * a checker program over CHECK_HERE_MAX bytes that runs more than once
 * is compiled by a validator process first, not on the loop. */
static void
grade_submit(const struct pw_tools *t, struct pw_exec *e)
{
    size_t len = 0;
    const char *checker = pw_grade_call_checker(e->grade, &len);
    struct pw_vproc *c =
        checker != NULL && len > CHECK_HERE_MAX ? vproc_for(t, len) : NULL;
    if (c == NULL) {
        pw_grade_call_submit(e->grade, e->group, call_done, e);
        return;
    }
    struct pw_vcheck_req req = {
        .code = checker,
        .len = len,
        .compile = true,
        .compile_only = true,
        .caps = pw_profiles_caps(t->profiles, e->a.mask),
        .owner = pw_queue_group_client(e->group),
    };
    e->check = pw_vproc_submit(c, &req, checker_compiled, e);
}

/* The call goes on after its check R: its runs queued, or its end. */
static void
checked(void *ctx, struct pw_vcheck_result *r)
{
    struct pw_exec *e = ctx;
    const struct pw_tools *t = e->tools;
    e->check = NULL;
    e->blob = r->blob; /* compiled there: not on the loop */
    e->blob_len = r->blob_len;
    r->blob = NULL;
    json_t *now = NULL;
    struct pw_error err = {0};
    if (r->rc < 0) {
        e->unchecked = true;
        now = refusal(e->kind == EXEC_GRADE      ? "grade_code"
                      : e->kind == EXEC_VALIDATE ? validate_name(e)
                                                 : "execute_code",
                      "not checked", r->err.message);
    } else if (e->kind == EXEC_VALIDATE) {
        (void)validate_result(t, &r->d, &r->an, &now, &err);
        now = compat_validation(e, now);
    } else if (e->kind == EXEC_GRADE &&
               grade_checked(t, e, r->light, &r->d, &now, &err) == 0) {
        pw_vcheck_result_clear(r);
        grade_submit(t, e);
        return;
    } else if (e->kind == EXEC_GRADE && now == NULL) {
        now = err.code == PW_ERR_USAGE
                  ? argument_error("grade_code", err.message)
                  : refusal("grade_code", "not graded", err.message);
    } else if (e->kind == EXEC_RUN) {
        e->light = r->light;
        if (run_checked(t, e, &r->d, &now, &err) == 0) {
            pw_vcheck_result_clear(r);
            now = queue_runs(t, e, e->group);
            if (now != NULL) {
                e->unrun = true; /* no sandbox: counted as before a run */
                e->done(e->ctx, now, NULL); /* last: it may free E */
            }
            return;
        }
        now = now != NULL ? pw_compat_result(t->compat, now) : NULL;
    }
    pw_vcheck_result_clear(r);
    e->unrun = true;
    e->done(e->ctx, now, NULL); /* last: it may free E */
}

json_t *
pw_tools_exec_submit(struct pw_tools *t, struct pw_exec *e,
                     struct pw_queue_group *g, pw_exec_done_fn done, void *ctx)
{
    e->done = done;
    e->ctx = ctx;
    e->group = g;
    if (e->kind == EXEC_FORK || e->kind == EXEC_FILE) {
        return NULL; /* under way: pw_tools_fork_step ends it */
    }
    if (e->checking) {
        bool grade = e->kind == EXEC_GRADE;
        bool light =
            e->a.session_id == NULL && !t->cfg->skip_validation &&
            t->zygote_light != NULL && pw_zygote_fd(t->zygote_light) >= 0 &&
            pw_zygote_error(t->zygote_light) == NULL &&
            (!grade || json_object_get(e->a.tests, "checker_code") == NULL) &&
            e->kind != EXEC_VALIDATE;
        struct pw_vcheck_req req = {
            .code = e->a.code,
            .len = e->a.code_len,
            .mask = e->a.mask,
            .light_mask = light ? t->light_mask : 0,
            .only = e->a.only,
            .deps = e->a.deps,
            .deps_in_full = !grade,
            /* What the loop would compile: a suite's program (for all
             * its tests), a short program's run (not a session's call,
             * which compiles in the session). */
            .compile =
                grade || (e->kind == EXEC_RUN && e->a.session_id == NULL &&
                          e->a.code_len <= PW_SBX_COMPILE_HERE_MAX),
            .compile_only = t->cfg->skip_validation,
            .caps = pw_profiles_caps(t->profiles, e->a.mask),
            .owner = pw_queue_group_client(g),
        };
        e->checking = false;
        e->compile_asked = req.compile;
        e->check =
            pw_vproc_submit(vproc_for(t, e->a.code_len), &req, checked, e);
        return NULL;
    }
    return queue_runs(t, e, g);
}

void
pw_tools_fork_pollfds(const struct pw_tools *t, struct pollfd *fds)
{
    for (size_t i = 0; i < PW_TOOLS_FORKS; i++) {
        struct pollfd *p = fds + i * PW_TOOLS_FORK_FDS;
        int n = t->forks[i].sf != NULL
                    ? pw_session_fork_pollfds(t->forks[i].sf, p)
                    : 0;
        for (int k = n; k < PW_TOOLS_FORK_FDS; k++) {
            p[k] = (struct pollfd){-1, 0, 0};
        }
    }
}

double
pw_tools_fork_deadline(const struct pw_tools *t)
{
    double next = t->files != NULL ? 0 : INFINITY; /* a step: now */
    for (size_t i = 0; i < PW_TOOLS_FORKS; i++) {
        if (t->forks[i].sf != NULL) {
            next = fmin(next, pw_session_fork_deadline(t->forks[i].sf));
        }
    }
    return next;
}

/* One step of the first read_file or write_file call under way, which
 * then goes last (or ends); the entries of calls gone are dropped. */
static void
file_step(struct pw_tools *t)
{
    struct pw_tools_file *f = t->files;
    while (f != NULL && f->e == NULL) {
        t->files = f->next;
        pw_session_file_free(f->sf);
        free(f);
        f = t->files;
    }
    if (f == NULL) {
        return;
    }
    json_t *result = NULL;
    struct pw_error err = {0};
    t->files = f->next;
    f->next = NULL;
    if (!pw_session_file_step(f->sf, &result, &err)) {
        struct pw_tools_file **tail = &t->files;
        while (*tail != NULL) {
            tail = &(*tail)->next;
        }
        *tail = f;
        return;
    }
    if (result == NULL && err.code == PW_ERR_USAGE) {
        result = argument_error(pw_session_file_tool(f->sf), err.message);
    }
    struct pw_exec *e = f->e;
    e->file = NULL;
    e->done(e->ctx, result, NULL); /* it may free E; the reply is made */
    pw_session_file_free(f->sf);   /* with its blob */
    free(f);
}

void
pw_tools_fork_step(struct pw_tools *t, const struct pollfd *fds)
{
    for (size_t i = 0; i < PW_TOOLS_FORKS; i++) {
        struct pw_tools_fork *slot = &t->forks[i];
        json_t *result = NULL;
        if (slot->sf == NULL ||
            !pw_session_fork_step(slot->sf, fds + i * PW_TOOLS_FORK_FDS,
                                  PW_TOOLS_FORK_FDS, slot->e != NULL,
                                  &result)) {
            continue;
        }
        struct pw_exec *e = slot->e;
        *slot = (struct pw_tools_fork){NULL, NULL};
        if (e != NULL) {
            e->fork = NULL;
            e->done(e->ctx, result, NULL); /* it may free E */
        }
    }
    file_step(t);
}

/* Queue E's runs in G (E checked).  NULL, or the final result when they
 * cannot run. */
static json_t *
queue_runs(const struct pw_tools *t, struct pw_exec *e,
           struct pw_queue_group *g)
{
    if (e->kind == EXEC_GRADE) {
        grade_submit(t, e);
        return NULL;
    }
    if (e->kind == EXEC_SESSION) {
        pw_session_start_submit(e->start, g, call_done, e);
        return NULL;
    }
    if (t->zygote == NULL) {
        struct pw_error err = {0};
        pw_fail(&err, PW_ERR_SANDBOX, "the sandbox is unavailable: %s",
                t->zygote_error);
        return not_run_result(e, &err);
    }
    struct pw_run_spec spec = {
        .req = {.code = e->a.code,
                .code_len = e->a.code_len,
                .stdin_data = e->a.stdin_data,
                .stdin_len = e->a.stdin_len,
                .limits = {.timeout_s = e->a.timeout,
                           .cpu_limit_s = e->cpu_limit,
                           .memory_bytes = e->a.memory,
                           .max_output_bytes = t->cfg->max_output},
                .imports = &e->imports,
                .caps = pw_profiles_caps(t->profiles, e->a.mask),
                .capture_output = e->a.capture,
                .argv = (const char *const *)e->argv,
                .files = e->files,
                .nfiles = e->nfiles,
                .compiled = e->blob,
                .compiled_len = e->blob_len,
                .compile_tried = e->compile_asked},
        /* Forked from the light zygote when routed there; if that one
         * failed (its process gone), from the full one, which has all it
         * has (the run keeps its narrowed import set). */
        .zygote = e->light ? t->zygote_light : t->zygote,
        .fallback = e->light ? t->zygote : NULL,
        .start = e->a.session_id != NULL ? session_call_start : NULL,
    };
    pw_queue_add(g, &spec, run_done, e, 0);
    return NULL;
}

/* At most TEXT_MAX bytes of S, cut on a character boundary (a cut
 * inside one would make the text block invalid UTF-8). */
static int
text_max(const char *s)
{
    return (int)pw_utf8_cut(s, strlen(s), TEXT_MAX);
}

/* Bytes of a long stream the text block keeps before the cut; the rest
 * of TEXT_MAX goes to its tail, where a program's results usually are. */
#define TEXT_HEAD (TEXT_MAX / 4)

/* Where the tail of S (LEN bytes) that keeps at most MAX bytes starts: a
 * character's first byte, after a line's end when one is near. */
static size_t
tail_start(const char *s, size_t len, size_t max)
{
    size_t at = len - max;
    const char *nl = memchr(s + at, '\n', max / 4);
    if (nl != NULL && (size_t)(nl + 1 - s) < len) {
        return (size_t)(nl + 1 - s);
    }
    while (at < len && ((unsigned char)s[at] & 0xC0) == 0x80) {
        at++;
    }
    return at;
}

/* STREAM of R ("stdout" or "stderr") into B under its HEADING (none for
 * stdout), then a line of its own when it was cut by the output cap.  A
 * stream longer than TEXT_MAX keeps its head and its tail, and a line
 * between them says how much was cut there. */
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
    size_t len = strlen(s);
    if (len <= TEXT_MAX) {
        pw_buf_printf(b, "%s%s", heading, s);
    } else {
        size_t head = pw_utf8_cut(s, len, TEXT_HEAD);
        const char *nl = head > 0 ? memrchr(s, '\n', head) : NULL;
        if (nl != NULL && (size_t)(nl + 1 - s) > head / 2) {
            head = (size_t)(nl + 1 - s); /* whole lines */
        }
        size_t tail = tail_start(s, len, TEXT_MAX - TEXT_HEAD);
        pw_buf_printf(b, "%s%.*s", heading, (int)head, s);
        if (b->len > 0 && b->data[b->len - 1] != '\n') {
            pw_buf_printf(b, "\n");
        }
        pw_buf_printf(b,
                      "[%s: %zu bytes cut here, of %zu; the first %zu and "
                      "the last %zu are shown, all of it is in the "
                      "structured result]\n%s",
                      stream, tail - head, len, head, len - tail, s + tail);
    }
    if (b->len > 0 && b->data[b->len - 1] != '\n') {
        pw_buf_printf(b, "\n");
    }
    if (json_is_true(json_object_get(r, flag))) {
        pw_buf_printf(b,
                      "[%s cut: the program printed more than the "
                      "output limit]\n",
                      stream);
    }
}

/* The text block of a finished run's result R: stdout, then stderr, then
 * the value of a final expression, then the status with the error's
 * trimmed traceback. */
static void
run_text(json_t *r, struct pw_buf *b)
{
    const char *status = json_string_value(json_object_get(r, "status"));
    const char *value = json_string_value(json_object_get(r, "result_repr"));
    stream_text(r, "stdout", "", b);
    stream_text(r, "stderr", "stderr:\n", b);
    const char *md = json_string_value(json_object_get(r, "result_markdown"));
    if (md != NULL) {
        pw_buf_printf(b, "Result:\n%.*s\n", text_max(md), md);
    } else if (value != NULL) {
        pw_buf_printf(b, "Result: %.*s\n", text_max(value), value);
    }
    if (status == NULL || strcmp(status, "ok") == 0) {
        return;
    }
    const char *tb = json_string_value(json_object_get(r, "traceback"));
    const char *error = json_string_value(json_object_get(r, "error"));
    pw_buf_printf(b, "Status: %s\n", status);
    if (tb != NULL && *tb != '\0') {
        pw_buf_printf(b, "%.*s", text_max(tb), tb);
    } else if (error != NULL) {
        pw_buf_printf(b, "%s\n", error);
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

int
pw_tools_result_shape(json_t *r, const char *id)
{
    const char *status = json_string_value(json_object_get(r, "status"));
    complete_result(r, id, status != NULL && strcmp(status, "ok") == 0);
    return contract_fields(r);
}

/* New reference: the CallToolResult of E's finished RUN: the
 * execute_code fields made from the typed result here, at the door's
 * edge. */
static json_t *
exec_result(struct pw_exec *e, const struct pw_sbx_result *run)
{
    json_auto_t *r = pw_sbx_result_to_json(run);
    if (r == NULL) {
        return NULL;
    }
    const char *status = json_string_value(json_object_get(r, "status"));
    bool failed = status == NULL || strcmp(status, "ok") != 0;
    if (pw_tools_result_shape(r, e->id) < 0 ||
        isolation_field(e->tools, e->a.container, r) < 0) {
        return NULL;
    }
    struct pw_buf b;
    pw_buf_init(&b);
    json_auto_t *content = json_array();
    run_text(r, &b);
    if (e->a.session_id != NULL) {
        pw_session_exec_note(r, e->a.session_id, &b);
    }
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
    return res != NULL ? pw_compat_result(e->tools->compat, res) : NULL;
}
