/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * compare.c - exact, whitespace, tokens and float comparison of a
 * program's output with the expected output, and a one-line diff.
 */
#include "config.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "grade/compare.h"

/* Longest excerpt of a line or token shown in a diff. */
#define SHOW_MAX 60

/* A span of the output: a line or a token. */
struct span {
    const char *p;
    size_t n;
};

/* Quote S into OUT for a person: at most SHOW_MAX bytes, control
 * characters escaped, "..." when cut. */
static void
quote(struct span s, char *out, size_t len)
{
    size_t o = 0;
    if (s.p == NULL) {
        snprintf(out, len, "nothing");
        return;
    }
    out[o++] = '"';
    size_t show = pw_utf8_cut(s.p, s.n, SHOW_MAX);
    for (size_t i = 0; i < show && o + 6 < len; i++) {
        unsigned char c = (unsigned char)s.p[i];
        if (c < 0x20 || c == 0x7f || c == '"' || c == '\\') {
            o += (size_t)snprintf(out + o, len - o, "\\x%02x", c);
        } else {
            out[o++] = (char)c;
        }
    }
    if (show < s.n && o + 4 < len) {
        memcpy(out + o, "...", 3);
        o += 3;
    }
    if (o + 2 <= len) {
        out[o++] = '"';
    }
    out[o < len ? o : len - 1] = '\0';
}

static void
say(char *diff, size_t len, const char *unit, size_t at, struct span want,
    struct span got)
{
    char w[SHOW_MAX * 4 + 8], g[SHOW_MAX * 4 + 8];
    quote(want, w, sizeof(w));
    quote(got, g, sizeof(g));
    snprintf(diff, len, "%s %zu: expected %s, got %s", unit, at, w, g);
}

/* The next line of TEXT[*pos..END) (without its newline); false at the
 * end. */
static bool
next_line(const char *text, size_t end, size_t *pos, struct span *out)
{
    if (*pos >= end) {
        return false;
    }
    const char *p = text + *pos;
    const char *nl = memchr(p, '\n', end - *pos);
    size_t n = nl != NULL ? (size_t)(nl - p) : end - *pos;
    *out = (struct span){p, n};
    *pos += n + (nl != NULL);
    return true;
}

static bool
next_token(const char *text, size_t end, size_t *pos, struct span *out)
{
    while (*pos < end && isspace((unsigned char)text[*pos])) {
        (*pos)++;
    }
    if (*pos >= end) {
        return false;
    }
    size_t start = *pos;
    while (*pos < end && !isspace((unsigned char)text[*pos])) {
        (*pos)++;
    }
    *out = (struct span){text + start, *pos - start};
    return true;
}

/* TEXT's length without trailing whitespace (and so without trailing
 * blank lines). */
static size_t
trimmed(const char *text, size_t n)
{
    while (n > 0 && isspace((unsigned char)text[n - 1])) {
        n--;
    }
    return n;
}

static struct span
rstrip(struct span s)
{
    s.n = trimmed(s.p, s.n);
    return s;
}

static bool
same(struct span a, struct span b)
{
    return a.n == b.n && memcmp(a.p, b.p, a.n) == 0;
}

static bool
lines_match(bool strip, const char *want, size_t wn, const char *got,
            size_t gn, char *diff, size_t len)
{
    size_t wp = 0, gp = 0;
    for (size_t line = 1;; line++) {
        struct span w = {0}, g = {0};
        bool hw = next_line(want, wn, &wp, &w);
        bool hg = next_line(got, gn, &gp, &g);
        if (!hw && !hg) {
            return true;
        }
        if (strip) {
            w = rstrip(w);
            g = rstrip(g);
        }
        if (!hw || !hg || !same(w, g)) {
            say(diff, len, "line", line, hw ? w : (struct span){0},
                hg ? g : (struct span){0});
            return false;
        }
    }
}

/* A whole token that is a finite number written in decimal, however
 * long (strtod also reads hexadecimal: "0x10" is not the expected
 * "16"). */
static bool
number(struct span s, double *out)
{
    char small[128];
    if (s.n == 0 || memchr(s.p, 'x', s.n) != NULL ||
        memchr(s.p, 'X', s.n) != NULL) {
        return false;
    }
    PW_AUTOFREE char *big = s.n >= sizeof(small) ? pw_xmalloc(s.n + 1) : NULL;
    char *buf = big != NULL ? big : small;
    memcpy(buf, s.p, s.n);
    buf[s.n] = '\0';
    char *end;
    *out = strtod(buf, &end);
    return end == buf + s.n && isfinite(*out);
}

static bool
close_enough(struct span w, struct span g, double tol)
{
    double a, b;
    if (!number(w, &a) || !number(g, &b)) {
        return same(w, g);
    }
    double d = fabs(a - b);
    return d <= tol || d <= tol * fabs(a);
}

static bool
tokens_match(bool floats, double tol, const char *want, size_t wn,
             const char *got, size_t gn, char *diff, size_t len)
{
    size_t wp = 0, gp = 0;
    for (size_t tok = 1;; tok++) {
        struct span w = {0}, g = {0};
        bool hw = next_token(want, wn, &wp, &w);
        bool hg = next_token(got, gn, &gp, &g);
        if (!hw && !hg) {
            return true;
        }
        bool ok = hw && hg && (floats ? close_enough(w, g, tol) : same(w, g));
        if (!ok) {
            say(diff, len, "token", tok, hw ? w : (struct span){0},
                hg ? g : (struct span){0});
            return false;
        }
    }
}

bool
pw_compare(enum pw_checker checker, double tolerance, const char *want,
           size_t want_len, const char *got, size_t got_len, char *diff,
           size_t len)
{
    diff[0] = '\0';
    switch (checker) {
    case PW_CHECK_EXACT:
        if (want_len == got_len && memcmp(want, got, got_len) == 0) {
            return true;
        }
        if (lines_match(false, want, want_len, got, got_len, diff, len)) {
            /* Equal line by line: only the final newline differs. */
            snprintf(diff, len, "the output %s",
                     want_len > got_len ? "lacks the final newline"
                                        : "has an extra final newline");
        }
        return false;
    case PW_CHECK_WHITESPACE:
        return lines_match(true, want, trimmed(want, want_len), got,
                           trimmed(got, got_len), diff, len);
    case PW_CHECK_TOKENS:
    case PW_CHECK_FLOAT:
        return tokens_match(checker == PW_CHECK_FLOAT, tolerance, want,
                            want_len, got, got_len, diff, len);
    case PW_CHECK_PROGRAM:
        break;
    }
    snprintf(diff, len, "no built-in checker");
    return false;
}
