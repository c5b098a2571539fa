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

static int
b64_value(char c)
{
    static const char abc[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const char *at = c != '\0' ? strchr(abc, c) : NULL;
    return at != NULL ? (int)(at - abc) : -1;
}

int
pw_base64_decode(const char *text, struct pw_buf *b)
{
    size_t n = strlen(text);
    if (n % 4 != 0) {
        return -1;
    }
    for (size_t i = 0; i < n; i += 4) {
        int v[4];
        int pad = 0;
        for (int k = 0; k < 4; k++) {
            bool last = i + 4 == n && k >= 2 && text[i + k] == '=';
            pad += last;
            v[k] = last ? 0 : b64_value(text[i + k]);
            if (v[k] < 0 || (pad > 0 && !last)) {
                return -1;
            }
        }
        unsigned w = (unsigned)v[0] << 18 | (unsigned)v[1] << 12 |
                     (unsigned)v[2] << 6 | (unsigned)v[3];
        unsigned char out[3] = {(unsigned char)(w >> 16),
                                (unsigned char)(w >> 8), (unsigned char)w};
        pw_buf_append(b, out, (size_t)(3 - pad));
    }
    return 0;
}
