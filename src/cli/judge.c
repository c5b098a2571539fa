/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * judge.c - `pyward judge`: grade a program on a suite of tests and
 * print the verdicts as a table, as JSON, or in CodeRunner's shape.
 */
#include "config.h"

#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json.h"
#include "cli/cmd.h"
#include "cli/opts.h"
#include "core/py.h"
#include "core/rules.h"
#include "core/util.h"
#include "validator/blob.h"
#include "grade/queue.h"
#include "grade/grade.h"
#include "grade/suite.h"
#include "server/events.h"

enum judge_format { FORMAT_TABLE, FORMAT_JSON, FORMAT_CODERUNNER };

struct judge_opts {
    enum judge_format format;
    int jobs;
    long long max_output;
    char profiles[256];
    bool skip_validation;
    const char *rules;
    const char *tests;
    const char *program;
    const char *event_log; /* --event-log, or NULL: none */
};

static void
usage(FILE *out)
{
    fprintf(out,
            "usage: pyward judge [--json | --coderunner] [--jobs N] "
            "[--max-output BYTES]\n"
            "                    [--profile NAME]... [--rules SET] "
            "[--skip-validation]\n"
            "                    [--event-log WHERE]\n"
            "                    TESTS PROGRAM|-\n"
            "Run PROGRAM in the sandbox on each test of the JSON file TESTS "
            "and compare its\noutput; print a verdict per test (AC WA TLE "
            "MLE OLE RE CE IE) and overall.\nExit 0 if every test passes, "
            "1 if not, 2 on usage errors (see pyward(1)).\n");
}

static int
parse_opts(int argc, char **argv, struct judge_opts *o)
{
    static const struct option longopts[] = {
        {"json", no_argument, NULL, 'j'},
        {"coderunner", no_argument, NULL, 'c'},
        {"jobs", required_argument, NULL, 'J'},
        {"max-output", required_argument, NULL, 'o'},
        {"profile", required_argument, NULL, 'p'},
        {"rules", required_argument, NULL, 'r'},
        {"skip-validation", no_argument, NULL, 's'},
        {"event-log", required_argument, NULL, 'E'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    char *end;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 'j':
        case 'c':
            o->format = c == 'j' ? FORMAT_JSON : FORMAT_CODERUNNER;
            break;
        case 'J':
            o->jobs = (int)strtol(optarg, &end, 10);
            if (*end != '\0' || o->jobs < 1 || o->jobs > 64) {
                fprintf(stderr, "pyward: judge: --jobs must be 1 to 64\n");
                return -1;
            }
            break;
        case 'o':
            o->max_output = pw_parse_size(optarg);
            if (o->max_output <= 0) {
                fprintf(stderr, "pyward: judge: bad size '%s'\n", optarg);
                return -1;
            }
            break;
        case 'p':
            if (pw_cli_add_profile(o->profiles, sizeof(o->profiles), optarg) <
                0) {
                return -1;
            }
            break;
        case 'r':
            o->rules = optarg;
            break;
        case 's':
            o->skip_validation = true;
            break;
        case 'E':
            o->event_log = optarg;
            break;
        case 'h':
            usage(stdout);
            exit(0);
        default:
            return -1;
        }
    }
    if (optind != argc - 2) {
        return -1;
    }
    o->tests = argv[optind];
    o->program = argv[optind + 1];
    return 0;
}

/* One line a test (and the further lines of a checker's feedback); its
 * message left out when BRIEF (the compile errors are listed once below
 * the table in plain words).  A runtime error shows python3's last line
 * and the line of the program it was raised on. */
static void
print_row(size_t i, const json_t *t, bool brief)
{
    const char *v = json_string_value(json_object_get(t, "verdict"));
    const json_t *time = json_object_get(t, "time");
    const json_t *mem = json_object_get(t, "memory_kb");
    const char *diff = json_string_value(json_object_get(t, "diff"));
    const char *msg = json_string_value(json_object_get(t, "message"));
    const char *fb = json_string_value(json_object_get(t, "feedback"));
    const json_t *line = json_object_get(t, "line");
    PW_AUTOFREE char *at =
        msg != NULL && json_is_integer(line)
            ? pw_xasprintf("%s (line %lld)", msg,
                           (long long)json_integer_value(line))
            : NULL;
    msg = at != NULL ? at : msg;
    size_t fb_first = fb != NULL ? strcspn(fb, "\n") : 0;
    char ms[32] = "-", mb[32] = "-";
    if (json_is_number(time)) {
        snprintf(ms, sizeof(ms), "%.0f ms", json_number_value(time) * 1e3);
    }
    if (json_is_integer(mem) && json_integer_value(mem) > 0) {
        snprintf(mb, sizeof(mb), "%.1f MB",
                 (double)json_integer_value(mem) / 1024.0);
    }
    printf("%3zu  %-20.20s %-7s %8s %9s  %g/%g  %.*s\n", i + 1,
           json_string_value(json_object_get(t, "name")), v, ms, mb,
           json_number_value(json_object_get(t, "points")),
           json_number_value(json_object_get(t, "max_points")),
           diff != NULL            ? INT_MAX
           : fb != NULL            ? (int)fb_first
           : msg != NULL && !brief ? INT_MAX
                                   : 0,
           diff != NULL            ? diff
           : fb != NULL            ? fb
           : msg != NULL && !brief ? msg
                                   : "");
    /* The feedback's further lines, under the row. */
    for (const char *p = fb != NULL && diff == NULL && fb[fb_first] != '\0'
                             ? fb + fb_first + 1
                             : NULL;
         p != NULL;) {
        size_t n = strcspn(p, "\n");
        printf("%5s%.*s\n", "", (int)n, p);
        p = p[n] != '\0' ? p + n + 1 : NULL;
    }
}

static void
print_table(const json_t *report)
{
    printf("%3s  %-20s %-7s %8s %9s  %s\n", "#", "test", "verdict", "time",
           "memory", "points");
    size_t i;
    json_t *t; /* borrowed */
    /* What the student reads: the errors in plain words. */
    const json_t *ce = json_object_get(report, "compile_errors_plain");
    json_array_foreach(json_object_get(report, "tests"), i, t) {
        print_row(i, t, ce != NULL);
    }
    json_array_foreach(ce, i, t) {
        printf("compile error: %s\n", json_string_value(t));
    }
    printf("verdict %s: %lld of %lld passed, %g of %g points (%.2f)\n",
           json_string_value(json_object_get(report, "verdict")),
           (long long)json_integer_value(json_object_get(report, "passed")),
           (long long)json_integer_value(json_object_get(report, "total")),
           json_number_value(json_object_get(report, "points")),
           json_number_value(json_object_get(report, "max_points")),
           json_number_value(json_object_get(report, "fraction")));
}

static void
print_report(const struct judge_opts *o, const json_t *report,
             const struct pw_grade_suite *s)
{
    if (o->format == FORMAT_TABLE) {
        print_table(report);
        return;
    }
    json_t *out = o->format == FORMAT_JSON ? json_incref((json_t *)report)
                                           : pw_grade_coderunner(report, s);
    PW_AUTOFREE char *text =
        pw_json_dumps(out, JSON_COMPACT | JSON_ENSURE_ASCII);
    fputs(text != NULL ? text : "{}", stdout);
    fputc('\n', stdout);
    json_decref(out);
}

struct judge_env {
    struct pw_profiles *profiles;
    struct pw_ruleset *rules;
    struct pw_zygote *z;
    struct pw_importset set;
    unsigned caps; /* the --profile list's, whatever the zygote's */
};

static int
env_open(const struct judge_opts *o, const struct pw_grade_suite *s,
         const struct pw_buf *code, struct judge_env *e, struct pw_error *err)
{
    PW_AUTOFREE char *dir = pw_rules_dir(NULL);
    e->profiles = pw_profiles_load(dir, err);
    if (e->profiles == NULL) {
        return -1;
    }
    pw_profile_mask mask = pw_profiles_default_mask(e->profiles);
    if (o->profiles[0] != '\0' &&
        pw_profiles_parse_list(e->profiles, o->profiles + 1, &mask, err) < 0) {
        return -1;
    }
    e->caps = pw_profiles_caps(e->profiles, mask);
    if (pw_py_init(err) < 0) {
        return -1;
    }
    e->rules = o->skip_validation ? NULL : pw_cli_ruleset(o->rules, dir, err);
    if (e->rules == NULL && !o->skip_validation) {
        return -1;
    }
    /* A checker program brings imports of its own: the zygote keeps them
     * all then. */
    if (s->checker_code == NULL) {
        mask = pw_cli_light_mask(e->rules, e->profiles, mask, code->data,
                                 code->len);
    }
    e->set = (struct pw_importset){.profiles = e->profiles, .mask = mask};
    /* The program's imports and its checker's, imported ahead. */
    struct pw_sbx_source src[] = {{code->data, code->len},
                                  {s->checker_code, s->checker_len}};
    e->z = pw_zygote_new_for(e->profiles, mask, src,
                             s->checker_code != NULL ? 2 : 1, err);
    if (e->z != NULL) {
        pw_zygote_set_compiler(e->z, pw_blob_compile);
    }
    return e->z != NULL ? 0 : -1;
}

static void
env_close(struct judge_env *e)
{
    if (e->z != NULL) {
        pw_zygote_free(e->z);
    }
    if (e->rules != NULL) {
        pw_ruleset_free(e->rules);
    }
    if (e->profiles != NULL) {
        pw_profiles_free(e->profiles);
    }
}

/* The event log's client: the user who runs the command. */
static void
judge_client(char *out, size_t len)
{
    snprintf(out, len, "uid:%u", (unsigned)getuid());
}

/* The event log's record of one run of the suite CTX names. */
static void
judge_watch(void *ctx, const struct pw_run_spec *spec,
            const struct pw_sbx_result *res, const struct pw_error *err)
{
    char client[32];
    judge_client(client, sizeof(client));
    struct pw_events_run r = {.door = "judge",
                              .client = client,
                              .tool = "judge",
                              .request = ctx,
                              .spec = spec,
                              .res = res,
                              .err = err};
    pw_events_run(&r);
}

/* A program the validation refused (REPORT's verdict CE, borrowed): the
 * event log's refusal. */
static void
judge_refused(const json_t *report, const struct pw_buf *code)
{
    char client[32];
    judge_client(client, sizeof(client));
    pw_events_set_caller("judge", client);
    json_t *result = json_pack("{s:O}", "structuredContent", report);
    json_t *args = json_pack("{s:s%}", "code", code->data, code->len);
    if (result != NULL && args != NULL) {
        pw_events_answered("judge", args, result);
    }
    json_decref(result);
    json_decref(args);
}

/* 0 all passed, 1 not, -1 error (ERR). */
static int
judge(const struct judge_opts *o, const struct pw_grade_suite *s,
      const struct pw_buf *code, struct pw_error *err)
{
    struct judge_env e = {0};
    int rc = env_open(o, s, code, &e, err);
    if (rc == 0) {
        int jobs = o->jobs > 0 ? o->jobs : pw_queue_jobs_default();
        pw_zygote_set_spares(e.z, jobs);
        pw_zygote_refill_on_start(e.z, true);
        struct pw_grade_opts go = {.rules = e.rules,
                                   .imports = &e.set,
                                   .caps = e.caps,
                                   .jobs = jobs,
                                   .max_output = o->max_output};
        if (o->event_log != NULL) {
            go.watch = judge_watch;
            go.watch_ctx = (void *)o->tests;
        }
        json_t *report = pw_grade(e.z, &go, s, code->data, code->len, err);
        rc = report != NULL ? 0 : -1;
        if (report != NULL && o->event_log != NULL) {
            judge_refused(report, code);
        }
        if (report != NULL) {
            print_report(o, report, s);
            const char *v =
                json_string_value(json_object_get(report, "verdict"));
            rc = strcmp(v, "AC") == 0 ? 0 : 1;
            json_decref(report);
        }
    }
    env_close(&e);
    return rc;
}

int
pw_cmd_judge(int argc, char **argv)
{
    struct judge_opts o = {0};
    if (parse_opts(argc, argv, &o) < 0) {
        usage(stderr);
        return 2;
    }
    struct pw_error err = {0};
    struct pw_grade_suite s;
    struct pw_buf code;
    pw_buf_init(&code);
    if (o.event_log != NULL && pw_events_open(o.event_log, false, &err) < 0) {
        fprintf(stderr, "pyward: judge: %s\n", err.message);
        return 2;
    }
    int rc = pw_grade_suite_load(o.tests, &s, &err);
    if (rc == 0) {
        rc = strcmp(o.program, "-") == 0
                 ? pw_read_fd(0, 0, &code, &err)
                 : pw_read_file(o.program, 0, &code, &err);
        if (rc == 0) {
            rc = judge(&o, &s, &code, &err);
        }
        pw_grade_suite_free(&s);
    }
    pw_buf_free(&code);
    pw_events_close();
    if (rc < 0) {
        fprintf(stderr, "pyward: judge: error: %s\n", err.message);
        return 2;
    }
    return rc;
}
