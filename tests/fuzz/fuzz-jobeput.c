/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz-jobeput.c - a Jobe file PUT's body read as it comes (jobe_put.c)
 * against the same body read whole by jansson and decoded by
 * pw_base64_decode.
 *
 * The input's first byte is the size of the pieces the body is handed
 * over in (0: one piece), the rest the body.  Besides not crashing, the
 * answers must agree: 204 with the same bytes stored, or 400 with the
 * same message; where jansson reads JSON that json_decode reads
 * differently (nesting past 512, integers past 64 bits, NUL in a key)
 * only the absence of a crash counts, and a file past the cap (413) may
 * be refused before a later error in the body is seen.
 */
#include "config.h"

#include <jansson.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/base64.h"
#include "core/util.h"
#include "fuzz.h"
#include "server/jobe.h"

#define FILE_CAP (64 << 10)
#define MISSING  "put: missing file_contents parameter"
#define NOT_B64  "put: contents of file f are not valid base-64"

static struct pw_jobe_files *files;

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    (void)argc;
    (void)argv;
    struct pw_error err = {0};
    files = pw_jobe_files_new(NULL, NULL, FILE_CAP, 1 << 20, 0, 3600, &err);
    if (files == NULL) {
        pw_fuzz_die("cache", err.message);
    }
    return 0;
}

/* The answer jansson's reading gives: its status and message (static),
 * the bytes in B for a 204; 0 if jansson reads JSON json_decode would
 * not read alike. */
static unsigned
expected(const char *body, size_t len, struct pw_buf *b, const char **msg)
{
    size_t depth = 0;
    for (size_t i = 0; i < len; i++) {
        depth += body[i] == '[' || body[i] == '{';
    }
    json_error_t jerr;
    json_auto_t *root =
        json_loadb(body, len, JSON_ALLOW_NUL | JSON_DECODE_INT_AS_REAL, &jerr);
    if (depth > 500 || (root == NULL && (json_error_code(&jerr) ==
                                             json_error_numeric_overflow ||
                                         strstr(jerr.text, "NUL") != NULL))) {
        return 0;
    }
    json_t *fc = json_object_get(root, "file_contents");
    *msg = MISSING;
    if (!json_is_object(root) || fc == NULL || json_is_null(fc)) {
        return 400;
    }
    *msg = NOT_B64;
    if (!json_is_string(fc) ||
        memchr(json_string_value(fc), '\0', json_string_length(fc)) != NULL ||
        pw_base64_decode(json_string_value(fc), b) < 0) {
        return 400;
    }
    *msg = NULL;
    return b->len > FILE_CAP ? 413 : 204;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size == 0) {
        return 0;
    }
    size_t piece = data[0];
    const char *body = (const char *)data + 1;
    size_t len = size - 1;
    struct pw_jobe_put *p = pw_jobe_put_new(files, "c1", "f", 1 << 20);
    struct pw_jobe_answer a;
    memset(&a, 0, sizeof(a));
    bool over = false;
    for (size_t i = 0; !over && i < len;) {
        size_t n = piece == 0 || len - i < piece ? len - i : piece;
        over = pw_jobe_put_feed(p, body + i, n, &a) < 0;
        i += n;
    }
    if (!over) {
        pw_jobe_put_end(p, &a);
    }
    pw_jobe_put_free(p);
    json_auto_t *got =
        a.body != NULL ? json_loads(a.body, JSON_DECODE_ANY, NULL) : NULL;
    struct pw_buf want;
    pw_buf_init(&want);
    const char *msg = NULL;
    unsigned st = expected(body, len, &want, &msg);
    if (st != 0 && !(a.status == 413 && st == 400)) {
        if (a.status != st ||
            (msg != NULL && (!json_is_string(got) ||
                             strcmp(json_string_value(got), msg) != 0))) {
            fprintf(stderr, "status %u, %s; jansson: %u, %s\n", a.status,
                    a.body != NULL ? a.body : "-", st,
                    msg != NULL ? msg : "-");
            abort();
        }
    }
    if (a.status == 204) {
        struct pw_jobe_hold *h = pw_jobe_hold_new(files, "c1");
        int fd;
        long long n;
        if (pw_jobe_hold_add(h, "f", &fd, &n) < 0) {
            abort();
        }
        char *stored = pw_xmalloc((size_t)n + 1);
        if (pread(fd, stored, (size_t)n, 0) != (ssize_t)n ||
            (st == 204 &&
             ((size_t)n != want.len ||
              (n > 0 && memcmp(stored, want.data, want.len) != 0)))) {
            fprintf(stderr, "stored %lld bytes, jansson's %zu\n", n, want.len);
            abort();
        }
        free(stored);
        pw_jobe_hold_free(h);
    }
    pw_buf_free(&want);
    pw_jobe_answer_clear(&a);
    return 0;
}
