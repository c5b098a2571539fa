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

#include "core/blob.h"
#include "core/log.h"
#include "core/json.h"
#include "sandbox/run/record.h"
#include "sandbox/run/output.h"

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
 * -1 if cut short by the end of the buffer.  Valid as RFC 3629 says (no
 * overlong form, no surrogate, nothing past U+10FFFF), as jansson
 * checks it: a stream cleaned here is made a JSON string unchecked. */
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
    /* The second byte's range (the first one's constraint). */
    unsigned lo = c == 0xe0 ? 0xa0 : c == 0xf0 ? 0x90 : 0x80;
    unsigned hi = c == 0xed ? 0x9f : c == 0xf4 ? 0x8f : 0xbf;
    for (size_t i = 1; i < n; i++) {
        if (i >= avail) {
            return -1;
        }
        if ((p[i] & 0xc0) != 0x80 || (i == 1 && (p[i] < lo || p[i] > hi))) {
            return 0;
        }
    }
    return (long)n;
}

/* Valid UTF-8 of LEN bytes at DATA (malloc'd, NUL-terminated, *OUT_LEN
 * bytes): a sequence cut at the end is dropped, invalid bytes become
 * U+FFFD. */
static char *
utf8_clean(const char *data, size_t len, size_t *out_len)
{
    struct pw_buf o;
    pw_buf_init(&o);
    const unsigned char *p = (const unsigned char *)data;
    size_t i = 0;
    size_t run = 0; /* valid bytes from here not yet copied */
    while (data != NULL && i < len) {
        long n = utf8_seq(p + i, len - i);
        if (n > 0) {
            i += (size_t)n;
            continue;
        }
        pw_buf_append(&o, p + run, i - run);
        if (n < 0) {
            run = i = len; /* cut at the end: dropped */
            break;
        }
        pw_buf_append(&o, "\xef\xbf\xbd", 3);
        run = ++i;
    }
    if (data != NULL && run < i) {
        pw_buf_append(&o, p + run, i - run);
    }
    return pw_buf_take(&o, out_len);
}

char *
pw_sbx_output_since(const struct pw_sbx_run *r, int stream, size_t from,
                    size_t max, size_t *len, size_t *next)
{
    const struct pw_buf *b = stream == 1 ? &r->out.buf : &r->err.buf;
    *len = 0;
    *next = from;
    if (from >= b->len) {
        return NULL;
    }
    const unsigned char *p = (const unsigned char *)b->data + from;
    size_t take = pw_utf8_cut((const char *)p, b->len - from, max);
    size_t end = 0;
    while (end < take) {
        long n = utf8_seq(p + end, take - end);
        if (n < 0) {
            break; /* a character not all written yet: next time */
        }
        end += n > 0 ? (size_t)n : 1; /* an invalid byte: U+FFFD */
    }
    *next = from + end;
    return end > 0 ? utf8_clean((const char *)p, end, len) : NULL;
}

/* A JSON string of LEN bytes at DATA, valid UTF-8 (utf8_clean): what
 * jansson still refuses has its non-ASCII bytes replaced by '?'. */
static json_t *
json_text(const char *data, size_t len)
{
    json_t *s = json_stringn(data != NULL ? data : "", len);
    if (s != NULL || data == NULL) {
        return s;
    }
    PW_AUTOFREE char *copy = pw_xmalloc(len + 1);
    for (size_t k = 0; k < len; k++) {
        copy[k] = (data[k] & 0x80) ? '?' : data[k];
    }
    copy[len] = '\0';
    return json_stringn(copy, len);
}

/* A JSON string of a stream's text (utf8_clean's: valid UTF-8), not
 * checked again: jansson's check of a MiB takes milliseconds. */
static json_t *
stream_json(const char *data, size_t len)
{
    return json_stringn_nocheck(data != NULL ? data : "", len);
}

/* Into T: the text of B (cleaned) and TRUNCATED. */
static void
text_from(struct pw_sbx_text *t, const struct pw_buf *b, bool truncated)
{
    t->data = utf8_clean(b->data, b->len, &t->len);
    t->truncated = truncated;
}

/* A reported string, cut on a character boundary and cleaned (owned);
 * NULL if V is none. */
static char *
report_str(const json_t *v)
{
    if (!json_is_string(v)) {
        return NULL;
    }
    size_t len = json_string_length(v);
    return utf8_clean(json_string_value(v),
                      pw_utf8_cut(json_string_value(v), len, REPORT_STR_MAX),
                      NULL);
}

static json_t *
report_str_json(const json_t *v)
{
    PW_AUTOFREE char *s = report_str(v);
    return s != NULL ? json_text(s, strlen(s)) : NULL;
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

/* The reported error into OUT, checked: type and message strings (else
 * none), line, traceback. */
static void
report_error(const json_t *report, struct pw_sbx_result *out)
{
    const json_t *e = json_object_get(report, "error");
    char *type = report_str(json_object_get(e, "type"));
    char *msg = report_str(json_object_get(e, "message"));
    if (type == NULL || msg == NULL) {
        free(type);
        free(msg);
        return;
    }
    char *tb = report_str(json_object_get(e, "traceback"));
    const json_t *line = json_object_get(e, "line");
    out->error_type = type;
    out->error_message = msg;
    out->traceback = tb != NULL ? tb : pw_xstrdup("");
    out->error_line = json_is_number(line) && json_number_value(line) >= 0 &&
                              json_number_value(line) < 1e9
                          ? (long)json_number_value(line)
                          : -1;
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
        json_t *type = report_str_json(json_object_get(v, "type"));
        json_t *repr = report_str_json(json_object_get(v, "repr"));
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
    double cpu = r->limits.cpu_s > 0         ? r->limits.cpu_s
                 : r->limits.cpu_limit_s > 0 ? r->limits.cpu_limit_s
                                             : r->limits.timeout_s;
    return sig == SIGXCPU || (sig == SIGKILL && run_cpu(r, rec) >= cpu);
}

static bool
reported_memory_error(const struct records *rec)
{
    const char *type = json_string_value(
        json_object_get(json_object_get(rec->report, "error"), "type"));
    return type != NULL && strcmp(type, "MemoryError") == 0;
}

static enum pw_sbx_status
verdict(const struct pw_sbx_run *r, const struct records *rec)
{
    switch (r->stop) {
    case PW_STOP_TIMEOUT:
    case PW_STOP_CPU:
        return PW_SBX_TIMEOUT;
    case PW_STOP_OUTPUT:
        return PW_SBX_OUTPUT_LIMIT;
    case PW_STOP_CANCEL:
        return PW_SBX_KILLED;
    case PW_STOP_SYSCALL:
        return rec->started ? PW_SBX_KILLED : PW_SBX_INTERNAL_ERROR;
    case PW_STOP_FILES:
        return PW_SBX_INTERNAL_ERROR;
    case PW_STOP_NONE:
        break;
    }
    if (!rec->started) {
        return PW_SBX_INTERNAL_ERROR;
    }
    if (r->hook != PW_HOOK_INTACT) {
        return PW_SBX_KILLED; /* its audit hook altered: nothing it did
                               * counts */
    }
    if (r->interrupted && r->reported) {
        return PW_SBX_TIMEOUT; /* a session's call, interrupted at its
                                * time limit: it stopped in time */
    }
    /* Over its CPU time limit between two looks of the server's, and
     * ended (or killed by RLIMIT_CPU) before the next. */
    if (r->limits.cpu_limit_s > 0 && run_cpu(r, rec) > r->limits.cpu_limit_s) {
        return PW_SBX_TIMEOUT;
    }
    if (WIFSIGNALED(r->wstatus)) {
        return cpu_exhausted(r, rec) ? PW_SBX_TIMEOUT : PW_SBX_KILLED;
    }
    if (WEXITSTATUS(r->wstatus) == 0) {
        return PW_SBX_OK;
    }
    return reported_memory_error(rec) ? PW_SBX_MEMORY_LIMIT : PW_SBX_ERROR;
}

const char *
pw_sbx_status_name(enum pw_sbx_status st)
{
    static const char *const names[] = {
        [PW_SBX_OK] = "ok",
        [PW_SBX_ERROR] = "error",
        [PW_SBX_TIMEOUT] = "timeout",
        [PW_SBX_MEMORY_LIMIT] = "memory_limit",
        [PW_SBX_OUTPUT_LIMIT] = "output_limit",
        [PW_SBX_KILLED] = "killed",
        [PW_SBX_INTERNAL_ERROR] = "internal_error",
    };
    return (size_t)st < PW_N_ELEMENTS(names) ? names[st] : "internal_error";
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

/* The server's own message for a status, or false (the program's report
 * speaks for itself). */
static bool
observed_message(const struct pw_sbx_run *r, const struct records *rec,
                 enum pw_sbx_status status, const char *blocked, char *buf,
                 size_t len)
{
    if (status == PW_SBX_INTERNAL_ERROR) {
        setup_message(r, rec, buf, len);
    } else if (status == PW_SBX_TIMEOUT && r->limits.cpu_limit_s > 0 &&
               r->stop == PW_STOP_TIMEOUT) {
        snprintf(buf, len,
                 "wall-clock limit of %g s (%d times the CPU time limit) "
                 "exceeded",
                 r->limits.timeout_s, PW_SBX_WALL_MULTIPLE);
    } else if (status == PW_SBX_TIMEOUT && r->limits.cpu_limit_s > 0) {
        snprintf(buf, len, "CPU time limit of %g s exceeded",
                 r->limits.cpu_limit_s);
    } else if (status == PW_SBX_TIMEOUT) {
        snprintf(buf, len, "time limit of %g s exceeded", r->limits.timeout_s);
    } else if (status == PW_SBX_OUTPUT_LIMIT) {
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
    } else if (status == PW_SBX_KILLED && WIFSIGNALED(r->wstatus) &&
               r->stop == PW_STOP_NONE) {
        snprintf(buf, len, "the program was killed by signal %d (%s)",
                 WTERMSIG(r->wstatus), strsignal(WTERMSIG(r->wstatus)));
    } else if (status == PW_SBX_KILLED) {
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
say_memory_limit(const struct pw_sbx_run *r, struct pw_sbx_result *out)
{
    const char *tb = out->traceback;
    if (*out->error_message != '\0' || r->limits.memory_bytes <= 0) {
        return;
    }
    char size[64], text[128];
    size_text(r->limits.memory_bytes, size, sizeof(size));
    snprintf(text, sizeof(text), "the program exceeded the memory limit of %s",
             size);
    free(out->error_message);
    out->error_message = pw_xstrdup(text);
    size_t n = strlen(tb);
    static const char last[] = "MemoryError\n";
    if (n >= sizeof(last) - 1 &&
        strcmp(tb + n - (sizeof(last) - 1), last) == 0 &&
        (n == sizeof(last) - 1 || tb[n - sizeof(last)] == '\n')) {
        char *t = pw_xasprintf("%.*sMemoryError: %s\n",
                               (int)(n - (sizeof(last) - 1)), tb, text);
        free(out->traceback);
        out->traceback = t;
    }
}

static void
set_error(struct pw_sbx_result *out, const char *type, const char *message)
{
    out->error_type = pw_xstrdup(type);
    out->error_message = pw_xstrdup(message);
    out->traceback = pw_xstrdup("");
    out->error_line = -1;
}

/* A session's call interrupted at its time limit that stopped within
 * the grace period: the program's own error (the KeyboardInterrupt and
 * where it landed), its message saying why it came. */
static void
interrupted_error(const struct pw_sbx_run *r, const struct records *rec,
                  struct pw_sbx_result *out)
{
    char buf[200];
    snprintf(buf, sizeof(buf),
             "time limit of %g s exceeded: the program was interrupted "
             "(KeyboardInterrupt) and the session kept its state",
             r->limits.timeout_s);
    if (rec->started) {
        report_error(rec->report, out);
    }
    if (out->error_type == NULL) {
        set_error(out, "SandboxError", buf);
        return;
    }
    free(out->error_message);
    out->error_message = pw_xstrdup(buf);
}

/* OUT's error: the server's word on what it observed, else the
 * program's report, else (a failure with no report) the exit status. */
static void
error_of(const struct pw_sbx_run *r, const struct records *rec,
         const char *blocked, struct pw_sbx_result *out)
{
    char buf[300];
    enum pw_sbx_status status = out->status;
    bool ours = status != PW_SBX_ERROR && status != PW_SBX_MEMORY_LIMIT &&
                status != PW_SBX_OK;
    if (status == PW_SBX_TIMEOUT && r->interrupted && r->reported) {
        interrupted_error(r, rec, out);
        return;
    }
    if (ours && observed_message(r, rec, status, blocked, buf, sizeof(buf))) {
        set_error(out, "SandboxError", buf);
        return;
    }
    if (rec->started) {
        report_error(rec->report, out);
    }
    if (out->error_type != NULL && status == PW_SBX_MEMORY_LIMIT) {
        say_memory_limit(r, out);
    }
    if (out->error_type != NULL || status == PW_SBX_OK) {
        return;
    }
    snprintf(buf, sizeof(buf), "the program ended with exit status %d",
             WIFEXITED(r->wstatus) ? WEXITSTATUS(r->wstatus) : -1);
    set_error(out, "SystemExit", buf);
}

/* The refused system call (observed), else the audit event the
 * program's report names. */
static void
blocked_of(const struct pw_sbx_run *r, const struct records *rec,
           const char *name, struct pw_sbx_result *out)
{
    if (r->refused_nr >= 0) {
        out->blocked = PW_SBX_BLOCKED_SYSCALL;
        out->blocked_name = pw_xstrdup(name);
    } else if (r->hook != PW_HOOK_INTACT) {
        out->blocked = PW_SBX_BLOCKED_HOOK;
        out->blocked_name =
            pw_xstrdup(r->hook == PW_HOOK_ALTERED ? "audit hook altered"
                                                  : "audit hook unreadable");
    } else if (rec->audit[0] != '\0') {
        out->blocked = PW_SBX_BLOCKED_AUDIT;
        out->blocked_name = utf8_clean(rec->audit, strlen(rec->audit), NULL);
    }
}

static void
build(const struct pw_sbx_run *r, struct records *rec,
      struct pw_sbx_result *out)
{
    int st = r->wstatus;
    char name[64];
    const char *nm = pw_sbx_syscall_name(r->refused_nr);
    if (nm != NULL) {
        snprintf(name, sizeof(name), "%s", nm);
    } else {
        snprintf(name, sizeof(name), "syscall %d", r->refused_nr);
    }
    snprintf(out->execution_id, sizeof(out->execution_id), "%s", r->id);
    out->status = verdict(r, rec);
    if (r->interrupted) {
        out->interrupt =
            r->reported ? PW_SBX_INTERRUPT_STOPPED : PW_SBX_INTERRUPT_KILLED;
    }
    out->exit_code = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
    out->signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    out->wall_s = r->end - r->start;
    out->cpu_s = run_cpu(r, rec);
    out->rerun = r->rerun;
    out->max_rss_kb = r->exit_seen || r->reported
                          ? (r->maxrss_kb > 0 ? r->maxrss_kb : 0)
                          : r->ru.ru_maxrss;
    text_from(&out->out, &r->out.buf, r->out.truncated);
    text_from(&out->err, &r->err.buf, r->err.truncated);
    out->error_line = -1;
    error_of(r, rec, name, out);
    blocked_of(r, rec, name, out);
    out->reported = rec->started && rec->report != NULL;
    out->result_repr = rec->started
                           ? report_str(json_object_get(rec->report, "result"))
                           : NULL;
    out->result_markdown =
        rec->started
            ? report_str(json_object_get(rec->report, "result_markdown"))
            : NULL;
    out->result_value = rec->started ? report_value(rec->report) : json_null();
    out->variables = rec->started ? report_vars(rec->report) : json_object();
}

void
pw_sbx_result_get(const struct pw_sbx_run *r, struct pw_sbx_result *out)
{
    struct records rec;
    memset(&rec, 0, sizeof(rec));
    memset(out, 0, sizeof(*out));
    parse_records(&r->res.buf, &rec);
    build(r, &rec, out);
    pw_sbx_output_get(r, &out->files, &out->files_omitted, &out->blobs);
    json_decref(rec.report);
}

void
pw_sbx_result_clear(struct pw_sbx_result *r)
{
    free(r->out.data);
    free(r->err.data);
    free(r->error_type);
    free(r->error_message);
    free(r->traceback);
    free(r->blocked_name);
    free(r->result_repr);
    free(r->result_markdown);
    json_decref(r->result_value);
    json_decref(r->variables);
    json_decref(r->files);
    pw_blobs_clear(&r->blobs);
    memset(r, 0, sizeof(*r));
}

static json_t *
error_json(const struct pw_sbx_result *r)
{
    if (r->error_type == NULL) {
        return json_null();
    }
    return json_pack(
        "{s:o,s:o,s:o,s:o}", "type",
        json_text(r->error_type, strlen(r->error_type)), "message",
        json_text(r->error_message, strlen(r->error_message)), "line",
        r->error_line >= 0 ? json_integer(r->error_line) : json_null(),
        "traceback", json_text(r->traceback, strlen(r->traceback)));
}

static json_t *
blocked_json(const struct pw_sbx_result *r)
{
    switch (r->blocked) {
    case PW_SBX_BLOCKED_SYSCALL:
        return json_pack("{s:s,s:s,s:s}", "kind", "syscall", "name",
                         r->blocked_name, "source", "observed");
    case PW_SBX_BLOCKED_HOOK:
        return json_pack("{s:s,s:s,s:s}", "kind", "audit", "name",
                         r->blocked_name, "source", "observed");
    case PW_SBX_BLOCKED_AUDIT:
        return json_pack("{s:s,s:o,s:s}", "kind", "audit", "name",
                         json_text(r->blocked_name, strlen(r->blocked_name)),
                         "source", "program");
    case PW_SBX_BLOCKED_NONE:
        break;
    }
    return NULL;
}

static json_t *
reported_fields(const struct pw_sbx_result *r)
{
    json_t *list = json_array();
    if (r->reported) {
        const char *const keys[] = {"result", "result_value", "variables",
                                    "error"};
        for (size_t i = 0; i < PW_N_ELEMENTS(keys); i++) {
            json_array_append_new(list, json_string(keys[i]));
        }
    }
    if (r->blocked == PW_SBX_BLOCKED_AUDIT) {
        json_array_append_new(list, json_string("blocked"));
    }
    return list;
}

json_t *
pw_sbx_result_to_json(const struct pw_sbx_result *r)
{
    if (r->variables == NULL) {
        return NULL; /* not a result pw_sbx_result_get filled */
    }
    json_t *out = json_pack(
        "{s:b,s:s,s:s,s:o,s:o,s:o,s:b,s:b,s:f,s:f,s:I,s:o,s:o,s:O,s:o,s:o}",
        "success", r->status == PW_SBX_OK, "execution_id", r->execution_id,
        "status", pw_sbx_status_name(r->status), "result",
        r->result_repr != NULL
            ? json_text(r->result_repr, strlen(r->result_repr))
            : json_null(),
        "stdout", stream_json(r->out.data, r->out.len), "stderr",
        stream_json(r->err.data, r->err.len), "stdout_truncated",
        r->out.truncated, "stderr_truncated", r->err.truncated,
        "execution_time", pw_round_us(r->wall_s), "cpu_time",
        pw_round_us(r->cpu_s), "max_rss_kb", (json_int_t)r->max_rss_kb,
        "exit_code",
        r->exit_code >= 0 ? json_integer(r->exit_code) : json_null(), "signal",
        r->signal != 0 ? json_integer(r->signal) : json_null(), "variables",
        r->variables, "error", error_json(r), "program_reported",
        reported_fields(r));
    if (out != NULL &&
        json_object_set(out, "result_value",
                        r->result_value != NULL ? r->result_value
                                                : json_null()) < 0) {
        json_decref(out);
        out = NULL;
    }
    if (out != NULL && r->result_markdown != NULL &&
        json_object_set_new(
            out, "result_markdown",
            json_text(r->result_markdown, strlen(r->result_markdown))) < 0) {
        json_decref(out);
        out = NULL;
    }
    json_t *blocked = blocked_json(r);
    if (out != NULL && blocked != NULL) {
        json_object_set_new(out, "blocked", blocked);
    } else {
        json_decref(blocked);
    }
    if (out != NULL && r->interrupt != PW_SBX_INTERRUPT_NONE) {
        json_object_set_new(
            out, "timeout_interrupt",
            json_string(r->interrupt == PW_SBX_INTERRUPT_STOPPED
                            ? "interrupted"
                            : "killed"));
    }
    if (out != NULL && r->files != NULL) {
        json_object_set(out, "files", r->files);
        json_object_set_new(out, "files_omitted",
                            json_integer(r->files_omitted));
    }
    return out;
}

json_t *
pw_sbx_result_build(const struct pw_sbx_run *r)
{
    struct pw_sbx_result res;
    pw_sbx_result_get(r, &res);
    json_t *out = pw_sbx_result_to_json(&res);
    /* The files' bytes read now, while their blobs are open. */
    if (out != NULL && pw_blob_expand(out) < 0) {
        pw_warn("an output file changed before its result was made");
    }
    pw_sbx_result_clear(&res);
    return out;
}

enum pw_sbx_status
pw_sbx_result_status(const struct pw_sbx_run *r)
{
    struct records rec;
    memset(&rec, 0, sizeof(rec));
    parse_records(&r->res.buf, &rec);
    enum pw_sbx_status status = verdict(r, &rec);
    json_decref(rec.report);
    return status;
}
