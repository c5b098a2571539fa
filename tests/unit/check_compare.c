/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_compare.c - the built-in checkers of `pyward judge` and grade_code
 * (src/grade/compare.c) against pyward(1)'s rules: exact (byte for byte,
 * the final newline included), whitespace (trailing blanks of each line
 * and blank lines at the end ignored), tokens (the same words whatever
 * whitespace separates them), float (tokens; numbers equal within the
 * tolerance, absolute or relative to the expected number); the one-line
 * diff for a person; the checker names and the suite's defaults.
 * One TAP point a case of the tables.
 */
#include "config.h"

#include <check.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "grade/compare.h"
#include "grade/suite.h"

/* As src/grade/grade.c passes it. */
#define DIFF_LEN 512

struct cmp_case {
    enum pw_checker checker;
    bool ok; /* they match */
    double tolerance;
    const char *want;
    const char *got;
    const char *diff; /* the whole diff when not ok, or NULL: not checked */
};

#define EXACT PW_CHECK_EXACT
#define WS    PW_CHECK_WHITESPACE
#define TOK   PW_CHECK_TOKENS
#define FLT   PW_CHECK_FLOAT

static const struct cmp_case cases[] = {
    /* exact: byte for byte. */
    {EXACT, true, 0, "3\n", "3\n", NULL},
    {EXACT, true, 0, "", "", NULL},
    {EXACT, true, 0, "a\nb\nc", "a\nb\nc", NULL},
    {EXACT, false, 0, "3\n", "3", "the output lacks the final newline"},
    {EXACT, false, 0, "3", "3\n", "the output has an extra final newline"},
    {EXACT, false, 0, "a\nb\n", "a\nc\n", "line 2: expected \"b\", got \"c\""},
    {EXACT, false, 0, "a\n", "a \n", "line 1: expected \"a\", got \"a \""},
    {EXACT, false, 0, "a\n", "a\r\n",
     "line 1: expected \"a\", got \"a\\x0d\""},
    {EXACT, false, 0, "a\r\n", "a\n",
     "line 1: expected \"a\\x0d\", got \"a\""},
    {EXACT, false, 0, "a\nb\n", "a\n", "line 2: expected \"b\", got nothing"},
    {EXACT, false, 0, "a\n", "a\nb\n", "line 2: expected nothing, got \"b\""},
    {EXACT, false, 0, "", "\n", "line 1: expected nothing, got \"\""},
    {EXACT, false, 0, "\n", "", "line 1: expected \"\", got nothing"},
    {EXACT, false, 0, "", "x", "line 1: expected nothing, got \"x\""},
    {EXACT, false, 0, "a\n\n", "a\n", "line 2: expected \"\", got nothing"},
    {EXACT, false, 0, "a\n", " a\n", "line 1: expected \"a\", got \" a\""},
    {EXACT, false, 0, "x\ty\n", "x y\n",
     "line 1: expected \"x\\x09y\", got \"x y\""},
    {EXACT, false, 0, "Yes\n", "yes\n",
     "line 1: expected \"Yes\", got \"yes\""},
    {EXACT, false, 0, "say \"hi\"\n", "say 'hi'\n",
     "line 1: expected \"say \\x22hi\\x22\", got \"say 'hi'\""},
    {EXACT, false, 0, "C:\\\n", "C:/\n",
     "line 1: expected \"C:\\x5c\", got \"C:/\""},
    {EXACT, false, 0, "del\x7f\n", "del\n",
     "line 1: expected \"del\\x7f\", got \"del\""},
    {EXACT, true, 0, "h\xc3\xa9llo w\xc3\xb6rld\n",
     "h\xc3\xa9llo w\xc3\xb6rld\n", NULL},
    {EXACT, false, 0, "h\xc3\xa9llo\n", "hello\n",
     "line 1: expected \"h\xc3\xa9llo\", got \"hello\""},
    {EXACT, false, 0, "1.0\n", "1\n", "line 1: expected \"1.0\", got \"1\""},

    /* whitespace: trailing blanks of lines, blank lines at the end. */
    {WS, true, 0, "a\nb\n", "a  \nb\t\n", NULL},
    {WS, true, 0, "a\nb", "a\nb\n\n\n", NULL},
    {WS, true, 0, "a\nb\n\n \n", "a\nb", NULL},
    {WS, true, 0, "a\r\nb\r\n", "a\nb\n", NULL},
    {WS, true, 0, "a\nb\n", "a\r\nb\r\n", NULL},
    {WS, true, 0, "a\n", "a\f\v \t\r\n", NULL},
    {WS, true, 0, "a\n   \nb\n", "a\n\nb\n", NULL},
    {WS, true, 0, "", "\n\n  \n", NULL},
    {WS, true, 0, "", "", NULL},
    {WS, false, 0, " a\n", "a\n", "line 1: expected \" a\", got \"a\""},
    {WS, false, 0, "a b\n", "a  b\n",
     "line 1: expected \"a b\", got \"a  b\""},
    {WS, false, 0, "a\n\nb\n", "a\nb\n", "line 2: expected \"\", got \"b\""},
    {WS, false, 0, "\na\n", "a\n", "line 1: expected \"\", got \"a\""},
    {WS, false, 0, "", "x", "line 1: expected nothing, got \"x\""},
    {WS, false, 0, "a\nb\n", "a\n", "line 2: expected \"b\", got nothing"},
    {WS, false, 0, "a\nb  \nc\n", "a\nb\nd  \n",
     "line 3: expected \"c\", got \"d\""},
    {WS, false, 0, "a\n", "A\n", "line 1: expected \"a\", got \"A\""},
    {WS, false, 0, "1 2\n", "1\n2\n", "line 1: expected \"1 2\", got \"1\""},
    /* A no-break space (U+00A0) is a character, not a blank. */
    {WS, false, 0, "a\n", "a\xc2\xa0\n", NULL},
    {WS, true, 0, "\xe2\x82\xac 5 \n", "\xe2\x82\xac 5\n", NULL},

    /* tokens: the same words, whatever whitespace separates them. */
    {TOK, true, 0, "1 2 3\n", "1\n2\n3", NULL},
    {TOK, true, 0, "1 2 3", "  1\t2\r\n3  \n\n", NULL},
    {TOK, true, 0, "", "", NULL},
    {TOK, true, 0, "", " \n\t\r\n", NULL},
    {TOK, true, 0, "a\r\nb\r\n", "a b", NULL},
    {TOK, true, 0, "h\xc3\xa9llo w\xc3\xb6rld",
     "h\xc3\xa9llo\n\nw\xc3\xb6rld\n", NULL},
    {TOK, false, 0, "1 2", "1 2 3", "token 3: expected nothing, got \"3\""},
    {TOK, false, 0, "1 2 3", "1 2", "token 3: expected \"3\", got nothing"},
    {TOK, false, 0, "x", "", "token 1: expected \"x\", got nothing"},
    {TOK, false, 0, "", "x", "token 1: expected nothing, got \"x\""},
    {TOK, false, 0, "1.0", "1", "token 1: expected \"1.0\", got \"1\""},
    {TOK, false, 0, "abc", "ab c", "token 1: expected \"abc\", got \"ab\""},
    {TOK, false, 0, "Hello, world", "Hello,world",
     "token 1: expected \"Hello,\", got \"Hello,world\""},
    {TOK, false, 0, "YES", "yes", "token 1: expected \"YES\", got \"yes\""},
    {TOK, false, 0, "1 2", "2 1", "token 1: expected \"1\", got \"2\""},
    {TOK, false, 0, "a b",
     "a\xc2\xa0"
     "b",
     NULL},

    /* float: numbers within the tolerance, other tokens exactly. */
    {FLT, true, 1e-6, "3.14159265", "3.1415926", NULL},
    {FLT, false, 1e-6, "3.14159265", "3.1416",
     "token 1: expected \"3.14159265\", got \"3.1416\""},
    {FLT, true, 0, "1", "1.0", NULL},
    {FLT, true, 0, "1", "1.000", NULL},
    {FLT, true, 0, "100", "1e2", NULL},
    {FLT, true, 0, "1e-3", "0.001", NULL},
    {FLT, true, 0, "2.5E+3", "2500", NULL},
    {FLT, true, 0, "-0", "0", NULL},
    {FLT, true, 0, "5", "+5", NULL},
    {FLT, true, 0, "0.5", ".5", NULL},
    {FLT, true, 0, "5", "5.", NULL},
    {FLT, false, 0, "1", "1.0000001",
     "token 1: expected \"1\", got \"1.0000001\""},
    /* Absolute: at most the tolerance, the bound included. */
    {FLT, true, 0.25, "1", "1.25", NULL},
    {FLT, true, 0.25, "1", "0.75", NULL},
    {FLT, false, 0.25, "1", "1.2500001",
     "token 1: expected \"1\", got \"1.2500001\""},
    {FLT, true, 0.5, "0", "0.5", NULL},
    {FLT, true, 0.5, "0", "-0.5", NULL},
    {FLT, false, 0.5, "0", "0.5000001", NULL},
    /* Relative: at most the tolerance times the expected number. */
    {FLT, true, 0.25, "8", "10", NULL},
    {FLT, true, 0.25, "8", "6", NULL},
    {FLT, false, 0.25, "8", "10.001", NULL},
    {FLT, true, 0.25, "-8", "-10", NULL},
    {FLT, false, 0.25, "-8", "10", NULL},
    /* ... of the expected number, not of the output's: 1.25 > 0.25 * 4
     * (though not > 0.25 * 5.25). */
    {FLT, false, 0.25, "4", "5.25", NULL},
    {FLT, true, 0.25, "5.25", "4", NULL},
    {FLT, true, 1e-6, "1e300", "1.0000005e300", NULL},
    {FLT, false, 1e-6, "1e300", "1.000002e300", NULL},
    {FLT, true, 1e-6, "1e-300", "-1e-300", NULL},
    {FLT, true, 1e-6, "100000", "100000.0000001", NULL},
    /* Words among numbers are compared exactly. */
    {FLT, true, 1e-6, "yes 1.0", "yes 1", NULL},
    {FLT, false, 1e-6, "yes 1", "no 1",
     "token 1: expected \"yes\", got \"no\""},
    {FLT, false, 1e-6, "1", "one", "token 1: expected \"1\", got \"one\""},
    {FLT, false, 1e-6, "one", "1", NULL},
    {FLT, false, 1e-6, "1.5", "1.5x", NULL},
    {FLT, false, 1e-6, "1.5", "1,5", NULL},
    {FLT, false, 1e-6, "1.5", "1.5.0", NULL},
    /* Not finite: no tolerance, the words themselves. */
    {FLT, true, 1e-6, "nan", "nan", NULL},
    {FLT, false, 1e-6, "nan", "NaN", NULL},
    {FLT, true, 1e-6, "inf", "inf", NULL},
    {FLT, false, 1e-6, "inf", "Infinity", NULL},
    {FLT, false, 1e-6, "inf", "1e999", NULL},
    {FLT, true, 1e-6, "1e999", "1e999", NULL},
    {FLT, false, 1e9, "nan", "1", NULL},
    {FLT, false, 1e9, "1", "nan", NULL},
    /* A number written in hexadecimal is not the decimal one. */
    {FLT, false, 1e-6, "16", "0x10", NULL},
    {FLT, false, 1e-6, "16", "0x1p4", NULL},
    /* Layout is free, the count of tokens is not. */
    {FLT, true, 1e-6, "1.0\n2.0\n", "1 2", NULL},
    {FLT, false, 1e-6, "1 2 3", "1 2", "token 3: expected \"3\", got nothing"},
    {FLT, false, 1e-6, "1 2", "1 2 3", "token 3: expected nothing, got \"3\""},
    {FLT, true, 1e-6, "", "", NULL},
    {FLT, false, 1e-6, "", "0", "token 1: expected nothing, got \"0\""},
    {FLT, false, 1e-6, "1 2 3", "1 2.5 3",
     "token 2: expected \"2\", got \"2.5\""},
};

/* The diff of the last comparison. */
static char diff[DIFF_LEN];

static bool
cmp_len(enum pw_checker c, double tol, const char *want, size_t wn,
        const char *got, size_t gn)
{
    memset(diff, 'X', sizeof(diff) - 1);
    diff[sizeof(diff) - 1] = '\0';
    return pw_compare(c, tol, want, wn, got, gn, diff, sizeof(diff));
}

static bool
cmp(enum pw_checker c, double tol, const char *want, const char *got)
{
    return cmp_len(c, tol, want, strlen(want), got, strlen(got));
}

/* Each case as it is, then the other way round: exact, whitespace and
 * tokens are symmetric, and so is float with no tolerance (a tolerance
 * is relative to the expected number, which swapping changes). */
START_TEST(table)
{
    const struct cmp_case *k = &cases[_i];
    bool ok = cmp(k->checker, k->tolerance, k->want, k->got);
    ck_assert_msg(ok == k->ok, "%s, tolerance %g: \"%s\" vs \"%s\": %s (%s)",
                  pw_checker_name(k->checker), k->tolerance, k->want, k->got,
                  ok ? "matched" : "differed", diff);
    if (ok) {
        ck_assert_str_eq(diff, "");
    } else {
        ck_assert_msg(diff[0] != '\0', "no diff");
        if (k->diff != NULL) {
            ck_assert_str_eq(diff, k->diff);
        }
    }
    if (k->checker != FLT || k->tolerance == 0) {
        ck_assert_msg(cmp(k->checker, k->tolerance, k->got, k->want) == k->ok,
                      "swapped: \"%s\" vs \"%s\": %s", k->got, k->want, diff);
    }
}
END_TEST

START_TEST(nul_bytes)
{
    ck_assert(cmp_len(EXACT, 0, "a\0b\n", 4, "a\0b\n", 4));
    ck_assert(!cmp_len(EXACT, 0, "a\0b\n", 4, "a\0c\n", 4));
    ck_assert_str_eq(diff, "line 1: expected \"a\\x00b\", got \"a\\x00c\"");
    /* A NUL ends no line and is no blank. */
    ck_assert(!cmp_len(WS, 0, "a\n", 2, "a\0\n", 3));
    ck_assert(!cmp_len(TOK, 0, "a b", 3, "a\0b", 3));
    ck_assert(cmp_len(TOK, 0, "a\0b", 3, " a\0b ", 5));
    /* A number ends at its token's end, not at a NUL inside it. */
    ck_assert(!cmp_len(FLT, 1e-6, "1", 1, "1\0z", 3));
    ck_assert(!cmp_len(FLT, 1e-6, "1\0z", 3, "1", 1));
    ck_assert(cmp_len(FLT, 1e-6, "1\0z", 3, "1\0z", 3));
}
END_TEST

START_TEST(program_is_not_built_in)
{
    ck_assert(!cmp(PW_CHECK_PROGRAM, 0, "x", "x"));
    ck_assert_str_eq(diff, "no built-in checker");
}
END_TEST

/* A line of N copies of C (owned). */
static char *
repeat(char c, size_t n)
{
    char *s = pw_xmalloc(n + 1);
    memset(s, c, n);
    s[n] = '\0';
    return s;
}

START_TEST(long_lines)
{
    size_t n = 1 << 20;
    PW_AUTOFREE char *a = repeat('a', n);
    PW_AUTOFREE char *b = repeat('a', n);
    static const enum pw_checker all[] = {EXACT, WS, TOK, FLT};
    for (size_t i = 0; i < PW_N_ELEMENTS(all); i++) {
        ck_assert(cmp(all[i], 1e-6, a, b));
    }
    b[n - 1] = 'b';
    for (size_t i = 0; i < PW_N_ELEMENTS(all); i++) {
        ck_assert(!cmp(all[i], 1e-6, a, b));
        ck_assert_uint_lt(strlen(diff), 200);
    }
    /* 60 bytes shown, then "...". */
    char want[200];
    snprintf(want, sizeof(want),
             "token 1: expected \"%.60s...\", got \"%.60s...\"", a, b);
    ck_assert_str_eq(diff, want);
}
END_TEST

START_TEST(long_line_diff_cut_on_a_character)
{
    /* "a" then 30 euro signs (3 bytes each): 60 bytes end inside the
     * 20th, which is left out whole. */
    char line[128] = "a";
    for (int i = 0; i < 30; i++) {
        strcat(line, "\xe2\x82\xac");
    }
    ck_assert(!cmp(EXACT, 0, line, "b"));
    char want[256] = "line 1: expected \"a";
    for (int i = 0; i < 19; i++) {
        strcat(want, "\xe2\x82\xac");
    }
    strcat(want, "...\", got \"b\"");
    ck_assert_str_eq(diff, want);
}
END_TEST

START_TEST(short_line_diff_is_whole)
{
    PW_AUTOFREE char *sixty = repeat('z', 60);
    ck_assert(!cmp(EXACT, 0, sixty, "y"));
    char want[128];
    snprintf(want, sizeof(want), "line 1: expected \"%s\", got \"y\"", sixty);
    ck_assert_str_eq(diff, want);
}
END_TEST

START_TEST(many_lines)
{
    struct pw_buf w, g;
    pw_buf_init(&w);
    pw_buf_init(&g);
    for (int i = 1; i <= 10000; i++) {
        pw_buf_printf(&w, "%d\n", i);
        pw_buf_printf(&g, "%d\n", i == 10000 ? -1 : i);
    }
    ck_assert(!cmp(EXACT, 0, w.data, g.data));
    ck_assert_str_eq(diff, "line 10000: expected \"10000\", got \"-1\"");
    ck_assert(!cmp(WS, 0, w.data, g.data));
    ck_assert_str_eq(diff, "line 10000: expected \"10000\", got \"-1\"");
    ck_assert(!cmp(TOK, 0, w.data, g.data));
    ck_assert_str_eq(diff, "token 10000: expected \"10000\", got \"-1\"");
    ck_assert(!cmp(FLT, 1e-6, w.data, g.data));
    ck_assert_str_eq(diff, "token 10000: expected \"10000\", got \"-1\"");
    ck_assert(cmp(FLT, 1e9, w.data, g.data));
    pw_buf_free(&w);
    pw_buf_free(&g);
}
END_TEST

/* A number however long it is written is still compared as a number. */
START_TEST(long_numbers)
{
    char got[300] = "0.5";
    for (int i = 0; i < 200; i++) {
        strcat(got, "0");
    }
    strcat(got, "1");
    ck_assert_msg(cmp(FLT, 1e-6, "0.5", got), "%s", diff);
    ck_assert_msg(cmp(FLT, 1e-6, got, "0.5"), "%s", diff);
    got[1] = '7'; /* 0.7000...01 */
    ck_assert(!cmp(FLT, 1e-6, "0.5", got));
    ck_assert(!cmp(TOK, 1e-6, "0.5", "0.50"));
}
END_TEST

/* DIFF is always terminated within LEN, and emptied when they match. */
START_TEST(diff_buffer)
{
    char small[8];
    memset(small, 'X', sizeof(small));
    ck_assert(
        !pw_compare(EXACT, 0, "abc\n", 4, "abd\n", 4, small, sizeof(small)));
    ck_assert_uint_lt(strlen(small), sizeof(small));
    ck_assert(strncmp(small, "line 1:", 7) == 0);
    char one[1] = {'X'};
    ck_assert(!pw_compare(TOK, 0, "a", 1, "b", 1, one, sizeof(one)));
    ck_assert_int_eq(one[0], '\0');
    char big[64];
    strcpy(big, "left over");
    ck_assert(pw_compare(WS, 0, "a", 1, "a ", 2, big, sizeof(big)));
    ck_assert_str_eq(big, "");
}
END_TEST

START_TEST(checker_names)
{
    static const char *const names[] = {"exact", "whitespace", "tokens",
                                        "float", "program"};
    for (size_t i = 0; i < PW_N_ELEMENTS(names); i++) {
        ck_assert_int_eq(pw_checker_parse(names[i]), (int)i);
        ck_assert_str_eq(pw_checker_name((enum pw_checker)i), names[i]);
    }
    ck_assert_int_eq(pw_checker_parse("Exact"), -1);
    ck_assert_int_eq(pw_checker_parse("diff"), -1);
    ck_assert_int_eq(pw_checker_parse(""), -1);
    ck_assert_int_eq(pw_checker_parse(NULL), -1);
}
END_TEST

/* Parse TEXT as a suite into S; 0 or -1 with ERR. */
static int
suite(const char *text, struct pw_grade_suite *s, struct pw_error *err)
{
    json_error_t jerr;
    json_t *root = json_loads(text, 0, &jerr);
    ck_assert_msg(root != NULL, "%s", jerr.text);
    int rc = pw_grade_suite_parse(root, NULL, s, err);
    json_decref(root);
    return rc;
}

/* pyward(1): checker defaults to exact, tolerance to 1e-6; defaults
 * give any field to the tests that do not set it. */
START_TEST(suite_checker_defaults)
{
    struct pw_grade_suite s;
    struct pw_error err = {0};
    ck_assert_int_eq(
        suite("{\"tests\":[{\"expected_stdout\":\"1\"}]}", &s, &err), 0);
    ck_assert_int_eq(s.tests[0].checker, PW_CHECK_EXACT);
    ck_assert(s.tests[0].tolerance == 1e-6);
    pw_grade_suite_free(&s);
    ck_assert_int_eq(
        suite("{\"tests\":[{\"expected_stdout\":\"1\"},"
              "{\"expected_stdout\":\"2\",\"checker\":\"exact\"}],"
              "\"defaults\":{\"checker\":\"float\",\"tolerance\":0.5}}",
              &s, &err),
        0);
    ck_assert_int_eq(s.tests[0].checker, PW_CHECK_FLOAT);
    ck_assert(s.tests[0].tolerance == 0.5);
    ck_assert_int_eq(s.tests[1].checker, PW_CHECK_EXACT);
    pw_grade_suite_free(&s);
}
END_TEST

START_TEST(suite_checker_refused)
{
    struct pw_grade_suite s;
    struct pw_error err = {0};
    ck_assert_int_eq(suite("{\"tests\":[{\"expected_stdout\":\"1\","
                           "\"checker\":\"fuzzy\"}]}",
                           &s, &err),
                     -1);
    ck_assert_ptr_nonnull(strstr(err.message, "tests[0]"));
    ck_assert_ptr_nonnull(strstr(err.message, "\"checker\""));
    ck_assert_int_eq(suite("{\"tests\":[{\"expected_stdout\":\"1\","
                           "\"tolerance\":-1}]}",
                           &s, &err),
                     -1);
    ck_assert_ptr_nonnull(strstr(err.message, "\"tolerance\""));
    ck_assert_int_eq(suite("{\"tests\":[{\"expected_stdout\":\"1\","
                           "\"tolerance\":\"1e-3\"}]}",
                           &s, &err),
                     -1);
    ck_assert_ptr_nonnull(strstr(err.message, "\"tolerance\""));
    /* Only the program checker does without expected output. */
    ck_assert_int_eq(suite("{\"tests\":[{\"checker\":\"float\"}]}", &s, &err),
                     -1);
    ck_assert_ptr_nonnull(strstr(err.message, "expected_stdout"));
}
END_TEST

int
main(void)
{
    Suite *s = suite_create("compare");
    TCase *tc = tcase_create("checkers");
    tcase_add_loop_test(tc, table, 0, (int)PW_N_ELEMENTS(cases));
    tcase_add_test(tc, nul_bytes);
    tcase_add_test(tc, program_is_not_built_in);
    tcase_add_test(tc, long_lines);
    tcase_add_test(tc, long_line_diff_cut_on_a_character);
    tcase_add_test(tc, short_line_diff_is_whole);
    tcase_add_test(tc, many_lines);
    tcase_add_test(tc, long_numbers);
    tcase_add_test(tc, diff_buffer);
    tcase_add_test(tc, checker_names);
    tcase_add_test(tc, suite_checker_defaults);
    tcase_add_test(tc, suite_checker_refused);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
