/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_compat.c - `pyward serve --compat NAME` (src/server/compat.c) as
 * doc/MCP.md describes it: each set's tools, its argument names mapped
 * onto execute_code's (and every property of its schemas taken, every
 * other name refused), and its result layout for a run that succeeded,
 * raised, timed out, was killed, was rejected or never ran, built from
 * fixed execute_code results; check_environment and validate_script;
 * the same through the tools (src/server/tools.c) in each mode, where
 * argument errors are tool results with isError.  One TAP point a case.
 */
#include "config.h"

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>

#include "core/blob.h"
#include "core/reply.h"
#include "core/rules.h"
#include "core/util.h"
#include "server/compat.h"
#include "server/tools.h"

#define EXEC_SBX PW_COMPAT_EXEC_SANDBOX
#define CODE_SBX PW_COMPAT_CODE_SANDBOX
#define BENTO    PW_COMPAT_BENTORUN

/* New reference: TEXT parsed (any JSON value). */
static json_t *
parse(const char *text)
{
    json_error_t jerr;
    json_t *v = json_loads(text, JSON_DECODE_ANY, &jerr);
    ck_assert_msg(v != NULL, "%s: %s", text, jerr.text);
    return v;
}

/* The only text block of RESULT (borrowed): a text result, no
 * structuredContent. */
static const char *
only_text(json_t *result)
{
    ck_assert_ptr_nonnull(result);
    json_t *content = json_object_get(result, "content");
    ck_assert_uint_ge(json_array_size(content), 1);
    json_t *first = json_array_get(content, 0);
    ck_assert_str_eq(json_string_value(json_object_get(first, "type")),
                     "text");
    const char *text = json_string_value(json_object_get(first, "text"));
    ck_assert_ptr_nonnull(text);
    return text;
}

/* ---- names and tool sets -------------------------------------------- */

static const struct {
    const char *name;
    int mode; /* -1: refused */
} names[] = {
    {"mcp-python-exec-sandbox", EXEC_SBX},
    {"code-sandbox-mcp", CODE_SBX},
    {"bentorun", BENTO},
    {"", -1},
    {"BentoRun", -1},
    {"pyward", -1},
    {"mcp-python-exec-sandbox ", -1},
};

START_TEST(parse_names)
{
    enum pw_compat mode = BENTO;
    int rc = pw_compat_parse(names[_i].name, &mode);
    if (names[_i].mode < 0) {
        ck_assert_int_eq(rc, -1);
        ck_assert_int_eq(mode, PW_COMPAT_NONE);
    } else {
        ck_assert_int_eq(rc, 0);
        ck_assert_int_eq(mode, names[_i].mode);
        ck_assert_ptr_nonnull(strstr(pw_compat_names(), names[_i].name));
    }
}
END_TEST

START_TEST(parse_none)
{
    enum pw_compat mode = BENTO;
    ck_assert_int_eq(pw_compat_parse(NULL, &mode), 0);
    ck_assert_int_eq(mode, PW_COMPAT_NONE);
    ck_assert_str_eq(pw_compat_names(),
                     "mcp-python-exec-sandbox, code-sandbox-mcp, bentorun");
}
END_TEST

static const struct {
    enum pw_compat mode;
    const char *tools; /* names in order, space-separated */
    const char *runs;  /* those that run code */
} sets[] = {
    {PW_COMPAT_NONE, "", ""},
    {EXEC_SBX, "execute_python check_environment validate_script",
     "execute_python"},
    {CODE_SBX, "run_python_code", "run_python_code"},
    {BENTO, "execute_python", "execute_python"},
};

START_TEST(tool_sets)
{
    enum pw_compat mode = sets[_i].mode;
    json_t *list = pw_compat_tools_json(mode);
    ck_assert_ptr_nonnull(list);
    struct pw_buf b;
    pw_buf_init(&b);
    size_t i;
    json_t *tool; /* borrowed */
    json_array_foreach(list, i, tool) {
        const char *name = json_string_value(json_object_get(tool, "name"));
        ck_assert_ptr_nonnull(name);
        pw_buf_printf(&b, "%s%s", i > 0 ? " " : "", name);
        ck_assert(pw_compat_exists(mode, name));
        ck_assert(pw_compat_runs(mode, name) ==
                  (strstr(sets[_i].runs, name) != NULL));
        const char *desc =
            json_string_value(json_object_get(tool, "description"));
        ck_assert(desc != NULL && desc[0] != '\0');
        json_t *in = json_object_get(tool, "inputSchema");
        ck_assert_str_eq(json_string_value(json_object_get(in, "type")),
                         "object");
        ck_assert(json_is_object(json_object_get(in, "properties")));
    }
    ck_assert_str_eq(b.data != NULL ? b.data : "", sets[_i].tools);
    pw_buf_free(&b);
    ck_assert(!pw_compat_exists(mode, "execute_code"));
    ck_assert(!pw_compat_exists(mode, "get_sandbox_info"));
    ck_assert(!pw_compat_runs(mode, "check_environment"));
    ck_assert(!pw_compat_exists(mode, ""));
    json_decref(list);
}
END_TEST

/* ---- arguments ------------------------------------------------------ */

static const struct {
    enum pw_compat mode;
    const char *tool;
    const char *args;
    const char *want; /* execute_code's arguments, or NULL: refused */
    const char *says; /* the refusal */
} arg_cases[] = {
    {EXEC_SBX, "execute_python",
     "{\"script\":\"print(1)\",\"dependencies\":[\"numpy\"],"
     "\"timeout_seconds\":10}",
     "{\"code\":\"print(1)\",\"dependencies\":[\"numpy\"],\"timeout\":10.0}",
     NULL},
    {EXEC_SBX, "execute_python", "{\"script\":\"x\"}", "{\"code\":\"x\"}",
     NULL},
    {EXEC_SBX, "execute_python", "{}", "{}", NULL},
    /* The timeout clamped to 1..the maximum (300 here). */
    {EXEC_SBX, "execute_python", "{\"script\":\"x\",\"timeout_seconds\":0}",
     "{\"code\":\"x\",\"timeout\":1.0}", NULL},
    {EXEC_SBX, "execute_python", "{\"script\":\"x\",\"timeout_seconds\":-5}",
     "{\"code\":\"x\",\"timeout\":1.0}", NULL},
    {EXEC_SBX, "execute_python", "{\"script\":\"x\",\"timeout_seconds\":0.5}",
     "{\"code\":\"x\",\"timeout\":1.0}", NULL},
    {EXEC_SBX, "execute_python",
     "{\"script\":\"x\",\"timeout_seconds\":100000}",
     "{\"code\":\"x\",\"timeout\":300.0}", NULL},
    {EXEC_SBX, "execute_python", "{\"script\":\"x\",\"timeout_seconds\":300}",
     "{\"code\":\"x\",\"timeout\":300.0}", NULL},
    {EXEC_SBX, "execute_python", "{\"script\":\"x\",\"timeout_seconds\":2.5}",
     "{\"code\":\"x\",\"timeout\":2.5}", NULL},
    {EXEC_SBX, "execute_python",
     "{\"script\":\"x\",\"timeout_seconds\":\"10\"}", NULL,
     "'timeout_seconds' must be a number of seconds"},
    {EXEC_SBX, "execute_python", "{\"code\":\"x\"}", NULL,
     "unknown argument 'code'"},
    {EXEC_SBX, "execute_python", "{\"script\":\"x\",\"timeout\":5}", NULL,
     "unknown argument 'timeout'"},
    {EXEC_SBX, "validate_script",
     "{\"script\":\"x\",\"dependencies\":[\"pandas\"]}",
     "{\"code\":\"x\",\"dependencies\":[\"pandas\"]}", NULL},
    {CODE_SBX, "run_python_code", "{\"code\":\"x\"}", "{\"code\":\"x\"}",
     NULL},
    {CODE_SBX, "run_python_code", "{\"code\":\"x\",\"timeout\":5}", NULL,
     "unknown argument 'timeout'"},
    {CODE_SBX, "run_python_code", "{\"script\":\"x\"}", NULL,
     "unknown argument 'script'"},
    {BENTO, "execute_python", "{\"code\":\"x\",\"packages\":[\"numpy\"]}",
     "{\"code\":\"x\",\"dependencies\":[\"numpy\"]}", NULL},
    {BENTO, "execute_python", "{\"code\":\"x\",\"env_variables\":{}}",
     "{\"code\":\"x\"}", NULL},
    {BENTO, "execute_python",
     "{\"code\":\"x\",\"env_variables\":{\"KEY\":\"1\"}}", NULL,
     "'env_variables': pyward passes no environment variables to a program "
     "(its environment is scrubbed); put the values in the code, or leave "
     "it out"},
    {BENTO, "execute_python", "{\"code\":\"x\",\"env_variables\":\"K=1\"}",
     NULL, "'env_variables'"},
    {BENTO, "execute_python", "{\"code\":\"x\",\"dependencies\":[]}", NULL,
     "unknown argument 'dependencies'"},
    {BENTO, "execute_python", "{\"code\":\"x\",\"files\":[]}", NULL,
     "unknown argument 'files'"},
};

START_TEST(args_mapped)
{
    json_t *args = parse(arg_cases[_i].args);
    struct pw_error err = {0};
    json_t *out = pw_compat_args(arg_cases[_i].mode, arg_cases[_i].tool, args,
                                 300, &err);
    if (arg_cases[_i].want == NULL) {
        ck_assert_ptr_null(out);
        ck_assert_int_eq(err.code, PW_ERR_USAGE);
        ck_assert_msg(strstr(err.message, arg_cases[_i].says) != NULL,
                      "\"%s\" does not say \"%s\"", err.message,
                      arg_cases[_i].says);
    } else {
        ck_assert_msg(out != NULL, "%s", err.message);
        json_t *want = parse(arg_cases[_i].want);
        char *got = json_dumps(out, JSON_SORT_KEYS);
        ck_assert_msg(json_equal(out, want), "%s: got %s", arg_cases[_i].args,
                      got);
        free(got);
        json_decref(want);
    }
    json_decref(out);
    json_decref(args);
}
END_TEST

/* A value of each compat argument. */
static json_t *
sample(const char *name)
{
    if (strcmp(name, "timeout_seconds") == 0) {
        return json_integer(5);
    }
    if (strcmp(name, "dependencies") == 0 || strcmp(name, "packages") == 0) {
        return json_pack("[s]", "numpy");
    }
    if (strcmp(name, "env_variables") == 0) {
        return json_object();
    }
    return json_string("print(1)");
}

/* Each property of each set's schemas taken, an unknown name refused. */
START_TEST(schemas_taken)
{
    enum pw_compat mode = sets[_i].mode;
    json_t *list = pw_compat_tools_json(mode);
    size_t i;
    json_t *tool; /* borrowed */
    json_array_foreach(list, i, tool) {
        const char *name = json_string_value(json_object_get(tool, "name"));
        json_t *in = json_object_get(tool, "inputSchema");
        json_t *args = json_object();
        const char *key;
        json_t *p; /* borrowed */
        json_object_foreach(json_object_get(in, "properties"), key, p) {
            json_object_set_new(args, key, sample(key));
        }
        struct pw_error err = {0};
        json_t *out = pw_compat_args(mode, name, args, 300, &err);
        ck_assert_msg(out != NULL, "%s: %s", name, err.message);
        /* What the schema requires becomes execute_code's code. */
        json_t *req = json_object_get(in, "required");
        ck_assert_uint_eq(json_array_size(req) > 0,
                          json_object_get(out, "code") != NULL);
        json_decref(out);
        json_object_set_new(args, "no_such_argument", json_true());
        out = pw_compat_args(mode, name, args, 300, &err);
        ck_assert_msg(out == NULL, "%s took an unknown argument", name);
        ck_assert_str_eq(err.message, "unknown argument 'no_such_argument'");
        json_decref(out);
        json_decref(args);
    }
    json_decref(list);
}
END_TEST

/* ---- results -------------------------------------------------------- */

#define TRACEBACK                                                             \
    "Traceback (most recent call last):\n  File \"<user>\", line 1, in "      \
    "<module>\nZeroDivisionError: division by zero\n"

/* execute_code's structuredContent for each kind of run. */
static const struct {
    const char *name;
    const char *sc;
} runs[] = {
    {"ok", "{\"success\":true,\"execution_id\":\"exec-1\",\"status\":\"ok\","
           "\"stdout\":\"hello\\n\",\"stderr\":\"warn\\n\",\"exit_code\":0,"
           "\"signal\":null,\"execution_time\":0.25,\"error\":null}"},
    {"error",
     "{\"success\":false,\"status\":\"error\",\"stdout\":\"before\\n\","
     "\"stderr\":\"\",\"exit_code\":1,\"signal\":null,\"execution_time\":0.5,"
     "\"error\":\"ZeroDivisionError: division by zero\",\"traceback\":"
     "\"Traceback (most recent call last):\\n  File \\\"<user>\\\", line 1, "
     "in <module>\\nZeroDivisionError: division by zero\\n\"}"},
    {"timeout",
     "{\"success\":false,\"status\":\"timeout\",\"stdout\":\"partial\\n\","
     "\"stderr\":\"\",\"exit_code\":null,\"signal\":9,\"execution_time\":2.0,"
     "\"error\":\"SandboxError: time limit of 2 s exceeded\","
     "\"traceback\":\"\"}"},
    {"killed",
     "{\"success\":false,\"status\":\"killed\",\"stdout\":\"\",\"stderr\":"
     "\"warn\",\"exit_code\":null,\"signal\":31,\"execution_time\":0.125,"
     "\"error\":\"SandboxError: system call refused\",\"traceback\":\"\"}"},
    {"rejected",
     "{\"success\":false,\"status\":\"rejected\",\"stdout\":\"\",\"stderr\":"
     "\"\",\"exit_code\":null,\"signal\":null,\"execution_time\":0.0,"
     "\"error\":\"ValidationError: Code contains restricted operations\","
     "\"traceback\":\"\",\"validation\":{\"valid\":false,\"errors\":["
     "\"Line 1: import of 'os' is not allowed (PW001)\","
     "\"Line 2: eval is not allowed (PW003)\"]}}"},
    {"unrun",
     "{\"success\":false,\"status\":\"internal_error\",\"stdout\":\"\","
     "\"stderr\":\"\",\"exit_code\":null,\"signal\":null,"
     "\"execution_time\":0.0,\"error\":\"SandboxError: the sandbox is "
     "unavailable: x\",\"traceback\":\"\"}"},
    {"silent",
     "{\"success\":true,\"status\":\"ok\",\"stdout\":\"\",\"stderr\":\"\","
     "\"exit_code\":0,\"signal\":null,\"execution_time\":0.0,\"error\":null}"},
    {"blank",
     "{\"success\":true,\"status\":\"ok\",\"stdout\":\" \\n\\t\\n\","
     "\"stderr\":\"\",\"exit_code\":0,\"signal\":null,\"execution_time\":0.0,"
     "\"error\":null}"},
    {"padded",
     "{\"success\":true,\"status\":\"ok\",\"stdout\":\"  \\n hello "
     "world \\n\\n\",\"stderr\":\"\",\"exit_code\":0,\"signal\":null,"
     "\"execution_time\":0.0,\"error\":null}"},
    {"lines",
     "{\"success\":true,\"status\":\"ok\",\"stdout\":\"a\\n\\n\",\"stderr\":"
     "\"w\\n\\n\",\"exit_code\":0,\"signal\":null,\"execution_time\":0.0,"
     "\"error\":null}"},
    {"unicode",
     "{\"success\":false,\"status\":\"error\",\"stdout\":\"h\\u00e9llo\\n\","
     "\"stderr\":\"\",\"exit_code\":1,\"signal\":null,\"execution_time\":0.0,"
     "\"error\":\"ValueError: \\u00e9\",\"traceback\":\"ValueError: "
     "\\u00e9\\n\"}"},
};

/* New reference: a CallToolResult of execute_code with the run NAME. */
static json_t *
run_result(const char *name)
{
    for (size_t i = 0; i < PW_N_ELEMENTS(runs); i++) {
        if (strcmp(runs[i].name, name) == 0) {
            json_t *sc = parse(runs[i].sc);
            return json_pack("{s:[{s:s,s:s}],s:o,s:b}", "content", "type",
                             "text", "text", "pyward's own text",
                             "structuredContent", sc, "isError",
                             !json_is_true(json_object_get(sc, "success")));
        }
    }
    ck_abort_msg("no run %s", name);
    return NULL;
}

static const struct {
    enum pw_compat mode;
    const char *run;
    const char *text; /* the whole text */
} layouts[] = {
    /* mcp-python-exec-sandbox: sections; failures under stderr. */
    {EXEC_SBX, "ok",
     "--- stdout ---\nhello\n\n--- stderr ---\nwarn\n\n"
     "--- exit_code: 0 ---\n--- duration_ms: 250 ---"},
    {EXEC_SBX, "error",
     "--- stdout ---\nbefore\n\n--- stderr ---\n" TRACEBACK
     "\n--- exit_code: 1 ---\n--- duration_ms: 500 ---"},
    {EXEC_SBX, "timeout",
     "--- stdout ---\npartial\n\n--- stderr ---\nSandboxError: time limit "
     "of 2 s exceeded\n\n--- exit_code: -9 ---\n--- duration_ms: 2000 ---\n"
     "--- timed_out: true ---"},
    {EXEC_SBX, "killed",
     "--- stderr ---\nwarn\nSandboxError: system call refused\n\n"
     "--- exit_code: -31 ---\n--- duration_ms: 125 ---"},
    {EXEC_SBX, "rejected",
     "--- stderr ---\nLine 1: import of 'os' is not allowed (PW001)\n"
     "Line 2: eval is not allowed (PW003)\n\n--- exit_code: -1 ---\n"
     "--- duration_ms: 0 ---"},
    {EXEC_SBX, "unrun",
     "--- stderr ---\nSandboxError: the sandbox is unavailable: x\n\n"
     "--- exit_code: -1 ---\n--- duration_ms: 0 ---"},
    {EXEC_SBX, "silent", "--- exit_code: 0 ---\n--- duration_ms: 0 ---"},
    {EXEC_SBX, "unicode",
     "--- stdout ---\nh\xc3\xa9llo\n\n--- stderr ---\nValueError: "
     "\xc3\xa9\n\n--- exit_code: 1 ---\n--- duration_ms: 0 ---"},
    /* code-sandbox-mcp: the stdout stripped, else ExecutionResult. */
    {CODE_SBX, "ok", "hello"},
    {CODE_SBX, "padded", "hello world"},
    {CODE_SBX, "silent",
     "{\n  \"exit_code\": 1,\n  \"stderr\": \"No output, forgot print()?\","
     "\n  \"stdout\": \"\"\n}"},
    {CODE_SBX, "blank",
     "{\n  \"exit_code\": 1,\n  \"stderr\": \"No output, forgot print()?\","
     "\n  \"stdout\": \"\"\n}"},
    {CODE_SBX, "error",
     "{\n  \"exit_code\": 1,\n  \"stderr\": \"Traceback (most recent call "
     "last):\\n  File \\\"<user>\\\", line 1, in <module>\\n"
     "ZeroDivisionError: division by zero\",\n  \"stdout\": \"\"\n}"},
    {CODE_SBX, "timeout",
     "{\n  \"exit_code\": 1,\n  \"stderr\": \"SandboxError: time limit of 2 "
     "s exceeded\",\n  \"stdout\": \"\"\n}"},
    {CODE_SBX, "rejected",
     "{\n  \"exit_code\": 1,\n  \"stderr\": \"Line 1: import of 'os' is not "
     "allowed (PW001)\\nLine 2: eval is not allowed (PW003)\",\n"
     "  \"stdout\": \"\"\n}"},
    {CODE_SBX, "unicode",
     "{\n  \"exit_code\": 1,\n  \"stderr\": \"ValueError: \\u00E9\",\n"
     "  \"stdout\": \"\"\n}"},
    /* BentoRun: {"stdout", "stderr"}, one final newline less (non-ASCII
     * as \u escapes: jansson writes the hex upper-case). */
    {BENTO, "ok", "{\"stdout\": \"hello\", \"stderr\": \"warn\"}"},
    {BENTO, "silent", "{\"stdout\": \"\", \"stderr\": \"\"}"},
    {BENTO, "lines", "{\"stdout\": \"a\\n\", \"stderr\": \"w\"}"},
    {BENTO, "error",
     "{\"stdout\": \"before\", \"stderr\": \"Traceback (most recent call "
     "last):\\n  File \\\"<user>\\\", line 1, in <module>\\n"
     "ZeroDivisionError: division by zero\"}"},
    {BENTO, "timeout",
     "{\"stdout\": \"partial\", \"stderr\": \"SandboxError: time limit of "
     "2 s exceeded\"}"},
    {BENTO, "killed",
     "{\"stdout\": \"\", \"stderr\": \"warn\\nSandboxError: system call "
     "refused\"}"},
    {BENTO, "rejected",
     "{\"stdout\": \"\", \"stderr\": \"Line 1: import of 'os' is not "
     "allowed (PW001)\\nLine 2: eval is not allowed (PW003)\"}"},
    {BENTO, "unicode",
     "{\"stdout\": \"h\\u00E9llo\", \"stderr\": \"ValueError: \\u00E9\"}"},
};

START_TEST(result_layouts)
{
    json_t *in = run_result(layouts[_i].run);
    json_t *out = pw_compat_result(layouts[_i].mode, in);
    ck_assert_ptr_nonnull(out);
    ck_assert_uint_eq(json_array_size(json_object_get(out, "content")), 1);
    ck_assert_str_eq(only_text(out), layouts[_i].text);
    /* A text result, as those servers return it. */
    ck_assert_ptr_null(json_object_get(out, "structuredContent"));
    ck_assert(json_is_false(json_object_get(out, "isError")));
    json_decref(out);
}
END_TEST

/* pyward's own tool set, and an argument error (no structured content)
 * in any set: the result as it is. */
START_TEST(results_kept)
{
    static const enum pw_compat modes[] = {PW_COMPAT_NONE, EXEC_SBX, CODE_SBX,
                                           BENTO};
    for (size_t i = 0; i < PW_N_ELEMENTS(modes); i++) {
        json_t *err = parse("{\"content\":[{\"type\":\"text\",\"text\":"
                            "\"execute_python: invalid arguments: x\"}],"
                            "\"isError\":true}");
        json_t *copy = json_deep_copy(err);
        json_t *out = pw_compat_result(modes[i], err);
        ck_assert_ptr_eq(out, err);
        ck_assert(json_equal(out, copy));
        json_decref(out);
        json_decref(copy);
    }
    json_t *own = run_result("ok");
    ck_assert_ptr_eq(pw_compat_result(PW_COMPAT_NONE, own), own);
    json_decref(own);
}
END_TEST

/* BentoRun: the files follow the text, as pyward's items. */
START_TEST(bentorun_files)
{
    json_t *in = run_result("ok");
    json_t *image = parse("{\"type\":\"image\",\"data\":\"iVBORw0KGgo=\","
                          "\"mimeType\":\"image/png\"}");
    json_t *res = parse("{\"type\":\"resource\",\"resource\":{\"uri\":"
                        "\"pyward://runs/exec-1/output/a.csv\",\"mimeType\":"
                        "\"text/csv\",\"blob\":\"YSxi\"}}");
    json_array_append(json_object_get(in, "content"), image);
    json_array_append(json_object_get(in, "content"), res);
    json_t *out = pw_compat_result(BENTO, in);
    json_t *content = json_object_get(out, "content");
    ck_assert_uint_eq(json_array_size(content), 3);
    ck_assert_str_eq(only_text(out),
                     "{\"stdout\": \"hello\", \"stderr\": \"warn\"}");
    ck_assert(json_equal(json_array_get(content, 1), image));
    ck_assert(json_equal(json_array_get(content, 2), res));
    json_decref(out);
    json_decref(image);
    json_decref(res);
    /* The other sets return the text alone. */
    in = run_result("ok");
    json_array_append_new(json_object_get(in, "content"),
                          parse("{\"type\":\"image\",\"data\":\"AA==\","
                                "\"mimeType\":\"image/png\"}"));
    out = pw_compat_result(EXEC_SBX, in);
    ck_assert_uint_eq(json_array_size(json_object_get(out, "content")), 1);
    json_decref(out);
}
END_TEST

/* ---- check_environment, validate_script ---------------------------- */

static const struct {
    const char *info;
    const char *says[4];
} environments[] = {
    {"{\"python_version\":\"3.11.2\",\"version\":\"9.9\","
     "\"sandbox_available\":true,\"container_mode\":{\"available\":true},"
     "\"limits\":{\"timeout\":{\"default\":30,\"max\":300},"
     "\"max_output_bytes\":1048576}}",
     {"Python version: 3.11.2\n", "Sandbox backend: pyward 9.9\n",
      "Sandbox status: namespaces, seccomp, rlimits, landlock (per run)\n",
      "Default timeout: 30s\nMax timeout: 300s\nMax output: 1048576 "
      "bytes\nCache warming: disabled"}},
    {"{\"python_version\":\"3.11.2\",\"version\":\"9.9\","
     "\"sandbox_available\":true,\"container_mode\":{\"available\":false},"
     "\"limits\":{\"timeout\":{\"default\":2.5,\"max\":10},"
     "\"max_output_bytes\":64}}",
     {"Sandbox status: seccomp and rlimits (no namespaces on this host)\n",
      "Default timeout: 2.5s\n", "Max timeout: 10s\n",
      "Max output: 64 bytes\n"}},
    {"{\"python_version\":\"3.11.2\",\"version\":\"9.9\","
     "\"sandbox_available\":false,\"container_mode\":{\"available\":true},"
     "\"limits\":{\"timeout\":{\"default\":30,\"max\":300},"
     "\"max_output_bytes\":1}}",
     {"Sandbox status: unavailable\n", "uv: none",
      "Platform: ", "Python version: 3.11.2"}},
};

/* ---- long outputs: text blocks kept as parts ------------------------ */

/* Sizes across the reply's chunk (PW_BLOB_CHUNK) and the long strings'
 * threshold. */
static const size_t long_sizes[] = {
    PW_REPLY_LONG_STRING - 1,
    PW_REPLY_LONG_STRING,
    PW_REPLY_LONG_STRING + 5,
    PW_BLOB_CHUNK - 3,
    PW_BLOB_CHUNK + 1,
    3 * PW_BLOB_CHUNK + 7,
    1u << 20,
};

/* Owned: about N bytes of UTF-8 with every escape class, non-ASCII and
 * astral characters (cut on a character's bound). */
static char *
long_output(size_t n)
{
    static const char unit[] = "ab\"\\/\b\f\n\r\t\x01\x1f\x7f "
                               "\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80z";
    char *s = pw_xmalloc(n + 1);
    for (size_t i = 0; i <= n; i++) {
        s[i] = unit[i % (sizeof(unit) - 1)];
    }
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) {
        n--; /* not in a character's middle */
    }
    s[n] = '\0';
    return s;
}

/* The text block of OUT (borrowed) as a reply sends it, and as a
 * command expands it: both must be EXPECT.  JOINED: OUT holds a joined
 * text's placeholder, not the text. */
static void
check_sent(json_t *out, const char *expect, bool joined)
{
    ck_assert_int_eq(strncmp(only_text(out), "pwjoin-", 7) == 0, joined);
    struct pw_reply *r = pw_reply_new();
    ck_assert_int_eq(pw_reply_add_json(r, out, JSON_COMPACT, 0), 0);
    size_t size = pw_reply_size(r);
    char *text = pw_reply_flatten(r);
    ck_assert_uint_eq(strlen(text), size);
    json_t *sent = parse(text);
    ck_assert_str_eq(only_text(sent), expect);
    json_decref(sent);
    free(text);
    ck_assert_int_eq(pw_blob_expand(json_object_get(out, "content")), 0);
    ck_assert_str_eq(only_text(out), expect);
}

START_TEST(long_bentorun)
{
    PW_AUTOFREE char *o = long_output(long_sizes[_i]);
    /* A long stdout (a run that succeeded, one that failed), then a
     * long stderr. */
    for (int v = 0; v < 3; v++) {
        const char *out = v < 2 ? o : "short \u00e9\n";
        const char *err = v < 2 ? "w\u00e9\n" : o;
        json_t *in =
            json_pack("{s:[{s:s,s:s}],s:{s:b,s:s,s:s,s:s}}", "content", "type",
                      "text", "text", "x", "structuredContent", "success",
                      v != 1, "stdout", out, "stderr", err, "error", "boom");
        size_t n = strlen(out);
        n -= n > 0 && out[n - 1] == '\n';
        size_t en = strlen(err);
        while (en > 0 && err[en - 1] == '\n') {
            en--;
        }
        json_t *obj = v == 1 ? json_pack("{s:s%,s:s}", "stdout", out, n,
                                         "stderr", "w\u00e9\nboom")
                             : json_pack("{s:s%,s:s%}", "stdout", out, n,
                                         "stderr", err, en);
        PW_AUTOFREE char *expect =
            json_dumps(obj, JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
        json_decref(obj);
        json_t *result = pw_compat_result(BENTO, in);
        check_sent(result, expect,
                   n >= PW_REPLY_LONG_STRING ||
                       (v == 2 && en >= PW_REPLY_LONG_STRING));
        json_decref(result);
    }
}
END_TEST

START_TEST(long_code_sandbox)
{
    PW_AUTOFREE char *o = long_output(long_sizes[_i]);
    size_t n = strlen(o);
    for (int pad = 0; pad < 2; pad++) {
        struct pw_buf b;
        pw_buf_init(&b);
        pw_buf_printf(&b, pad ? " \n%s\n\t" : "%s", o);
        json_t *in =
            json_pack("{s:[{s:s,s:s}],s:{s:b,s:s,s:s}}", "content", "type",
                      "text", "text", "x", "structuredContent", "success", 1,
                      "stdout", b.data, "stderr", "");
        pw_buf_free(&b);
        size_t start = 0;
        size_t end = n;
        while (start < end && strchr(" \t\r\n", o[start]) != NULL) {
            start++;
        }
        while (end > start && strchr(" \t\r\n", o[end - 1]) != NULL) {
            end--;
        }
        PW_AUTOFREE char *expect = pw_xstrndup(o + start, end - start);
        json_t *out = pw_compat_result(CODE_SBX, in);
        check_sent(out, expect, pad && end - start >= PW_REPLY_LONG_STRING);
        json_decref(out);
    }
}
END_TEST

START_TEST(long_code_sandbox_failure)
{
    PW_AUTOFREE char *o = long_output(long_sizes[_i]);
    json_t *in =
        json_pack("{s:[{s:s,s:s}],s:{s:b,s:s,s:s,s:s}}", "content", "type",
                  "text", "text", "x", "structuredContent", "success", 0,
                  "stdout", "", "stderr", o, "error", "boom");
    size_t n = strlen(o);
    struct pw_buf err;
    pw_buf_init(&err);
    pw_buf_printf(&err, "%s%sboom", o, n > 0 && o[n - 1] == '\n' ? "" : "\n");
    bool joined = err.len >= PW_REPLY_LONG_STRING;
    json_t *obj = json_pack("{s:i,s:s,s:s}", "exit_code", 1, "stderr",
                            err.data, "stdout", "");
    pw_buf_free(&err);
    PW_AUTOFREE char *expect = json_dumps(
        obj, JSON_INDENT(2) | JSON_PRESERVE_ORDER | JSON_ENSURE_ASCII);
    json_decref(obj);
    json_t *out = pw_compat_result(CODE_SBX, in);
    check_sent(out, expect, joined);
    json_decref(out);
}
END_TEST

START_TEST(long_exec_sandbox)
{
    PW_AUTOFREE char *o = long_output(long_sizes[_i]);
    json_t *in = json_pack(
        "{s:[{s:s,s:s}],s:{s:b,s:s,s:s,s:i,s:f}}", "content", "type", "text",
        "text", "x", "structuredContent", "success", 1, "stdout", o, "stderr",
        "w\u00e9", "exit_code", 0, "execution_time", 0.25);
    struct pw_buf b;
    pw_buf_init(&b);
    pw_buf_printf(&b,
                  "--- stdout ---\n%s\n--- stderr ---\nw\u00e9\n--- "
                  "exit_code: 0 ---\n--- duration_ms: 250 ---",
                  o);
    json_t *out = pw_compat_result(EXEC_SBX, in);
    check_sent(out, b.data, strlen(o) >= PW_REPLY_LONG_STRING);
    json_decref(out);
    pw_buf_free(&b);
}
END_TEST

START_TEST(environment)
{
    json_t *info = parse(environments[_i].info);
    json_t *r = pw_compat_environment(info);
    const char *text = only_text(r);
    ck_assert(strncmp(text, "Python version: ", 16) == 0);
    for (size_t i = 0; i < PW_N_ELEMENTS(environments[_i].says); i++) {
        ck_assert_msg(strstr(text, environments[_i].says[i]) != NULL,
                      "\"%s\" does not say \"%s\"", text,
                      environments[_i].says[i]);
    }
    struct utsname u;
    ck_assert_int_eq(uname(&u), 0);
    char platform[160];
    snprintf(platform, sizeof(platform), "Platform: %s %s\n", u.sysname,
             u.machine);
    ck_assert_ptr_nonnull(strstr(text, platform));
    ck_assert(json_is_false(json_object_get(r, "isError")));
    json_decref(r);
    json_decref(info);
}
END_TEST

static const struct {
    const char *validation;
    const char *meta; /* or NULL */
    const char *deps; /* or NULL */
    const char *text;
} validations[] = {
    {"{\"valid\":true,\"errors\":[]}", NULL, NULL,
     "VALID\ndependencies: none"},
    {"{\"valid\":true,\"errors\":[]}",
     "{\"dependencies\":[\"numpy>=1.24\"],\"requires-python\":\">=3.10\"}",
     "[\"pandas\"]",
     "VALID\nrequires-python: >=3.10\ndependencies (2):\n  - numpy>=1.24\n"
     "  - pandas"},
    {"{\"valid\":true,\"errors\":[]}", "{\"dependencies\":[]}", "[]",
     "VALID\ndependencies: none"},
    {"{\"valid\":true,\"errors\":[]}", NULL, "[\"numpy\",\"scipy\"]",
     "VALID\ndependencies (2):\n  - numpy\n  - scipy"},
    {"{\"valid\":false,\"errors\":[\"Line 1: a (PW001)\","
     "\"Line 0: b (PW007)\"]}",
     NULL, NULL, "INVALID: Line 1: a (PW001); Line 0: b (PW007)"},
    {"{\"valid\":false,\"errors\":[\"Line 3: c (PW008)\"]}",
     "{\"dependencies\":[\"numpy\"]}", NULL, "INVALID: Line 3: c (PW008)"},
};

START_TEST(validation)
{
    json_t *result =
        json_pack("{s:[{s:s,s:s}],s:{s:o},s:b}", "content", "type", "text",
                  "text", "pyward's text", "structuredContent", "validation",
                  parse(validations[_i].validation), "isError", 0);
    json_t *meta =
        validations[_i].meta != NULL ? parse(validations[_i].meta) : NULL;
    json_t *deps =
        validations[_i].deps != NULL ? parse(validations[_i].deps) : NULL;
    json_t *r = pw_compat_validation(result, meta, deps);
    ck_assert_str_eq(only_text(r), validations[_i].text);
    ck_assert_ptr_null(json_object_get(r, "structuredContent"));
    json_decref(r);
    json_decref(meta);
    json_decref(deps);
}
END_TEST

START_TEST(validation_argument_error_kept)
{
    json_t *err = parse("{\"content\":[{\"type\":\"text\",\"text\":"
                        "\"validate_script: invalid arguments: x\"}],"
                        "\"isError\":true}");
    ck_assert_ptr_eq(pw_compat_validation(err, NULL, NULL), err);
    json_decref(err);
}
END_TEST

/* ---- through the tools, in each mode -------------------------------- */

static struct pw_conf cfg;
static struct pw_profiles *profiles;
static struct pw_tools tools;

/* Call TOOL of MODE with ARGS (JSON text): true if refused as an
 * argument error, its text in TEXT. */
static bool
tool_call(enum pw_compat mode, const char *tool, const char *args, char *text,
          size_t len)
{
    tools.compat = mode;
    ck_assert(pw_tools_exists(&tools, tool));
    json_t *v = parse(args);
    json_t *result = NULL;
    struct pw_error err = {0};
    if (pw_tools_runs_code(&tools, tool)) {
        ck_assert_ptr_null(pw_tools_exec_new(&tools, tool, v, &result, &err));
    } else if (pw_tools_call_sync(&tools, tool, v, &result, &err) < 0) {
        ck_assert_ptr_null(result);
    }
    json_decref(v);
    if (result == NULL) {
        ck_assert_int_ne(err.code, PW_ERR_USAGE);
        snprintf(text, len, "%s", err.message);
        return false;
    }
    snprintf(text, len, "%s", only_text(result));
    char prefix[64];
    snprintf(prefix, sizeof(prefix), "%s: invalid arguments: ", tool);
    bool refused = strncmp(text, prefix, strlen(prefix)) == 0;
    ck_assert(!refused || json_is_true(json_object_get(result, "isError")));
    json_decref(result);
    return refused;
}

static const struct {
    enum pw_compat mode;
    bool refused;
    const char *tool;
    const char *args;
    const char *says;
} calls[] = {
    {EXEC_SBX, false, "execute_python", "{\"script\":\"print(1)\"}",
     "the validator is unavailable"},
    /* Clamped, not refused as execute_code would refuse it. */
    {EXEC_SBX, false, "execute_python",
     "{\"script\":\"print(1)\",\"timeout_seconds\":100000}",
     "the validator is unavailable"},
    {EXEC_SBX, false, "execute_python",
     "{\"script\":\"print(1)\",\"timeout_seconds\":0}",
     "the validator is unavailable"},
    {EXEC_SBX, true, "execute_python", "{\"script\":\"x\",\"bogus\":1}",
     "execute_python: invalid arguments: unknown argument 'bogus'"},
    {EXEC_SBX, true, "execute_python",
     "{\"script\":\"x\",\"dependencies\":\"np\"}",
     "'dependencies' must be a list"},
    {EXEC_SBX, true, "execute_python", "{}", NULL},
    {EXEC_SBX, true, "execute_python", "{\"script\":5}", NULL},
    {EXEC_SBX, false, "validate_script", "{\"script\":\"print(1)\"}",
     "the validator is unavailable"},
    {EXEC_SBX, true, "validate_script", "{\"code\":\"x\"}",
     "unknown argument 'code'"},
    {EXEC_SBX, false, "check_environment", "{}", "Python version: "},
    {EXEC_SBX, true, "check_environment", "{\"verbose\":true}",
     "check_environment: invalid arguments: check_environment takes no "
     "arguments"},
    {CODE_SBX, false, "run_python_code", "{\"code\":\"print(1)\"}",
     "the validator is unavailable"},
    {CODE_SBX, true, "run_python_code", "{\"code\":1}",
     "'code' must be a string"},
    {CODE_SBX, true, "run_python_code", "{\"code\":\"x\",\"timeout\":5}",
     "unknown argument 'timeout'"},
    {BENTO, false, "execute_python",
     "{\"code\":\"print(1)\",\"packages\":[\"numpy\"],"
     "\"env_variables\":{}}",
     "the validator is unavailable"},
    {BENTO, true, "execute_python",
     "{\"code\":\"x\",\"env_variables\":{\"A\":\"1\"}}",
     "'env_variables': pyward passes no environment variables"},
    {BENTO, true, "execute_python", "{\"code\":\"x\",\"packages\":[7]}",
     "'dependencies' must be a list of strings"},
};

START_TEST(tool_calls)
{
    char text[1024];
    bool refused = tool_call(calls[_i].mode, calls[_i].tool, calls[_i].args,
                             text, sizeof(text));
    ck_assert_msg(refused == calls[_i].refused, "%s %s: %s", calls[_i].tool,
                  calls[_i].args, text);
    if (calls[_i].says != NULL) {
        ck_assert_msg(strstr(text, calls[_i].says) != NULL,
                      "\"%s\" does not say \"%s\"", text, calls[_i].says);
    }
}
END_TEST

/* tools/list in a mode is that set's, and pyward's tools are not there. */
START_TEST(tool_lists)
{
    tools.compat = sets[_i].mode;
    json_t *mine = pw_tools_list_json(&tools);
    json_t *theirs = pw_compat_tools_json(sets[_i].mode);
    if (sets[_i].mode == PW_COMPAT_NONE) {
        ck_assert_uint_eq(json_array_size(theirs), 0);
        ck_assert(pw_tools_exists(&tools, "execute_code"));
        ck_assert(pw_tools_runs_code(&tools, "execute_code"));
    } else {
        ck_assert(json_equal(mine, theirs));
        ck_assert(!pw_tools_exists(&tools, "execute_code"));
        ck_assert(!pw_tools_exists(&tools, "create_session"));
        ck_assert(!pw_tools_runs_code(&tools, "execute_code"));
    }
    json_decref(mine);
    json_decref(theirs);
}
END_TEST

static int
setup(void)
{
    struct pw_error err = {0};
    PW_AUTOFREE char *dir = pw_rules_dir(NULL);
    profiles = pw_profiles_load(dir, &err);
    if (profiles == NULL) {
        fprintf(stderr, "setup: %s\n", err.message);
        return -1;
    }
    cfg.timeout_s = 30;
    cfg.max_timeout_s = 300;
    cfg.memory = 256LL << 20;
    cfg.max_memory = 1LL << 30;
    cfg.max_output = 1 << 20;
    cfg.max_code = 4096;
    tools.cfg = &cfg;
    tools.profiles = profiles;
    tools.enabled = pw_profiles_default_mask(profiles);
    snprintf(tools.rules_error, sizeof(tools.rules_error), "none here");
    tools.rules_name = "default";
    snprintf(tools.zygote_error, sizeof(tools.zygote_error), "none here");
    tools.owner = "stdio";
    tools.info = json_loads(environments[0].info, 0, NULL);
    if (tools.info == NULL ||
        json_object_set_new(tools.info, "profiles", json_array()) < 0) {
        fprintf(stderr, "setup: the sandbox description\n");
        return -1;
    }
    return 0;
}

int
main(void)
{
    if (setup() < 0) {
        return EXIT_FAILURE;
    }
    Suite *s = suite_create("compat");
    TCase *tc = tcase_create("sets");
    tcase_add_loop_test(tc, parse_names, 0, (int)PW_N_ELEMENTS(names));
    tcase_add_test(tc, parse_none);
    tcase_add_loop_test(tc, tool_sets, 0, (int)PW_N_ELEMENTS(sets));
    tcase_add_loop_test(tc, args_mapped, 0, (int)PW_N_ELEMENTS(arg_cases));
    tcase_add_loop_test(tc, schemas_taken, 1, (int)PW_N_ELEMENTS(sets));
    suite_add_tcase(s, tc);
    TCase *rc = tcase_create("results");
    tcase_add_loop_test(rc, result_layouts, 0, (int)PW_N_ELEMENTS(layouts));
    tcase_add_test(rc, results_kept);
    tcase_add_test(rc, bentorun_files);
    tcase_add_loop_test(rc, environment, 0, (int)PW_N_ELEMENTS(environments));
    tcase_add_loop_test(rc, validation, 0, (int)PW_N_ELEMENTS(validations));
    tcase_add_test(rc, validation_argument_error_kept);
    tcase_add_loop_test(rc, long_bentorun, 0, (int)PW_N_ELEMENTS(long_sizes));
    tcase_add_loop_test(rc, long_code_sandbox, 0,
                        (int)PW_N_ELEMENTS(long_sizes));
    tcase_add_loop_test(rc, long_code_sandbox_failure, 0,
                        (int)PW_N_ELEMENTS(long_sizes));
    tcase_add_loop_test(rc, long_exec_sandbox, 0,
                        (int)PW_N_ELEMENTS(long_sizes));
    suite_add_tcase(s, rc);
    TCase *tt = tcase_create("tools");
    tcase_add_loop_test(tt, tool_calls, 0, (int)PW_N_ELEMENTS(calls));
    tcase_add_loop_test(tt, tool_lists, 0, (int)PW_N_ELEMENTS(sets));
    suite_add_tcase(s, tt);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    pw_tools_free(&tools);
    pw_profiles_free(profiles);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
