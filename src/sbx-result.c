/*
 * sbx-result.c - the verdict and the execute_code result object of a
 * finished run: the child's part (result line) plus what the parent saw.
 *
 * Result-fd records, one per line: "R<json>" the child's result,
 * "S<nr>" a refused system call (SIGSYS), "A<event>" a refused audit
 * event, "E<reason>" a checklist step that failed (the run is refused),
 * "U<cpu s> <max RSS KiB>" the child's usage from the request on (its
 * warm-up as a spare not included), written after the program.
 */
#include "config.h"

#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>

#include "sbx-internal.h"
#include "sbx-output.h"

struct records {
    json_t *child; /* owned */
    char blocked_kind[16];
    char blocked_name[208];
    char setup_error[256];
};

static void
parse_line(const char *line, size_t len, struct records *rec)
{
    if (len == 0) {
        return;
    }
    if (line[0] == 'R' && rec->child == NULL) {
        rec->child = json_loadb(line + 1, len - 1, 0, NULL);
    } else if (line[0] == 'S' && rec->blocked_kind[0] == '\0') {
        int nr = atoi(line + 1);
        const char *name = pw_sbx_syscall_name(nr);
        snprintf(rec->blocked_kind, sizeof(rec->blocked_kind), "syscall");
        if (name != NULL) {
            snprintf(rec->blocked_name, sizeof(rec->blocked_name), "%s", name);
        } else {
            snprintf(rec->blocked_name, sizeof(rec->blocked_name),
                     "syscall %d", nr);
        }
    } else if (line[0] == 'A' && rec->blocked_kind[0] == '\0') {
        snprintf(rec->blocked_kind, sizeof(rec->blocked_kind), "audit");
        snprintf(rec->blocked_name, sizeof(rec->blocked_name), "%.*s",
                 (int)(len - 1), line + 1);
    } else if (line[0] == 'E' && rec->setup_error[0] == '\0') {
        snprintf(rec->setup_error, sizeof(rec->setup_error), "%.*s",
                 (int)(len - 1), line + 1);
    }
}

static void
parse_records(const struct pw_buf *b, struct records *rec)
{
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

/* Valid UTF-8: a sequence cut at the cap is dropped, invalid bytes
 * become U+FFFD. */
static json_t *
text_json(const struct pw_buf *b)
{
    if (b->data == NULL || b->len == 0) {
        return json_string("");
    }
    json_t *s = json_stringn(b->data, b->len);
    if (s != NULL) {
        return s;
    }
    struct pw_buf o;
    pw_buf_init(&o);
    const unsigned char *p = (const unsigned char *)b->data;
    size_t i = 0;
    int rc = 0;
    while (i < b->len && rc == 0) {
        long n = utf8_seq(p + i, b->len - i);
        if (n < 0) {
            break;
        }
        rc = n > 0 ? pw_buf_append(&o, p + i, (size_t)n)
                   : pw_buf_append(&o, "\xef\xbf\xbd", 3);
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

static const char *
verdict(const struct pw_sbx_run *r, const struct records *rec)
{
    int st = r->wstatus;
    if (rec->setup_error[0] != '\0') {
        return "internal_error";
    }
    switch (r->stop) {
    case PW_STOP_TIMEOUT:
        return "timeout";
    case PW_STOP_OUTPUT:
        return "output_limit";
    case PW_STOP_CANCEL:
        return "killed";
    case PW_STOP_NONE:
        break;
    }
    if (strcmp(rec->blocked_kind, "syscall") == 0) {
        return "killed";
    }
    if (WIFSIGNALED(st)) {
        return WTERMSIG(st) == SIGXCPU ? "timeout" : "killed";
    }
    if (rec->child == NULL) {
        return "internal_error";
    }
    json_t *e = json_object_get(rec->child, "error");
    const char *type = json_string_value(json_object_get(e, "type"));
    if (type != NULL && strcmp(type, "MemoryError") == 0) {
        return "memory_limit";
    }
    if (json_is_object(e) ||
        json_integer_value(json_object_get(rec->child, "exit_code")) != 0) {
        return "error";
    }
    return "ok";
}

static json_t *
error_json(const struct pw_sbx_run *r, const struct records *rec,
           const char *status)
{
    json_t *e = rec->child ? json_object_get(rec->child, "error") : NULL;
    if (json_is_object(e)) {
        return json_incref(e);
    }
    const char *msg = NULL;
    char buf[300];
    if (rec->setup_error[0] != '\0') {
        snprintf(buf, sizeof(buf), "the sandbox could not be set up: %s",
                 rec->setup_error);
        msg = buf;
    } else if (strcmp(status, "timeout") == 0) {
        snprintf(buf, sizeof(buf), "time limit of %g s exceeded",
                 r->limits.timeout_s);
        msg = buf;
    } else if (strcmp(status, "output_limit") == 0) {
        snprintf(buf, sizeof(buf), "output limit of %lld bytes exceeded",
                 r->limits.max_output_bytes);
        msg = buf;
    } else if (rec->blocked_kind[0] != '\0') {
        snprintf(buf, sizeof(buf), "system call '%s' is not allowed",
                 rec->blocked_name);
        msg = buf;
    } else if (strcmp(status, "ok") != 0) {
        snprintf(buf, sizeof(buf), "the program was stopped (%s)", status);
        msg = buf;
    }
    if (msg == NULL) {
        return json_null();
    }
    return json_pack("{s:s,s:s,s:n,s:s}", "type", "SandboxError", "message",
                     msg, "line", "traceback", "");
}

static json_t *
child_field(const struct records *rec, const char *key)
{
    json_t *v = rec->child ? json_object_get(rec->child, key) : NULL;
    return v != NULL ? json_incref(v) : NULL;
}

json_t *
pw_sbx_result_build(const struct pw_sbx_run *r)
{
    struct records rec = {0};
    parse_records(&r->res.buf, &rec);
    const char *status = verdict(r, &rec);
    int st = r->wstatus;
    double cpu =
        r->usage
            ? r->cpu_s
            : (double)r->ru.ru_utime.tv_sec + r->ru.ru_utime.tv_usec / 1e6 +
                  (double)r->ru.ru_stime.tv_sec + r->ru.ru_stime.tv_usec / 1e6;
    long rss = r->usage ? r->maxrss_kb : r->ru.ru_maxrss;
    json_t *code = child_field(&rec, "exit_code");
    if (code == NULL) {
        code = WIFEXITED(st) ? json_integer(WEXITSTATUS(st)) : json_null();
    }
    json_t *res = child_field(&rec, "result");
    json_t *vars = child_field(&rec, "variables");
    json_t *out = json_pack(
        "{s:b,s:s,s:s,s:o,s:o,s:o,s:b,s:b,s:f,s:f,s:I,s:o,s:o,s:o,s:o}",
        "success", strcmp(status, "ok") == 0, "execution_id", r->id, "status",
        status, "result", res ? res : json_null(), "stdout",
        text_json(&r->out.buf), "stderr", text_json(&r->err.buf),
        "stdout_truncated", r->out.truncated, "stderr_truncated",
        r->err.truncated, "execution_time", r->end - r->start, "cpu_time", cpu,
        "max_rss_kb", (json_int_t)rss, "exit_code", code, "signal",
        WIFSIGNALED(st) ? json_integer(WTERMSIG(st)) : json_null(),
        "variables", vars ? vars : json_object(), "error",
        error_json(r, &rec, status));
    if (out != NULL && pw_sbx_output_add(r, out) < 0) {
        json_decref(out);
        out = NULL;
    }
    if (out != NULL && rec.blocked_kind[0] != '\0') {
        json_object_set_new(out, "blocked",
                            json_pack("{s:s,s:s}", "kind", rec.blocked_kind,
                                      "name", rec.blocked_name));
    }
    json_decref(rec.child);
    return out;
}
