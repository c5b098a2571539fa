/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * joined.c - strings kept as their parts until a reply sends them.
 *
 * A placeholder is "pwjoin-NONCE-SLOT-SECRET" (token.h: NONCE the
 * process's, SECRET 128 random bits of the joined text's own): a string counts
 * as one only if all of it matches one still alive.  A joined text holds its
 * placeholder (a reference): it is alive while a tree holds that string
 * too, or a reply holds the joined text; the dead are freed when the
 * next is made.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "core/joined.h"
#include "core/token.h"
#include "core/util.h"

#define PREFIX "pwjoin-"

struct pw_joined {
    unsigned refs; /* replies' */
    size_t slot;
    json_t *token; /* a reference */
    struct pw_joined_part *v;
    size_t n;
};

static struct pw_token_table live = {PREFIX, NULL, 0};

static void
joined_free(struct pw_joined *j)
{
    pw_token_drop(&live, j->slot);
    for (size_t i = 0; i < j->n; i++) {
        if (j->v[i].kind == PW_JOINED_TEXT) {
            free((void *)j->v[i].s);
        }
        json_decref(j->v[i].str);
    }
    free(j->v);
    json_decref(j->token);
    free(j);
}

/* Free the joined texts no tree and no reply holds. */
static void
sweep(void)
{
    for (size_t i = 0; i < live.n; i++) {
        struct pw_joined *j = live.v[i].item;
        if (j != NULL && j->refs == 0 && j->token->refcount <= 1) {
            joined_free(j);
        }
    }
}

struct pw_joined *
pw_joined_new(void)
{
    sweep();
    struct pw_joined *j = pw_xcalloc(1, sizeof(*j));
    j->slot = pw_token_put(&live, j);
    j->token = pw_token_of(&live, j->slot);
    if (j->token == NULL) {
        abort(); /* out of memory */
    }
    return j;
}

static struct pw_joined_part *
add(struct pw_joined *j)
{
    j->v = pw_xrealloc(j->v, (j->n + 1) * sizeof(*j->v));
    struct pw_joined_part *p = &j->v[j->n++];
    memset(p, 0, sizeof(*p));
    return p;
}

void
pw_joined_text(struct pw_joined *j, const char *s, size_t n)
{
    struct pw_joined_part *p = add(j);
    unsigned char *copy = pw_xmalloc(n + 1);
    memcpy(copy, s, n);
    p->kind = PW_JOINED_TEXT;
    p->s = copy;
    p->n = n;
}

void
pw_joined_view(struct pw_joined *j, json_t *str, size_t off, size_t n,
               enum pw_joined_kind kind)
{
    struct pw_joined_part *p = add(j);
    p->kind = kind;
    p->str = json_incref(str);
    p->s = (const unsigned char *)json_string_value(str) + off;
    p->n = n;
}

json_t *
pw_joined_token(struct pw_joined *j)
{
    return j->token;
}

struct pw_joined *
pw_joined_find(const char *s, size_t len)
{
    return pw_token_find(&live, s, len);
}

struct pw_joined *
pw_joined_ref(struct pw_joined *j)
{
    j->refs++;
    return j;
}

void
pw_joined_unref(struct pw_joined *j)
{
    if (j != NULL && j->refs > 0 && --j->refs == 0) {
        sweep();
    }
}

const struct pw_joined_part *
pw_joined_parts(const struct pw_joined *j, size_t *n)
{
    *n = j->n;
    return j->v;
}

size_t
pw_joined_escape_char(const unsigned char *s, size_t n, size_t *i, char *out)
{
    static const char hex[] = "0123456789ABCDEF";
    unsigned c = s[*i];
    unsigned cp = c;
    size_t k = 1;
    if (c >= 0xF0) {
        k = 4;
        cp = c & 0x07;
    } else if (c >= 0xE0) {
        k = 3;
        cp = c & 0x0F;
    } else if (c >= 0xC0) {
        k = 2;
        cp = c & 0x1F;
    }
    for (size_t m = 1; m < k && *i + m < n; m++) {
        cp = (cp << 6) | (s[*i + m] & 0x3F);
    }
    *i = *i + k < n ? *i + k : n; /* a cut character: what is left */
    if (cp >= 0x20 && cp < 0x80 && cp != '"' && cp != '\\') {
        out[0] = (char)cp;
        return 1;
    }
    const char *short_esc = cp == '"'    ? "\\\""
                            : cp == '\\' ? "\\\\"
                            : cp == '\b' ? "\\b"
                            : cp == '\f' ? "\\f"
                            : cp == '\n' ? "\\n"
                            : cp == '\r' ? "\\r"
                            : cp == '\t' ? "\\t"
                                         : NULL;
    if (short_esc != NULL) {
        memcpy(out, short_esc, 2);
        return 2;
    }
    size_t o = 0;
    unsigned units[2] = {cp, 0};
    size_t nu = 1;
    if (cp > 0xFFFF) {
        units[0] = 0xD800 | ((cp - 0x10000) >> 10);
        units[1] = 0xDC00 | (cp & 0x3FF);
        nu = 2;
    }
    for (size_t u = 0; u < nu; u++) {
        out[o++] = '\\';
        out[o++] = 'u';
        for (int sh = 12; sh >= 0; sh -= 4) {
            out[o++] = hex[(units[u] >> sh) & 15];
        }
    }
    return o;
}

/* Bytes each byte of UTF-8 text gives once escaped twice (0: a
 * continuation byte, counted with its lead). */
static unsigned char len2[256];

size_t
pw_joined_escaped2(const unsigned char *s, size_t n)
{
    if (len2['a'] == 0) {
        for (int c = 0; c < 256; c++) {
            len2[c] = c < 0x20   ? 7
                      : c < 0x80 ? 1
                      : c < 0xC0 ? 0
                      : c < 0xF0 ? 7
                                 : 14;
        }
        len2['"'] = len2['\\'] = 4;
        len2['\b'] = len2['\f'] = len2['\n'] = len2['\r'] = len2['\t'] = 3;
    }
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        len += len2[s[i]];
    }
    return len;
}

char *
pw_joined_flatten(const struct pw_joined *j, size_t *len)
{
    struct pw_buf b;
    pw_buf_init(&b);
    for (size_t i = 0; i < j->n; i++) {
        const struct pw_joined_part *p = &j->v[i];
        if (p->kind != PW_JOINED_ASCII) {
            pw_buf_append(&b, p->s, p->n);
            continue;
        }
        char e[12];
        for (size_t k = 0; k < p->n;) {
            pw_buf_append(&b, e, pw_joined_escape_char(p->s, p->n, &k, e));
        }
    }
    *len = b.len;
    pw_buf_append(&b, "", 1);
    return pw_buf_take(&b, NULL);
}
