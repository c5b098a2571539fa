/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * json.c - helpers for pyward's strict JSON data files.
 */
#include "config.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/json.h"
#include "core/util.h"

void
pw_json_init(void)
{
    json_set_alloc_funcs(pw_xmalloc, free);
}

const char *
pw_json_unknown_key(json_t *obj, const char *const *keys, size_t nkeys)
{
    const char *key;
    json_t *val; /* borrowed */
    json_object_foreach(obj, key, val) {
        bool known = false;
        for (size_t i = 0; i < nkeys && keys[i] != NULL && !known; i++) {
            known = strcmp(key, keys[i]) == 0;
        }
        if (!known) {
            return key;
        }
    }
    return NULL;
}

/* What V is, for a message: its value if it is a number, else its type. */
static void
describe(const json_t *v, char *buf, size_t len)
{
    static const char *const types[] = {
        [JSON_OBJECT] = "an object", [JSON_ARRAY] = "a list",
        [JSON_STRING] = "a string",  [JSON_INTEGER] = "a number",
        [JSON_REAL] = "a number",    [JSON_TRUE] = "a boolean",
        [JSON_FALSE] = "a boolean",  [JSON_NULL] = "null",
    };
    if (json_is_integer(v)) {
        snprintf(buf, len, "%lld", (long long)json_integer_value(v));
    } else if (json_is_real(v)) {
        snprintf(buf, len, "%.15g", json_real_value(v));
    } else {
        snprintf(buf, len, "%s", types[json_typeof(v)]);
    }
}

int
pw_json_number_in(const json_t *v, const char *name, double min, double max,
                  double *out, struct pw_error *err)
{
    if (v == NULL) {
        return 0;
    }
    double d = json_number_value(v);
    if (json_is_number(v) && isfinite(d) && d >= min && d <= max) {
        *out = d;
        return 1;
    }
    if (err != NULL) {
        char what[64];
        describe(v, what, sizeof(what));
        pw_fail(err, PW_ERR_USAGE,
                "'%s' must be a number from %g to %g, not %s", name, min, max,
                what);
    }
    return -1;
}

/* Reals with an integral value up to this fit a long long exactly. */
#define EXACT_MAX 9007199254740992.0 /* 2^53 */

int
pw_json_integer_in(const json_t *v, const char *name, long long min,
                   long long max, long long *out, struct pw_error *err)
{
    if (v == NULL) {
        return 0;
    }
    bool ok = false;
    long long n = 0;
    if (json_is_integer(v)) {
        n = (long long)json_integer_value(v);
        ok = true;
    } else if (json_is_real(v)) {
        double d = json_real_value(v);
        ok = isfinite(d) && d == floor(d) && fabs(d) <= EXACT_MAX;
        n = ok ? (long long)d : 0;
    }
    if (ok && n >= min && n <= max) {
        *out = n;
        return 1;
    }
    if (err != NULL) {
        char what[64];
        describe(v, what, sizeof(what));
        pw_fail(err, PW_ERR_USAGE,
                "'%s' must be a whole number from %lld to %lld, not %s", name,
                min, max, what);
    }
    return -1;
}

json_t *
pw_json_load_file(const char *path, struct pw_error *err)
{
    json_error_t jerr;
    json_t *root = json_load_file(path, JSON_REJECT_DUPLICATES, &jerr);
    if (root == NULL) {
        pw_fail(err, PW_ERR_INPUT, "%s:%d:%d: %s", path, jerr.line,
                jerr.column, jerr.text);
    }
    return root;
}

/* The shortest text of the real written as TOK (N bytes) that reads back
 * as the same double, as Python's repr writes it, into OUT (at least N + 1
 * bytes): a form with 15, 16 or 17 significant digits, never longer than
 * TOK; 0 if TOK is kept. */
static size_t
shortest_real(const char *tok, size_t n, char *out)
{
    char buf[40];
    if (n >= sizeof(buf)) {
        return 0;
    }
    memcpy(buf, tok, n);
    buf[n] = '\0';
    double d = strtod(buf, NULL);
    for (int p = 15; p <= 17; p++) {
        char s[48];
        int len = snprintf(s, sizeof(s), "%.*g", p, d);
        if (len <= 0 || (size_t)len >= sizeof(s) || strtod(s, NULL) != d) {
            continue;
        }
        if (strpbrk(s, ".eE") == NULL && (size_t)len + 2 < sizeof(s)) {
            memcpy(s + len, ".0", 3); /* still a real when read back */
            len += 2;
        }
        if ((size_t)len > n) {
            return 0;
        }
        memcpy(out, s, (size_t)len);
        return (size_t)len;
    }
    return 0;
}

char *
pw_json_dumps(const json_t *v, size_t flags)
{
    char *text = json_dumps(v, flags);
    if (text == NULL) {
        return NULL;
    }
    /* Rewritten in place: a real's shortest form is never longer. */
    char *out = text;
    const char *in = text;
    bool in_string = false;
    while (*in != '\0') {
        char c = *in;
        if (in_string) {
            *out++ = *in++;
            if (c == '\\' && *in != '\0') {
                *out++ = *in++;
            } else if (c == '"') {
                in_string = false;
            }
            continue;
        }
        if (c == '"') {
            in_string = true;
            *out++ = *in++;
            continue;
        }
        if (c != '-' && (c < '0' || c > '9')) {
            *out++ = *in++;
            continue;
        }
        size_t n = strspn(in, "0123456789+-.eE");
        size_t m = strcspn(in, ".eE") < n ? shortest_real(in, n, out) : 0;
        if (m == 0) {
            memmove(out, in, n);
            m = n;
        }
        out += m;
        in += n;
    }
    *out = '\0';
    return text;
}

double
pw_round_us(double seconds)
{
    return floor(seconds * 1e6 + 0.5) / 1e6;
}
