/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_jsonrpc.c - unit tests of the JSON-RPC framing layer: raw ids,
 * batch splitting, capped line reading, which ids a request may carry,
 * numbers checked before use, envelopes and the output queue.
 */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base64.h"
#include "core/blob.h"
#include "core/json.h"
#include "core/reply.h"
#include "core/token.h"
#include "core/util.h"
#include "server/parse.h"
#include "server/rpc.h"

static char *
raw_id(const char *text)
{
    return pw_rpc_raw_id(text, strlen(text));
}

static void
assert_raw_id(const char *text, const char *want)
{
    char *got = raw_id(text);
    if (want == NULL) {
        ck_assert_ptr_null(got);
    } else {
        ck_assert_ptr_nonnull(got);
        ck_assert_str_eq(got, want);
    }
    free(got);
}

START_TEST(raw_id_numbers_kept_as_written)
{
    assert_raw_id("{\"jsonrpc\":\"2.0\",\"id\":1}", "1");
    assert_raw_id("{\"id\":123456789012345678901234567890}",
                  "123456789012345678901234567890");
    assert_raw_id("{\"id\" : 0.10 , \"method\":\"ping\"}", "0.10");
    assert_raw_id("{\"id\":-1E+2}", "-1E+2");
}
END_TEST

START_TEST(raw_id_strings_and_nesting)
{
    assert_raw_id("{\"params\":{\"id\":5,\"x\":[\"}\",{\"id\":6}]},"
                  "\"id\":\"a\\\"b\"}",
                  "\"a\\\"b\"");
    assert_raw_id("{\"method\":\"ping\"}", NULL);
    assert_raw_id("[{\"id\":1}]", NULL);
    assert_raw_id("{\"\\u0069d\":7}", "7");
    assert_raw_id("{\"id\":1,\"id\":2}", "2");
}
END_TEST

START_TEST(split_array_ranges)
{
    const char *text = " [ {\"a\":\"],\"} , 42,[1,[2]] ,\"x\" ] ";
    size_t starts[8];
    size_t lens[8];
    size_t n = pw_rpc_split_array(text, strlen(text), starts, lens, 8);
    ck_assert_uint_eq(n, 4);
    ck_assert_int_eq(strncmp(text + starts[0], "{\"a\":\"],\"}", lens[0]), 0);
    ck_assert_uint_eq(lens[1], 2);
    ck_assert_int_eq(strncmp(text + starts[2], "[1,[2]]", lens[2]), 0);
    ck_assert_int_eq(strncmp(text + starts[3], "\"x\"", lens[3]), 0);
}
END_TEST

START_TEST(parse_huge_integer_and_depth)
{
    struct pw_error err = {0};
    const char *big = "{\"id\":123456789012345678901234567890}";
    json_t *v = pw_rpc_parse(big, strlen(big), &err);
    ck_assert_ptr_nonnull(v);
    ck_assert(json_is_real(json_object_get(v, "id")));
    json_decref(v);
    size_t depth = 100000;
    char *deep = malloc(2 * depth + 1);
    memset(deep, '[', depth);
    memset(deep + depth, ']', depth);
    deep[2 * depth] = '\0';
    v = pw_rpc_parse(deep, 2 * depth, &err);
    ck_assert_ptr_null(v);
    ck_assert_ptr_nonnull(strstr(err.message, "depth"));
    free(deep);
}
END_TEST

struct lines {
    char got[8][64];
    bool oversized[8];
    int n;
};

static void
collect(void *ctx, const char *line, size_t len, bool oversized)
{
    struct lines *l = ctx;
    ck_assert_int_lt(l->n, 8);
    snprintf(l->got[l->n], sizeof(l->got[0]), "%.*s", (int)len, line);
    l->oversized[l->n++] = oversized;
}

START_TEST(lines_split_across_reads)
{
    int p[2];
    struct pw_rpc_in in;
    struct lines l = {0};
    ck_assert_int_eq(pipe(p), 0);
    pw_rpc_in_init(&in);
    ck_assert_int_eq(write(p[1], "ab", 2), 2);
    ck_assert_int_eq(pw_rpc_in_read(&in, p[0], collect, &l), 0);
    ck_assert_int_eq(l.n, 0);
    ck_assert_int_eq(write(p[1], "c\n\nd\nlast", 9), 9);
    ck_assert_int_eq(pw_rpc_in_read(&in, p[0], collect, &l), 0);
    close(p[1]);
    ck_assert_int_eq(pw_rpc_in_read(&in, p[0], collect, &l), 1);
    ck_assert_int_eq(l.n, 4);
    ck_assert_str_eq(l.got[0], "abc");
    ck_assert_str_eq(l.got[1], "");
    ck_assert_str_eq(l.got[2], "d");
    ck_assert_str_eq(l.got[3], "last");
    pw_rpc_in_free(&in);
    close(p[0]);
}
END_TEST

/* A collector that takes the buffer of each line starting with 'T' and
 * spoils and frees it at once, as the parse worker may before the
 * reader's loop goes on. */
struct taker {
    struct pw_rpc_in *in;
    struct lines l;
};

static void
take_some(void *ctx, const char *line, size_t len, bool oversized)
{
    struct taker *t = ctx;
    collect(&t->l, line, len, oversized);
    if (len > 0 && line[0] == 'T') {
        char *buf = pw_rpc_in_take(t->in);
        ck_assert(buf <= line);
        memset(buf, '#', (size_t)(line - buf) + len);
        free(buf);
    }
}

START_TEST(taken_buffer_leaves_the_rest_whole)
{
    int p[2];
    struct pw_rpc_in in;
    struct taker t = {.in = &in};
    ck_assert_int_eq(pipe(p), 0);
    pw_rpc_in_init(&in);
    const char *text = "Tfirst\nsecond\nTthird\nTfourth\nfifth\nsix";
    ck_assert_int_eq(write(p[1], text, strlen(text)), (ssize_t)strlen(text));
    close(p[1]);
    ck_assert_int_eq(pw_rpc_in_read(&in, p[0], take_some, &t), 0);
    ck_assert_int_eq(pw_rpc_in_read(&in, p[0], take_some, &t), 1);
    ck_assert_int_eq(t.l.n, 6);
    const char *want[] = {"Tfirst",  "second", "Tthird",
                          "Tfourth", "fifth",  "six"};
    for (int i = 0; i < 6; i++) {
        ck_assert_str_eq(t.l.got[i], want[i]);
    }
    pw_rpc_in_free(&in);
    close(p[0]);
}
END_TEST

/* A parse job that records its name in a shared order when done; the
 * first one waits on a pipe before it ends, to hold the worker. */
struct named_job {
    struct pw_parse_job base;
    const char *name;
    char *order;
    int wait_fd; /* -1: none */
};

static void
named_work(struct pw_parse_job *pj)
{
    struct named_job *j = (struct named_job *)pj;
    char c;
    if (j->wait_fd >= 0) {
        ck_assert_int_eq(read(j->wait_fd, &c, 1), 1);
    }
}

static void
named_done(struct pw_parse_job *pj, bool stopping)
{
    struct named_job *j = (struct named_job *)pj;
    if (!stopping) {
        strcat(j->order, j->name);
    }
}

/* The parse worker's jobs of different owners take turns: with a1 being
 * parsed, a2 a3 a4 of owner 1 then b1 of owner 2 given, b1 goes next. */
START_TEST(parse_owners_take_turns)
{
    struct pw_parse *p = pw_parse_new();
    ck_assert_ptr_nonnull(p);
    int hold[2];
    ck_assert_int_eq(pipe(hold), 0);
    char order[32] = "";
    static const char *const names[] = {"a1", "a2", "a3", "a4", "b1"};
    struct named_job jobs[5];
    memset(jobs, 0, sizeof(jobs));
    for (int i = 0; i < 5; i++) {
        jobs[i].base.work = named_work;
        jobs[i].base.done = named_done;
        jobs[i].base.owner = names[i][0] == 'a' ? 1 : 2;
        jobs[i].name = names[i];
        jobs[i].order = order;
        jobs[i].wait_fd = i == 0 ? hold[0] : -1;
        pw_parse_submit(p, &jobs[i].base);
        if (i == 0) { /* a1 most likely begun first (the order is the
                       * same if not: a1 came first in the lowest turn) */
            (void)usleep(50000);
        }
    }
    ck_assert_int_eq(write(hold[1], "x", 1), 1);
    for (int i = 0; i < 1000 && pw_parse_pending(p) > 0; i++) {
        struct pollfd pf = {pw_parse_fd(p), POLLIN, 0};
        ck_assert_int_ge(poll(&pf, 1, 10), 0);
        if (pf.revents != 0) {
            pw_parse_collect(p);
        }
    }
    ck_assert_str_eq(order, "a1b1a2a3a4");
    pw_parse_free(p);
    close(hold[0]);
    close(hold[1]);
}
END_TEST

START_TEST(oversized_line_flagged_then_next_line_read)
{
    int p[2];
    struct pw_rpc_in in;
    struct lines l = {0};
    size_t chunk = 1 << 20;
    char *junk = malloc(chunk);
    memset(junk, 'x', chunk);
    ck_assert_int_eq(pipe(p), 0);
    pw_rpc_in_init(&in);
    ck_assert_int_eq(fcntl(p[1], F_SETFL, O_NONBLOCK), 0);
    /* Feed 17 MiB of one line: each round the pipe holds data (written
     * now, or full), so the read never blocks. */
    size_t left = 17 * chunk;
    while (left > 0) {
        ssize_t w = write(p[1], junk, left < chunk ? left : chunk);
        if (w > 0) {
            left -= (size_t)w;
        }
        ck_assert_int_eq(pw_rpc_in_read(&in, p[0], collect, &l), 0);
    }
    ck_assert_int_eq(l.n, 0);
    ck_assert_int_eq(write(p[1], "tail\nok\n", 8), 8);
    while (l.n < 2) {
        ck_assert_int_eq(pw_rpc_in_read(&in, p[0], collect, &l), 0);
    }
    ck_assert(l.oversized[0]);
    ck_assert_str_eq(l.got[1], "ok");
    ck_assert(!l.oversized[1]);
    ck_assert_uint_le(in.buf.cap, 1024 * 1024); /* memory given back */
    pw_rpc_in_free(&in);
    free(junk);
    close(p[0]);
    close(p[1]);
}
END_TEST

/* Feed HEAD, N bytes of 'x' and TAIL as one line; the id handed out. */
static void
oversized_id(const char *head, size_t n, const char *tail, const char *want)
{
    int p[2];
    struct pw_rpc_in in;
    struct lines l = {0};
    char *junk = malloc(n);
    memset(junk, 'x', n);
    ck_assert_int_eq(pipe(p), 0);
    ck_assert_int_eq(fcntl(p[1], F_SETFL, O_NONBLOCK), 0);
    pw_rpc_in_init(&in);
    const char *parts[] = {head, junk, tail, "\nok\n"};
    size_t lens[] = {strlen(head), n, strlen(tail), 4};
    for (size_t i = 0; i < 4; i++) {
        size_t off = 0;
        while (off < lens[i]) {
            ssize_t w = write(p[1], parts[i] + off, lens[i] - off);
            off += w > 0 ? (size_t)w : 0;
            ck_assert_int_eq(pw_rpc_in_read(&in, p[0], collect, &l), 0);
        }
    }
    while (l.n < 2) {
        ck_assert_int_eq(pw_rpc_in_read(&in, p[0], collect, &l), 0);
    }
    ck_assert(l.oversized[0]);
    ck_assert_str_eq(l.got[0], want);
    ck_assert_str_eq(l.got[1], "ok");
    pw_rpc_in_free(&in);
    free(junk);
    close(p[0]);
    close(p[1]);
}

START_TEST(oversized_line_keeps_its_id)
{
    size_t n = 17u << 20;
    oversized_id("{\"jsonrpc\":\"2.0\",\"id\":\"a\\\"b\",\"params\":\"", n,
                 "\"}", "\"a\\\"b\"");
    oversized_id("{\"params\":{\"x\":\"", n, "\"},\"id\" : 12.0 }", "12.0");
    oversized_id("{\"params\":{\"x\":\"", n, "\"},\"id\" : 12.5 }", "");
    oversized_id("{\"params\":{\"x\":\"", n, "\",\"id\":3}}", "");
    oversized_id("{\"params\":\"", n, "\\\",\\\"id\\\":4\"}", "");
    oversized_id("{\"id\":[1],\"params\":\"", n, "\"}", "");
    oversized_id("", n, "", "");
}
END_TEST

/* pw_rpc_id_ok on the id of TEXT as pw_rpc_parse reads it. */
static bool
id_ok(const char *text)
{
    struct pw_error err = {0};
    json_t *v = pw_rpc_parse(text, strlen(text), &err);
    ck_assert_ptr_nonnull(v);
    bool ok = pw_rpc_id_ok(json_object_get(v, "id"));
    json_decref(v);
    return ok;
}

START_TEST(ids_strings_and_whole_numbers)
{
    ck_assert(id_ok("{\"id\":\"a\"}"));
    ck_assert(id_ok("{\"id\":\"\"}"));
    ck_assert(id_ok("{\"id\":7}"));
    ck_assert(id_ok("{\"id\":-7}"));
    ck_assert(id_ok("{\"id\":1.0}"));
    ck_assert(id_ok("{\"id\":1e3}"));
    ck_assert(id_ok("{\"id\":123456789012345678901234567890}"));
    ck_assert(!id_ok("{\"id\":1.5}"));
    ck_assert(!id_ok("{\"id\":-0.25}"));
    ck_assert(!id_ok("{\"id\":1e-300}"));
    ck_assert(!id_ok("{\"id\":{}}"));
    ck_assert(!id_ok("{\"id\":[1]}"));
    ck_assert(!id_ok("{\"id\":null}"));
    ck_assert(!id_ok("{\"id\":true}"));
    ck_assert(!pw_rpc_id_ok(NULL));
}
END_TEST

/* pw_json_number_in / pw_json_integer_in on the "v" member of TEXT. */
static int
number_in(const char *text, double min, double max, double *out,
          struct pw_error *err)
{
    struct pw_error perr = {0};
    json_t *o = pw_rpc_parse(text, strlen(text), &perr);
    ck_assert_ptr_nonnull(o);
    int rc =
        pw_json_number_in(json_object_get(o, "v"), "v", min, max, out, err);
    json_decref(o);
    return rc;
}

static int
integer_in(const char *text, long long min, long long max, long long *out,
           struct pw_error *err)
{
    struct pw_error perr = {0};
    json_t *o = pw_rpc_parse(text, strlen(text), &perr);
    ck_assert_ptr_nonnull(o);
    int rc =
        pw_json_integer_in(json_object_get(o, "v"), "v", min, max, out, err);
    json_decref(o);
    return rc;
}

START_TEST(numbers_checked_before_use)
{
    struct pw_error err = {0};
    double d = -1;
    ck_assert_int_eq(number_in("{}", 0, 10, &d, &err), 0);
    ck_assert(d == -1);
    ck_assert_int_eq(number_in("{\"v\":2.5}", 0, 10, &d, &err), 1);
    ck_assert(d == 2.5);
    ck_assert_int_eq(number_in("{\"v\":10}", 0, 10, &d, &err), 1);
    ck_assert(d == 10);
    ck_assert_int_eq(number_in("{\"v\":1e308}", 0, 10, &d, &err), -1);
    ck_assert_str_eq(err.message, "'v' must be a number from 0 to 10, not "
                                  "1e+308");
    ck_assert_int_eq(number_in("{\"v\":-1e-9}", 0, 10, &d, NULL), -1);
    ck_assert_int_eq(number_in("{\"v\":\"5\"}", 0, 10, &d, &err), -1);
    ck_assert_str_eq(err.message, "'v' must be a number from 0 to 10, not a "
                                  "string");
    ck_assert_int_eq(number_in("{\"v\":null}", 0, 10, &d, NULL), -1);
    ck_assert(d == 10);

    long long n = -1;
    ck_assert_int_eq(integer_in("{}", 1, 100, &n, &err), 0);
    ck_assert_int_eq(n, -1);
    ck_assert_int_eq(integer_in("{\"v\":100}", 1, 100, &n, &err), 1);
    ck_assert_int_eq(n, 100);
    ck_assert_int_eq(integer_in("{\"v\":1e2}", 1, 100, &n, &err), 1);
    ck_assert_int_eq(n, 100);
    ck_assert_int_eq(integer_in("{\"v\":101}", 1, 100, &n, &err), -1);
    ck_assert_str_eq(err.message, "'v' must be a whole number from 1 to 100, "
                                  "not 101");
    ck_assert_int_eq(integer_in("{\"v\":2.5}", 1, 100, &n, &err), -1);
    ck_assert_str_eq(err.message, "'v' must be a whole number from 1 to 100, "
                                  "not 2.5");
    /* Reals past 2^53 and past a long long are refused, not cast. */
    ck_assert_int_eq(integer_in("{\"v\":1e308}", 1, LLONG_MAX, &n, NULL), -1);
    ck_assert_int_eq(integer_in("{\"v\":-1e308}", LLONG_MIN, 100, &n, NULL),
                     -1);
    ck_assert_int_eq(integer_in("{\"v\":123456789012345678901234567890}", 1,
                                LLONG_MAX, &n, NULL),
                     -1);
    ck_assert_int_eq(
        integer_in("{\"v\":9223372036854775807}", 1, LLONG_MAX, &n, NULL), 1);
    ck_assert_int_eq(n, LLONG_MAX);
}
END_TEST

START_TEST(envelopes_splice_the_raw_id)
{
    json_t *res = json_pack("{s:i}", "x", 1);
    char *line = pw_rpc_result_new("1.50", res);
    ck_assert_str_eq(line, "{\"jsonrpc\":\"2.0\",\"id\":1.50,"
                           "\"result\":{\"x\":1}}");
    free(line);
    line = pw_rpc_error_new(NULL, PW_RPC_PARSE_ERROR, "bad\n", NULL);
    ck_assert_str_eq(line, "{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":"
                           "{\"code\":-32700,\"message\":\"bad\\n\"}}");
    free(line);
    line = pw_rpc_notification_new("notifications/progress", res);
    ck_assert_str_eq(line, "{\"jsonrpc\":\"2.0\",\"method\":"
                           "\"notifications/progress\",\"params\":{\"x\":1}}");
    free(line);
    json_decref(res);
}
END_TEST

/* Reals in a reply: the shortest text that reads back as the same
 * double (strings and integers untouched); the rounded run times. */
START_TEST(reals_in_their_shortest_form)
{
    json_t *res = json_pack(
        "{s:f,s:f,s:f,s:f,s:f,s:f,s:f,s:s,s:I,s:[f]}", "a", 0.018, "b",
        0.1 + 0.2, "c", 1e20, "d", -0.0, "e", 1.0, "f", 2.5e-7, "g",
        pw_round_us(0.03196907299934537), "s", "0.017999999999999999 1.5", "i",
        (json_int_t)12345678901234, "l", 123456.789);
    char *line = pw_rpc_result_new("7", res);
    ck_assert_str_eq(line,
                     "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"a\":0.018,"
                     "\"b\":0.30000000000000004,\"c\":1e20,\"d\":-0.0,"
                     "\"e\":1.0,\"f\":2.5e-07,\"g\":0.031969,"
                     "\"s\":\"0.017999999999999999 1.5\",\"i\":12345678901234,"
                     "\"l\":[123456.789]}}");
    /* Each reads back as the same double. */
    json_t *back = json_loads(line, 0, NULL);
    json_t *r = json_object_get(back, "result"); /* borrowed */
    ck_assert_ptr_nonnull(r);
    ck_assert(json_real_value(json_object_get(r, "a")) == 0.018);
    ck_assert(json_real_value(json_object_get(r, "b")) == 0.1 + 0.2);
    ck_assert(json_real_value(json_object_get(r, "f")) == 2.5e-7);
    json_decref(back);
    free(line);
    json_decref(res);
}
END_TEST

START_TEST(output_queue_never_blocks)
{
    int p[2];
    struct pw_rpc_out out;
    char buf[65536];
    ck_assert_int_eq(pipe2(p, O_NONBLOCK), 0);
    pw_rpc_out_init(&out, p[1]);
    /* More than a pipe holds: the rest stays queued. */
    char *big = malloc(300000);
    memset(big, 'y', 299999);
    big[299999] = '\0';
    pw_rpc_out_queue(&out, big);
    pw_rpc_out_flush(&out);
    ck_assert_uint_gt(pw_rpc_out_pending(&out), 0);
    size_t total = 0;
    while (pw_rpc_out_pending(&out) > 0) {
        ssize_t n = read(p[0], buf, sizeof(buf));
        if (n > 0) {
            total += (size_t)n;
        }
        pw_rpc_out_flush(&out);
    }
    ssize_t n;
    while ((n = read(p[0], buf, sizeof(buf))) > 0) {
        total += (size_t)n;
    }
    ck_assert_uint_eq(total, 300000);
    free(big);
    pw_rpc_out_free(&out);
    close(p[0]);
    close(p[1]);
}
END_TEST

/* A string of N bytes with every byte value (NUL too) and multibyte
 * characters, as a program's output may hold. */
static json_t *
every_byte(size_t n)
{
    static const char utf8[] = "\xc3\xa9\xe4\xb8\xad\xf0\x9f\x98\x80";
    char *s = malloc(n);
    size_t i = 0;
    for (unsigned c = 0; i < n; c = (c + 1) % 0x80) {
        if (c == 0x7f && i + sizeof(utf8) - 1 <= n) {
            memcpy(s + i, utf8, sizeof(utf8) - 1);
            i += sizeof(utf8) - 1;
        } else {
            s[i++] = (char)c;
        }
    }
    json_t *v = json_stringn(s, n);
    free(s);
    return v;
}

/* A reply of segments reads as the text jansson and pw_json_dumps make of
 * the same tree, and announces its length; the tree is left as it was. */
START_TEST(replies_read_as_the_flat_text)
{
    size_t sizes[] = {8191, 8192, 8193, 65535, 65536, 200000};
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        json_t *big = every_byte(sizes[k]);
        ck_assert_ptr_nonnull(big);
        json_t *res =
            json_pack("{s:O,s:[O,s,f],s:{s:O}}", "stdout", big, "list", big,
                      "short", 0.1 + 0.2, "o", "in", big);
        json_t *before = json_deep_copy(res);
        json_t *body = json_pack("{s:O}", "result", res);
        char *flat = pw_json_dumps(body, JSON_COMPACT | JSON_PRESERVE_ORDER);
        struct pw_buf want;
        pw_buf_init(&want);
        pw_buf_printf(&want, "{\"jsonrpc\":\"2.0\",\"id\":9,%s", flat + 1);
        struct pw_reply *r = pw_rpc_result_reply("9", res);
        ck_assert_ptr_nonnull(r);
        ck_assert_uint_eq(pw_reply_size(r), want.len);
        char *got = pw_reply_flatten(r);
        ck_assert_uint_eq(strlen(got), want.len);
        ck_assert(memcmp(got, want.data, want.len) == 0);
        ck_assert(json_equal(res, before));
        free(got);
        free(flat);
        pw_buf_free(&want);
        json_decref(body);
        json_decref(before);
        json_decref(res);
        json_decref(big);
    }
}
END_TEST

/* A blob of N bytes of a pattern (an unlinked file). */
static struct pw_blob *
blob_of(size_t n, unsigned char **bytes)
{
    char path[] = "/tmp/pyward-check-blob-XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    unlink(path);
    *bytes = malloc(n + 1);
    for (size_t i = 0; i < n; i++) {
        (*bytes)[i] = (unsigned char)((i * 7919) % 251);
    }
    ck_assert_int_eq(write(fd, *bytes, n), (ssize_t)n);
    struct stat st;
    ck_assert_int_eq(fstat(fd, &st), 0);
    return pw_blob_new(fd, &st);
}

/* A file's bytes come as base64 a chunk a read, whatever the room. */
START_TEST(blobs_read_a_chunk_at_a_time)
{
    size_t sizes[] = {0, 1, 2, 3, 49151, 49152, 49153, 1000000};
    for (size_t k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
        unsigned char *bytes;
        struct pw_blob *b = blob_of(sizes[k], &bytes);
        json_t *res = json_pack("{s:o}", "data", pw_blob_token(b));
        struct pw_reply *r = pw_rpc_result_reply("1", res);
        pw_blob_unref(b); /* the reply holds its own reference */
        size_t size = pw_reply_size(r);
        char *buf = malloc(4u << 20);
        size_t len = 0;
        size_t n;
        while ((n = pw_reply_read(r, buf + len, (4u << 20) - len)) > 0) {
            /* one chunk of 64 KiB and the text around it at the most */
            ck_assert_uint_le(n, 65536 + 64);
            len += n;
        }
        ck_assert(pw_reply_done(r));
        ck_assert(!pw_reply_failed(r));
        ck_assert_uint_eq(len, size);
        buf[len] = '\0';
        json_t *back = json_loads(buf, 0, NULL);
        ck_assert_ptr_nonnull(back);
        struct pw_buf raw;
        pw_buf_init(&raw);
        ck_assert_int_eq(
            pw_base64_decode(json_string_value(json_object_get(
                                 json_object_get(back, "result"), "data")),
                             &raw),
            0);
        ck_assert_uint_eq(raw.len, sizes[k]);
        ck_assert(sizes[k] == 0 || memcmp(raw.data, bytes, sizes[k]) == 0);
        pw_buf_free(&raw);
        json_decref(back);
        pw_reply_free(r);
        free(buf);
        free(bytes);
        json_decref(res);
    }
}
END_TEST

/* Only a live blob's whole placeholder is a blob: the same text with
 * another secret, inside a longer string, or after its blob is gone, and
 * a reply's mark made up by a program, stay text. */
START_TEST(forged_placeholders_stay_text)
{
    unsigned char *bytes;
    struct pw_blob *b = blob_of(10, &bytes);
    json_t *tok = pw_blob_token(b);
    const char *t = json_string_value(tok);
    char *wrong = strdup(t);
    wrong[strlen(wrong) - 1] = wrong[strlen(wrong) - 1] == '0' ? '1' : '0';
    char *inside = pw_xasprintf("x%s", t);
    char *mark = pw_xasprintf("pwseg-%s0000000000000000-0", pw_token_nonce());
    json_t *res = json_pack("{s:O,s:s,s:s,s:s}", "real", tok, "wrong", wrong,
                            "inside", inside, "mark", mark);
    char *line = pw_rpc_result_new("1", res);
    json_t *back = json_loads(line, 0, NULL);
    json_t *r = json_object_get(back, "result"); /* borrowed */
    /* The live one: the file's bytes in base64. */
    ck_assert_str_eq(json_string_value(json_object_get(r, "real")),
                     "AIoZozK8S9Vk7g==");
    ck_assert_str_eq(json_string_value(json_object_get(r, "wrong")), wrong);
    ck_assert_str_eq(json_string_value(json_object_get(r, "inside")), inside);
    ck_assert_str_eq(json_string_value(json_object_get(r, "mark")), mark);
    json_decref(back);
    free(line);
    pw_blob_unref(b);
    /* Its blob gone, the placeholder is text like any other. */
    line = pw_rpc_result_new("1", res);
    back = json_loads(line, 0, NULL);
    ck_assert_str_eq(json_string_value(json_object_get(
                         json_object_get(back, "result"), "real")),
                     t);
    json_decref(back);
    free(line);
    json_decref(res);
    json_decref(tok);
    free(wrong);
    free(inside);
    free(mark);
    free(bytes);
}
END_TEST

static Suite *
jsonrpc_suite(void)
{
    Suite *s = suite_create("jsonrpc");
    TCase *tc = tcase_create("framing");
    tcase_set_timeout(tc, 30);
    tcase_add_test(tc, raw_id_numbers_kept_as_written);
    tcase_add_test(tc, raw_id_strings_and_nesting);
    tcase_add_test(tc, split_array_ranges);
    tcase_add_test(tc, parse_huge_integer_and_depth);
    tcase_add_test(tc, lines_split_across_reads);
    tcase_add_test(tc, taken_buffer_leaves_the_rest_whole);
    tcase_add_test(tc, parse_owners_take_turns);
    tcase_add_test(tc, oversized_line_flagged_then_next_line_read);
    tcase_add_test(tc, oversized_line_keeps_its_id);
    tcase_add_test(tc, ids_strings_and_whole_numbers);
    tcase_add_test(tc, numbers_checked_before_use);
    tcase_add_test(tc, envelopes_splice_the_raw_id);
    tcase_add_test(tc, reals_in_their_shortest_form);
    tcase_add_test(tc, output_queue_never_blocks);
    tcase_add_test(tc, replies_read_as_the_flat_text);
    tcase_add_test(tc, blobs_read_a_chunk_at_a_time);
    tcase_add_test(tc, forged_placeholders_stay_text);
    suite_add_tcase(s, tc);
    return s;
}

int
main(void)
{
    SRunner *sr = srunner_create(jsonrpc_suite());
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
