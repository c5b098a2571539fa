/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * compat.c - `pyward serve --compat NAME`: the tool sets of other Python
 * sandbox MCP servers, their argument names and their result layouts,
 * over pyward's own execute_code and validate_code.
 *
 *   mcp-python-exec-sandbox  execute_python(script, dependencies,
 *                            timeout_seconds), check_environment(),
 *                            validate_script(script, dependencies)
 *   code-sandbox-mcp         run_python_code(code)
 *   bentorun                 execute_python(code, packages, env_variables),
 *                            files from output/ as images and resources
 *
 * Defines pw_compat_*.
 */
#include "config.h"

#include <string.h>
#include <sys/utsname.h>

#include "core/joined.h"
#include "core/py.h"
#include "core/reply.h"
#include "core/util.h"
#include "server/compat.h"

#define S(...) #__VA_ARGS__

static const char exec_sandbox_run[] = S({
    "type" : "object",
    "properties" : {
        "script" : {
            "type" : "string",
            "description" : "Python source; may hold PEP 723 metadata"
        },
        "dependencies" :
            {"type" : "array", "items" : {"type" : "string"}, "default" : []},
        "timeout_seconds" : {"type" : "integer", "default" : 30}
    },
    "required" : ["script"]
});

static const char exec_sandbox_validate[] = S({
    "type" : "object",
    "properties" : {
        "script" : {"type" : "string"},
        "dependencies" :
            {"type" : "array", "items" : {"type" : "string"}, "default" : []}
    },
    "required" : ["script"]
});

static const char no_args[] = S({"type" : "object", "properties" : {}});

static const char code_sandbox_run[] = S({
    "type" : "object",
    "properties" : {
        "code" : {"type" : "string", "description" : "The Python code to run"}
    },
    "required" : ["code"]
});

static const char bentorun_run[] = S({
    "type" : "object",
    "properties" : {
        "code" : {"type" : "string"},
        "packages" :
            {"type" : "array", "items" : {"type" : "string"}, "default" : []},
        "env_variables" : {
            "type" : "object",
            "additionalProperties" : {"type" : "string"},
            "default" : {}
        }
    },
    "required" : ["code"]
});

struct compat_tool {
    const char *name;
    const char *description;
    const char *input;
    bool runs;      /* runs code (in the event loop) */
    bool validates; /* validates code (as validate_code) */
};

static const struct compat_set {
    const char *name;
    struct compat_tool tools[3];
} sets[] = {
    {"mcp-python-exec-sandbox",
     {{"execute_python",
       "Execute a Python script. Dependencies (PEP 723 '# /// script' "
       "metadata or the dependencies argument) name the sandbox profiles "
       "that provide them; nothing is installed. Returns stdout, stderr, "
       "the exit code and the duration.",
       exec_sandbox_run, true},
      {"check_environment",
       "Report the Python version, platform, sandbox and limits.", no_args,
       false},
      {"validate_script",
       "Validate a script (its PEP 723 metadata, dependencies and the "
       "sandbox rules) without running it.",
       exec_sandbox_validate, false, true}}},
    {"code-sandbox-mcp",
     {{"run_python_code",
       "Execute Python code in the sandbox environment and capture the "
       "standard output and error.",
       code_sandbox_run, true}}},
    {"bentorun",
     {{"execute_python",
       "Execute Python code in a secure, isolated environment. Any files "
       "must be written to the `output` sub-directory to be returned. "
       "Returns a JSON text with stdout and stderr, then the files.",
       bentorun_run, true}}},
};

static const struct compat_set *
set_of(enum pw_compat mode)
{
    return mode > PW_COMPAT_NONE && (size_t)mode <= PW_N_ELEMENTS(sets)
               ? &sets[mode - 1]
               : NULL;
}

int
pw_compat_parse(const char *name, enum pw_compat *mode)
{
    *mode = PW_COMPAT_NONE;
    for (size_t i = 0; name != NULL && i < PW_N_ELEMENTS(sets); i++) {
        if (strcmp(sets[i].name, name) == 0) {
            *mode = (enum pw_compat)(i + 1);
        }
    }
    return name == NULL || *mode != PW_COMPAT_NONE ? 0 : -1;
}

const char *
pw_compat_names(void)
{
    return "mcp-python-exec-sandbox, code-sandbox-mcp, bentorun";
}

static const struct compat_tool *
tool_of(enum pw_compat mode, const char *name)
{
    const struct compat_set *s = set_of(mode);
    for (size_t i = 0; s != NULL && i < PW_N_ELEMENTS(s->tools); i++) {
        if (s->tools[i].name != NULL && strcmp(s->tools[i].name, name) == 0) {
            return &s->tools[i];
        }
    }
    return NULL;
}

bool
pw_compat_exists(enum pw_compat mode, const char *name)
{
    return tool_of(mode, name) != NULL;
}

bool
pw_compat_runs(enum pw_compat mode, const char *name)
{
    const struct compat_tool *t = tool_of(mode, name);
    return t != NULL && t->runs;
}

bool
pw_compat_validates(enum pw_compat mode, const char *name)
{
    const struct compat_tool *t = tool_of(mode, name);
    return t != NULL && t->validates;
}

json_t *
pw_compat_tools_json(enum pw_compat mode)
{
    const struct compat_set *s = set_of(mode);
    json_auto_t *tools = json_array();
    for (size_t i = 0; s != NULL && i < PW_N_ELEMENTS(s->tools); i++) {
        const struct compat_tool *t = &s->tools[i];
        if (t->name == NULL) {
            break;
        }
        json_t *in = json_loads(t->input, 0, NULL);
        if (in == NULL ||
            json_array_append_new(tools,
                                  json_pack("{s:s,s:s,s:o}", "name", t->name,
                                            "description", t->description,
                                            "inputSchema", in)) < 0) {
            return NULL;
        }
    }
    return pw_steal(&tools);
}

/* ---- arguments -------------------------------------------------------- */

/* Copy ARGS[FROM] (if set) to OUT[TO]. */
static int
rename_arg(json_t *out, json_t *args, const char *from, const char *to)
{
    json_t *v = json_object_get(args, from); /* borrowed */
    return v == NULL ? 0 : json_object_set(out, to, v);
}

/* ARGS keys other than the NULL-terminated KNOWN: an error. */
static int
unknown_args(json_t *args, const char *const *known, struct pw_error *err)
{
    const char *key;
    json_t *v; /* borrowed */
    json_object_foreach(args, key, v) {
        bool ok = false;
        for (size_t i = 0; known[i] != NULL && !ok; i++) {
            ok = strcmp(known[i], key) == 0;
        }
        if (!ok) {
            return pw_fail(err, PW_ERR_USAGE, "unknown argument '%s'", key);
        }
    }
    return 0;
}

/* mcp-python-exec-sandbox clamps its timeout to 1..the maximum. */
static int
clamp_timeout(json_t *out, json_t *args, double max, struct pw_error *err)
{
    json_t *v = json_object_get(args, "timeout_seconds"); /* borrowed */
    if (v == NULL) {
        return 0;
    }
    if (!json_is_number(v)) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'timeout_seconds' must be a number of seconds");
    }
    double d = json_number_value(v);
    d = d < 1 ? 1 : d > max ? max : d;
    return json_object_set_new(out, "timeout", json_real(d));
}

json_t *
pw_compat_args(enum pw_compat mode, const char *tool, json_t *args,
               double max_timeout, struct pw_error *err)
{
    static const char *const exec_sandbox[] = {"script", "dependencies",
                                               "timeout_seconds", NULL};
    static const char *const code_sandbox[] = {"code", NULL};
    static const char *const bentorun[] = {"code", "packages", "env_variables",
                                           NULL};
    json_auto_t *out = json_object();
    int rc = 0;
    (void)tool;
    switch (mode) {
    case PW_COMPAT_EXEC_SANDBOX:
        rc = unknown_args(args, exec_sandbox, err) < 0 ||
             rename_arg(out, args, "script", "code") < 0 ||
             rename_arg(out, args, "dependencies", "dependencies") < 0 ||
             clamp_timeout(out, args, max_timeout, err) < 0;
        break;
    case PW_COMPAT_CODE_SANDBOX:
        rc = unknown_args(args, code_sandbox, err) < 0 ||
             rename_arg(out, args, "code", "code") < 0;
        break;
    case PW_COMPAT_BENTORUN: {
        json_t *env = json_object_get(args, "env_variables"); /* borrowed */
        if (env != NULL && (!json_is_object(env) || json_object_size(env))) {
            pw_fail(err, PW_ERR_USAGE,
                    "'env_variables': pyward passes no environment "
                    "variables to a program (its environment is scrubbed); "
                    "put the values in the code, or leave it out");
            return NULL;
        }
        rc = unknown_args(args, bentorun, err) < 0 ||
             rename_arg(out, args, "code", "code") < 0 ||
             rename_arg(out, args, "packages", "dependencies") < 0;
        break;
    }
    case PW_COMPAT_NONE:
        break;
    }
    if (rc != 0) {
        if (err->message[0] == '\0') {
            pw_fail(err, PW_ERR_INTERNAL, "could not translate the arguments");
        }
        return NULL;
    }
    return pw_steal(&out);
}

/* ---- results ---------------------------------------------------------- */

/* Into B: the program's stderr, then, for a run that failed, why (the
 * traceback, the validation errors or the sandbox's message). */
static void
failure_text(json_t *sc, struct pw_buf *b)
{
    const char *err = json_string_value(json_object_get(sc, "stderr"));
    const char *tb = json_string_value(json_object_get(sc, "traceback"));
    const char *msg = json_string_value(json_object_get(sc, "error"));
    json_t *problems = json_object_get(json_object_get(sc, "validation"),
                                       "errors"); /* borrowed */
    pw_buf_printf(b, "%s", err != NULL ? err : "");
    if (b->len > 0 && b->data[b->len - 1] != '\n' &&
        (problems != NULL || tb != NULL || msg != NULL)) {
        pw_buf_printf(b, "\n");
    }
    if (json_array_size(problems) > 0) {
        size_t i;
        json_t *p; /* borrowed */
        json_array_foreach(problems, i, p) {
            pw_buf_printf(b, "%s\n", json_string_value(p));
        }
    } else if (tb != NULL && *tb != '\0') {
        pw_buf_printf(b, "%s", tb);
    } else if (msg != NULL) {
        pw_buf_printf(b, "%s\n", msg);
    }
}

/* The exit code a subprocess runner reports: the status, or minus the
 * signal, or -1 (never started). */
static long long
exit_code(json_t *sc)
{
    json_t *code = json_object_get(sc, "exit_code"); /* borrowed */
    json_t *sig = json_object_get(sc, "signal");     /* borrowed */
    if (json_is_integer(code)) {
        return json_integer_value(code);
    }
    return json_is_integer(sig) ? -json_integer_value(sig) : -1;
}

static json_t *
text_result(const char *text)
{
    return json_pack("{s:[{s:s,s:s}],s:b}", "content", "type", "text", "text",
                     text, "isError", 0);
}

/* A text result of TEXT (taken: a string, or a joined text's
 * placeholder). */
static json_t *
text_result_json(json_t *text)
{
    return text != NULL ? json_pack("{s:[{s:s,s:o}],s:b}", "content", "type",
                                    "text", "text", text, "isError", 0)
                        : NULL;
}

/* Append the literal S to J. */
static void
joined_lit(struct pw_joined *j, const char *s)
{
    pw_joined_text(j, s, strlen(s));
}

/* The JSON text of S (ensure_ascii, quoted) into J: a view of S when it
 * is long, else its dump. */
static void
joined_string(struct pw_joined *j, json_t *s, size_t n)
{
    if (n >= PW_REPLY_LONG_STRING) {
        joined_lit(j, "\"");
        pw_joined_view(j, s, 0, n, PW_JOINED_ASCII);
        joined_lit(j, "\"");
        return;
    }
    json_auto_t *cut = json_stringn_nocheck(json_string_value(s), n);
    PW_AUTOFREE char *text =
        json_dumps(cut, JSON_ENCODE_ANY | JSON_ENSURE_ASCII);
    pw_joined_text(j, text, strlen(text));
}

/* mcp-python-exec-sandbox's layout: "--- stdout ---" sections. */
static json_t *
exec_sandbox_result(json_t *sc)
{
    const char *out = json_string_value(json_object_get(sc, "stdout"));
    const char *status = json_string_value(json_object_get(sc, "status"));
    bool ok = json_is_true(json_object_get(sc, "success"));
    struct pw_buf err;
    struct pw_buf b;
    pw_buf_init(&err);
    pw_buf_init(&b);
    if (ok) {
        const char *e = json_string_value(json_object_get(sc, "stderr"));
        pw_buf_printf(&err, "%s", e != NULL ? e : "");
    } else {
        failure_text(sc, &err);
    }
    size_t n = out != NULL ? strlen(out) : 0;
    struct pw_joined *j = NULL;
    if (n >= PW_REPLY_LONG_STRING) {
        /* Kept as parts: the stdout a view, the rest text. */
        j = pw_joined_new();
        joined_lit(j, "--- stdout ---\n");
        pw_joined_view(j, json_object_get(sc, "stdout"), 0, n, PW_JOINED_RAW);
        pw_buf_printf(&b, "\n");
    } else if (n > 0) {
        pw_buf_printf(&b, "--- stdout ---\n%s\n", out);
    }
    if (err.len > 0) {
        pw_buf_printf(&b, "--- stderr ---\n%s\n", err.data);
    }
    pw_buf_printf(
        &b, "--- exit_code: %lld ---\n--- duration_ms: %lld ---",
        exit_code(sc),
        (long long)(json_number_value(json_object_get(sc, "execution_time")) *
                    1000));
    if (status != NULL && strcmp(status, "timeout") == 0) {
        pw_buf_printf(&b, "\n--- timed_out: true ---");
    }
    json_t *r = NULL;
    if (j != NULL) {
        pw_joined_text(j, b.data, b.len);
        r = text_result_json(json_incref(pw_joined_token(j)));
    } else {
        r = text_result(b.data);
    }
    pw_buf_free(&err);
    pw_buf_free(&b);
    return r;
}

/* code-sandbox-mcp's layout: the stripped stdout, or llm-sandbox's
 * ExecutionResult JSON for a failure or no output. */
static json_t *
code_sandbox_result(json_t *sc)
{
    const char *out = json_string_value(json_object_get(sc, "stdout"));
    size_t n = out != NULL ? strlen(out) : 0;
    size_t start = 0;
    while (start < n && strchr(" \t\r\n", out[start]) != NULL) {
        start++;
    }
    while (n > start && strchr(" \t\r\n", out[n - 1]) != NULL) {
        n--;
    }
    struct pw_buf err;
    pw_buf_init(&err);
    bool ok = json_is_true(json_object_get(sc, "success"));
    if (ok && n > start && n - start >= PW_REPLY_LONG_STRING) {
        json_t *so = json_object_get(sc, "stdout"); /* borrowed */
        if (start == 0 && n == json_string_length(so)) {
            return text_result_json(json_incref(so));
        }
        struct pw_joined *j = pw_joined_new();
        pw_joined_view(j, so, start, n - start, PW_JOINED_RAW);
        return text_result_json(json_incref(pw_joined_token(j)));
    }
    if (ok && n > start) {
        PW_AUTOFREE char *text = pw_xstrndup(out + start, n - start);
        return text_result(text);
    }
    if (ok) {
        pw_buf_printf(&err, "No output, forgot print()?");
    } else {
        failure_text(sc, &err);
        while (err.len > 0 && strchr(" \t\r\n", err.data[err.len - 1])) {
            err.data[--err.len] = '\0';
        }
    }
    if (err.len >= PW_REPLY_LONG_STRING) {
        /* Kept as parts, escaped as the reply is sent. */
        struct pw_joined *j = pw_joined_new();
        json_auto_t *e = json_stringn_nocheck(err.data, err.len);
        pw_buf_free(&err);
        joined_lit(j, "{\n  \"exit_code\": 1,\n  \"stderr\": ");
        joined_string(j, e, json_string_length(e));
        joined_lit(j, ",\n  \"stdout\": \"\"\n}");
        return text_result_json(json_incref(pw_joined_token(j)));
    }
    json_auto_t *obj =
        json_pack("{s:i,s:s,s:s}", "exit_code", 1, "stderr",
                  err.data != NULL ? err.data : "", "stdout", "");
    pw_buf_free(&err);
    PW_AUTOFREE char *text =
        obj != NULL ? json_dumps(obj, JSON_INDENT(2) | JSON_PRESERVE_ORDER |
                                          JSON_ENSURE_ASCII)
                    : NULL;
    return text != NULL ? text_result(text) : NULL;
}

/* BentoRun's layout: {"stdout", "stderr"} as JSON text, then the files
 * (pyward's image and resource items, as they are). */
static json_t *
bentorun_result(json_t *sc, json_t *content)
{
    const char *out = json_string_value(json_object_get(sc, "stdout"));
    struct pw_buf err;
    pw_buf_init(&err);
    if (json_is_true(json_object_get(sc, "success"))) {
        const char *e = json_string_value(json_object_get(sc, "stderr"));
        pw_buf_printf(&err, "%s", e != NULL ? e : "");
    } else {
        failure_text(sc, &err);
    }
    /* BentoRun joins the lines it read: no final newline. */
    size_t n = out != NULL ? strlen(out) : 0;
    n -= n > 0 && out[n - 1] == '\n';
    while (err.len > 0 && err.data[err.len - 1] == '\n') {
        err.data[--err.len] = '\0';
    }
    json_t *r = NULL;
    if (n >= PW_REPLY_LONG_STRING || err.len >= PW_REPLY_LONG_STRING) {
        /* Kept as parts, escaped as the reply is sent. */
        struct pw_joined *j = pw_joined_new();
        json_auto_t *e =
            json_stringn_nocheck(err.data != NULL ? err.data : "", err.len);
        joined_lit(j, "{\"stdout\": ");
        joined_string(j, json_object_get(sc, "stdout"), n);
        joined_lit(j, ", \"stderr\": ");
        joined_string(j, e, err.len);
        joined_lit(j, "}");
        r = text_result_json(json_incref(pw_joined_token(j)));
    } else {
        json_auto_t *obj =
            json_pack("{s:s%,s:s}", "stdout", out != NULL ? out : "", n,
                      "stderr", err.data != NULL ? err.data : "");
        PW_AUTOFREE char *text =
            obj != NULL
                ? json_dumps(obj, JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII)
                : NULL; /* ", " and ": " between items, as json.dumps */
        r = text != NULL ? text_result(text) : NULL;
    }
    pw_buf_free(&err);
    size_t i;
    json_t *item; /* borrowed */
    json_array_foreach(content, i, item) {
        if (i > 0 && r != NULL) {
            json_array_append(json_object_get(r, "content"), item);
        }
    }
    return r;
}

json_t *
pw_compat_result(enum pw_compat mode, json_t *result)
{
    json_t *sc = json_object_get(result, "structuredContent"); /* borrowed */
    json_t *out = NULL;
    if (!json_is_object(sc)) {
        return result; /* an argument error: already text */
    }
    switch (mode) {
    case PW_COMPAT_EXEC_SANDBOX:
        out = exec_sandbox_result(sc);
        break;
    case PW_COMPAT_CODE_SANDBOX:
        out = code_sandbox_result(sc);
        break;
    case PW_COMPAT_BENTORUN:
        out = bentorun_result(sc, json_object_get(result, "content"));
        break;
    case PW_COMPAT_NONE:
        return result;
    }
    json_decref(result);
    return out;
}

/* ---- mcp-python-exec-sandbox's other tools ------------------------------ */

json_t *
pw_compat_environment(const json_t *info)
{
    struct utsname u;
    const json_t *limits = json_object_get(info, "limits");
    const json_t *timeout = json_object_get(limits, "timeout");
    const json_t *cm = json_object_get(info, "container_mode");
    struct pw_buf b;
    pw_buf_init(&b);
    if (uname(&u) < 0) {
        snprintf(u.sysname, sizeof(u.sysname), "unknown");
        u.machine[0] = '\0';
    }
    pw_buf_printf(
        &b,
        "Python version: %s\nuv: none (pyward installs nothing: a dependency "
        "names the profile that provides it)\nPlatform: %s %s\nSandbox "
        "backend: pyward %s\nSandbox status: %s\nDefault timeout: %gs\nMax "
        "timeout: %gs\nMax output: %lld bytes\nCache warming: disabled",
        json_string_value(json_object_get(info, "python_version")), u.sysname,
        u.machine, json_string_value(json_object_get(info, "version")),
        !json_is_true(json_object_get(info, "sandbox_available"))
            ? "unavailable"
        : json_is_true(json_object_get(cm, "available"))
            ? "namespaces, seccomp, rlimits, landlock (per run)"
            : "seccomp and rlimits (no namespaces on this host)",
        json_number_value(json_object_get(timeout, "default")),
        json_number_value(json_object_get(timeout, "max")),
        (long long)json_integer_value(
            json_object_get(limits, "max_output_bytes")));
    json_t *r = text_result(b.data);
    pw_buf_free(&b);
    return r;
}

json_t *
pw_compat_validation(json_t *result, json_t *meta, json_t *deps)
{
    json_t *sc = json_object_get(result, "structuredContent"); /* borrowed */
    json_t *v = json_object_get(sc, "validation");             /* borrowed */
    struct pw_buf b;
    pw_buf_init(&b);
    if (!json_is_object(v)) {
        return result; /* an argument error: already text */
    }
    if (json_is_true(json_object_get(v, "valid"))) {
        json_t *all = json_object_get(meta, "dependencies"); /* borrowed */
        const char *py =
            json_string_value(json_object_get(meta, "requires-python"));
        size_t n = json_array_size(all) + json_array_size(deps);
        pw_buf_printf(&b, "VALID");
        if (py != NULL) {
            pw_buf_printf(&b, "\nrequires-python: %s", py);
        }
        if (n == 0) {
            pw_buf_printf(&b, "\ndependencies: none");
        } else {
            pw_buf_printf(&b, "\ndependencies (%zu):", n);
        }
        json_t *lists[] = {all, deps};
        for (size_t l = 0; l < PW_N_ELEMENTS(lists); l++) {
            size_t i;
            json_t *d; /* borrowed */
            json_array_foreach(lists[l], i, d) {
                pw_buf_printf(&b, "\n  - %s", json_string_value(d));
            }
        }
    } else {
        pw_buf_printf(&b, "INVALID: ");
        size_t i;
        json_t *e; /* borrowed */
        json_array_foreach(json_object_get(v, "errors"), i, e) {
            pw_buf_printf(&b, "%s%s", i > 0 ? "; " : "", json_string_value(e));
        }
    }
    json_t *r = text_result(b.data);
    pw_buf_free(&b);
    json_decref(result);
    return r;
}
