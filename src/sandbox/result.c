/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * result.c - the verdict and the execute_code result object of a
 * finished run.
 *
 * The verdict (status, exit code, signal, the refused system call, the
 * limits hit, times, memory) is what the server observed: the wait4
 * status and resource usage, its own clock and output counters, the
 * seccomp listener, and the run's audit hook as the server read it from
 * the run's memory after the run (hookcheck.c: a hook left altered makes
 * the run "killed", blocked by "audit hook altered").  The result channel
 * carries two parts, split by the "G" record the checklist writes just before
 * the program starts (with the CPU nanoseconds its thread had used then: the
 * run's CPU time counts from there):
 *   - before it, the checklist's own records: "E<reason>" a step that
 *     failed (the run is refused: internal_error), the "W" and "L" tags
 *     of the fds it hands over;
 *   - after it, the program's report: "R<json>" (the result's repr and
 *     JSON text, variables, error and traceback, written by the guard
 *     after the program) and
 *     "A<event>" (an audit event the hook refused).  A program that gets
 *     past the interpreter layers can write anything there, so the report
 *     is program output: type-checked, size-capped, named in
 *     "program_reported", and never able to change the status (it can at
 *     most tell a failure apart as memory_limit).
 */
#include "config.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

#include "sandbox/internal.h"
#include "sandbox/output.h"

#define REPORT_STR_MAX  20000  /* bytes of a reported string kept */
#define REPORT_VARS     50     /* variables kept */
#define REPORT_JSON_MAX 200000 /* bytes of the reported result's JSON */

struct records {
    bool started;    /* the "G" record came */
    double cpu_at_g; /* the CPU seconds it carries, -1 if none */
    json_t *report;  /* owned: the program's "R" object, or NULL */
    char audit[208]; /* the first "A" record (program-reported) */
    char setup_error[256];
};

/* The checklist's CPU nanoseconds in "G N" (LEN bytes at S), in
 * seconds; -1 if not a number. */
static double
g_cpu(const char *s, size_t len)
{
    char buf[24];
    if (len >= sizeof(buf)) {
        return -1;
    }
    memcpy(buf, s, len);
    buf[len] = '\0';
    char *end;
    errno = 0;
    unsigned long long ns = strtoull(buf, &end, 10);
    return errno == 0 && end != buf && *end == '\0' ? (double)ns / 1e9 : -1;
}

static void
parse_line(const char *line, size_t len, struct records *rec)
{
    if (len == 0) {
        return;
    }
    if (!rec->started) {
        if (line[0] == 'G' && (len == 1 || line[1] == ' ')) {
            rec->started = true;
            rec->cpu_at_g = len > 2 ? g_cpu(line + 2, len - 2) : -1;
        } else if (line[0] == 'E' && rec->setup_error[0] == '\0') {
            snprintf(rec->setup_error, sizeof(rec->setup_error), "%.*s",
                     (int)(len - 1), line + 1);
        }
        return;
    }
    if (line[0] == 'R' && rec->report == NULL) {
        json_t *v =
            json_loadb(line + 1, len - 1, JSON_DECODE_INT_AS_REAL, NULL);
        if (json_is_object(v)) {
            rec->report = v;
        } else {
            json_decref(v);
        }
    } else if (line[0] == 'A' && rec->audit[0] == '\0') {
        snprintf(rec->audit, sizeof(rec->audit), "%.*s", (int)(len - 1),
                 line + 1);
    }
}

static void
parse_records(const struct pw_buf *b, struct records *rec)
{
    rec->cpu_at_g = -1;
    if (b->data == NULL) {
        return; /* nothing was read (NULL + 0 is undefined) */
    }
    const char *p = b->data;
    const char *end = b->data + b->len;
    while (p != NULL && p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t len = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
        parse_line(p, len, rec);
        p = nl != NULL ? nl + 1 : NULL;
    }
}

/* Length of the valid UTF-8 sequence at P (AVAIL bytes), 0 if invalid,
 * -1 if cut short by the end of the buffer. */
static long
utf8_seq(const unsigned char *p, size_t avail)
{
    unsigned c = p[0];
    size_t n = c < 0x80                 ? 1
               : c >= 0xc2 && c <= 0xdf ? 2
               : (c & 0xf0) == 0xe0     ? 3
               : c >= 0xf0 && c <= 0xf4 ? 4
                                        : 0;
    if (n == 0) {
        return 0;
    }
    for (size_t i = 1; i < n; i++) {
        if (i >= avail) {
            return -1;
        }
        if ((p[i] & 0xc0) != 0x80) {
            return 0;
        }
    }
    return (long)n;
}

/* Valid UTF-8 of LEN bytes at DATA: a sequence cut at the end is dropped,
 * invalid bytes (and what jansson refuses) become U+FFFD. */
static json_t *
text_of(const char *data, size_t len)
{
    if (data == NULL || len == 0) {
        return json_string("");
    }
    json_t *s = json_stringn(data, len);
    if (s != NULL) {
        return s;
    }
    struct pw_buf o;
    pw_buf_init(&o);
    const unsigned char *p = (const unsigned char *)data;
    size_t i = 0;
    while (i < len) {
        long n = utf8_seq(p + i, len - i);
        if (n < 0) {
            break;
        }
        if (n > 0) {
            pw_buf_append(&o, p + i, (size_t)n);
        } else {
            pw_buf_append(&o, "\xef\xbf\xbd", 3);
        }
        i += n > 0 ? (size_t)n : 1;
    }
    s = json_stringn(o.data != NULL ? o.data : "", o.len);
    for (size_t k = 0; s == NULL && o.data != NULL && k < o.len; k++) {
        o.data[k] = (o.data[k] & 0x80) ? '?' : o.data[k];
    }
    if (s == NULL) {
        s = json_stringn(o.data != NULL ? o.data : "", o.len);
    }
    pw_buf_free(&o);
    return s;
}

static json_t *
text_json(const struct pw_buf *b)
{
    return text_of(b->data, b->len);
}

/* A reported string, cut on a character boundary; NULL if V is none. */
static json_t *
report_str(const json_t *v)
{
    if (!json_is_string(v)) {
        return NULL;
    }
    size_t len = json_string_length(v);
    return text_of(json_string_value(v),
                   pw_utf8_cut(json_string_value(v), len, REPORT_STR_MAX));
}

/* The reported result as a JSON value (the report carries its JSON text,
 * so integers stay integers); null if none or malformed. */
static json_t *
report_value(const json_t *report)
{
    const json_t *text = json_object_get(report, "result_json");
    json_t *v = NULL;
    if (json_is_string(text) && json_string_length(text) <= REPORT_JSON_MAX) {
        v = json_loadb(json_string_value(text), json_string_length(text),
                       JSON_DECODE_ANY, NULL);
    }
    return v != NULL ? v : json_null();
}

/* The reported error, checked: {type, message, line, traceback}. */
static json_t *
report_error(const json_t *report)
{
    const json_t *e = json_object_get(report, "error");
    json_t *type = report_str(json_object_get(e, "type"));
    json_t *msg = report_str(json_object_get(e, "message"));
    json_t *tb = report_str(json_object_get(e, "traceback"));
    const json_t *line = json_object_get(e, "line");
    json_t *out = NULL;
    if (type != NULL && msg != NULL) {
        out = json_pack("{s:O,s:O,s:o,s:O}", "type", type, "message", msg,
                        "line",
                        json_is_number(line) && json_number_value(line) >= 0 &&
                                json_number_value(line) < 1e9
                            ? json_integer((json_int_t)json_number_value(line))
                            : json_null(),
                        "traceback", tb != NULL ? tb : json_string(""));
    }
    json_decref(type);
    json_decref(msg);
    json_decref(tb);
    return out;
}

/* The reported variables, checked: at most REPORT_VARS {type, repr}. */
static json_t *
report_vars(const json_t *report)
{
    json_t *out = json_object();
    const json_t *vars = json_object_get(report, "variables");
    const char *key;
    json_t *v;
    size_t n = 0;
    json_object_foreach((json_t *)vars, key, v) {
        json_t *type = report_str(json_object_get(v, "type"));
        json_t *repr = report_str(json_object_get(v, "repr"));
        if (out != NULL && type != NULL && repr != NULL && n < REPORT_VARS &&
            strlen(key) < 256) {
            n += json_object_set_new(
                     out, key,
                     json_pack("{s:O,s:O}", "type", type, "repr", repr)) == 0;
        }
        json_decref(type);
        json_decref(repr);
    }
    return out;
}

static double
cpu_of(const struct rusage *ru)
{
    return (double)ru->ru_utime.tv_sec + ru->ru_utime.tv_usec / 1e6 +
           (double)ru->ru_stime.tv_sec + ru->ru_stime.tv_usec / 1e6;
}

/* The run's own CPU seconds: the process's, less its setup (what the
 * checklist counted at its "G" record, else what the server read when
 * it sent the request). */
static double
run_cpu(const struct pw_sbx_run *r, const struct records *rec)
{
    double cpu = (r->exit_seen || r->reported) && r->cpu_end >= 0
                     ? r->cpu_end
                     : cpu_of(&r->ru);
    double base = rec->cpu_at_g >= 0 ? rec->cpu_at_g : r->cpu_base;
    if (base >= 0) {
        cpu -= base;
    }
    return cpu > 0 ? cpu : 0.0;
}

/* Killed by the kernel for its CPU time (the soft limit's SIGXCPU, or
 * the hard limit's SIGKILL: a PID namespace's init ignores SIGXCPU). */
static bool
cpu_exhausted(const struct pw_sbx_run *r, const struct records *rec)
{
    int sig = WTERMSIG(r->wstatus);
    double cpu = r->limits.cpu_s > 0 ? r->limits.cpu_s : r->limits.timeout_s;
    return sig == SIGXCPU || (sig == SIGKILL && run_cpu(r, rec) >= cpu);
}

static bool
reported_memory_error(const struct records *rec)
{
    const char *type = json_string_value(
        json_object_get(json_object_get(rec->report, "error"), "type"));
    return type != NULL && strcmp(type, "MemoryError") == 0;
}

static const char *
verdict(const struct pw_sbx_run *r, const struct records *rec)
{
    switch (r->stop) {
    case PW_STOP_TIMEOUT:
        return "timeout";
    case PW_STOP_OUTPUT:
        return "output_limit";
    case PW_STOP_CANCEL:
        return "killed";
    case PW_STOP_SYSCALL:
        return rec->started ? "killed" : "internal_error";
    case PW_STOP_FILES:
        return "internal_error";
    case PW_STOP_NONE:
        break;
    }
    if (!rec->started) {
        return "internal_error";
    }
    if (r->hook != PW_HOOK_INTACT) {
        return "killed"; /* its audit hook altered: nothing it did counts */
    }
    if (WIFSIGNALED(r->wstatus)) {
        return cpu_exhausted(r, rec) ? "timeout" : "killed";
    }
    if (WEXITSTATUS(r->wstatus) == 0) {
        return "ok";
    }
    return reported_memory_error(rec) ? "memory_limit" : "error";
}

static void
setup_message(const struct pw_sbx_run *r, const struct records *rec, char *buf,
              size_t len)
{
    if (r->stop == PW_STOP_FILES) {
        snprintf(buf, len, "the run could not be prepared: %s",
                 r->files_error);
    } else if (rec->setup_error[0] != '\0') {
        snprintf(buf, len, "the sandbox could not be set up: %s",
                 rec->setup_error);
    } else if (r->refused_nr >= 0) {
        snprintf(buf, len,
                 "the sandbox could not be set up: system call '%s' refused "
                 "before the program started",
                 pw_sbx_syscall_name(r->refused_nr) != NULL
                     ? pw_sbx_syscall_name(r->refused_nr)
                     : "?");
    } else {
        snprintf(buf, len,
                 "the sandbox could not be set up: its process ended before "
                 "the program started (%s %d)",
                 WIFSIGNALED(r->wstatus) ? "signal" : "exit status",
                 WIFSIGNALED(r->wstatus) ? WTERMSIG(r->wstatus)
                                         : WEXITSTATUS(r->wstatus));
    }
}

/* The server's own message for a status, or NULL (the program's report
 * speaks for itself). */
static bool
observed_message(const struct pw_sbx_run *r, const struct records *rec,
                 const char *status, const char *blocked, char *buf,
                 size_t len)
{
    if (strcmp(status, "internal_error") == 0) {
        setup_message(r, rec, buf, len);
    } else if (strcmp(status, "timeout") == 0) {
        snprintf(buf, len, "time limit of %g s exceeded", r->limits.timeout_s);
    } else if (strcmp(status, "output_limit") == 0) {
        snprintf(buf, len, "output limit of %lld bytes exceeded",
                 r->limits.max_output_bytes);
    } else if (r->stop == PW_STOP_SYSCALL) {
        snprintf(buf, len, "system call '%s' is not allowed", blocked);
    } else if (r->hook != PW_HOOK_INTACT) {
        snprintf(buf, len, "%s",
                 r->hook == PW_HOOK_ALTERED
                     ? "the program altered the sandbox's audit hook"
                     : "the sandbox could not read the program's audit "
                       "hook after the run");
    } else if (strcmp(status, "killed") == 0 && WIFSIGNALED(r->wstatus) &&
               r->stop == PW_STOP_NONE) {
        snprintf(buf, len, "the program was killed by signal %d (%s)",
                 WTERMSIG(r->wstatus), strsignal(WTERMSIG(r->wstatus)));
    } else if (strcmp(status, "killed") == 0) {
        snprintf(buf, len, "the program was stopped (killed)");
    } else {
        return false;
    }
    return true;
}

/* "256 MiB": N bytes in the largest binary unit that divides it. */
static void
size_text(long long n, char *buf, size_t len)
{
    static const char *const units[] = {"bytes", "KiB", "MiB", "GiB"};
    size_t u = 0;
    while (u + 1 < PW_N_ELEMENTS(units) && n > 0 && n % 1024 == 0) {
        n /= 1024;
        u++;
    }
    snprintf(buf, len, "%lld %s", n, units[u]);
}

/* A MemoryError without a message (the allocation the limit refused)
 * says which limit it hit, in its message and its traceback's last
 * line. */
static void
say_memory_limit(const struct pw_sbx_run *r, json_t *e)
{
    const char *msg = json_string_value(json_object_get(e, "message"));
    const char *tb = json_string_value(json_object_get(e, "traceback"));
    if (msg == NULL || *msg != '\0' || r->limits.memory_bytes <= 0) {
        return;
    }
    char size[64], text[128];
    size_text(r->limits.memory_bytes, size, sizeof(size));
    snprintf(text, sizeof(text), "the program exceeded the memory limit of %s",
             size);
    json_object_set_new(e, "message", json_string(text));
    size_t n = tb != NULL ? strlen(tb) : 0;
    static const char last[] = "MemoryError\n";
    if (n >= sizeof(last) - 1 &&
        strcmp(tb + n - (sizeof(last) - 1), last) == 0 &&
        (n == sizeof(last) - 1 || tb[n - sizeof(last)] == '\n')) {
        PW_AUTOFREE char *t = pw_xasprintf(
            "%.*sMemoryError: %s\n", (int)(n - (sizeof(last) - 1)), tb, text);
        json_object_set_new(e, "traceback", json_string(t));
    }
}

static json_t *
error_json(const struct pw_sbx_run *r, const struct records *rec,
           const char *status, const char *blocked)
{
    char buf[300];
    bool ours = strcmp(status, "error") != 0 &&
                strcmp(status, "memory_limit") != 0 &&
                strcmp(status, "ok") != 0;
    if (ours && observed_message(r, rec, status, blocked, buf, sizeof(buf))) {
        return json_pack("{s:s,s:s,s:n,s:s}", "type", "SandboxError",
                         "message", buf, "line", "traceback", "");
    }
    json_t *e = rec->started ? report_error(rec->report) : NULL;
    if (e != NULL && strcmp(status, "memory_limit") == 0) {
        say_memory_limit(r, e);
    }
    if (e != NULL || strcmp(status, "ok") == 0) {
        return e != NULL ? e : json_null();
    }
    snprintf(buf, sizeof(buf), "the program ended with exit status %d",
             WIFEXITED(r->wstatus) ? WEXITSTATUS(r->wstatus) : -1);
    return json_pack("{s:s,s:s,s:n,s:s}", "type", "SystemExit", "message", buf,
                     "line", "traceback", "");
}

/* The "blocked" field: the refused system call (observed), else the audit
 * event the program's report names; NULL if neither. */
static json_t *
blocked_json(const struct pw_sbx_run *r, const struct records *rec,
             const char *name)
{
    if (r->refused_nr >= 0) {
        return json_pack("{s:s,s:s,s:s}", "kind", "syscall", "name", name,
                         "source", "observed");
    }
    if (r->hook != PW_HOOK_INTACT) {
        return json_pack("{s:s,s:s,s:s}", "kind", "audit", "name",
                         r->hook == PW_HOOK_ALTERED ? "audit hook altered"
                                                    : "audit hook unreadable",
                         "source", "observed");
    }
    if (rec->audit[0] != '\0') {
        return json_pack("{s:s,s:o,s:s}", "kind", "audit", "name",
                         text_of(rec->audit, strlen(rec->audit)), "source",
                         "program");
    }
    return NULL;
}

static json_t *
reported_fields(const struct records *rec)
{
    json_t *list = json_array();
    if (rec->report != NULL) {
        const char *const keys[] = {"result", "result_value", "variables",
                                    "error"};
        for (size_t i = 0; i < PW_N_ELEMENTS(keys); i++) {
            json_array_append_new(list, json_string(keys[i]));
        }
    }
    if (rec->audit[0] != '\0') {
        json_array_append_new(list, json_string("blocked"));
    }
    return list;
}

static json_t *
build(const struct pw_sbx_run *r, struct records *rec)
{
    const char *status = verdict(r, rec);
    int st = r->wstatus;
    char name[64];
    const char *nm = pw_sbx_syscall_name(r->refused_nr);
    if (nm != NULL) {
        snprintf(name, sizeof(name), "%s", nm);
    } else {
        snprintf(name, sizeof(name), "syscall %d", r->refused_nr);
    }
    json_t *res = rec->started
                      ? report_str(json_object_get(rec->report, "result"))
                      : NULL;
    json_t *out = json_pack(
        "{s:b,s:s,s:s,s:o,s:o,s:o,s:b,s:b,s:f,s:f,s:I,s:o,s:o,s:o,s:o,s:o}",
        "success", strcmp(status, "ok") == 0, "execution_id", r->id, "status",
        status, "result", res ? res : json_null(), "stdout",
        text_json(&r->out.buf), "stderr", text_json(&r->err.buf),
        "stdout_truncated", r->out.truncated, "stderr_truncated",
        r->err.truncated, "execution_time", r->end - r->start, "cpu_time",
        run_cpu(r, rec), "max_rss_kb",
        (json_int_t)(r->exit_seen || r->reported
                         ? (r->maxrss_kb > 0 ? r->maxrss_kb : 0)
                         : r->ru.ru_maxrss),
        "exit_code",
        WIFEXITED(st) ? json_integer(WEXITSTATUS(st)) : json_null(), "signal",
        WIFSIGNALED(st) ? json_integer(WTERMSIG(st)) : json_null(),
        "variables", rec->started ? report_vars(rec->report) : json_object(),
        "error", error_json(r, rec, status, name), "program_reported",
        reported_fields(rec));
    if (out != NULL &&
        json_object_set_new(out, "result_value",
                            rec->started ? report_value(rec->report)
                                         : json_null()) < 0) {
        json_decref(out);
        out = NULL;
    }
    json_t *blocked = blocked_json(r, rec, name);
    if (out != NULL && blocked != NULL) {
        json_object_set_new(out, "blocked", blocked);
    } else {
        json_decref(blocked);
    }
    return out;
}

json_t *
pw_sbx_result_build(const struct pw_sbx_run *r)
{
    struct records rec;
    memset(&rec, 0, sizeof(rec));
    parse_records(&r->res.buf, &rec);
    json_t *out = build(r, &rec);
    if (out != NULL) {
        pw_sbx_output_add(r, out);
    }
    json_decref(rec.report);
    return out;
}

const char *
pw_sbx_result_status(const struct pw_sbx_run *r)
{
    struct records rec;
    memset(&rec, 0, sizeof(rec));
    parse_records(&r->res.buf, &rec);
    const char *status = verdict(r, &rec);
    json_decref(rec.report);
    return status;
}
