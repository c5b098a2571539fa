/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * suite.c - read a grading suite strictly: every field checked, every
 * unknown field refused, each message naming the test and the field.
 */
#include "config.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/util.h"
#include "grade/suite.h"

/* A test's time limit may not exceed what the server allows a run. */
#define TIMEOUT_MAX 300.0

static const char *const checker_names[] = {
    [PW_CHECK_EXACT] = "exact",     [PW_CHECK_WHITESPACE] = "whitespace",
    [PW_CHECK_TOKENS] = "tokens",   [PW_CHECK_FLOAT] = "float",
    [PW_CHECK_PROGRAM] = "program",
};

int
pw_checker_parse(const char *name)
{
    for (size_t i = 0; i < PW_N_ELEMENTS(checker_names); i++) {
        if (name != NULL && strcmp(name, checker_names[i]) == 0) {
            return (int)i;
        }
    }
    return -1;
}

const char *
pw_checker_name(enum pw_checker c)
{
    return checker_names[c];
}

/* Where a field is: "defaults" or "tests[3] (\"name\")". */
struct where {
    char text[160];
};

static int
bad(struct pw_error *err, const struct where *w, const char *field,
    const char *what)
{
    return pw_fail(err, PW_ERR_INPUT, "%s: \"%s\" %s", w->text, field, what);
}

static int
take_number(const json_t *v, const struct where *w, const char *field,
            double lo, double hi, double *out, struct pw_error *err)
{
    if (!json_is_number(v)) {
        return bad(err, w, field, "must be a number");
    }
    if (pw_json_number_in(v, field, lo, hi, out, NULL) < 0) {
        char msg[96];
        snprintf(msg, sizeof(msg), "must be between %g and %g", lo, hi);
        return bad(err, w, field, msg);
    }
    return 0;
}

/* "256m", "1g", or a whole number of bytes. */
static int
take_memory(const json_t *v, const struct where *w, long long *out,
            struct pw_error *err)
{
    long long m = -1;
    if (json_is_string(v)) {
        m = pw_parse_size(json_string_value(v));
    } else if (pw_json_integer_in(v, "memory", 1, LLONG_MAX, &m, NULL) < 0) {
        m = -1;
    }
    if (m <= 0) {
        return bad(err, w, "memory",
                   "must be a size in bytes (a whole number above 0), or a "
                   "string such as \"256m\" or \"1g\"");
    }
    *out = m;
    return 0;
}

static int
take_text(const json_t *v, const struct where *w, const char *field,
          char **out, size_t *len, struct pw_error *err)
{
    if (!json_is_string(v)) {
        return bad(err, w, field, "must be a string");
    }
    *len = json_string_length(v);
    *out = pw_xmalloc(*len + 1);
    memcpy(*out, json_string_value(v), *len + 1);
    return 0;
}

/* The fields a test and the defaults share. */
static int
take_common(const char *key, const json_t *v, const struct where *w,
            struct pw_grade_test *t, struct pw_error *err)
{
    if (strcmp(key, "checker") == 0) {
        int c = pw_checker_parse(json_string_value(v));
        if (c < 0) {
            return bad(err, w, key,
                       "must be one of \"exact\", \"whitespace\", "
                       "\"tokens\", \"float\", \"program\"");
        }
        t->checker = (enum pw_checker)c;
        return 0;
    }
    if (strcmp(key, "tolerance") == 0) {
        return take_number(v, w, key, 0, 1e9, &t->tolerance, err);
    }
    if (strcmp(key, "timeout") == 0) {
        return take_number(v, w, key, 0.001, TIMEOUT_MAX, &t->timeout, err);
    }
    if (strcmp(key, "memory") == 0) {
        return take_memory(v, w, &t->memory, err);
    }
    if (strcmp(key, "points") == 0) {
        return take_number(v, w, key, 0, 1e6, &t->points, err);
    }
    if (strcmp(key, "stdin") == 0) {
        free(t->stdin_data);
        return take_text(v, w, key, &t->stdin_data, &t->stdin_len, err);
    }
    return bad(err, w, key,
               "is not a field of a test (name, stdin, expected_stdout, "
               "checker, tolerance, timeout, memory, points)");
}

static int
take_defaults(const json_t *d, struct pw_grade_test *t, struct pw_error *err)
{
    struct where w = {"defaults"};
    if (!json_is_object(d)) {
        return pw_fail(err, PW_ERR_INPUT, "\"defaults\" must be an object");
    }
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)d, key, v) {
        if (strcmp(key, "name") == 0 || strcmp(key, "expected_stdout") == 0) {
            return bad(err, &w, key, "belongs to each test, not to defaults");
        }
        if (take_common(key, v, &w, t, err) < 0) {
            return -1;
        }
    }
    return 0;
}

static void
test_clear(struct pw_grade_test *t)
{
    free(t->name);
    free(t->stdin_data);
    free(t->expected);
    memset(t, 0, sizeof(*t));
}

/* T starts as a copy of the defaults (its strings not yet owned). */
static int
take_test(const json_t *o, size_t i, const struct pw_grade_test *defaults,
          struct pw_grade_test *t, struct pw_error *err)
{
    *t = *defaults;
    t->name = NULL;
    t->expected = NULL;
    t->stdin_data = pw_xmalloc(defaults->stdin_len + 1);
    memcpy(t->stdin_data, defaults->stdin_data, defaults->stdin_len + 1);
    const json_t *name = json_object_get(o, "name");
    struct where w;
    if (json_is_string(name)) {
        snprintf(w.text, sizeof(w.text), "tests[%zu] (\"%.80s\")", i,
                 json_string_value(name));
    } else {
        snprintf(w.text, sizeof(w.text), "tests[%zu]", i);
    }
    if (!json_is_object(o)) {
        return pw_fail(err, PW_ERR_INPUT, "%s: must be an object", w.text);
    }
    const char *key;
    const json_t *v;
    size_t len = 0;
    json_object_foreach((json_t *)o, key, v) {
        int rc =
            strcmp(key, "name") == 0
                ? take_text(v, &w, key, &t->name, &len, err)
            : strcmp(key, "expected_stdout") == 0
                ? take_text(v, &w, key, &t->expected, &t->expected_len, err)
                : take_common(key, v, &w, t, err);
        if (rc < 0) {
            return -1;
        }
    }
    if (t->name == NULL) {
        t->name = pw_xasprintf("test %zu", i + 1);
    }
    if (t->expected == NULL && t->checker != PW_CHECK_PROGRAM) {
        return bad(err, &w, "expected_stdout",
                   "is missing (only the \"program\" checker can do "
                   "without it)");
    }
    return 0;
}

static int
take_checker(const json_t *root, const char *base_dir,
             struct pw_grade_suite *s, struct pw_error *err)
{
    struct where w = {"the suite"};
    const json_t *code = json_object_get(root, "checker_code");
    const json_t *file = json_object_get(root, "checker_program");
    if (code != NULL && file != NULL) {
        return pw_fail(err, PW_ERR_INPUT,
                       "give \"checker_code\" or \"checker_program\", "
                       "not both");
    }
    if (code != NULL) {
        return take_text(code, &w, "checker_code", &s->checker_code,
                         &s->checker_len, err);
    }
    if (file == NULL) {
        return 0;
    }
    if (base_dir == NULL || !json_is_string(file)) {
        return bad(err, &w, "checker_program",
                   base_dir == NULL ? "is for suites read from a file "
                                      "(use \"checker_code\")"
                                    : "must be a file name");
    }
    const char *name = json_string_value(file);
    PW_AUTOFREE char *path = name[0] == '/'
                                 ? pw_xstrdup(name)
                                 : pw_xasprintf("%s/%s", base_dir, name);
    struct pw_buf b;
    pw_buf_init(&b);
    if (pw_read_file(path, 1 << 20, &b, err) < 0) {
        pw_buf_free(&b);
        return -1;
    }
    s->checker_code = pw_buf_take(&b, &s->checker_len);
    return 0;
}

static int
check_keys(const json_t *root, struct pw_error *err)
{
    static const char *const known[] = {"tests", "defaults", "checker_code",
                                        "checker_program", "isolation"};
    const char *key;
    const json_t *v;
    json_object_foreach((json_t *)root, key, v) {
        bool ok = false;
        for (size_t i = 0; i < PW_N_ELEMENTS(known); i++) {
            ok = ok || strcmp(key, known[i]) == 0;
        }
        if (!ok) {
            return pw_fail(err, PW_ERR_INPUT,
                           "\"%s\" is not a field of a suite (tests, "
                           "defaults, checker_code, checker_program, "
                           "isolation)",
                           key);
        }
    }
    return 0;
}

static int
parse(const json_t *root, const char *base_dir, struct pw_grade_suite *s,
      struct pw_error *err)
{
    if (!json_is_object(root)) {
        return pw_fail(err, PW_ERR_INPUT, "a suite is a JSON object");
    }
    const json_t *tests = json_object_get(root, "tests");
    size_t n = json_array_size(tests);
    if (!json_is_array(tests) || n == 0 || n > PW_GRADE_TESTS_MAX) {
        return pw_fail(err, PW_ERR_INPUT,
                       "\"tests\" must be a list of 1 to %d tests",
                       PW_GRADE_TESTS_MAX);
    }
    struct pw_grade_test defaults = {.checker = PW_CHECK_EXACT,
                                     .tolerance = 1e-6,
                                     .points = 1,
                                     .stdin_data = pw_xstrdup("")};
    const json_t *d = json_object_get(root, "defaults");
    int rc = check_keys(root, err);
    if (rc == 0 && d != NULL) {
        rc = take_defaults(d, &defaults, err);
    }
    s->tests = pw_xcalloc(n, sizeof(*s->tests));
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = take_test(json_array_get(tests, i), i, &defaults, &s->tests[i],
                       err);
        s->n = i + 1;
    }
    test_clear(&defaults);
    if (rc == 0) {
        rc = take_checker(root, base_dir, s, err);
    }
    const json_t *iso = json_object_get(root, "isolation");
    if (rc == 0 && iso != NULL) {
        const char *v = json_string_value(iso);
        if (v != NULL && strcmp(v, "process") == 0) {
            s->isolation = PW_ISOLATION_PROCESS;
        } else if (v == NULL || strcmp(v, "batch") != 0) {
            rc = pw_fail(err, PW_ERR_INPUT,
                         "\"isolation\" must be \"batch\" or \"process\"");
        }
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (s->tests[i].checker == PW_CHECK_PROGRAM &&
            s->checker_code == NULL) {
            rc = pw_fail(err, PW_ERR_INPUT,
                         "tests[%zu] (\"%s\"): the \"program\" checker needs "
                         "\"checker_code\" or \"checker_program\"",
                         i, s->tests[i].name);
        }
    }
    return rc;
}

int
pw_grade_suite_parse(const json_t *root, const char *base_dir,
                     struct pw_grade_suite *s, struct pw_error *err)
{
    memset(s, 0, sizeof(*s));
    if (parse(root, base_dir, s, err) < 0) {
        pw_grade_suite_free(s);
        return -1;
    }
    return 0;
}

int
pw_grade_suite_load(const char *path, struct pw_grade_suite *s,
                    struct pw_error *err)
{
    memset(s, 0, sizeof(*s));
    json_t *root = pw_json_load_file(path, err);
    if (root == NULL) {
        return -1;
    }
    PW_AUTOFREE char *dir = pw_xstrdup(path);
    char *slash = strrchr(dir, '/');
    if (slash != NULL) {
        *slash = '\0';
    } else {
        strcpy(dir, ".");
    }
    int rc = pw_grade_suite_parse(root, dir[0] != '\0' ? dir : "/", s, err);
    if (rc < 0) {
        char msg[sizeof(err->message)];
        snprintf(msg, sizeof(msg), "%s", err->message);
        pw_fail(err, PW_ERR_INPUT, "%s: %s", path, msg);
    }
    json_decref(root);
    return rc;
}

void
pw_grade_suite_free(struct pw_grade_suite *s)
{
    for (size_t i = 0; i < s->n; i++) {
        test_clear(&s->tests[i]);
    }
    free(s->tests);
    free(s->checker_code);
    memset(s, 0, sizeof(*s));
}
