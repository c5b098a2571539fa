/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_args.c - the tools' arguments (src/server/tools.c,
 * session_tool.c) against doc/MCP.md and against the schemas tools/list
 * publishes (tools_schema.c, session_tool.c, tool_def.c): each argument
 * accepted, of the wrong type, out of range, unknown or missing; every
 * property of a schema accepted by its tool and every name outside it
 * refused, every required one required, each exclusiveMinimum and enum
 * the parser's own; grade_code's suite schema against the suite parser.
 *
 * No rules, no zygote: a call whose arguments pass stops at "the
 * validator is unavailable" (or the sandbox, or the session); a call
 * whose arguments do not is a tool result "TOOL: invalid arguments: WHY"
 * with isError and no structuredContent.  One TAP point a case.
 */
#include "config.h"

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/rules.h"
#include "core/util.h"
#include "grade/suite.h"
#include "server/sessions.h"
#include "server/tools.h"
#include "validator/script_meta.h"

static struct pw_conf cfg;
static struct pw_profiles *profiles;
static struct pw_sessions *sessions;
static struct pw_tools tools;

#define NO_RULES   "no rules in this test"
#define NO_SANDBOX "no sandbox in this test"

/* What became of one call. */
struct outcome {
    bool refused;    /* an argument error */
    char text[2048]; /* its WHY; else the result's text or the error */
};

/* The first text block of RESULT (borrowed), or "". */
static const char *
result_text(json_t *result)
{
    json_t *first = json_array_get(json_object_get(result, "content"), 0);
    const char *text = json_string_value(json_object_get(first, "text"));
    return text != NULL ? text : "";
}

/* Call TOOL with ARGS (borrowed, may be NULL). */
static struct outcome
call_json(const char *tool, json_t *args)
{
    struct outcome o = {0};
    struct pw_error err = {0};
    json_t *result = NULL;
    if (pw_tools_runs_code(&tools, tool)) {
        struct pw_exec *e =
            pw_tools_exec_new(&tools, tool, args, &result, &err);
        ck_assert_ptr_null(e); /* no rules: never ready to run */
    } else if (pw_tools_call_sync(&tools, tool, args, &result, &err) < 0) {
        ck_assert_ptr_null(result);
    }
    if (result == NULL) {
        /* Past the arguments: what this test does not have. */
        ck_assert_int_ne(err.code, PW_ERR_USAGE);
        snprintf(o.text, sizeof(o.text), "%s", err.message);
        return o;
    }
    char prefix[64];
    snprintf(prefix, sizeof(prefix), "%s: invalid arguments: ", tool);
    const char *text = result_text(result);
    o.refused = strncmp(text, prefix, strlen(prefix)) == 0;
    snprintf(o.text, sizeof(o.text), "%s",
             o.refused ? text + strlen(prefix) : text);
    if (o.refused) {
        ck_assert(json_is_true(json_object_get(result, "isError")));
        ck_assert_ptr_null(json_object_get(result, "structuredContent"));
        ck_assert_uint_eq(json_array_size(json_object_get(result, "content")),
                          1);
    }
    json_decref(result);
    return o;
}

/* Call TOOL with the arguments ARGS (JSON text, or NULL: none). */
static struct outcome
call(const char *tool, const char *args)
{
    json_error_t jerr;
    json_t *v = NULL;
    if (args != NULL) {
        v = json_loads(args, JSON_DECODE_ANY, &jerr);
        ck_assert_msg(v != NULL, "%s: %s", args, jerr.text);
    }
    struct outcome o = call_json(tool, v);
    json_decref(v);
    return o;
}

/* ---- case by case --------------------------------------------------- */

struct arg_case {
    const char *tool;
    const char *args; /* JSON text, or NULL: no arguments */
    bool refused;
    const char *says; /* a part of the message or result text, or NULL */
};

#define EXEC    "execute_code"
#define VALID   "validate_code"
#define GRADE   "grade_code"
#define INFO    "get_sandbox_info"
#define CREATE  "create_session"
#define CLOSE   "close_session"
#define FORK    "fork_session"
#define LIST    "list_sessions"
#define SUITE   "{\"tests\":[{\"expected_stdout\":\"1\\n\"}]}"
#define UNAVAIL "the validator is unavailable: " NO_RULES

static const struct arg_case cases[] = {
    /* execute_code: code */
    {EXEC, "{\"code\":\"print(1)\"}", false, UNAVAIL},
    {EXEC, "{\"code\":\"\"}", false, UNAVAIL},
    {EXEC, "{}", true, "missing required argument 'code'"},
    {EXEC, NULL, true, "missing required argument 'code'"},
    {EXEC, "[1]", true, "'arguments' must be an object"},
    {EXEC, "\"print(1)\"", true, "'arguments' must be an object"},
    {EXEC, "{\"code\":1}", true,
     "'code' must be a string of Python source, not a number"},
    {EXEC, "{\"code\":null}", true, "not null"},
    {EXEC, "{\"code\":[\"print(1)\"]}", true, "not a list"},
    {EXEC, "{\"code\":\"x\",\"bogus\":1}", true,
     "unknown argument 'bogus': the arguments are code, profile, "
     "allowed_imports, timeout, stdin, memory_limit, capture_output, "
     "session_id, files, use_container, dependencies"},
    {EXEC, "{\"code\":\"x\",\"tests\":{}}", true, "unknown argument 'tests'"},
    {EXEC, "{\"code\":\"x\",\"Timeout\":5}", true,
     "unknown argument 'Timeout'"},
    /* timeout: above 0, at most the maximum (300 here) */
    {EXEC, "{\"code\":\"x\",\"timeout\":10}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"timeout\":0.001}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"timeout\":300}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"timeout\":300.0}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"timeout\":300.5}", true,
     "'timeout' is 300.5 s: it must be above 0 and at most 300 s"},
    {EXEC, "{\"code\":\"x\",\"timeout\":0}", true,
     "'timeout' is 0 s: it must be above 0"},
    {EXEC, "{\"code\":\"x\",\"timeout\":-1}", true, "must be above 0"},
    {EXEC, "{\"code\":\"x\",\"timeout\":1e308}", true, "at most 300 s"},
    {EXEC, "{\"code\":\"x\",\"timeout\":\"10\"}", true,
     "'timeout' must be a number of seconds, not a string; leave it out "
     "for the default of 30 s"},
    {EXEC, "{\"code\":\"x\",\"timeout\":true}", true, "not a boolean"},
    {EXEC, "{\"code\":\"x\",\"timeout\":null}", true, "not null"},
    /* memory_limit: bytes or a size, at most the maximum (1g here) */
    {EXEC, "{\"code\":\"x\",\"memory_limit\":\"256m\"}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"memory_limit\":\"256M\"}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"memory_limit\":\"512k\"}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"memory_limit\":\"1g\"}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"memory_limit\":268435456}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"memory_limit\":\"1025m\"}", true,
     "'memory_limit' is 1074790400 bytes: this server allows at most "
     "1073741824 bytes (1024 MiB); leave it out for the default of 256 "
     "MiB"},
    {EXEC, "{\"code\":\"x\",\"memory_limit\":1073741825}", true,
     "'memory_limit' is 1073741825: a number of bytes must be a whole number "
     "above 0 and at most 1073741824 (1024 MiB), this server's maximum"},
    {EXEC, "{\"code\":\"x\",\"memory_limit\":0}", true,
     "'memory_limit' is 0: a number of bytes must be a whole number above 0"},
    {EXEC, "{\"code\":\"x\",\"memory_limit\":-5}", true,
     "'memory_limit' is -5: a number of bytes must be a whole number"},
    {EXEC, "{\"code\":\"x\",\"memory_limit\":1.5}", true,
     "'memory_limit' is 1.5: a number of bytes must be a whole number"},
    {EXEC, "{\"code\":\"x\",\"memory_limit\":\"lots\"}", true,
     "'memory_limit' \"lots\" is not a size: give a number of bytes, or a "
     "number followed by k, m or g (\"512k\", \"256m\", \"1g\")"},
    {EXEC, "{\"code\":\"x\",\"memory_limit\":\"\"}", true, "is not a size"},
    {EXEC, "{\"code\":\"x\",\"memory_limit\":\"12q\"}", true, "is not a size"},
    {EXEC, "{\"code\":\"x\",\"memory_limit\":\"-1m\"}", true, "is not a size"},
    {EXEC, "{\"code\":\"x\",\"memory_limit\":\"99999999999999999999\"}", true,
     "is not a size"},
    /* a whole number written as a real is that number of bytes */
    {EXEC, "{\"code\":\"x\",\"memory_limit\":1.5e8}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"memory_limit\":true}", true, "not a boolean"},
    /* stdin, capture_output, use_container */
    {EXEC, "{\"code\":\"x\",\"stdin\":\"1 2\\n\"}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"stdin\":5}", true,
     "'stdin' must be a string (the program's input), not a number"},
    {EXEC, "{\"code\":\"x\",\"capture_output\":false}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"capture_output\":\"false\"}", true,
     "'capture_output' must be true or false, not a string"},
    {EXEC, "{\"code\":\"x\",\"capture_output\":0}", true, "not a number"},
    {EXEC, "{\"code\":\"x\",\"use_container\":false}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"use_container\":1}", true,
     "'use_container' must be true or false, not a number"},
    /* use_container: true on a host without namespaces: not an argument
     * error, the run is refused (doc/MCP.md). */
    {EXEC, "{\"code\":\"x\",\"use_container\":true}", false,
     "execute_code: not run: use_container: true asks for container-grade "
     "isolation"},
    /* profile: among the enabled ones (basic here) */
    {EXEC, "{\"code\":\"x\",\"profile\":\"basic\"}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"profile\":[\"basic\"]}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"profile\":[\"basic\",\"basic\"]}", false,
     UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"profile\":[]}", true,
     "'profile' is an empty list"},
    {EXEC, "{\"code\":\"x\",\"profile\":\"bogus\"}", true,
     "unknown profile 'bogus': the profiles are basic, data_science, "
     "network, filesystem, jobe, and this server enabled basic"},
    {EXEC, "{\"code\":\"x\",\"profile\":\"data_science\"}", true,
     "profile 'data_science' is not enabled on this server, which enabled "
     "only basic"},
    {EXEC, "{\"code\":\"x\",\"profile\":\"data_science\"}", true,
     "SANDBOX_ENABLE_DATA_SCIENCE=1"},
    {EXEC, "{\"code\":\"x\",\"profile\":\"jobe\"}", true,
     "(pyward serve --profiles basic,jobe)"},
    {EXEC, "{\"code\":\"x\",\"profile\":\"Basic\"}", true,
     "unknown profile 'Basic'"},
    {EXEC, "{\"code\":\"x\",\"profile\":[\"basic\",\"network\"]}", true,
     "profile 'network' is not enabled"},
    {EXEC, "{\"code\":\"x\",\"profile\":3}", true,
     "'profile' must be a profile name or a list of names, not a number"},
    {EXEC, "{\"code\":\"x\",\"profile\":[\"basic\",3]}", true,
     "'profile' must be a profile name or a list of names, not a number"},
    /* allowed_imports, dependencies */
    {EXEC, "{\"code\":\"x\",\"allowed_imports\":[\"math\"]}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"allowed_imports\":[]}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"allowed_imports\":\"math\"}", true,
     "'allowed_imports' must be a list of module names such as "
     "[\"math\"], not a string"},
    {EXEC, "{\"code\":\"x\",\"allowed_imports\":[\"math\",\"\"]}", true,
     "'allowed_imports' must be a list of module names: item 1 is an "
     "empty string"},
    {EXEC, "{\"code\":\"x\",\"allowed_imports\":[1]}", true,
     "item 0 is a number"},
    {EXEC, "{\"code\":\"x\",\"dependencies\":[\"numpy>=1.24\"]}", false,
     UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"dependencies\":[]}", false, UNAVAIL},
    {EXEC, "{\"code\":\"x\",\"dependencies\":\"numpy\"}", true,
     "'dependencies' must be a list of PEP 508 requirements such as "
     "[\"numpy>=1.24\"], not a string"},
    {EXEC, "{\"code\":\"x\",\"dependencies\":[null]}", true,
     "'dependencies' must be a list of strings: item 0 is null"},
    /* session_id: the session fixes profile, imports and memory; stdin
     * is each call's */
    {EXEC, "{\"code\":\"x\",\"session_id\":\"ps-unit-0\"}", false,
     "unknown session"},
    {EXEC, "{\"code\":\"x\",\"session_id\":\"ps-unit-0\",\"timeout\":5}",
     false, "unknown session"},
    {EXEC, "{\"code\":\"x\",\"session_id\":5}", true,
     "'session_id' must be the string create_session returned"},
    {EXEC, "{\"code\":\"x\",\"session_id\":\"s\",\"stdin\":\"1\\n\"}", false,
     "unknown session"},
    {EXEC, "{\"code\":\"x\",\"session_id\":\"s\",\"profile\":\"basic\"}", true,
     "'profile' cannot be given with 'session_id'"},
    {EXEC, "{\"code\":\"x\",\"session_id\":\"s\",\"memory_limit\":\"1m\"}",
     true, "'memory_limit' cannot be given with 'session_id'"},
    {EXEC, "{\"code\":\"x\",\"session_id\":\"s\",\"allowed_imports\":[]}",
     true, "'allowed_imports' cannot be given with 'session_id'"},

    /* validate_code */
    {VALID, "{\"code\":\"x\"}", false, UNAVAIL},
    {VALID, "{}", true, "missing required argument 'code'"},
    {VALID, "{\"code\":\"x\",\"timeout\":5}", true,
     "unknown argument 'timeout': the arguments are code, profile, "
     "allowed_imports, dependencies"},
    {VALID, "{\"code\":\"x\",\"stdin\":\"\"}", true,
     "unknown argument 'stdin'"},
    {VALID, "{\"code\":\"x\",\"session_id\":\"s\"}", true,
     "unknown argument 'session_id'"},
    {VALID, "{\"code\":\"x\",\"dependencies\":[\"numpy\"]}", false, UNAVAIL},
    {VALID, "{\"code\":\"x\",\"profile\":[\"basic\"]}", false, UNAVAIL},
    {VALID, "{\"code\":\"x\",\"profile\":\"nope\"}", true,
     "unknown profile 'nope'"},
    {VALID, "{\"code\":7}", true, "'code' must be a string"},

    /* grade_code */
    {GRADE, "{\"code\":\"x\",\"tests\":" SUITE "}", false,
     "grading is unavailable: " NO_SANDBOX},
    {GRADE, "{\"code\":\"x\"}", true, "missing required argument 'tests'"},
    {GRADE, "{\"tests\":" SUITE "}", true, "missing required argument 'code'"},
    {GRADE, "{\"code\":\"x\",\"tests\":[]}", true,
     "'tests' must be an object: {\"tests\": [...]}"},
    {GRADE, "{\"code\":\"x\",\"tests\":" SUITE ",\"timeout\":1}", true,
     "unknown argument 'timeout': the arguments are code, profile, "
     "allowed_imports, tests"},
    {GRADE, "{\"code\":\"x\",\"tests\":" SUITE ",\"dependencies\":[]}", true,
     "unknown argument 'dependencies'"},
    {GRADE, "{\"code\":\"x\",\"tests\":" SUITE ",\"profile\":\"network\"}",
     true, "profile 'network' is not enabled"},

    /* get_sandbox_info */
    {INFO, "{}", false, "sandbox UNAVAILABLE"},
    {INFO, NULL, false, "sandbox UNAVAILABLE"},
    {INFO, "{\"verbose\":true}", true,
     "get_sandbox_info takes no arguments; call it with {}"},

    /* create_session: profile, timeout, memory_limit, ttl */
    {CREATE, "{}", false, "the sandbox is unavailable: " NO_SANDBOX},
    {CREATE,
     "{\"profile\":\"basic\",\"timeout\":5,\"memory_limit\":\"128m\","
     "\"ttl\":60}",
     false, "the sandbox is unavailable"},
    {CREATE, "{\"ttl\":600}", false, "the sandbox is unavailable"},
    {CREATE, "{\"ttl\":0}", true,
     "'ttl' must be a number of seconds above 0 and at most 600"},
    {CREATE, "{\"ttl\":600.5}", true, "'ttl' must be a number of seconds"},
    {CREATE, "{\"ttl\":\"60\"}", true, "'ttl' must be a number of seconds"},
    {CREATE, "{\"timeout\":300}", false, "the sandbox is unavailable"},
    {CREATE, "{\"timeout\":301}", true,
     "'timeout' must be a number of seconds above 0 and at most 300"},
    {CREATE, "{\"timeout\":-1}", true, "'timeout' must be a number"},
    {CREATE, "{\"memory_limit\":1073741824}", false,
     "the sandbox is unavailable"},
    {CREATE, "{\"memory_limit\":\"2g\"}", true,
     "'memory_limit' must be a size such as \"256m\" or \"1g\", or a whole "
     "number of bytes, at most 1073741824"},
    {CREATE, "{\"memory_limit\":\"abc\"}", true, "'memory_limit' must be"},
    {CREATE, "{\"memory_limit\":0}", true, "'memory_limit' must be"},
    {CREATE, "{\"profile\":[]}", true, "'profile' is an empty list"},
    {CREATE, "{\"profile\":\"data_science\"}", true,
     "profile 'data_science' is unknown or not enabled on this server"},
    {CREATE, "{\"profile\":1}", true,
     "'profile' must be a name or a list of names"},
    {CREATE, "{\"bogus\":1}", true,
     "create_session: unknown argument 'bogus'"},
    {CREATE, "{\"code\":\"x\"}", true, "unknown argument 'code'"},
    {CREATE, "{\"session_id\":\"x\"}", true, "unknown argument 'session_id'"},

    /* close_session, fork_session: session_id alone */
    {CLOSE, "{\"session_id\":\"ps-unit-0\"}", false, "unknown session"},
    {CLOSE, "{}", true,
     "close_session: 'session_id' must be the string create_session "
     "returned"},
    {CLOSE, "{\"session_id\":5}", true, "'session_id' must be the string"},
    {CLOSE, "{\"session_id\":\"x\",\"force\":true}", true,
     "close_session: unknown argument 'force'"},
    {FORK, "{\"session_id\":\"ps-unit-0\"}", false, "unknown session"},
    {FORK, "{}", true, "fork_session: 'session_id' must be the string"},
    {FORK, "{\"session_id\":\"x\",\"ttl\":5}", true,
     "fork_session: unknown argument 'ttl'"},

    /* execute_code's files */
    {EXEC, "{\"code\":\"x\",\"files\":{}}", true, "'files' must be a list"},
    {EXEC,
     "{\"code\":\"x\",\"files\":[{\"path\":\"../a\",\"content\":\"x\"}]}",
     true, "'../a' is not a plain file name"},
    {EXEC, "{\"code\":\"x\",\"files\":[{\"path\":\"a\"}]}", true,
     "each of 'files' must be"},
    {EXEC,
     "{\"code\":\"x\",\"files\":[{\"path\":\"a\",\"content\":\"x\","
     "\"content_base64\":\"eA==\"}]}",
     true, "each of 'files' must be"},
    {EXEC,
     "{\"code\":\"x\",\"files\":[{\"path\":\"a\",\"content_base64\":\"!\"}]}",
     true, "is not base64"},
    {EXEC,
     "{\"code\":\"x\",\"files\":[{\"path\":\"a\",\"content\":\"x\"},"
     "{\"path\":\"a\",\"content\":\"y\"}]}",
     true, "'a' is given twice"},
    {EXEC,
     "{\"code\":\"x\",\"session_id\":\"ps-unit-0\",\"files\":[{\"path\":\"a\"}"
     "]}",
     false, "unknown session"},

    /* write_file, read_file, list_files */
    {"write_file", "{\"session_id\":\"ps-unit-0\",\"path\":\"a\"}", false,
     "unknown session"},
    {"write_file",
     "{\"session_id\":\"ps-unit-0\",\"path\":\"a\",\"content\":\"x\","
     "\"content_base64\":\"eA==\"}",
     true, "not both"},
    {"write_file",
     "{\"session_id\":\"ps-unit-0\",\"path\":\"a\",\"content_base64\":\"%\"}",
     true, "'content_base64' is not base64"},
    {"write_file", "{\"session_id\":\"ps-unit-0\"}", true,
     "missing required argument 'path'"},
    {"read_file", "{\"session_id\":\"ps-unit-0\",\"path\":1}", true,
     "'path' must be a string"},
    {"read_file", "{\"path\":\"a\"}", true, "'session_id' must be"},
    {"list_files", "{\"session_id\":\"ps-unit-0\"}", false, "unknown session"},
    {"list_files", "{\"session_id\":\"ps-unit-0\",\"depth\":1}", true,
     "unknown argument 'depth'"},

    /* list_sessions */
    {LIST, "{}", false, "0 open sessions"},
    {LIST, "{\"all\":true}", true, "list_sessions takes no arguments"},
};

START_TEST(arg_table)
{
    const struct arg_case *k = &cases[_i];
    struct outcome o = call(k->tool, k->args);
    ck_assert_msg(o.refused == k->refused, "%s %s: %s: %s", k->tool,
                  k->args != NULL ? k->args : "(none)",
                  o.refused ? "refused" : "accepted", o.text);
    if (k->says != NULL) {
        ck_assert_msg(strstr(o.text, k->says) != NULL,
                      "%s %s: \"%s\" does not say \"%s\"", k->tool,
                      k->args != NULL ? k->args : "(none)", o.text, k->says);
    }
}
END_TEST

/* doc/MCP.md's example, word for word. */
START_TEST(documented_refusal)
{
    json_t *args = json_pack("{s:s,s:i}", "code", "x", "timeout", 9999);
    json_t *result = NULL;
    struct pw_error err = {0};
    ck_assert_ptr_null(pw_tools_exec_new(&tools, EXEC, args, &result, &err));
    ck_assert_str_eq(result_text(result),
                     "execute_code: invalid arguments: 'timeout' is 9999 s: "
                     "it must be above 0 and at most 300 s, the maximum of "
                     "this server; leave it out for the default of 30 s");
    ck_assert(json_is_true(json_object_get(result, "isError")));
    json_decref(result);
    json_decref(args);
}
END_TEST

/* 'code' up to the server's limit (4096 bytes here), not a byte more. */
START_TEST(code_size_limit)
{
    char *code = pw_xmalloc(cfg.max_code + 2);
    memset(code, '#', cfg.max_code + 1);
    code[cfg.max_code + 1] = '\0';
    json_t *args = json_pack("{s:s}", "code", code);
    struct outcome o = call_json(EXEC, args);
    ck_assert(o.refused);
    ck_assert_str_eq(o.text, "'code' is too large: 4097 bytes (at most 4096)");
    o = call_json(VALID, args);
    ck_assert(o.refused);
    json_decref(args);
    code[cfg.max_code] = '\0';
    args = json_pack("{s:s}", "code", code);
    o = call_json(EXEC, args);
    ck_assert_msg(!o.refused, "%s", o.text);
    json_decref(args);
    free(code);
}
END_TEST

/* A "# /// script" block is read on the server's loop: up to 1024 bytes
 * of TOML (the size measured without the interpreter, which reading it
 * would need), not a byte more, whatever the tool. */
START_TEST(script_block_limit)
{
    static const char *const tools_[] = {EXEC, VALID, GRADE};
    for (int n = 1024; n <= 1025; n++) {
        /* "x = [" (5) + the padding + "]\n" (2): N bytes of TOML. */
        struct pw_buf b;
        pw_buf_init(&b);
        pw_buf_printf(&b, "# /// script\n# x = [");
        for (int i = 0; i < n - 7; i++) {
            pw_buf_append(&b, " ", 1);
        }
        pw_buf_printf(&b, "]\n# ///\nprint(1)\n");
        ck_assert_uint_eq(pw_script_meta_size(b.data, b.len), (size_t)n);
        for (size_t t = 0; n > 1024 && t < PW_N_ELEMENTS(tools_); t++) {
            json_t *args = json_pack("{s:s}", "code", b.data);
            if (strcmp(tools_[t], GRADE) == 0) {
                json_object_set_new(args, "tests", json_loads(SUITE, 0, NULL));
            }
            struct outcome o = call_json(tools_[t], args);
            json_decref(args);
            ck_assert_msg(o.refused, "%s: %s", tools_[t], o.text);
            ck_assert_str_eq(o.text,
                             "the program's '# /// script' block is 1025 "
                             "bytes; this server reads such a block (its "
                             "requires-python and dependencies) of at most "
                             "1024");
        }
        pw_buf_free(&b);
    }
}
END_TEST

/* ---- the published schemas against the parser ---------------------- */

static json_t *list;  /* tools/list's tools */
static json_t *names; /* every property name of every tool, and one more */

/* A value of property NAME each tool takes. */
static json_t *
sample(const char *name)
{
    static const struct {
        const char *name;
        const char *json;
    } samples[] = {
        {"code", "\"print(1)\""},
        {"timeout", "1"},
        {"ttl", "1"},
        {"stdin", "\"in\""},
        {"profile", "\"basic\""},
        {"allowed_imports", "[\"math\"]"},
        {"memory_limit", "\"64m\""},
        {"capture_output", "false"},
        {"use_container", "false"},
        {"session_id", "\"ps-unit-0\""},
        {"dependencies", "[]"},
        {"tests", SUITE},
        {"files", "[]"},
        {"path", "\"a.txt\""},
        {"content", "\"x\""},
        {"content_base64", "\"eA==\""},
    };
    for (size_t i = 0; i < PW_N_ELEMENTS(samples); i++) {
        if (strcmp(samples[i].name, name) == 0) {
            return json_loads(samples[i].json, JSON_DECODE_ANY, NULL);
        }
    }
    return json_integer(1);
}

/* A value of the wrong type for PROP (its schema). */
static json_t *
wrong_type(json_t *prop)
{
    const char *type = json_string_value(json_object_get(prop, "type"));
    return type != NULL && strcmp(type, "object") == 0 ? json_array()
                                                       : json_object();
}

static json_t *
tool_at(int i)
{
    return json_array_get(list, (size_t)i);
}

static const char *
tool_name(json_t *tool)
{
    return json_string_value(json_object_get(tool, "name"));
}

static json_t *
props(json_t *tool)
{
    return json_object_get(json_object_get(tool, "inputSchema"), "properties");
}

/* New reference: TOOL's required arguments, each its sample. */
static json_t *
minimal(json_t *tool)
{
    json_t *args = json_object();
    size_t i;
    json_t *r; /* borrowed */
    json_array_foreach(
        json_object_get(json_object_get(tool, "inputSchema"), "required"), i,
        r) {
        json_object_set_new(args, json_string_value(r),
                            sample(json_string_value(r)));
    }
    return args;
}

/* A probe: what the loop tests below look at, one TAP point each. */
struct probe {
    int tool;
    const char *name; /* borrowed from NAMES or LIST */
};

#define PROBES_MAX 256
static struct probe in_schema[PROBES_MAX], out_of_schema[PROBES_MAX],
    required[PROBES_MAX];
static int n_in, n_out, n_required, n_tools;

START_TEST(schema_minimal_accepted)
{
    json_t *tool = tool_at(_i);
    json_t *args = minimal(tool);
    struct outcome o = call_json(tool_name(tool), args);
    ck_assert_msg(!o.refused, "%s: %s", tool_name(tool), o.text);
    json_decref(args);
}
END_TEST

START_TEST(schema_property_accepted)
{
    json_t *tool = tool_at(in_schema[_i].tool);
    const char *name = in_schema[_i].name;
    json_t *args = minimal(tool);
    json_object_set_new(args, name, sample(name));
    struct outcome o = call_json(tool_name(tool), args);
    ck_assert_msg(!o.refused, "%s: '%s' in the schema, refused: %s",
                  tool_name(tool), name, o.text);
    json_decref(args);
}
END_TEST

START_TEST(schema_property_typed)
{
    json_t *tool = tool_at(in_schema[_i].tool);
    const char *name = in_schema[_i].name;
    json_t *args = minimal(tool);
    json_object_set_new(args, name,
                        wrong_type(json_object_get(props(tool), name)));
    struct outcome o = call_json(tool_name(tool), args);
    ck_assert_msg(o.refused, "%s: '%s' of the wrong type accepted: %s",
                  tool_name(tool), name, o.text);
    char quoted[64];
    snprintf(quoted, sizeof(quoted), "'%s'", name);
    ck_assert_msg(strstr(o.text, quoted) != NULL, "%s: %s", tool_name(tool),
                  o.text);
    json_decref(args);
}
END_TEST

START_TEST(schema_other_names_refused)
{
    json_t *tool = tool_at(out_of_schema[_i].tool);
    const char *name = out_of_schema[_i].name;
    ck_assert(json_is_false(json_object_get(
        json_object_get(tool, "inputSchema"), "additionalProperties")));
    json_t *args = minimal(tool);
    json_object_set_new(args, name, sample(name));
    struct outcome o = call_json(tool_name(tool), args);
    ck_assert_msg(o.refused, "%s: '%s' is not in the schema, accepted: %s",
                  tool_name(tool), name, o.text);
    ck_assert_msg(strstr(o.text, name) != NULL ||
                      strstr(o.text, "takes no arguments") != NULL,
                  "%s: %s", tool_name(tool), o.text);
    json_decref(args);
}
END_TEST

START_TEST(schema_required_required)
{
    json_t *tool = tool_at(required[_i].tool);
    const char *name = required[_i].name;
    json_t *args = minimal(tool);
    ck_assert_int_eq(json_object_del(args, name), 0);
    struct outcome o = call_json(tool_name(tool), args);
    ck_assert_msg(o.refused, "%s without '%s' accepted: %s", tool_name(tool),
                  name, o.text);
    ck_assert_msg(strstr(o.text, name) != NULL, "%s: %s", tool_name(tool),
                  o.text);
    json_decref(args);
}
END_TEST

/* Where the parser lists the arguments a tool takes, the list is the
 * schema's properties. */
START_TEST(schema_listed_arguments)
{
    json_t *tool = tool_at(_i);
    json_t *args = minimal(tool);
    json_object_set_new(args, "no_such_argument", json_integer(1));
    struct outcome o = call_json(tool_name(tool), args);
    json_decref(args);
    ck_assert(o.refused);
    const char *at = strstr(o.text, "the arguments are ");
    if (at == NULL) {
        ck_assert(strstr(o.text, "no_such_argument") != NULL ||
                  strstr(o.text, "takes no arguments") != NULL);
        return;
    }
    json_t *schema = props(tool);
    size_t listed = 0;
    char *copy = pw_xstrdup(at + strlen("the arguments are "));
    char *save = NULL;
    for (char *w = strtok_r(copy, ", ", &save); w != NULL;
         w = strtok_r(NULL, ", ", &save)) {
        ck_assert_msg(json_object_get(schema, w) != NULL,
                      "%s takes '%s', which its schema does not list",
                      tool_name(tool), w);
        listed++;
    }
    free(copy);
    ck_assert_uint_eq(listed, json_object_size(schema));
}
END_TEST

/* A number with "exclusiveMinimum" M: M refused, just above accepted. */
START_TEST(schema_exclusive_minimum)
{
    size_t n = 0;
    for (size_t t = 0; t < json_array_size(list); t++) {
        json_t *tool = tool_at((int)t);
        const char *key;
        json_t *p; /* borrowed */
        json_object_foreach(props(tool), key, p) {
            json_t *min = json_object_get(p, "exclusiveMinimum");
            if (min == NULL) {
                continue;
            }
            double m = json_number_value(min);
            json_t *args = minimal(tool);
            json_object_set_new(args, key, json_real(m));
            ck_assert_msg(call_json(tool_name(tool), args).refused,
                          "%s: '%s' of %g accepted", tool_name(tool), key, m);
            json_object_set_new(args, key, json_real(m + 0.001));
            struct outcome o = call_json(tool_name(tool), args);
            ck_assert_msg(!o.refused, "%s: '%s': %s", tool_name(tool), key,
                          o.text);
            json_decref(args);
            n++;
        }
    }
    ck_assert_uint_eq(n, 3); /* execute_code's timeout, create_session's
                                timeout and ttl */
}
END_TEST

START_TEST(list_entries)
{
    ck_assert_uint_eq(json_array_size(list), 11);
    for (size_t i = 0; i < json_array_size(list); i++) {
        json_t *tool = tool_at((int)i);
        const char *name = tool_name(tool);
        ck_assert_ptr_nonnull(name);
        ck_assert(pw_tools_exists(&tools, name));
        /* The tools whose calls are run queue entries. */
        ck_assert(pw_tools_runs_code(&tools, name) ==
                  (strcmp(name, "execute_code") == 0 ||
                   strcmp(name, "grade_code") == 0 ||
                   strcmp(name, "create_session") == 0));
        ck_assert(json_is_string(json_object_get(tool, "title")));
        ck_assert(json_is_string(json_object_get(tool, "description")));
        json_t *in = json_object_get(tool, "inputSchema");
        json_t *out = json_object_get(tool, "outputSchema");
        ck_assert_str_eq(json_string_value(json_object_get(in, "type")),
                         "object");
        ck_assert_str_eq(json_string_value(json_object_get(out, "type")),
                         "object");
        ck_assert(json_is_object(json_object_get(in, "properties")));
        for (size_t j = 0; j < i; j++) {
            ck_assert_str_ne(tool_name(tool_at((int)j)), name);
        }
    }
    ck_assert(!pw_tools_exists(&tools, "execute"));
    ck_assert(!pw_tools_exists(&tools, ""));
    ck_assert(!pw_tools_runs_code(&tools, "validate_code"));
}
END_TEST

/* Every name a schema requires, input or output, is one of its
 * properties. */
START_TEST(schema_required_are_properties)
{
    static const char *const which[] = {"inputSchema", "outputSchema"};
    json_t *tool = tool_at(_i);
    for (size_t w = 0; w < PW_N_ELEMENTS(which); w++) {
        json_t *schema = json_object_get(tool, which[w]);
        json_t *p = json_object_get(schema, "properties");
        size_t i;
        json_t *r; /* borrowed */
        json_array_foreach(json_object_get(schema, "required"), i, r) {
            ck_assert_msg(json_object_get(p, json_string_value(r)) != NULL,
                          "%s %s requires '%s', not a property",
                          tool_name(tool), which[w], json_string_value(r));
        }
    }
}
END_TEST

/* ---- grade_code's suite schema against the suite parser ------------- */

static json_t *
suite_schema(void)
{
    for (size_t i = 0; i < json_array_size(list); i++) {
        if (strcmp(tool_name(tool_at((int)i)), "grade_code") == 0) {
            return json_object_get(props(tool_at((int)i)), "tests");
        }
    }
    return NULL;
}

/* Parse the suite TEXT: 0, or -1 with ERR. */
static int
parse_suite(const char *text, struct pw_error *err)
{
    json_t *root = json_loads(text, 0, NULL);
    ck_assert_ptr_nonnull(root);
    struct pw_grade_suite s;
    int rc = pw_grade_suite_parse(root, NULL, &s, err);
    if (rc == 0) {
        pw_grade_suite_free(&s);
    }
    json_decref(root);
    return rc;
}

START_TEST(suite_test_fields)
{
    static const struct {
        const char *name;
        const char *json;
    } values[] = {
        {"name", "\"t\""},
        {"stdin", "\"1 2\""},
        {"expected_stdout", "\"3\""},
        {"checker", "\"tokens\""},
        {"tolerance", "0.5"},
        {"timeout", "2"},
        {"memory", "\"64m\""},
        {"points", "2"},
    };
    json_t *item = json_object_get(
        json_object_get(json_object_get(suite_schema(), "properties"),
                        "tests"),
        "items");
    ck_assert(json_is_false(json_object_get(item, "additionalProperties")));
    json_t *fields = json_object_get(item, "properties");
    ck_assert_uint_eq(json_object_size(fields), PW_N_ELEMENTS(values));
    for (size_t i = 0; i < PW_N_ELEMENTS(values); i++) {
        ck_assert_ptr_nonnull(json_object_get(fields, values[i].name));
        struct pw_error err = {0};
        char text[256];
        snprintf(text, sizeof(text),
                 "{\"tests\":[{\"expected_stdout\":\"3\",\"%s\":%s}]}",
                 values[i].name, values[i].json);
        ck_assert_msg(parse_suite(text, &err) == 0, "%s", err.message);
        if (strcmp(values[i].name, "name") != 0 &&
            strcmp(values[i].name, "expected_stdout") != 0) {
            snprintf(text, sizeof(text),
                     "{\"tests\":[{\"expected_stdout\":\"3\"}],"
                     "\"defaults\":{\"%s\":%s}}",
                     values[i].name, values[i].json);
            ck_assert_msg(parse_suite(text, &err) == 0, "%s", err.message);
        }
    }
    struct pw_error err = {0};
    ck_assert_int_eq(parse_suite("{\"tests\":[{\"expected_stdout\":\"3\","
                                 "\"input\":\"1\"}]}",
                                 &err),
                     -1);
    ck_assert_ptr_nonnull(strstr(err.message, "\"input\""));
}
END_TEST

START_TEST(suite_checker_enum)
{
    json_t *checker = json_object_get(
        json_object_get(
            json_object_get(
                json_object_get(json_object_get(suite_schema(), "properties"),
                                "tests"),
                "items"),
            "properties"),
        "checker");
    json_t *values = json_object_get(checker, "enum");
    ck_assert_uint_eq(json_array_size(values), 5);
    size_t i;
    json_t *v; /* borrowed */
    json_array_foreach(values, i, v) {
        ck_assert_int_eq(pw_checker_parse(json_string_value(v)), (int)i);
    }
}
END_TEST

START_TEST(suite_top_fields)
{
    json_t *schema = suite_schema();
    json_t *fields = json_object_get(schema, "properties");
    ck_assert(json_is_false(json_object_get(schema, "additionalProperties")));
    ck_assert_uint_eq(json_object_size(fields), 4);
    ck_assert_ptr_nonnull(json_object_get(fields, "defaults"));
    /* "isolation": the schema's values are the parser's. */
    json_t *iso =
        json_object_get(json_object_get(fields, "isolation"), "enum");
    ck_assert_uint_eq(json_array_size(iso), 2);
    struct pw_error ierr = {0};
    for (size_t i = 0; i < json_array_size(iso); i++) {
        char *doc = pw_xasprintf("{\"tests\":[{\"expected_stdout\":\"\"}],"
                                 "\"isolation\":\"%s\"}",
                                 json_string_value(json_array_get(iso, i)));
        ck_assert_msg(parse_suite(doc, &ierr) == 0, "%s", ierr.message);
        free(doc);
    }
    ck_assert_int_eq(parse_suite("{\"tests\":[{\"expected_stdout\":\"\"}],"
                                 "\"isolation\":\"thread\"}",
                                 &ierr),
                     -1);
    ck_assert_int_eq(json_integer_value(json_object_get(
                         json_object_get(fields, "tests"), "minItems")),
                     1);
    struct pw_error err = {0};
    ck_assert_int_eq(parse_suite("{\"tests\":[]}", &err), -1);
    ck_assert_msg(parse_suite("{\"tests\":[{\"checker\":\"program\"}],"
                              "\"checker_code\":\"print('AC')\"}",
                              &err) == 0,
                  "%s", err.message);
    /* Not in the schema: a checker file is for suites read from files. */
    ck_assert_ptr_null(json_object_get(fields, "checker_program"));
    ck_assert_int_eq(parse_suite("{\"tests\":[{\"expected_stdout\":\"\"}],"
                                 "\"checker_program\":\"c.py\"}",
                                 &err),
                     -1);
    ck_assert_int_eq(parse_suite("{\"tests\":[{\"expected_stdout\":\"\"}],"
                                 "\"extra\":1}",
                                 &err),
                     -1);
    ck_assert_ptr_nonnull(strstr(err.message, "\"extra\""));
}
END_TEST

/* ---- set-up --------------------------------------------------------- */

static void
add_probe(struct probe *v, int *n, int tool, const char *name)
{
    if (*n >= PROBES_MAX) {
        fprintf(stderr, "more than %d probes\n", PROBES_MAX);
        abort();
    }
    v[(*n)++] = (struct probe){tool, name};
}

/* The probes, from tools/list. */
static void
probes(void)
{
    list = pw_tools_list_json(&tools);
    names = json_object();
    n_tools = (int)json_array_size(list);
    for (int t = 0; t < n_tools; t++) {
        const char *key;
        json_t *p; /* borrowed */
        json_object_foreach(props(tool_at(t)), key, p) {
            json_object_set_new(names, key, json_true());
            add_probe(in_schema, &n_in, t, key);
        }
        size_t i;
        json_t *r; /* borrowed */
        json_array_foreach(
            json_object_get(json_object_get(tool_at(t), "inputSchema"),
                            "required"),
            i, r) {
            add_probe(required, &n_required, t, json_string_value(r));
        }
    }
    json_object_set_new(names, "no_such_argument", json_true());
    for (int t = 0; t < n_tools; t++) {
        const char *key;
        json_t *v; /* borrowed */
        json_object_foreach(names, key, v) {
            if (json_object_get(props(tool_at(t)), key) == NULL) {
                add_probe(out_of_schema, &n_out, t, key);
            }
        }
    }
}

static int
setup(void)
{
    struct pw_error err = {0};
    PW_AUTOFREE char *dir = pw_rules_dir(NULL);
    profiles = pw_profiles_load(dir, &err);
    struct pw_session_limits lim = {600, 3600, 8, 4};
    sessions = profiles != NULL ? pw_sessions_new(&lim, "unit", &err) : NULL;
    if (sessions == NULL) {
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
    snprintf(tools.rules_error, sizeof(tools.rules_error), NO_RULES);
    tools.rules_name = "default";
    snprintf(tools.zygote_error, sizeof(tools.zygote_error), NO_SANDBOX);
    tools.sessions = sessions;
    tools.owner = PW_OWNER_STDIO;
    snprintf(tools.container_missing, sizeof(tools.container_missing),
             "user, pid, mount, net");
    tools.info = json_pack("{s:[],s:b}", "profiles", "sandbox_available", 0);
    probes();
    return 0;
}

int
main(void)
{
    if (setup() < 0) {
        return EXIT_FAILURE;
    }
    Suite *s = suite_create("args");
    TCase *tc = tcase_create("cases");
    tcase_add_loop_test(tc, arg_table, 0, (int)PW_N_ELEMENTS(cases));
    tcase_add_test(tc, documented_refusal);
    tcase_add_test(tc, code_size_limit);
    tcase_add_test(tc, script_block_limit);
    suite_add_tcase(s, tc);
    TCase *sc = tcase_create("schemas");
    tcase_add_test(sc, list_entries);
    tcase_add_loop_test(sc, schema_required_are_properties, 0, n_tools);
    tcase_add_loop_test(sc, schema_minimal_accepted, 0, n_tools);
    tcase_add_loop_test(sc, schema_property_accepted, 0, n_in);
    tcase_add_loop_test(sc, schema_property_typed, 0, n_in);
    tcase_add_loop_test(sc, schema_required_required, 0, n_required);
    tcase_add_loop_test(sc, schema_other_names_refused, 0, n_out);
    tcase_add_loop_test(sc, schema_listed_arguments, 0, n_tools);
    tcase_add_test(sc, schema_exclusive_minimum);
    tcase_add_test(sc, suite_test_fields);
    tcase_add_test(sc, suite_checker_enum);
    tcase_add_test(sc, suite_top_fields);
    suite_add_tcase(s, sc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    json_decref(list);
    json_decref(names);
    pw_tools_free(&tools);
    pw_sessions_free(sessions);
    pw_profiles_free(profiles);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
