/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * rpc.c - NDJSON framing and JSON-RPC 2.0 envelopes.
 */
#include "config.h"

#include <errno.h>
#include <math.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/json.h"
#include "core/reply.h"
#include "server/rpc.h"
#include "core/log.h"

#define READ_CHUNK   (64 * 1024)
#define SHRINK_ABOVE (1024 * 1024)
#define DUMP_FLAGS   (JSON_COMPACT | JSON_PRESERVE_ORDER)
#define OUT_STAGE    (64u * 1024) /* bytes written from at a time */
#define OUT_CHUNKS   4            /* stages a flush fills, at most */

/* --- input ------------------------------------------------------------ */

void
pw_rpc_in_init(struct pw_rpc_in *in)
{
    pw_buf_init(&in->buf);
    in->discarding = false;
    in->big_id = NULL;
    in->tail_len = 0;
    in->line_end = 0;
    in->taken = false;
}

void
pw_rpc_in_free(struct pw_rpc_in *in)
{
    pw_buf_free(&in->buf);
    free(in->big_id);
}

static char *oversized_id(const char *text, size_t len);
static char *tail_id(const char *tail, size_t len);

/* Keep the last PW_RPC_ID_TAIL bytes of a discarded line. */
static void
keep_tail(struct pw_rpc_in *in, const char *p, size_t n)
{
    if (n >= PW_RPC_ID_TAIL) {
        memcpy(in->tail, p + n - PW_RPC_ID_TAIL, PW_RPC_ID_TAIL);
        in->tail_len = PW_RPC_ID_TAIL;
        return;
    }
    size_t keep =
        in->tail_len + n > PW_RPC_ID_TAIL ? PW_RPC_ID_TAIL - n : in->tail_len;
    memmove(in->tail, in->tail + in->tail_len - keep, keep);
    memcpy(in->tail + keep, p, n);
    in->tail_len = keep + n;
}

/* The end of an oversized line: its id (the last member wins, as when a
 * line is parsed), then the state for the next line. */
static void
oversized_end(struct pw_rpc_in *in, pw_rpc_line_fn fn, void *ctx)
{
    char *id = tail_id(in->tail, in->tail_len);
    if (id == NULL) {
        id = in->big_id;
        in->big_id = NULL;
    }
    in->discarding = false;
    in->tail_len = 0;
    free(in->big_id);
    in->big_id = NULL;
    fn(ctx, id != NULL ? id : "", id != NULL ? strlen(id) : 0, true);
    free(id);
}

/* Hand out every complete line in the buffer and keep the tail. */
static void
split_lines(struct pw_rpc_in *in, pw_rpc_line_fn fn, void *ctx)
{
    size_t start = 0;
    char *nl;
    while ((nl = memchr(in->buf.data + start, '\n', in->buf.len - start)) !=
           NULL) {
        size_t len = (size_t)(nl - (in->buf.data + start));
        if (in->discarding) {
            keep_tail(in, in->buf.data + start, len);
            oversized_end(in, fn, ctx);
        } else {
            *nl = '\0';
            in->line_end = start + len + 1;
            fn(ctx, in->buf.data + start, len, false);
        }
        start += len + 1;
        if (in->taken) { /* the rest is in a buffer of its own already */
            in->taken = false;
            start = 0;
        }
    }
    memmove(in->buf.data, in->buf.data + start, in->buf.len - start);
    in->buf.len -= start;
    in->buf.data[in->buf.len] = '\0';
    if (in->buf.len > PW_RPC_MAX_LINE && !in->discarding) {
        in->discarding = true;
        in->big_id = oversized_id(in->buf.data, in->buf.len);
    }
    if (in->discarding) {
        keep_tail(in, in->buf.data, in->buf.len);
        in->buf.len = 0;
    }
    if (in->buf.len == 0 && in->buf.cap > SHRINK_ABOVE) {
        pw_buf_free(&in->buf); /* do not keep a huge line's memory */
    }
}

int
pw_rpc_in_read(struct pw_rpc_in *in, int fd, pw_rpc_line_fn fn, void *ctx)
{
    char chunk[READ_CHUNK];
    ssize_t n = PW_RETRY(read(fd, chunk, sizeof(chunk)));
    if (n < 0) {
        return errno == EAGAIN ? 0 : -1;
    }
    if (n == 0) {
        /* A last line without a newline is still a message. */
        if (in->buf.len > 0 || in->discarding) {
            pw_buf_append(&in->buf, "\n", 1);
            split_lines(in, fn, ctx);
        }
        return 1;
    }
    pw_buf_append(&in->buf, chunk, (size_t)n);
    split_lines(in, fn, ctx);
    return 0;
}

char *
pw_rpc_in_take(struct pw_rpc_in *in)
{
    /* The rest is copied now, not once FN returns: the caller may hand
     * the buffer to another thread, which frees it when done. */
    char *text = in->buf.data;
    struct pw_buf rest;
    pw_buf_init(&rest);
    pw_buf_append(&rest, text + in->line_end, in->buf.len - in->line_end);
    in->buf = rest;
    in->taken = true;
    return text;
}

/* --- parsing ---------------------------------------------------------- */

json_t *
pw_rpc_parse(const char *text, size_t len, struct pw_error *err)
{
    json_error_t jerr;
    json_t *v = json_loadb(text, len, JSON_DECODE_ANY, &jerr);
    if (v == NULL && json_error_code(&jerr) == json_error_numeric_overflow) {
        v = json_loadb(text, len, JSON_DECODE_ANY | JSON_DECODE_INT_AS_REAL,
                       &jerr);
    }
    if (v == NULL) {
        pw_fail(err, PW_ERR_INPUT, "%s at line %d, column %d", jerr.text,
                jerr.line, jerr.column);
        err->line = jerr.line;
        err->col = jerr.column;
    }
    return v;
}

static const char *
skip_ws(const char *p, const char *end)
{
    while (p < end && (*p == ' ' || *p == '\t' || *p == '\r' || *p == '\n')) {
        p++;
    }
    return p;
}

/* P is at a '"'; returns the position after the closing quote. */
static const char *
skip_string(const char *p, const char *end)
{
    for (p++; p < end; p++) {
        if (*p == '\\') {
            p++;
        } else if (*p == '"') {
            return p + 1;
        }
    }
    return end;
}

/* Skip one JSON value (iteratively: nesting depth costs nothing). */
static const char *
skip_value(const char *p, const char *end)
{
    if (p < end && *p == '"') {
        return skip_string(p, end);
    }
    if (p < end && (*p == '{' || *p == '[')) {
        size_t depth = 0;
        while (p < end) {
            if (*p == '"') {
                p = skip_string(p, end);
                continue;
            }
            if (*p == '{' || *p == '[') {
                depth++;
            } else if ((*p == '}' || *p == ']') && --depth == 0) {
                return p + 1;
            }
            p++;
        }
        return end;
    }
    while (p < end && strchr(",]} \t\r\n", *p) == NULL) {
        p++;
    }
    return p;
}

static bool
key_is_id(const char *k, size_t klen)
{
    if (memchr(k, '\\', klen) == NULL) {
        return klen == 4 && memcmp(k, "\"id\"", 4) == 0;
    }
    json_auto_t *key = json_loadb(k, klen, JSON_DECODE_ANY, NULL);
    return json_is_string(key) && strcmp(json_string_value(key), "id") == 0;
}

/* The "id" member's raw value in the object TEXT[0..LEN).  CUT: the text
 * is the start of a longer one, so a member that reaches its end may be
 * incomplete and ends the search. */
static const char *
find_id(const char *text, size_t len, bool cut, size_t *id_len)
{
    const char *end = text + len;
    const char *p = skip_ws(text, end);
    const char *id = NULL;
    if (p >= end || *p != '{') {
        return NULL;
    }
    p = skip_ws(p + 1, end);
    while (p < end && *p == '"') {
        const char *k = p;
        p = skip_string(p, end);
        size_t klen = (size_t)(p - k);
        p = skip_ws(p, end);
        if (p >= end) {
            break;
        }
        p = skip_ws(p + 1, end); /* the ':' */
        const char *v = p;
        p = skip_value(p, end);
        if (cut && p >= end) {
            break;
        }
        if (key_is_id(k, klen)) { /* the last one wins, as in jansson */
            id = v;
            *id_len = (size_t)(p - v);
        }
        p = skip_ws(p, end);
        if (p < end && *p == ',') {
            p = skip_ws(p + 1, end);
        }
    }
    return id;
}

char *
pw_rpc_raw_id(const char *text, size_t len)
{
    size_t id_len = 0;
    const char *id = find_id(text, len, false, &id_len);
    return id != NULL ? pw_xstrndup(id, id_len) : NULL;
}

bool
pw_rpc_id_ok(const json_t *id)
{
    if (json_is_string(id) || json_is_integer(id)) {
        return true;
    }
    double d = json_real_value(id); /* 0 when not a real */
    return json_is_real(id) && isfinite(d) && d == floor(d);
}

/* RAW[0..LEN) as an owned id if it is one a reply can carry (see
 * pw_rpc_id_ok; null too). */
static char *
id_checked(const char *raw, size_t len)
{
    struct pw_error err = {0};
    json_auto_t *v = raw != NULL ? pw_rpc_parse(raw, len, &err) : NULL;
    if (!pw_rpc_id_ok(v) && !json_is_null(v)) {
        return NULL;
    }
    return pw_xstrndup(raw, len);
}

/* The id of an oversized line, from its first bytes TEXT[0..LEN). */
static char *
oversized_id(const char *text, size_t len)
{
    size_t id_len = 0;
    const char *id = find_id(text, len, true, &id_len);
    return id_checked(id, id_len);
}

static const char *
rskip_ws(const char *start, const char *p)
{
    while (p > start && strchr(" \t\r\n", p[-1]) != NULL) {
        p--;
    }
    return p;
}

/* Q (> START) is preceded by an odd number of backslashes; running into
 * START counts as escaped (not known). */
static bool
escaped(const char *start, const char *q)
{
    size_t n = 0;
    while (q - n > start && q[-1 - (ptrdiff_t)n] == '\\') {
        n++;
    }
    return q - n == start || n % 2 == 1;
}

/* The start of the scalar value that ends at END, or NULL. */
static const char *
rscalar(const char *start, const char *end)
{
    const char *p = end;
    if (p > start && p[-1] == '"') {
        for (p -= 2; p >= start; p--) {
            if (*p == '"' && !escaped(start, p)) {
                return p;
            }
        }
        return NULL;
    }
    while (p > start && strchr("+-.0123456789eEnul", p[-1]) != NULL) {
        p--;
    }
    return p < end ? p : NULL;
}

/* The id of an oversized line whose last member is "id", from the line's
 * last bytes: `,"id":VALUE}` read backwards (in valid JSON a scalar right
 * before the final brace is a member of the outer object). */
static char *
tail_id(const char *tail, size_t len)
{
    const char *p = rskip_ws(tail, tail + len);
    if (p == tail || p[-1] != '}') {
        return NULL;
    }
    const char *vend = rskip_ws(tail, p - 1);
    const char *v = rscalar(tail, vend);
    p = v != NULL ? rskip_ws(tail, v) : tail;
    if (p == tail || p[-1] != ':') {
        return NULL;
    }
    p = rskip_ws(tail, p - 1);
    if (p - tail < 5 || memcmp(p - 4, "\"id\"", 4) != 0 ||
        escaped(tail, p - 4)) {
        return NULL;
    }
    p = rskip_ws(tail, p - 4);
    if (p == tail || (p[-1] != ',' && p[-1] != '{')) {
        return NULL;
    }
    return id_checked(v, (size_t)(vend - v));
}

size_t
pw_rpc_split_array(const char *text, size_t len, size_t *starts, size_t *lens,
                   size_t max)
{
    const char *end = text + len;
    const char *p = skip_ws(text, end);
    size_t n = 0;
    if (p >= end || *p != '[') {
        return 0;
    }
    p = skip_ws(p + 1, end);
    while (p < end && *p != ']') {
        const char *v = p;
        p = skip_value(p, end);
        if (n < max) {
            starts[n] = (size_t)(v - text);
            lens[n] = (size_t)(p - v);
        }
        n++;
        p = skip_ws(p, end);
        if (p < end && *p == ',') {
            p = skip_ws(p + 1, end);
        }
    }
    return n;
}

static bool
blank(const char *s, size_t len)
{
    for (size_t i = 0; i < len; i++) {
        if (s[i] == '\0' || strchr(" \t\r", s[i]) == NULL) {
            return false;
        }
    }
    return true;
}

void
pw_rpc_msg_parse(struct pw_rpc_msg *m, const char *text, size_t len)
{
    memset(m, 0, sizeof(*m));
    m->blank = blank(text, len);
    if (m->blank) {
        return;
    }
    m->v = pw_rpc_parse(text, len, &m->err);
    if (json_is_object(m->v)) {
        m->id = pw_rpc_raw_id(text, len);
    } else if (json_is_array(m->v)) {
        m->n = json_array_size(m->v);
        if (m->n > 0 && m->n <= PW_RPC_MAX_BATCH) {
            size_t *starts = pw_xcalloc(m->n, sizeof(*starts));
            size_t *lens = pw_xcalloc(m->n, sizeof(*lens));
            pw_rpc_split_array(text, len, starts, lens, m->n);
            m->ids = pw_xcalloc(m->n, sizeof(*m->ids));
            for (size_t i = 0; i < m->n; i++) {
                m->ids[i] = pw_rpc_raw_id(text + starts[i], lens[i]);
            }
            free(starts);
            free(lens);
        }
    }
}

void
pw_rpc_msg_clear(struct pw_rpc_msg *m)
{
    json_decref(m->v);
    free(m->id);
    for (size_t i = 0; m->ids != NULL && i < m->n; i++) {
        free(m->ids[i]);
    }
    free(m->ids);
    memset(m, 0, sizeof(*m));
}

/* --- building --------------------------------------------------------- */

/* "{"jsonrpc":"2.0","id":ID," + BODY without its opening brace, as a
 * reply of segments (its long strings and files read as it is sent). */
static struct pw_reply *
envelope_reply(const char *id_raw, json_t *body)
{
    static const char head[] = "{\"jsonrpc\":\"2.0\",\"id\":";
    const char *id = id_raw != NULL ? id_raw : "null";
    struct pw_reply *r = pw_reply_new();
    pw_reply_text(r, head, sizeof(head) - 1);
    pw_reply_text(r, id, strlen(id));
    pw_reply_text(r, ",", 1);
    if (pw_reply_add_json(r, body, DUMP_FLAGS, 1) < 0) {
        pw_reply_free(r);
        return NULL;
    }
    return r;
}

/* The same flat: one owned string (small replies, and commands). */
static char *
envelope(const char *id_raw, json_t *body)
{
    struct pw_reply *r = envelope_reply(id_raw, body);
    return r != NULL ? pw_reply_flatten(r) : NULL;
}

struct pw_reply *
pw_rpc_result_reply(const char *id_raw, json_t *result)
{
    json_auto_t *body = json_pack("{s:O}", "result", result);
    return body != NULL ? envelope_reply(id_raw, body) : NULL;
}

char *
pw_rpc_result_new(const char *id_raw, json_t *result)
{
    json_auto_t *body = json_pack("{s:O}", "result", result);
    return body != NULL ? envelope(id_raw, body) : NULL;
}

char *
pw_rpc_error_new(const char *id_raw, int code, const char *message,
                 json_t *data)
{
    json_auto_t *error =
        json_pack("{s:i,s:s}", "code", code, "message", message);
    if (error == NULL ||
        (data != NULL && json_object_set(error, "data", data) < 0)) {
        return NULL;
    }
    json_auto_t *body = json_pack("{s:O}", "error", error);
    return body != NULL ? envelope(id_raw, body) : NULL;
}

char *
pw_rpc_notification_new(const char *method, json_t *params)
{
    json_auto_t *msg =
        json_pack("{s:s,s:s}", "jsonrpc", "2.0", "method", method);
    if (msg == NULL ||
        (params != NULL && json_object_set(msg, "params", params) < 0)) {
        return NULL;
    }
    return pw_json_dumps(msg, DUMP_FLAGS);
}

/* --- output ----------------------------------------------------------- */

void
pw_rpc_out_init(struct pw_rpc_out *out, int fd)
{
    out->fd = fd;
    out->q = pw_reply_new();
    out->stage = NULL;
    out->len = 0;
    out->off = 0;
    out->broken = false;
}

void
pw_rpc_out_free(struct pw_rpc_out *out)
{
    pw_reply_free(out->q);
    free(out->stage);
    out->q = NULL;
    out->stage = NULL;
}

void
pw_rpc_out_queue(struct pw_rpc_out *out, const char *line)
{
    if (out->broken) {
        return;
    }
    pw_reply_text(out->q, line, strlen(line));
    pw_reply_text(out->q, "\n", 1);
}

void
pw_rpc_out_queue_reply(struct pw_rpc_out *out, struct pw_reply *r)
{
    if (out->broken) {
        pw_reply_free(r);
        return;
    }
    pw_reply_append(out->q, r);
    pw_reply_text(out->q, "\n", 1);
}

void
pw_rpc_out_flush(struct pw_rpc_out *out)
{
    int chunks = OUT_CHUNKS;
    while (!out->broken) {
        if (out->off == out->len) {
            if (chunks-- == 0) {
                return; /* the loop's next turn goes on */
            }
            if (out->stage == NULL) {
                out->stage = pw_xmalloc(OUT_STAGE);
            }
            out->off = 0;
            out->len = pw_reply_read(out->q, out->stage, OUT_STAGE);
            if (out->len == 0) {
                break;
            }
        }
        ssize_t n = PW_RETRY(
            write(out->fd, out->stage + out->off, out->len - out->off));
        if (n < 0) {
            if (errno == EAGAIN) {
                return;
            }
            pw_warn_errno("writing to the client");
            out->broken = true;
            break;
        }
        out->off += (size_t)n;
    }
    out->len = 0;
    out->off = 0;
    free(out->stage);
    out->stage = NULL;
    if (out->broken) {
        /* Nothing more is written: the files' fds are closed now. */
        pw_reply_free(out->q);
        out->q = pw_reply_new();
    }
}

size_t
pw_rpc_out_pending(const struct pw_rpc_out *out)
{
    return out->broken ? 0 : pw_reply_held(out->q) + (out->len - out->off);
}

bool
pw_rpc_out_busy(const struct pw_rpc_out *out)
{
    return !out->broken && (out->off < out->len || !pw_reply_done(out->q));
}
