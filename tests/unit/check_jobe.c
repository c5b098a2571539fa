/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_jobe.c - unit tests of the Jobe API's parts that need no server:
 * the shell words of interpreterargs, run_spec checks and their
 * messages, execute_code results mapped to outcome codes, the file
 * cache's ids, sizes and round trip, its index read again from its
 * directory, a file PUT's body parsed in pieces of every size.
 */
#include "config.h"

#include <check.h>
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "sandbox/sandbox.h"
#include "validator/diag.h"
#include "server/jobe.h"

static void
assert_words(const char *text, const char *const *want)
{
    char **got = pw_jobe_shell_split(text);
    ck_assert_ptr_nonnull(got);
    size_t i = 0;
    for (; want[i] != NULL; i++) {
        ck_assert_ptr_nonnull(got[i]);
        ck_assert_str_eq(got[i], want[i]);
        free(got[i]);
    }
    ck_assert_ptr_null(got[i]);
    free(got);
}

START_TEST(shell_words)
{
    assert_words("-c \"print(\\\"Blah\\\")\"",
                 (const char *const[]){"-c", "print(\"Blah\")", NULL});
    assert_words("  -BE   -u ", (const char *const[]){"-BE", "-u", NULL});
    assert_words("'a b'\"c\"\\ d", (const char *const[]){"a bc d", NULL});
    assert_words("'it''s' \"\\$x\\n\"",
                 (const char *const[]){"its", "$x\\n", NULL});
    assert_words("", (const char *const[]){NULL});
    ck_assert_ptr_null(pw_jobe_shell_split("-c 'open"));
    ck_assert_ptr_null(pw_jobe_shell_split("\"x"));
}
END_TEST

/* The body the last spec borrows from. */
static json_t *body;

/* Parse TEXT as a POST body; returns the status (0 when accepted) and
 * checks the message when WANT is given. */
static unsigned
parse(const char *text, const char *want, struct pw_jobe_spec *spec)
{
    json_decref(body);
    body = json_loads(text, JSON_DECODE_INT_AS_REAL, NULL);
    ck_assert_ptr_nonnull(body);
    unsigned status = 0;
    char *msg = NULL;
    struct pw_jobe_limits lim = {50, 4096LL << 20};
    int rc = pw_jobe_spec_parse(body, &lim, spec, &status, &msg);
    if (rc == 0) {
        ck_assert_ptr_null(msg);
        return 0;
    }
    ck_assert_ptr_nonnull(msg);
    if (want != NULL) {
        ck_assert_str_eq(msg, want);
    }
    free(msg);
    return status;
}

START_TEST(spec_messages)
{
    struct pw_jobe_spec spec;
    ck_assert_uint_eq(parse("[1]", "Non-JSON post data received", &spec), 400);
    ck_assert_uint_eq(
        parse("{\"x\":1}", "No run_spec attribute found in post data", &spec),
        400);
    ck_assert_uint_eq(
        parse("{\"run_spec\":{\"sourcecode\":\"x\"}}",
              "run_spec is missing the required attribute 'language_id'",
              &spec),
        400);
    ck_assert_uint_eq(
        parse("{\"run_spec\":{\"language_id\":\"python3\"}}",
              "run_spec is missing the required attribute 'sourcecode'",
              &spec),
        400);
    ck_assert_uint_eq(parse("{\"run_spec\":{\"language_id\":\"C\","
                            "\"sourcecode\":\"x\"}}",
                            "Language 'c' is not known", &spec),
                      400);
    ck_assert_uint_eq(
        parse("{\"run_spec\":{\"language_id\":\"python3\","
              "\"sourcecode\":\"x\",\"parameters\":{\"cputime\":51}}}",
              "cputime exceeds maximum allowed on this Jobe server (50 secs)",
              &spec),
        400);
    ck_assert_uint_eq(
        parse("{\"run_spec\":{\"language_id\":\"python3\","
              "\"sourcecode\":\"x\",\"sourcefilename\":\".hidden.py\"}}",
              "The sourcefilename for the run_spec is illegal", &spec),
        400);
    ck_assert_uint_eq(parse("{\"run_spec\":{\"language_id\":\"python3\","
                            "\"sourcecode\":\"x\",\"file_list\":"
                            "[[\"short\",\"f\"]]}}",
                            NULL, &spec),
                      400);
    ck_assert_uint_eq(parse("{\"run_spec\":{\"language_id\":\"python3\","
                            "\"sourcecode\":\"x\",\"parameters\":"
                            "{\"interpreterargs\":[\"-m pylint\"]}}}",
                            NULL, &spec),
                      400);
}
END_TEST

START_TEST(spec_fields)
{
    struct pw_jobe_spec spec;
    ck_assert_uint_eq(
        parse("{\"run_spec\":{\"language_id\":\"Python3\","
              "\"sourcecode\":\"print(1)\",\"input\":\"in\","
              "\"sourcefilename\":\"t.py\",\"file_list\":"
              "[[\"abcdefgh1\",\"data.txt\"]],\"parameters\":"
              "{\"cputime\":7,\"memorylimit\":100,\"runargs\":[\"a\"],"
              "\"interpreterargs\":[\"-BE\"]}}}",
              NULL, &spec),
        0);
    ck_assert_str_eq(spec.code, "print(1)");
    ck_assert_str_eq(spec.input, "in");
    ck_assert_str_eq(spec.source_name, "t.py");
    ck_assert(spec.cputime_s == 7);
    ck_assert_int_eq(spec.memory_bytes, 100LL << 20);
    ck_assert_str_eq(spec.argv[0], "t.py");
    ck_assert_str_eq(spec.argv[1], "a");
    ck_assert_ptr_null(spec.argv[2]);
    ck_assert_uint_eq(json_array_size(spec.files), 1);
    pw_jobe_spec_clear(&spec);

    ck_assert_uint_eq(
        parse("{\"run_spec\":{\"language_id\":\"python3\","
              "\"sourcecode\":\"\",\"parameters\":{\"interpreterargs\":"
              "[\"-c \\\"print(2)\\\"\"]}}}",
              NULL, &spec),
        0);
    ck_assert_str_eq(spec.code, "print(2)");
    ck_assert_str_eq(spec.argv[0], "-c");
    ck_assert_str_eq(spec.argv[1], "prog.py");
    ck_assert(spec.cputime_s == 5);
    pw_jobe_spec_clear(&spec);
}
END_TEST

/* A run_spec of "print(1)" with PARAMS (a JSON object's text). */
static unsigned
with_params(const char *params, const char *want, struct pw_jobe_spec *spec)
{
    char text[512];
    snprintf(text, sizeof(text),
             "{\"run_spec\":{\"language_id\":\"python3\","
             "\"sourcecode\":\"print(1)\",\"parameters\":%s}}",
             params);
    return parse(text, want, spec);
}

START_TEST(spec_numbers_checked)
{
    struct pw_jobe_spec spec;
    const char *cpu_over =
        "cputime exceeds maximum allowed on this Jobe server (50 secs)";
    const char *cpu_bad =
        "cputime must be a number of seconds from 0 to 50 (0: the default, 5)";
    const char *mem_over =
        "memorylimit exceeds maximum allowed on this Jobe server (4096 MB)";
    const char *mem_bad = "memorylimit must be a number of MB from 0 to 4096 "
                          "(0: the default, 1000)";
    /* Past what a long long holds: refused, never cast. */
    ck_assert_uint_eq(with_params("{\"cputime\":1e308}", cpu_over, &spec),
                      400);
    ck_assert_uint_eq(with_params("{\"cputime\":-1e308}", cpu_bad, &spec),
                      400);
    ck_assert_uint_eq(
        with_params("{\"cputime\":123456789012345678901234567890}", cpu_over,
                    &spec),
        400);
    ck_assert_uint_eq(with_params("{\"cputime\":-0.5}", cpu_bad, &spec), 400);
    ck_assert_uint_eq(with_params("{\"cputime\":51}", cpu_over, &spec), 400);
    ck_assert_uint_eq(with_params("{\"memorylimit\":1e308}", mem_over, &spec),
                      400);
    ck_assert_uint_eq(with_params("{\"memorylimit\":-1e308}", mem_bad, &spec),
                      400);
    ck_assert_uint_eq(with_params("{\"memorylimit\":4097}", mem_over, &spec),
                      400);
    ck_assert_uint_eq(with_params("{\"memorylimit\":-1}", mem_bad, &spec),
                      400);
    /* In range: taken (Jobe compares cputime in whole seconds). */
    ck_assert_uint_eq(
        with_params("{\"cputime\":50.9,\"memorylimit\":4096}", NULL, &spec),
        0);
    ck_assert(spec.cputime_s == 50.9);
    ck_assert_int_eq(spec.memory_bytes, 4096LL << 20);
    pw_jobe_spec_clear(&spec);
    ck_assert_uint_eq(
        with_params("{\"cputime\":0.25,\"memorylimit\":1.5}", NULL, &spec), 0);
    ck_assert(spec.cputime_s == 0.25);
    ck_assert_int_eq(spec.memory_bytes, 1572864);
    pw_jobe_spec_clear(&spec);
    /* 0, null and other types: the defaults. */
    ck_assert_uint_eq(
        with_params("{\"cputime\":0,\"memorylimit\":0}", NULL, &spec), 0);
    ck_assert(spec.cputime_s == PW_JOBE_CPUTIME_S);
    ck_assert_int_eq(spec.memory_bytes, (long long)PW_JOBE_MEMORY_MB << 20);
    pw_jobe_spec_clear(&spec);
    ck_assert_uint_eq(
        with_params("{\"cputime\":null,\"memorylimit\":\"9\"}", NULL, &spec),
        0);
    ck_assert(spec.cputime_s == PW_JOBE_CPUTIME_S);
    ck_assert_int_eq(spec.memory_bytes, (long long)PW_JOBE_MEMORY_MB << 20);
    pw_jobe_spec_clear(&spec);
}
END_TEST

/* The outcome of a run that ended with STATUS, stdout OUT, stderr ERR,
 * the error TYPE and TRACEBACK (any may be NULL) and BLOCKED; *RES its
 * result object. */
static int
outcome_full(enum pw_sbx_status status, const char *out, const char *err,
             const char *type, const char *traceback,
             enum pw_sbx_blocked blocked, json_t **res)
{
    struct pw_sbx_result r = {.status = status, .blocked = blocked};
    r.out.data = (char *)(out != NULL ? out : "");
    r.out.len = strlen(r.out.data);
    r.err.data = (char *)(err != NULL ? err : "");
    r.err.len = strlen(r.err.data);
    r.error_type = (char *)type;
    r.traceback = (char *)traceback;
    *res = pw_jobe_result_of(&r, "exec-1", "t.py");
    ck_assert_ptr_nonnull(*res);
    ck_assert_str_eq(json_string_value(json_object_get(*res, "run_id")),
                     "exec-1");
    return (int)json_integer_value(json_object_get(*res, "outcome"));
}

static int
outcome(enum pw_sbx_status status, const char *out, const char *err,
        json_t **res)
{
    return outcome_full(status, out, err, NULL, NULL, PW_SBX_BLOCKED_NONE,
                        res);
}

START_TEST(outcomes)
{
    json_t *r;
    ck_assert_int_eq(outcome(PW_SBX_OK, "a", NULL, &r), 15);
    ck_assert_str_eq(json_string_value(json_object_get(r, "stdout")), "a");
    json_decref(r);
    ck_assert_int_eq(outcome(PW_SBX_OK, NULL, "w", &r), 12);
    json_decref(r);
    /* A non-zero exit without a word on stderr: Jobe's success. */
    ck_assert_int_eq(outcome(PW_SBX_ERROR, NULL, NULL, &r), 15);
    json_decref(r);
    ck_assert_int_eq(
        outcome_full(PW_SBX_ERROR, NULL, NULL, "ValueError",
                     "Traceback (most recent call last):\n  File \"<user>\", "
                     "line 2, in <module>\nValueError: x\n",
                     PW_SBX_BLOCKED_NONE, &r),
        12);
    ck_assert_str_eq(json_string_value(json_object_get(r, "stderr")),
                     "Traceback (most recent call last):\n  File \"t.py\", "
                     "line 2, in <module>\nValueError: x\n");
    json_decref(r);
    /* A syntax error (no frame): a compile error, as py_compile says it. */
    ck_assert_int_eq(outcome_full(PW_SBX_ERROR, NULL, NULL, "SyntaxError",
                                  "  File \"<user>\", line 1\n    x = (\n"
                                  "        ^\nSyntaxError: '(' was never "
                                  "closed\n",
                                  PW_SBX_BLOCKED_NONE, &r),
                     11);
    ck_assert_ptr_nonnull(strstr(
        json_string_value(json_object_get(r, "cmpinfo")), "File \"t.py\""));
    json_decref(r);
    ck_assert_int_eq(outcome(PW_SBX_TIMEOUT, NULL, NULL, &r), 13);
    json_decref(r);
    ck_assert_int_eq(outcome(PW_SBX_MEMORY_LIMIT, NULL, NULL, &r), 17);
    json_decref(r);
    ck_assert_int_eq(outcome_full(PW_SBX_KILLED, NULL, NULL, NULL, NULL,
                                  PW_SBX_BLOCKED_SYSCALL, &r),
                     19);
    json_decref(r);
    ck_assert_int_eq(outcome(PW_SBX_INTERNAL_ERROR, NULL, NULL, &r), 20);
    json_decref(r);
    ck_assert_int_eq(outcome(PW_SBX_OUTPUT_LIMIT, "x", NULL, &r), 12);
    ck_assert_ptr_nonnull(
        strstr(json_string_value(json_object_get(r, "stderr")),
               "[output limit exceeded]"));
    json_decref(r);
}
END_TEST

/* A rejection's cmpinfo: each finding's plain words on its line, no
 * rule code. */
START_TEST(cmpinfo_plain)
{
    struct pw_diags d;
    pw_diags_init(&d);
    pw_diags_add(&d, "PW101", "import-not-allowed",
                 pw_xstrdup("module 'os' cannot be imported here (see "
                            "get_sandbox_info or 'pyward rules PW101')"),
                 2, 8, 2, 10);
    d.v[0].student =
        pw_xstrdup("this course's sandbox does not allow importing 'os'");
    pw_diags_add(&d, "PW999", "no-student-text", pw_xstrdup("PW999 jargon"), 3,
                 1, 3, 1);
    char *info = pw_jobe_cmpinfo(&d, "t.py");
    ck_assert_str_eq(info,
                     "t.py:2: this course's sandbox does not allow importing "
                     "'os'\nt.py:3: this course's sandbox does not allow "
                     "this code\n");
    free(info);
    pw_diags_free(&d);
}
END_TEST

START_TEST(busy_reply_is_overload)
{
    struct pw_jobe_answer a;
    pw_jobe_refused_answer("{\"jsonrpc\":\"2.0\",\"id\":\"j\",\"error\":{"
                           "\"code\":-32000,\"message\":\"server busy\"}}",
                           "exec-2", &a);
    ck_assert_uint_eq(a.status, 200);
    json_t *r = json_loads(a.body, 0, NULL);
    ck_assert_int_eq(json_integer_value(json_object_get(r, "outcome")), 21);
    ck_assert_str_eq(json_string_value(json_object_get(r, "run_id")),
                     "exec-2");
    json_decref(r);
    pw_jobe_answer_clear(&a);
    /* A run that did not start: Jobe's internal error, in plain words. */
    pw_jobe_run_answer(NULL, NULL, "exec-3", "t.py", &a);
    r = json_loads(a.body, 0, NULL);
    ck_assert_int_eq(json_integer_value(json_object_get(r, "outcome")), 20);
    json_decref(r);
    pw_jobe_answer_clear(&a);
}
END_TEST

START_TEST(file_cache)
{
    char dir[] = "/tmp/check-jobe-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    struct pw_error err = {0};
    struct pw_jobe_files *f =
        pw_jobe_files_new(dir, NULL, 10, 25, 0, 3600, &err);
    ck_assert_ptr_nonnull(f);
    ck_assert(!pw_jobe_file_id_ok("a/b"));
    ck_assert(!pw_jobe_file_id_ok(".."));
    ck_assert(!pw_jobe_file_id_ok(""));
    ck_assert_int_eq(pw_jobe_files_put(f, "c1", "../x", "1", 1, &err), -1);
    ck_assert_int_eq(
        pw_jobe_files_put(f, "c1", "big", "01234567890", 11, &err), -1);
    ck_assert_int_eq(err.code, PW_ERR_USAGE);
    ck_assert_int_eq(pw_jobe_files_put(f, "c1", "one", "0123456789", 10, &err),
                     0);
    ck_assert(pw_jobe_files_has(f, "c1", "one"));
    ck_assert(!pw_jobe_files_has(f, "c1", "two"));
    /* A run holds a file by fd; its bytes are read from there. */
    struct pw_jobe_hold *h = pw_jobe_hold_new(f, "c1");
    int fd = -1;
    long long size = 0;
    ck_assert_int_eq(pw_jobe_hold_add(h, "one", &fd, &size), 0);
    ck_assert_int_eq(size, 10);
    char got[16];
    ck_assert_int_eq(pread(fd, got, sizeof(got), 0), 10);
    ck_assert_int_eq(memcmp(got, "0123456789", 10), 0);
    ck_assert_int_eq(pw_jobe_hold_add(h, "nosuchfile", &fd, &size), -1);
    pw_jobe_hold_free(h);
    ck_assert_uint_eq(pw_jobe_files_open_count(f), 0);
    /* Over the total: the least recently used goes (the index keeps
     * the order of PUTs and runs' uses). */
    ck_assert_int_eq(pw_jobe_files_put(f, "c1", "two", "0123456789", 10, &err),
                     0);
    ck_assert_int_eq(
        pw_jobe_files_put(f, "c1", "three", "0123456789", 10, &err), 0);
    ck_assert(pw_jobe_files_has(f, "c1", "three"));
    ck_assert(!pw_jobe_files_has(f, "c1", "one"));
    ck_assert(pw_jobe_files_has(f, "c1", "two"));
    pw_jobe_files_free(f);
    /* A cache made again on the directory finds its files, their
     * recency from their access times ("three" made the older). */
    char path[sizeof(dir) + 16];
    snprintf(path, sizeof(path), "%s/c1/three", dir);
    struct timespec ago[2];
    ck_assert_int_eq(clock_gettime(CLOCK_REALTIME, &ago[0]), 0);
    ago[0].tv_sec -= 10;
    ago[1] = ago[0];
    ck_assert_int_eq(utimensat(AT_FDCWD, path, ago, 0), 0);
    f = pw_jobe_files_new(dir, NULL, 10, 25, 0, 3600, &err);
    ck_assert_ptr_nonnull(f);
    ck_assert(pw_jobe_files_has(f, "c1", "two"));
    ck_assert(pw_jobe_files_has(f, "c1", "three"));
    ck_assert_int_eq(
        pw_jobe_files_put(f, "c1", "four", "0123456789", 10, &err), 0);
    ck_assert(!pw_jobe_files_has(f, "c1", "three"));
    ck_assert(pw_jobe_files_has(f, "c1", "two"));
    pw_jobe_files_free(f);
    /* Expired files are gone. */
    f = pw_jobe_files_new(dir, NULL, 10, 25, 0, -1, &err);
    ck_assert_ptr_nonnull(f);
    ck_assert(!pw_jobe_files_has(f, "c1", "four"));
    ck_assert_int_eq(pw_jobe_files_put(f, "c1", "five", "x", 1, &err), 0);
    pw_jobe_files_free(f);
    char cmd[64];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* Past the cap, the least recently used file goes (a run's use counts,
 * not only its PUT), never one a run holds, even the least recently
 * used; a PUT for which the held files leave no room is refused (-2);
 * a held file replaced by a PUT still counts until it is let go. */
START_TEST(file_cache_lru_and_holds)
{
    char dir[] = "/tmp/check-jobe-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    struct pw_error err = {0};
    struct pw_jobe_files *f =
        pw_jobe_files_new(dir, NULL, 10, 30, 0, 3600, &err);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(pw_jobe_files_put(f, "c1", "a", "0123456789", 10, &err),
                     0);
    ck_assert_int_eq(pw_jobe_files_put(f, "c1", "b", "0123456789", 10, &err),
                     0);
    ck_assert_int_eq(pw_jobe_files_put(f, "c1", "c", "0123456789", 10, &err),
                     0);
    /* A run uses "a" (the oldest PUT): "b" is now the least recent. */
    struct pw_jobe_hold *h = pw_jobe_hold_new(f, "c1");
    int fd;
    long long size;
    ck_assert_int_eq(pw_jobe_hold_add(h, "a", &fd, &size), 0);
    pw_jobe_hold_free(h);
    ck_assert_int_eq(pw_jobe_files_put(f, "c1", "d", "0123456789", 10, &err),
                     0);
    ck_assert(pw_jobe_files_has(f, "c1", "a"));
    ck_assert(!pw_jobe_files_has(f, "c1", "b"));
    ck_assert(pw_jobe_files_has(f, "c1", "c"));
    ck_assert(pw_jobe_files_has(f, "c1", "d"));
    /* "c" held and the least recently used: "a" goes instead. */
    h = pw_jobe_hold_new(f, "c1");
    ck_assert_int_eq(pw_jobe_hold_add(h, "c", &fd, &size), 0);
    ck_assert_int_eq(pw_jobe_files_put(f, "c1", "e", "0123456789", 10, &err),
                     0);
    ck_assert(pw_jobe_files_has(f, "c1", "c"));
    ck_assert(!pw_jobe_files_has(f, "c1", "a"));
    /* Every file held: no room, and a clear refusal. */
    ck_assert_int_eq(pw_jobe_hold_add(h, "d", &fd, &size), 0);
    ck_assert_int_eq(pw_jobe_hold_add(h, "e", &fd, &size), 0);
    memset(&err, 0, sizeof(err));
    ck_assert_int_eq(pw_jobe_files_put(f, "c1", "f", "0123456789", 10, &err),
                     -2);
    ck_assert_ptr_nonnull(strstr(err.message, "runs hold"));
    /* A PUT over a held id: the run keeps the old bytes, which still
     * count; the new file is what later runs get. */
    memset(&err, 0, sizeof(err));
    ck_assert_int_eq(pw_jobe_files_put(f, "c1", "c", "abcdefghij", 10, &err),
                     -2);
    pw_jobe_hold_free(h);
    ck_assert_uint_eq(pw_jobe_files_open_count(f), 0);
    ck_assert_int_eq(pw_jobe_files_put(f, "c1", "f", "0123456789", 10, &err),
                     0);
    h = pw_jobe_hold_new(f, "c1");
    ck_assert_int_eq(pw_jobe_hold_add(h, "f", &fd, &size), 0);
    ck_assert_int_eq(pw_jobe_files_put(f, "c1", "f", "abcdefghij", 10, &err),
                     0);
    char got[10];
    ck_assert_int_eq(pread(fd, got, 10, 0), 10);
    ck_assert_int_eq(memcmp(got, "0123456789", 10), 0);
    int fd2;
    struct pw_jobe_hold *h2 = pw_jobe_hold_new(f, "c1");
    ck_assert_int_eq(pw_jobe_hold_add(h2, "f", &fd2, &size), 0);
    ck_assert_int_ne(fd2, fd);
    ck_assert_int_eq(pread(fd2, got, 10, 0), 10);
    ck_assert_int_eq(memcmp(got, "abcdefghij", 10), 0);
    /* The owner may let the cache go first: the holds keep it. */
    pw_jobe_files_free(f);
    pw_jobe_hold_free(h);
    pw_jobe_hold_free(h2);
    char cmd[64];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* One fd per file for every hold that takes it; past the cache's
 * open-file cap a hold is refused (-2: the server's overload); a file
 * that is not a regular one under an id's name (a symbolic link, a FIFO,
 * a directory) is not in the cache, and opening it does not block. */
START_TEST(file_cache_open_cap_and_odd_files)
{
    char dir[] = "/tmp/check-jobe-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    struct pw_error err = {0};
    struct pw_jobe_files *f =
        pw_jobe_files_new(dir, NULL, 100, 1000, 0, 3600, &err);
    ck_assert_ptr_nonnull(f);
    pw_jobe_files_set_max_open(f, 2);
    ck_assert_int_eq(pw_jobe_files_put(f, "c1", "x1", "1", 1, &err), 0);
    ck_assert_int_eq(pw_jobe_files_put(f, "c1", "x2", "2", 1, &err), 0);
    ck_assert_int_eq(pw_jobe_files_put(f, "c1", "x3", "3", 1, &err), 0);
    struct pw_jobe_hold *h = pw_jobe_hold_new(f, "c1");
    struct pw_jobe_hold *g = pw_jobe_hold_new(f, "c1");
    int fd, fd2;
    long long size;
    ck_assert_int_eq(pw_jobe_hold_add(h, "x1", &fd, &size), 0);
    ck_assert_int_eq(pw_jobe_hold_add(h, "x1", &fd2, &size), 0);
    ck_assert_int_eq(fd, fd2);
    ck_assert_int_eq(pw_jobe_hold_add(g, "x1", &fd2, &size), 0);
    ck_assert_int_eq(fd, fd2);
    ck_assert_int_eq(pw_jobe_hold_add(g, "x2", &fd2, &size), 0);
    ck_assert_uint_eq(pw_jobe_files_open_count(f), 2);
    ck_assert_int_eq(pw_jobe_hold_add(g, "x3", &fd2, &size), -2);
    pw_jobe_hold_free(g);
    ck_assert_uint_eq(pw_jobe_files_open_count(f), 1);
    pw_jobe_hold_free(h);
    ck_assert_uint_eq(pw_jobe_files_open_count(f), 0);
    char path[128];
    snprintf(path, sizeof(path), "%s/c1/link0001", dir);
    ck_assert_int_eq(symlink("/etc/passwd", path), 0);
    snprintf(path, sizeof(path), "%s/c1/fifo0001", dir);
    ck_assert_int_eq(mkfifo(path, 0600), 0);
    snprintf(path, sizeof(path), "%s/c1/dir00001", dir);
    ck_assert_int_eq(mkdir(path, 0700), 0);
    const char *odd[] = {"link0001", "fifo0001", "dir00001"};
    h = pw_jobe_hold_new(f, "c1");
    for (size_t i = 0; i < PW_N_ELEMENTS(odd); i++) {
        ck_assert(!pw_jobe_files_has(f, "c1", odd[i]));
        ck_assert_int_eq(pw_jobe_hold_add(h, odd[i], &fd, &size), -1);
    }
    pw_jobe_hold_free(h);
    /* A sweep leaves them be. */
    ck_assert_int_eq(pw_jobe_files_put(f, "c1", "x4", "4", 1, &err), 0);
    pw_jobe_files_free(f);
    char cmd[64];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* One client's PUTs evict its own files only: another client's stay,
 * whatever the first one sends; a client sees its own files alone; a
 * client over its quota makes room among its own files. */
START_TEST(file_cache_clients)
{
    char dir[] = "/tmp/check-jobe-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    struct pw_error err = {0};
    struct pw_jobe_files *f =
        pw_jobe_files_new(dir, NULL, 10, 40, 20, 3600, &err);
    ck_assert_ptr_nonnull(f);
    ck_assert_int_eq(pw_jobe_files_put(f, "kb", "b1", "0123456789", 10, &err),
                     0);
    ck_assert_int_eq(pw_jobe_files_put(f, "kb", "b2", "0123456789", 10, &err),
                     0);
    ck_assert(pw_jobe_files_has(f, "kb", "b1"));
    ck_assert(!pw_jobe_files_has(f, "ka", "b1"));
    /* 45 PUTs of client ka: never one of kb's files evicted. */
    for (int i = 0; i < 45; i++) {
        char id[16];
        snprintf(id, sizeof(id), "a%d", i);
        ck_assert_int_eq(
            pw_jobe_files_put(f, "ka", id, "0123456789", 10, &err), 0);
        ck_assert(pw_jobe_files_has(f, "ka", id));
    }
    ck_assert(pw_jobe_files_has(f, "kb", "b1"));
    ck_assert(pw_jobe_files_has(f, "kb", "b2"));
    ck_assert(!pw_jobe_files_has(f, "ka", "a0"));
    /* ka holds its two files (its quota): it cannot take kb's room. */
    struct pw_jobe_hold *h = pw_jobe_hold_new(f, "ka");
    int fd;
    long long size;
    ck_assert_int_eq(pw_jobe_hold_add(h, "a44", &fd, &size), 0);
    ck_assert_int_eq(pw_jobe_hold_add(h, "a43", &fd, &size), 0);
    ck_assert_int_eq(pw_jobe_hold_add(h, "b1", &fd, &size), -1);
    ck_assert_int_eq(pw_jobe_files_put(f, "ka", "a45", "0123456789", 10, &err),
                     -2);
    ck_assert(pw_jobe_files_has(f, "kb", "b1"));
    pw_jobe_hold_free(h);
    /* A third client fits beside them while the cap allows, then is
     * refused rather than evicting theirs. */
    ck_assert_int_eq(pw_jobe_files_put(f, "kc", "c1", "x", 1, &err), -2);
    ck_assert(pw_jobe_files_has(f, "kb", "b2"));
    pw_jobe_files_free(f);
    char cmd[64];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

/* Without a directory, each cache makes one of its own (0700, under
 * $TMPDIR), which no other instance shares and which goes with it; a
 * directory of the operator's that others may read is refused. */
START_TEST(file_cache_private_dir)
{
    struct pw_error err = {0};
    struct pw_jobe_files *f =
        pw_jobe_files_new(NULL, NULL, 10, 40, 0, 3600, &err);
    struct pw_jobe_files *g =
        pw_jobe_files_new(NULL, NULL, 10, 40, 0, 3600, &err);
    ck_assert_ptr_nonnull(f);
    ck_assert_ptr_nonnull(g);
    char *dir = strdup(pw_jobe_files_dir(f));
    ck_assert_str_ne(dir, pw_jobe_files_dir(g));
    struct stat st;
    ck_assert_int_eq(stat(dir, &st), 0);
    ck_assert_uint_eq(st.st_mode & 0777, 0700);
    ck_assert_uint_eq(st.st_uid, getuid());
    ck_assert_int_eq(pw_jobe_files_put(f, "k1", "file0001", "x", 1, &err), 0);
    ck_assert(pw_jobe_files_has(f, "k1", "file0001"));
    ck_assert(!pw_jobe_files_has(g, "k1", "file0001"));
    pw_jobe_files_free(g);
    pw_jobe_files_free(f);
    ck_assert_int_eq(stat(dir, &st), -1);
    free(dir);
    char open_dir[] = "/tmp/check-jobe-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(open_dir));
    ck_assert_int_eq(chmod(open_dir, 0755), 0);
    ck_assert_ptr_null(
        pw_jobe_files_new(open_dir, NULL, 10, 40, 0, 3600, &err));
    ck_assert_ptr_nonnull(strstr(err.message, "0700"));
    ck_assert_int_eq(rmdir(open_dir), 0);
}
END_TEST

/* PUT TEXT (LEN bytes) as c1's ID in pieces of PIECE bytes (the
 * last shorter; 0: one piece): the answer's status, its message into
 * MSG (or "" for none). */
static unsigned
put_pieces(struct pw_jobe_files *f, const char *id, const char *text,
           size_t len, size_t piece, long long body_max, char *msg,
           size_t size)
{
    struct pw_jobe_put *p = pw_jobe_put_new(f, "c1", id, body_max);
    struct pw_jobe_answer a;
    memset(&a, 0, sizeof(a));
    bool over = false;
    for (size_t i = 0; !over && (i < len || i == 0);) {
        size_t n = piece == 0 || len - i < piece ? len - i : piece;
        over = pw_jobe_put_feed(p, text + i, n, &a) < 0;
        i += n;
        if (n == 0) {
            break;
        }
    }
    if (!over) {
        pw_jobe_put_end(p, &a);
    }
    pw_jobe_put_free(p);
    json_t *m =
        a.body != NULL ? json_loads(a.body, JSON_DECODE_ANY, NULL) : NULL;
    snprintf(msg, size, "%s", json_is_string(m) ? json_string_value(m) : "");
    json_decref(m);
    unsigned st = a.status;
    pw_jobe_answer_clear(&a);
    return st;
}

/* CLIENT c1's ID holds exactly WANT (N bytes). */
static void
assert_stored(struct pw_jobe_files *f, const char *id, const char *want,
              size_t n)
{
    struct pw_jobe_hold *h = pw_jobe_hold_new(f, "c1");
    int fd;
    long long size;
    ck_assert_int_eq(pw_jobe_hold_add(h, id, &fd, &size), 0);
    ck_assert_int_eq(size, (long long)n);
    char got[256];
    ck_assert_uint_lt(n, sizeof(got));
    ck_assert_int_eq(pread(fd, got, sizeof(got), 0), (ssize_t)n);
    ck_assert_int_eq(memcmp(got, want, n), 0);
    pw_jobe_hold_free(h);
}

/* No temporary file is left in c1's folder. */
static void
assert_no_temp(const char *dir)
{
    char path[128];
    snprintf(path, sizeof(path), "%s/c1", dir);
    DIR *d = opendir(path);
    struct dirent *e;
    while (d != NULL && (e = readdir(d)) != NULL) {
        ck_assert_msg(e->d_name[0] != '.' || strcmp(e->d_name, ".") == 0 ||
                          strcmp(e->d_name, "..") == 0,
                      "temporary file left: %s", e->d_name);
    }
    if (d != NULL) {
        closedir(d);
    }
}

/* A PUT's body parsed as it comes, in pieces of every size and split at
 * every place (inside escapes, \uXXXX, surrogate pairs, UTF-8 and base64
 * quanta): the same bytes stored, the same answers. */
START_TEST(put_streamed)
{
    char dir[] = "/tmp/check-jobe-XXXXXX";
    ck_assert_ptr_nonnull(mkdtemp(dir));
    struct pw_error err = {0};
    struct pw_jobe_files *f =
        pw_jobe_files_new(dir, NULL, 64, 4096, 0, 3600, &err);
    ck_assert_ptr_nonnull(f);
    char msg[256];
    static const char busy[] =
        " \r\n\t{ \"a\" : [1, -2.5e+3, 0, 0.5E-1, {\"file_contents\": 7}, "
        "true, false, null, \"\\u00e9\xc3\xa9\\ud83d\\ude00\\\"\\\\\", []],"
        " \"file_contents\" : \"QUFB\" , \"x\": {},"
        " \"file\\u005fcontents\"\n:\n\"\\u0061Gk\\/SGVsbG8\\u003d\" } \n";
    for (size_t piece = 0; piece < sizeof(busy); piece++) {
        ck_assert_uint_eq(put_pieces(f, "busy", busy, sizeof(busy) - 1, piece,
                                     1 << 20, msg, sizeof(msg)),
                          204);
        assert_stored(f, "busy", "hi?Hello", 8);
    }
    /* Two pieces, split at every place. */
    for (size_t cut = 0; cut < sizeof(busy) - 1; cut++) {
        struct pw_jobe_put *p = pw_jobe_put_new(f, "c1", "split", 1 << 20);
        struct pw_jobe_answer a;
        ck_assert_int_eq(pw_jobe_put_feed(p, busy, cut, &a), 0);
        ck_assert_int_eq(
            pw_jobe_put_feed(p, busy + cut, sizeof(busy) - 1 - cut, &a), 0);
        pw_jobe_put_end(p, &a);
        ck_assert_uint_eq(a.status, 204);
        pw_jobe_answer_clear(&a);
        pw_jobe_put_free(p);
        assert_stored(f, "split", "hi?Hello", 8);
    }
    static const struct {
        const char *body;
        unsigned status;
        const char *stored; /* or the message's start */
        size_t len;
    } cases[] = {
        {"{\"file_contents\": \"\"}", 204, "", 0},
        {"{\"file_contents\":\"QQ==\"}", 204, "A", 1},
        {"{\"file_contents\":\"QQ\\u003d=\"}", 204, "A", 1},
        {"{\"file_contents\":\"QUFB\",\"file_contents\":\"QkJC\"}", 204, "BBB",
         3},
        {"{\"file_contents\":\"@@\",\"file_contents\":\"QkJC\"}", 204, "BBB",
         3},
        {"{\"file_contents\":\"QkJC\",\"x\":{\"file_contents\":1}}", 204,
         "BBB", 3},
        {"{\"file_contents\":\"QUFB\",\"file_contents\":null}", 400,
         "put: missing file_contents parameter", 0},
        {"{\"file_contents\": null}", 400, "put: missing file_contents", 0},
        {"{\"other\": \"QUFB\"}", 400, "put: missing file_contents", 0},
        {"{}", 400, "put: missing file_contents", 0},
        {"", 400, "put: missing file_contents", 0},
        {"[{\"file_contents\":\"QUFB\"}]", 400, "put: missing file_contents",
         0},
        {"\"QUFB\"", 400, "put: missing file_contents", 0},
        {"{\"file_contents\": \"QUFB\"", 400, "put: missing file_contents", 0},
        {"{\"file_contents\": \"QUF", 400, "put: missing file_contents", 0},
        {"{\"file_contents\": \"QUFB\",}", 400, "put: missing file_contents",
         0},
        {"{\"file_contents\": \"QUFB\"} x", 400, "put: missing file_contents",
         0},
        {"{\"a\": 01, \"file_contents\": \"QUFB\"}", 400,
         "put: missing file_contents", 0},
        {"{\"a\": \"\x01\", \"file_contents\": \"QUFB\"}", 400,
         "put: missing file_contents", 0},
        {"{\"a\": \"\xc3\x28\", \"file_contents\": \"QUFB\"}", 400,
         "put: missing file_contents", 0},
        {"{\"file_contents\": \"QU\xd6"
         "FB\"}",
         400, "put: missing file_contents", 0},
        {"{\"file_contents\": \"QU\xc3\xa9"
         "FB\"}",
         400, "put: contents of file t", 0},
        {"{\"a\": \"\\ud800\", \"file_contents\": \"QUFB\"}", 400,
         "put: missing file_contents", 0},
        {"{\"a\": \"\\x\", \"file_contents\": \"QUFB\"}", 400,
         "put: missing file_contents", 0},
        {"{\"a\": tru, \"file_contents\": \"QUFB\"}", 400,
         "put: missing file_contents", 0},
        {"{\"file_contents\": \"QUF\"}", 400,
         "put: contents of file t are not valid base-64", 0},
        {"{\"file_contents\": \"QU=B\"}", 400, "put: contents of file t", 0},
        {"{\"file_contents\": \"QQ==QQ==\"}", 400, "put: contents of file t",
         0},
        {"{\"file_contents\": \"QU FB\"}", 400, "put: contents of file t", 0},
        {"{\"file_contents\": \"QUF\\nB\"}", 400, "put: contents of file t",
         0},
        {"{\"file_contents\": \"QUF\\u00e9\"}", 400, "put: contents of file t",
         0},
        {"{\"file_contents\": 5}", 400, "put: contents of file t", 0},
        {"{\"file_contents\": true}", 400, "put: contents of file t", 0},
        {"{\"file_contents\": [\"QUFB\"]}", 400, "put: contents of file t", 0},
        {"{\"file_contents\": {}}", 400, "put: contents of file t", 0},
    };
    for (size_t i = 0; i < PW_N_ELEMENTS(cases); i++) {
        for (size_t piece = 0; piece < 4; piece++) {
            unsigned st =
                put_pieces(f, "t", cases[i].body, strlen(cases[i].body), piece,
                           1 << 20, msg, sizeof(msg));
            ck_assert_msg(st == cases[i].status, "%s: %u (%s)", cases[i].body,
                          st, msg);
            if (st == 204) {
                assert_stored(f, "t", cases[i].stored, cases[i].len);
            } else {
                ck_assert_msg(strncmp(msg, cases[i].stored,
                                      strlen(cases[i].stored)) == 0,
                              "%s: %s", cases[i].body, msg);
            }
            assert_no_temp(dir);
        }
    }
    /* Past the file's cap (64 bytes): 413 once it is known, nothing
     * left; past the body's cap: 413 too. */
    char big[256];
    snprintf(big, sizeof(big), "{\"file_contents\": \"%s\"}",
             "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFB"
             "QUFBQUFBQUFBQUFBQUFBQUFBQUFBQUFB"); /* 72 bytes */
    ck_assert_uint_eq(
        put_pieces(f, "t", big, strlen(big), 7, 1 << 20, msg, sizeof(msg)),
        413);
    ck_assert_ptr_nonnull(strstr(msg, "too large: more than 64 bytes"));
    ck_assert_uint_eq(
        put_pieces(f, "t", big, strlen(big), 7, 40, msg, sizeof(msg)), 413);
    ck_assert_ptr_nonnull(strstr(msg, "body is more than 40 bytes"));
    assert_no_temp(dir);
    /* Nested past DEPTH_MAX: not JSON json_decode takes. */
    char deep[1200];
    memset(deep, '[', sizeof(deep));
    memcpy(deep, "{\"a\":", 5);
    ck_assert_uint_eq(
        put_pieces(f, "t", deep, sizeof(deep), 0, 1 << 20, msg, sizeof(msg)),
        400);
    pw_jobe_files_free(f);
    char cmd[64];
    snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
    ck_assert_int_eq(system(cmd), 0);
}
END_TEST

START_TEST(support_file_names)
{
    ck_assert(pw_sbx_file_name_ok("data.txt"));
    ck_assert(pw_sbx_file_name_ok("..x"));
    ck_assert(!pw_sbx_file_name_ok(""));
    ck_assert(!pw_sbx_file_name_ok("."));
    ck_assert(!pw_sbx_file_name_ok(".."));
    ck_assert(!pw_sbx_file_name_ok("a/b"));
    ck_assert(!pw_sbx_file_name_ok("/etc/passwd"));
    ck_assert(!pw_sbx_file_name_ok("../secret"));
    char longname[PW_SBX_NAME_MAX + 2];
    memset(longname, 'a', sizeof(longname) - 1);
    longname[sizeof(longname) - 1] = '\0';
    ck_assert(!pw_sbx_file_name_ok(longname));
    longname[PW_SBX_NAME_MAX] = '\0';
    ck_assert(pw_sbx_file_name_ok(longname));
}
END_TEST

static Suite *
jobe_suite(void)
{
    Suite *s = suite_create("jobe");
    TCase *tc = tcase_create("api");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, shell_words);
    tcase_add_test(tc, spec_messages);
    tcase_add_test(tc, spec_fields);
    tcase_add_test(tc, spec_numbers_checked);
    tcase_add_test(tc, outcomes);
    tcase_add_test(tc, busy_reply_is_overload);
    tcase_add_test(tc, cmpinfo_plain);
    tcase_add_test(tc, file_cache);
    tcase_add_test(tc, file_cache_lru_and_holds);
    tcase_add_test(tc, file_cache_open_cap_and_odd_files);
    tcase_add_test(tc, file_cache_clients);
    tcase_add_test(tc, file_cache_private_dir);
    tcase_add_test(tc, put_streamed);
    tcase_add_test(tc, support_file_names);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(jobe_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
