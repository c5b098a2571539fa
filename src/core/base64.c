/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * base64.c - Base64 (RFC 4648, padded) to a JSON string and back: files
 * returned in results, and support files a client uploads.
 */
#include "config.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/base64.h"
#include "core/util.h"

size_t
pw_base64_encode(const unsigned char *p, size_t n, char *out)
{
    static const char abc[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        unsigned v = (unsigned)p[i] << 16;
        v |= i + 1 < n ? (unsigned)p[i + 1] << 8 : 0;
        v |= i + 2 < n ? (unsigned)p[i + 2] : 0;
        out[o++] = abc[(v >> 18) & 63];
        out[o++] = abc[(v >> 12) & 63];
        out[o++] = i + 1 < n ? abc[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? abc[v & 63] : '=';
    }
    return o;
}

json_t *
pw_base64_json(const unsigned char *p, size_t n)
{
    char *out = pw_xmalloc(PW_BASE64_LEN(n) + 1);
    size_t o = pw_base64_encode(p, n, out);
    json_t *s = json_stringn(out, o);
    free(out);
    return s;
}

/* The value of C in the alphabet (0 to 63), 64 for '=', else -1. */
static int
b64_value(char c)
{
    if (c >= 'A' && c <= 'Z') {
        return c - 'A';
    }
    if (c >= 'a' && c <= 'z') {
        return c - 'a' + 26;
    }
    if (c >= '0' && c <= '9') {
        return c - '0' + 52;
    }
    return c == '+' ? 62 : c == '/' ? 63 : c == '=' ? 64 : -1;
}

int
pw_base64_dec_char(struct pw_base64_dec *d, char c, unsigned char out[3])
{
    int v = b64_value(c);
    /* '=' only at the third and fourth places of the last quantum, and
     * after a '=' only another. */
    if (v < 0 || d->over || (v == 64 && d->n < 2) ||
        (v != 64 && d->n == 3 && d->q[2] == 64)) {
        return -1;
    }
    d->q[d->n++] = (unsigned char)v;
    if (d->n < 4) {
        return 0;
    }
    d->n = 0;
    int pad = (d->q[2] == 64) + (d->q[3] == 64);
    d->over = pad > 0;
    unsigned w = (unsigned)d->q[0] << 18 | (unsigned)d->q[1] << 12 |
                 (unsigned)(d->q[2] & 63) << 6 | (unsigned)(d->q[3] & 63);
    out[0] = (unsigned char)(w >> 16);
    out[1] = (unsigned char)(w >> 8);
    out[2] = (unsigned char)w;
    return 3 - pad;
}

long
pw_base64_dec_some(struct pw_base64_dec *d, const char *s, size_t n,
                   unsigned char *out)
{
    static int value[256];
    if (value['B'] == 0) {
        for (int c = 0; c < 256; c++) {
            int v = b64_value((char)c);
            value[c] = v == 64 ? -1 : v;
        }
    }
    size_t o = 0;
    size_t i = 0;
    while (i < n) {
        if (d->n == 0 && !d->over && n - i >= 4) {
            int a = value[(unsigned char)s[i]];
            int b = value[(unsigned char)s[i + 1]];
            int c = value[(unsigned char)s[i + 2]];
            int e = value[(unsigned char)s[i + 3]];
            if ((a | b | c | e) >= 0) {
                unsigned w = (unsigned)a << 18 | (unsigned)b << 12 |
                             (unsigned)c << 6 | (unsigned)e;
                out[o++] = (unsigned char)(w >> 16);
                out[o++] = (unsigned char)(w >> 8);
                out[o++] = (unsigned char)w;
                i += 4;
                continue;
            }
        }
        int k = pw_base64_dec_char(d, s[i++], out + o);
        if (k < 0) {
            return -1;
        }
        o += (size_t)k;
    }
    return (long)o;
}

int
pw_base64_dec_end(const struct pw_base64_dec *d)
{
    return d->n == 0 ? 0 : -1;
}

int
pw_base64_decode(const char *text, struct pw_buf *b)
{
    struct pw_base64_dec d = {0};
    for (const char *p = text; *p != '\0'; p++) {
        unsigned char out[3];
        int n = pw_base64_dec_char(&d, *p, out);
        if (n < 0) {
            return -1;
        }
        pw_buf_append(b, out, (size_t)n);
    }
    return pw_base64_dec_end(&d);
}
