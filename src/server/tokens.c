/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * tokens.c - the bearer tokens of a token file, compared in constant
 * time (see tokens.h).
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "server/tokens.h"

static bool
is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

void
pw_tokens_parse(struct pw_tokens *t, const char *text, size_t len)
{
    t->v = NULL;
    t->n = 0;
    size_t cap = 0;
    size_t i = 0;
    while (i < len) {
        size_t start = i;
        while (i < len && text[i] != '\n') {
            i++;
        }
        size_t end = i++;
        while (start < end && is_space(text[start])) {
            start++;
        }
        while (end > start && is_space(text[end - 1])) {
            end--;
        }
        if (end == start || text[start] == '#' ||
            memchr(text + start, '\0', end - start) != NULL) {
            continue;
        }
        if (t->n == cap) {
            cap = cap ? cap * 2 : 4;
            t->v = pw_xrealloc(t->v, cap * sizeof(char *));
        }
        t->v[t->n++] = pw_xstrndup(text + start, end - start);
    }
}

void
pw_tokens_free(struct pw_tokens *t)
{
    for (size_t i = 0; i < t->n; i++) {
        free(t->v[i]);
    }
    free(t->v);
    t->v = NULL;
    t->n = 0;
}

/* 0 when A[0..AL) equals B (NUL-terminated, not empty), compared over
 * AL bytes whatever they hold. */
static unsigned
ct_diff(const char *a, size_t al, const char *b)
{
    size_t bl = strlen(b);
    unsigned diff = al != bl;
    for (size_t i = 0; i < al; i++) {
        diff |= (unsigned char)a[i] ^ (unsigned char)b[i % bl];
    }
    return diff;
}

bool
pw_tokens_match(const struct pw_tokens *t, const char *tok, size_t len,
                size_t *which)
{
    bool found = false;
    for (size_t i = 0; i < t->n; i++) {
        bool eq = len > 0 && ct_diff(tok, len, t->v[i]) == 0;
        if (eq && !found && which != NULL) {
            *which = i;
        }
        found |= eq;
    }
    return found;
}
