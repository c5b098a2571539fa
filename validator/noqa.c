/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * noqa.c - per-line and per-file suppression comments.
 */
#include "config.h"

#include <ctype.h>
#include <string.h>
#include <strings.h>

#include "validator/diag.h"
#include "validator/noqa.h"
#include "core/util.h"

static size_t
skip_space(const char *s, size_t i, size_t n)
{
    while (i < n && (s[i] == ' ' || s[i] == '\t')) {
        i++;
    }
    return i;
}

/* Does the code list at S[I..N) hold a prefix of CODE?  *ANY is set when
 * the list holds at least one code. */
static bool
codes_match(const char *s, size_t i, size_t n, const char *code, bool *any)
{
    *any = false;
    while (i < n) {
        i = skip_space(s, i, n);
        size_t start = i;
        while (i < n && isalnum((unsigned char)s[i])) {
            i++;
        }
        size_t len = i - start;
        if (len == 0) {
            break;
        }
        *any = true;
        if (len <= strlen(code) && strncasecmp(s + start, code, len) == 0) {
            return true;
        }
        i = skip_space(s, i, n);
        if (i < n && s[i] == ',') {
            i++;
        }
    }
    return false;
}

bool
pw_noqa_line(const char *s, size_t n, const char *code)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] != '#') {
            continue;
        }
        size_t j = skip_space(s, i + 1, n);
        if (j + 4 > n || strncasecmp(s + j, "noqa", 4) != 0) {
            continue;
        }
        j += 4;
        if (j < n && s[j] == ':') {
            bool any = false;
            if (codes_match(s, j + 1, n, code, &any) || !any) {
                return true;
            }
            continue;
        }
        if (j >= n || !isalnum((unsigned char)s[j])) {
            return true;
        }
    }
    return false;
}

bool
pw_noqa_file(const char *src, size_t len)
{
    static const char tag[] = "pyward:";
    for (const char *p = memchr(src, '#', len); p != NULL;
         p = memchr(p + 1, '#', len - (size_t)(p + 1 - src))) {
        size_t n = len - (size_t)(p - src);
        size_t j = skip_space(p, 1, n);
        if (j + 7 > n || strncasecmp(p + j, tag, 7) != 0) {
            continue;
        }
        j = skip_space(p, j + 7, n);
        if (j + 4 <= n && strncasecmp(p + j, "noqa", 4) == 0 &&
            (j + 4 == n ||
             (p[j + 4] != ':' && !isalnum((unsigned char)p[j + 4])))) {
            return true;
        }
    }
    return false;
}

void
pw_noqa_apply(struct pw_diags *d, const char *src, size_t len)
{
    if (d->n == 0) {
        return;
    }
    /* Where each line starts, found once (a finding a line apart would
     * otherwise scan the source from its top each time). */
    size_t nlines = 1;
    size_t cap = 64;
    PW_AUTOFREE size_t *start = pw_xcalloc(cap, sizeof(size_t));
    for (const char *p = src; (p = memchr(p, '\n', len - (size_t)(p - src)));
         p++) {
        if (nlines + 1 >= cap) {
            cap *= 2;
            start = pw_xrealloc(start, cap * sizeof(size_t));
        }
        start[nlines++] = (size_t)(p + 1 - src);
    }
    start[nlines] = len + 1; /* one past the end of the last line */
    for (size_t k = d->n; k-- > 0;) {
        size_t line = d->v[k].line > 0 ? (size_t)d->v[k].line : 1;
        /* A line past the end is empty. */
        size_t from = line <= nlines ? start[line - 1] : len;
        size_t to = line <= nlines ? start[line] - 1 : len;
        if (pw_noqa_line(src + from, to - from, d->v[k].code)) {
            pw_diags_remove(d, k);
        }
    }
}
