/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * run.c - `pyward run`: validate, run one program in the sandbox,
 * print its output (or the structured result with --json).
 */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/json.h"
#include "cli/cmd.h"
#include "cli/opts.h"
#include "core/base64.h"
#include "core/blob.h"
#include "core/log.h"
#include "core/rules.h"
#include "core/py.h"
#include "grade/queue.h"
#include "sandbox/sandbox.h"
#include "sandbox/run/output.h"
#include "server/tools.h"
#include "core/util.h"
#include "validator/blob.h"
#include "validator/validator.h"

struct run_opts {
    double timeout;
    long long memory;
    long long max_output;
    char profiles[256];
    bool json;
    bool skip_validation;
    const char *rules;
    const char *output_dir;
    const char *file;
    bool stream; /* stdin and output flow while the program runs */
};

static void
usage(FILE *out)
{
    fprintf(out,
            "usage: pyward run [--timeout S] [--memory SIZE] "
            "[--max-output BYTES]\n"
            "                  [--profile NAME]... [--json] "
            "[--skip-validation] [--rules SET]\n"
            "                  [--output-dir DIR] FILE|-\n"
            "Run FILE (or the code on stdin for '-') in the sandbox.  The "
            "program's stdin\nis this command's stdin (empty for '-'), read "
            "as the program asks for it;\nits output is written as it is "
            "printed; Ctrl-C interrupts it.  Files it\nwrites to output/ "
            "are listed on stderr and, with --output-dir, saved there\n"
            "(made if missing; a file of the same name is replaced).  "
            "Exit: the program's\nown status when it ends with an error "
            "(1 for an uncaught exception,\nSystemExit's code, as python3), "
            "1 limit or rejection, 2 usage or internal\nerror (a file "
            "--output-dir could not save among them), 130 Ctrl-C.\n");
}

static int
parse_opts(int argc, char **argv, struct run_opts *o)
{
    static const struct option longopts[] = {
        {"timeout", required_argument, NULL, 't'},
        {"memory", required_argument, NULL, 'm'},
        {"max-output", required_argument, NULL, 'o'},
        {"profile", required_argument, NULL, 'p'},
        {"json", no_argument, NULL, 'j'},
        {"skip-validation", no_argument, NULL, 's'},
        {"rules", required_argument, NULL, 'r'},
        {"output-dir", required_argument, NULL, 'd'},
        {"help", no_argument, NULL, 'h'},
        {NULL, 0, NULL, 0},
    };
    int c;
    char *end;
    optind = 1;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case 't':
            o->timeout = strtod(optarg, &end);
            if (*end != '\0' || o->timeout <= 0 || o->timeout > 3600) {
                fprintf(stderr, "pyward: run: bad --timeout '%s'\n", optarg);
                return -1;
            }
            break;
        case 'm':
        case 'o': {
            long long v = pw_parse_size(optarg);
            if (v <= 0) {
                fprintf(stderr, "pyward: run: bad size '%s'\n", optarg);
                return -1;
            }
            *(c == 'm' ? &o->memory : &o->max_output) = v;
            break;
        }
        case 'p':
            if (pw_cli_add_profile(o->profiles, sizeof(o->profiles), optarg) <
                0) {
                return -1;
            }
            break;
        case 'j':
            o->json = true;
            break;
        case 's':
            o->skip_validation = true;
            break;
        case 'r':
            o->rules = optarg;
            break;
        case 'd':
            o->output_dir = optarg;
            break;
        case 'h':
            usage(stdout);
            exit(0);
        default:
            return -1;
        }
    }
    if (optind != argc - 1) {
        return -1;
    }
    o->file = argv[optind];
    return 0;
}

static int
read_inputs(const struct run_opts *o, struct pw_buf *code, struct pw_buf *in,
            struct pw_error *err)
{
    if (strcmp(o->file, "-") == 0) {
        return pw_read_fd(0, 0, code, err);
    }
    if (pw_read_file(o->file, 0, code, err) < 0) {
        return -1;
    }
    return o->stream ? 0 : pw_read_fd(0, 0, in, err);
}

/* The name python3 gives the program in a traceback: "<stdin>" for '-',
 * else the path made absolute as python3 makes it (the working directory
 * joined to a relative path, unnormalized).  Owned. */
static char *
display_name(const char *file)
{
    if (strcmp(file, "-") == 0) {
        return pw_xstrdup("<stdin>");
    }
    char cwd[4096];
    if (file[0] == '/' || getcwd(cwd, sizeof(cwd)) == NULL) {
        return pw_xstrdup(file);
    }
    return pw_xasprintf("%s/%s", cwd, file);
}

/* Characters (not bytes) in the N bytes of UTF-8 at S. */
static int
char_count(const char *s, size_t n)
{
    int c = 0;
    for (size_t i = 0; i < n; i++) {
        c += ((unsigned char)s[i] & 0xc0) != 0x80;
    }
    return c;
}

/* Line LINE (1-based) of CODE: its start and length (no end of line). */
static const char *
source_line(const struct pw_buf *code, int line, size_t *len)
{
    const char *p = code->data != NULL ? code->data : "";
    const char *end = p + code->len;
    for (int i = 1; i < line && p < end; i++) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        p = nl != NULL ? nl + 1 : end;
    }
    const char *e = p;
    while (e < end && *e != '\n' && *e != '\r') {
        e++;
    }
    *len = (size_t)(e - p);
    return p;
}

/* A finding as python3 shows an error in a file: where, the line, carets
 * under what the rule found, then the rule. */
static void
print_finding(const struct run_opts *o, const struct pw_buf *code,
              const struct pw_diag *g)
{
    PW_AUTOFREE char *name = display_name(o->file);
    size_t len;
    const char *text = source_line(code, g->line, &len);
    size_t lead = strspn(text, " \t\f");
    lead = lead < len ? lead : len;
    size_t col = g->col > 0 ? (size_t)g->col - 1 : 0;
    size_t end = g->end_line == g->line && g->end_col > g->col
                     ? (size_t)g->end_col - 1
                     : col + 1;
    col = col < lead ? lead : col > len ? len : col;
    end = end > len ? len : end > col ? end : col + 1;
    fprintf(stderr, "  File \"%s\", line %d\n    %.*s\n    %*s", name, g->line,
            (int)(len - lead), text + lead,
            char_count(text + lead, col - lead), "");
    int carets = end <= len ? char_count(text + col, end - col) : 1;
    for (int i = carets > 0 ? carets : 1; i > 0; i--) {
        fputc('^', stderr);
    }
    fprintf(stderr, "\npyward: %s %s: %s\n", g->code, g->rule, g->message);
}

/* 1 rejected (prints), 0 valid, -1 error.  Valid: *LIGHT is the
 * profiles the program's zygote needs (pw_cli_light_mask). */
static int
validate(const struct run_opts *o, const char *rules_dir,
         const struct pw_importset *set, const struct pw_buf *code,
         json_t **rejected, pw_profile_mask *light, struct pw_error *err)
{
    struct pw_ruleset *rs = pw_cli_ruleset(o->rules, rules_dir, err);
    if (rs == NULL) {
        return -1;
    }
    struct pw_diags d;
    pw_diags_init(&d);
    int rc = pw_validate(rs, set, code->data, code->len, &d, NULL, err);
    /* A syntax error or a missing module: the run shows python3's error. */
    if (rc == 0 && d.n > 0 && !pw_diags_interpreter_only(&d)) {
        pw_diags_sort(&d);
        for (size_t i = 0; i < d.n && !o->json; i++) {
            print_finding(o, code, &d.v[i]);
        }
        *rejected = json_pack("{s:b,s:s,s:{s:b,s:o}}", "success", 0, "status",
                              "rejected", "validation", "valid", 0, "errors",
                              pw_diags_to_json(&d));
        rc = 1;
    }
    if (rc == 0 && d.n == 0) {
        *light = pw_cli_light_mask(rs, set->profiles, set->mask, code->data,
                                   code->len);
    }
    pw_diags_free(&d);
    pw_ruleset_free(rs);
    return rc;
}

/* Make DIR and its missing parents, as `mkdir -p` does.  0 or -1
 * (errno set). */
static int
make_dirs(const char *dir)
{
    PW_AUTOFREE char *p = pw_xstrdup(dir);
    for (char *s = strchr(p + 1, '/');; s = strchr(s + 1, '/')) {
        if (s != NULL) {
            *s = '\0';
        }
        if (*p != '\0' && mkdir(p, 0755) < 0 && errno != EEXIST) {
            return -1;
        }
        if (s == NULL) {
            break;
        }
        *s = '/';
        while (s[1] == '/') {
            s++;
        }
    }
    struct stat st;
    if (stat(dir, &st) < 0) {
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        errno = ENOTDIR;
        return -1;
    }
    return 0;
}

/* Save the sent file F into DIR, made if missing: written to a new file
 * beside it, then renamed over a file of the same name (a link of that
 * name is replaced, never followed).  0 or -1 (reported). */
static int
save_file(const char *dir, json_t *f)
{
    const char *name = json_string_value(json_object_get(f, "name"));
    const char *data = json_string_value(json_object_get(f, "data"));
    if (name == NULL || data == NULL || strchr(name, '/') != NULL ||
        strcmp(name, ".") == 0 || strcmp(name, "..") == 0) {
        return -1;
    }
    struct pw_buf b;
    pw_buf_init(&b);
    PW_AUTOFREE char *path = pw_xasprintf("%s/%s", dir, name);
    PW_AUTOFREE char *tmp =
        pw_xasprintf("%s/.%s.pyward-%ld", dir, name, (long)getpid());
    int fd = -1;
    const char *why = NULL;
    int rc = pw_base64_decode(data, &b);
    if (rc == 0 && make_dirs(dir) < 0) {
        why = strerror(errno);
        rc = -1;
    }
    if (rc == 0) {
        (void)unlink(tmp);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                  0644);
        why = fd < 0 ? strerror(errno) : NULL;
        rc = fd < 0 ? -1 : 0;
    }
    if (rc == 0 && pw_write_all(fd, b.data, b.len) < 0) {
        why = "write failed";
        rc = -1;
    }
    if (fd >= 0 && close(fd) < 0 && rc == 0) {
        why = "write failed";
        rc = -1;
    }
    if (rc == 0 && rename(tmp, path) < 0) {
        why = strerror(errno);
        rc = -1;
    }
    if (fd >= 0 && rc < 0) {
        (void)unlink(tmp);
    }
    if (rc < 0) {
        fprintf(stderr, "pyward: cannot save %s: %s\n", path,
                why != NULL ? why : "bad data");
    }
    pw_buf_free(&b);
    return rc;
}

/* List the run's output files on stderr; save them with --output-dir.
 * Returns how many returned files could not be saved. */
static int
report_files(const struct run_opts *o, json_t *res)
{
    int failed = 0;
    size_t i;
    json_t *f; /* borrowed */
    json_array_foreach(json_object_get(res, "files"), i, f) {
        const char *why = json_string_value(json_object_get(f, "reason"));
        bool saved = why == NULL && o->output_dir != NULL &&
                     save_file(o->output_dir, f) == 0;
        failed += why == NULL && o->output_dir != NULL && !saved;
        fprintf(stderr, "pyward: output/%s (%s, %lld bytes)%s%s%s%s\n",
                json_string_value(json_object_get(f, "name")),
                json_string_value(json_object_get(f, "mime_type")),
                (long long)json_integer_value(json_object_get(f, "size")),
                why != NULL ? " not returned: " : "", why != NULL ? why : "",
                saved ? " saved in " : "", saved ? o->output_dir : "");
    }
    return failed;
}

/* The program's stderr as python3 writes it for this file: a warning's
 * line ("<user>:3: SyntaxWarning: ...") names the program's file where
 * the sandbox names its code USER_FILE. */
struct stderr_names {
    const char *name;
    bool line_start; /* the last piece ended a line */
};

static void
write_stderr(struct stderr_names *e, const char *data, size_t len)
{
    struct pw_buf b;
    pw_buf_init(&b);
    pw_buf_rename_lines(&b, data, len, "<user>", e->name, &e->line_start);
    (void)pw_write_all(2, b.data, b.len);
    pw_buf_free(&b);
}

/* The traceback as python3 prints it for this file: the sandbox names the
 * program's code USER_FILE ("<user>", see
 * src/sandbox/interp/guard/common.py). */
static void
print_traceback(const struct run_opts *o, const char *tb)
{
    PW_AUTOFREE char *name = display_name(o->file);
    PW_AUTOFREE char *file = pw_xasprintf("File \"%s\", line ", name);
    struct pw_buf b;
    pw_buf_init(&b);
    pw_buf_replace_all(&b, tb, "File \"<user>\", line ", file);
    fwrite(b.data, 1, b.len, stderr);
    pw_buf_free(&b);
}

/* The exit status of a program that ended by itself with an error (an
 * uncaught exception gives 1, SystemExit its code, as in python3; what
 * it printed is already shown), or -1. */
static int
program_exit(json_t *res)
{
    const char *status = json_string_value(json_object_get(res, "status"));
    json_t *code = json_object_get(res, "exit_code"); /* borrowed */
    if (status == NULL || strcmp(status, "error") != 0 ||
        !json_is_integer(code) || json_integer_value(code) <= 0) {
        return -1;
    }
    return (int)json_integer_value(code);
}

static int
print_result(const struct run_opts *o, json_t *res)
{
    const char *status = json_string_value(json_object_get(res, "status"));
    if (o->json) {
        /* execute_code's structured result, each file's bytes kept in
         * its entry ("data"). */
        json_auto_t *shaped = json_deep_copy(res);
        if (shaped == NULL || pw_tools_result_shape(shaped, "") < 0) {
            fputs("pyward: out of memory\n", stderr);
            return 2;
        }
        PW_AUTOFREE char *text =
            pw_json_dumps(shaped, JSON_COMPACT | JSON_ENSURE_ASCII);
        fputs(text != NULL ? text : "{}", stdout);
        fputc('\n', stdout);
    } else {
        const char *out = json_string_value(json_object_get(res, "stdout"));
        const char *err = json_string_value(json_object_get(res, "stderr"));
        fputs(out != NULL && !o->stream ? out : "", stdout);
        if (err != NULL && !o->stream) {
            PW_AUTOFREE char *name = display_name(o->file);
            struct stderr_names names = {.name = name, .line_start = true};
            fflush(stderr);
            write_stderr(&names, err, strlen(err));
        }
        json_t *e = json_object_get(res, "error");
        const char *tb = json_string_value(json_object_get(e, "traceback"));
        const char *msg = json_string_value(json_object_get(e, "message"));
        if (tb != NULL && *tb != '\0') {
            print_traceback(o, tb);
        } else if (program_exit(res) < 0 && msg != NULL) {
            fprintf(stderr, "pyward: %s: %s\n", status, msg);
        }
    }
    int unsaved = report_files(o, res);
    fflush(stdout);
    if (status != NULL && strcmp(status, "internal_error") == 0) {
        return 2;
    }
    if (program_exit(res) >= 0) {
        return program_exit(res);
    }
    if (status == NULL || strcmp(status, "ok") != 0) {
        return 1;
    }
    return unsaved > 0 ? 2 : 0;
}

static volatile sig_atomic_t interrupted;

static void
on_sigint(int sig)
{
    (void)sig;
    interrupted = 1;
}

static void
write_output(void *ctx, int stream, const char *data, size_t len)
{
    if (stream == 2) {
        write_stderr(ctx, data, len);
    } else {
        (void)pw_write_all(stream, data, len);
    }
}

struct streamed {
    json_t *result; /* the run's result fields, once over */
    char why[512];  /* why it did not start */
    bool done;
};

static void
streamed_done(void *ctx, size_t index, struct pw_sbx_result *res,
              const struct pw_error *err)
{
    struct streamed *st = ctx;
    (void)index;
    st->done = true;
    if (res != NULL) {
        st->result = pw_sbx_result_to_json(res);
        /* The files' bytes read now, while their blobs are open. */
        if (st->result != NULL && pw_blob_expand(st->result) < 0) {
            pw_warn("an output file changed before its result was made");
        }
    } else {
        snprintf(st->why, sizeof(st->why), "%s", err->message);
    }
}

/* Run SPEC to its end as python3 would run in this terminal: output
 * written as it comes, Ctrl-C handed to the program (SIGINT let through
 * only while the queue waits, so none is missed).  Returns the result,
 * or NULL with ERR; *SENT says whether an interrupt was sent. */
static json_t *
run_streaming(struct pw_zygote *z, const struct pw_run_spec *spec, bool *sent,
              struct pw_error *err)
{
    struct sigaction sa = {.sa_handler = on_sigint}, old_sa;
    sigset_t block, old_mask;
    sigemptyset(&sa.sa_mask);
    sigemptyset(&block);
    sigaddset(&block, SIGINT);
    (void)sigprocmask(SIG_BLOCK, &block, &old_mask);
    (void)sigaction(SIGINT, &sa, &old_sa);
    struct pw_queue *q = pw_queue_new(1);
    struct pw_queue_group *g = pw_queue_group_new(q, 0);
    struct streamed st = {0};
    struct pw_queue_entry *e = pw_queue_add(g, spec, streamed_done, &st, 0);
    while (!st.done) {
        pw_queue_turn(q, z, &old_mask);
        if (interrupted && !st.done && pw_queue_entry_run(e) != NULL) {
            interrupted = 0;
            *sent = true;
            pw_sbx_interrupt(pw_queue_entry_run(e));
        }
    }
    pw_queue_group_free(g);
    pw_queue_free(q);
    (void)sigaction(SIGINT, &old_sa, NULL);
    (void)sigprocmask(SIG_SETMASK, &old_mask, NULL);
    if (st.result == NULL) {
        pw_fail(err, PW_ERR_SANDBOX, "%s",
                st.why[0] != '\0' ? st.why : "no result for the run");
    }
    return st.result;
}

/* The program ended on the KeyboardInterrupt a Ctrl-C raised: python3
 * then dies of SIGINT, which a shell shows as 130. */
static bool
ended_by_ctrl_c(json_t *res)
{
    json_t *e = json_object_get(res, "error"); /* borrowed */
    const char *type = json_string_value(json_object_get(e, "type"));
    return type != NULL && strcmp(type, "KeyboardInterrupt") == 0;
}

static int
run_streamed(const struct run_opts *o, struct pw_zygote *z,
             struct pw_sbx_request *req, struct pw_error *err)
{
    PW_AUTOFREE char *name = display_name(o->file);
    struct stderr_names names = {.name = name, .line_start = true};
    struct pw_sbx_io io = {.in_fd = 0, .output = write_output, .ctx = &names};
    struct pw_run_spec spec = {.req = *req, .zygote = z};
    spec.req.io = &io; /* the run keeps its own copy */
    bool sent = false;
    json_t *res = run_streaming(z, &spec, &sent, err);
    if (res == NULL) {
        return -1;
    }
    bool ctrl_c = sent && ended_by_ctrl_c(res);
    int rc = print_result(o, res);
    json_decref(res);
    return ctrl_c ? 130 : rc;
}

/* CODE run with MASK's import set and zygote, CAPS's capabilities. */
static int
run_code(const struct run_opts *o, struct pw_profiles *profiles,
         pw_profile_mask mask, unsigned caps, const struct pw_buf *code,
         const struct pw_buf *in, struct pw_error *err)
{
    struct pw_importset set = {.profiles = profiles, .mask = mask};
    struct pw_sbx_source src = {.code = code->data, .len = code->len};
    struct pw_zygote *z = pw_zygote_new_for(profiles, mask, &src, 1, err);
    if (z == NULL) {
        return -1;
    }
    /* Compiled in C where it can be, as the server does. */
    pw_zygote_set_compiler(z, pw_blob_compile);
    struct pw_sbx_request req = {.code = code->data,
                                 .code_len = code->len,
                                 .stdin_data = in->data,
                                 .stdin_len = in->len,
                                 .limits = {.timeout_s = o->timeout,
                                            .memory_bytes = o->memory,
                                            .max_output_bytes = o->max_output},
                                 .imports = &set,
                                 .caps = caps,
                                 .capture_output = true};
    if (o->stream) {
        int rc = run_streamed(o, z, &req, err);
        pw_zygote_free(z);
        return rc;
    }
    json_t *res = NULL;
    int rc = pw_queue_run_json(z, &req, &res, err);
    pw_zygote_free(z);
    if (rc < 0) {
        return -1;
    }
    rc = print_result(o, res);
    json_decref(res);
    return rc;
}

static int
run_main(const struct run_opts *o, struct pw_error *err)
{
    PW_AUTOFREE char *rules_dir = pw_rules_dir(NULL);
    struct pw_profiles *profiles = pw_profiles_load(rules_dir, err);
    if (profiles == NULL) {
        return -1;
    }
    pw_profile_mask mask = pw_profiles_default_mask(profiles);
    struct pw_buf code, in;
    pw_buf_init(&code);
    pw_buf_init(&in);
    int rc =
        o->profiles[0] != '\0'
            ? pw_profiles_parse_list(profiles, o->profiles + 1, &mask, err)
            : 0;
    if (rc == 0) {
        rc = read_inputs(o, &code, &in, err);
    }
    if (rc == 0 && pw_py_init(err) < 0) {
        rc = -1;
    }
    json_t *rejected = NULL;
    struct pw_importset set = {.profiles = profiles, .mask = mask};
    pw_profile_mask run_mask = mask;
    if (rc == 0 && !o->skip_validation) {
        rc = validate(o, rules_dir, &set, &code, &rejected, &run_mask, err);
    }
    if (rc == 1) {
        (void)print_result(o, rejected);
        json_decref(rejected);
    } else if (rc == 0) {
        rc = run_code(o, profiles, run_mask, pw_profiles_caps(profiles, mask),
                      &code, &in, err);
    }
    pw_buf_free(&code);
    pw_buf_free(&in);
    pw_profiles_free(profiles);
    return rc;
}

int
pw_cmd_run(int argc, char **argv)
{
    struct run_opts o = {0};
    if (parse_opts(argc, argv, &o) < 0) {
        usage(stderr);
        return 2;
    }
    o.stream = !o.json && strcmp(o.file, "-") != 0;
    struct pw_error err = {0};
    int rc = run_main(&o, &err);
    if (rc < 0) {
        fprintf(stderr, "pyward: run: %s\n", err.message);
        if (o.json) {
            printf("{\"success\":false,\"status\":\"internal_error\","
                   "\"error\":{\"type\":\"SandboxError\",\"message\":");
            json_t *m = json_string(err.message);
            json_dumpf(m, stdout, JSON_ENCODE_ANY);
            json_decref(m);
            printf("}}\n");
        }
        return 2;
    }
    return rc;
}
