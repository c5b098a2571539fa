/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * reply.c - replies made of segments, read a chunk at a time.
 *
 * pw_reply_add_json takes the long strings and the blob placeholders out
 * of the tree for a moment, each replaced by a mark of this reply's
 * ("pwseg-NONCE-SECRET-INDEX": the process's nonce and a random secret
 * of the reply's own, so no string of a program's can be taken for
 * one), dumps the rest (short text: jansson and pw_json_dumps's pass
 * over it stay cheap), puts the strings back, and splits the text at
 * the marks.
 */
#include "config.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base64.h"
#include "core/blob.h"
#include "core/joined.h"
#include "core/json.h"
#include "core/log.h"
#include "core/reply.h"
#include "core/token.h"
#include "core/util.h"

#define STAGE     (PW_BASE64_LEN(PW_BLOB_CHUNK)) /* 64 KiB */
#define MAX_DEPTH 64
#define MARK_HEX  48 /* the nonce's 32 digits and the reply's 16 */

enum seg_kind { SEG_TEXT, SEG_BLOB, SEG_STRING, SEG_JOINED };

struct seg {
    enum seg_kind kind;
    char *text; /* TEXT: owned */
    size_t len, cap;
    struct pw_blob *blob;     /* BLOB: a reference */
    json_t *str;              /* STRING: a reference */
    size_t off;               /* bytes of the source used */
    size_t sent;              /* BLOB of text, JOINED: escaped bytes made */
    struct pw_joined *joined; /* JOINED: a reference; LEN its escaped
                               * length, PART the part read, OFF in it */
    size_t part;
    struct seg *next;
};

struct pw_reply {
    struct seg *head, *tail;
    char *stage; /* owned, STAGE bytes, made at the first chunk */
    size_t stage_len, stage_off;
    bool failed;
};

struct pw_reply *
pw_reply_new(void)
{
    return pw_xcalloc(1, sizeof(struct pw_reply));
}

static void
seg_free(struct seg *g)
{
    free(g->text);
    pw_blob_unref(g->blob);
    json_decref(g->str);
    pw_joined_unref(g->joined);
    free(g);
}

void
pw_reply_free(struct pw_reply *r)
{
    if (r == NULL) {
        return;
    }
    while (r->head != NULL) {
        struct seg *g = r->head;
        r->head = g->next;
        seg_free(g);
    }
    free(r->stage);
    free(r);
}

static void
push(struct pw_reply *r, struct seg *g)
{
    if (r->tail != NULL) {
        r->tail->next = g;
    } else {
        r->head = g;
    }
    r->tail = g;
}

void
pw_reply_text(struct pw_reply *r, const char *s, size_t n)
{
    struct seg *g = r->tail;
    if (n == 0) {
        return;
    }
    if (g == NULL || g->kind != SEG_TEXT) {
        g = pw_xcalloc(1, sizeof(*g));
        g->kind = SEG_TEXT;
        push(r, g);
    }
    if (g->len + n > g->cap) {
        g->cap = (g->len + n) * 2;
        g->text = pw_xrealloc(g->text, g->cap);
    }
    memcpy(g->text + g->len, s, n);
    g->len += n;
}

void
pw_reply_append(struct pw_reply *r, struct pw_reply *tail)
{
    while (tail->head != NULL) {
        struct seg *g = tail->head;
        tail->head = g->next;
        g->next = NULL;
        if (g->kind == SEG_TEXT) {
            pw_reply_text(r, g->text + g->off, g->len - g->off);
            seg_free(g);
        } else {
            push(r, g);
        }
    }
    tail->tail = NULL;
    pw_reply_free(tail);
}

/* --- JSON escaping ---------------------------------------------------- */

/* Extra bytes the escape of each byte takes (jansson's escapes without
 * JSON_ENSURE_ASCII: '"', '\\' and the control characters). */
static unsigned char extra[256];

static void
init_extra(void)
{
    if (extra['"'] != 0) {
        return;
    }
    for (int c = 0; c < 0x20; c++) {
        extra[c] = 5; /* \u00XX */
    }
    extra['\b'] = extra['\f'] = extra['\n'] = extra['\r'] = extra['\t'] = 1;
    extra['"'] = extra['\\'] = 1;
}

size_t
pw_reply_escaped(const unsigned char *s, size_t n)
{
    init_extra();
    size_t len = n;
    for (size_t i = 0; i < n; i++) {
        len += extra[s[i]];
    }
    return len;
}

static size_t
escaped_len(const unsigned char *s, size_t n)
{
    size_t len = n + 2; /* the quotes */
    for (size_t i = 0; i < n; i++) {
        len += extra[s[i]];
    }
    return len;
}

/* The escape of C into OUT (room for 6 bytes); its length. */
static size_t
escape_byte(unsigned char c, char *out)
{
    if (extra[c] == 0) {
        out[0] = (char)c;
        return 1;
    }
    if (extra[c] == 1) {
        out[0] = '\\';
        out[1] = c == '\b'   ? 'b'
                 : c == '\f' ? 'f'
                 : c == '\n' ? 'n'
                 : c == '\r' ? 'r'
                 : c == '\t' ? 't'
                             : (char)c;
        return 2;
    }
    static const char hex[] = "0123456789ABCDEF";
    out[0] = '\\';
    out[1] = 'u';
    out[2] = '0';
    out[3] = '0';
    out[4] = hex[c >> 4];
    out[5] = hex[c & 15];
    return 6;
}

/* Escape S[*OFF..N) into OUT (room ROOM, at least 8 bytes) until it is
 * full or CHUNK bytes were read; the closing quote at the end.  Returns
 * the bytes written. */
static size_t
escape_some(const unsigned char *s, size_t n, size_t *off, char *out,
            size_t room)
{
    size_t o = 0;
    size_t i = *off;
    size_t stop = i + PW_BLOB_CHUNK < n ? i + PW_BLOB_CHUNK : n;
    if (i == 0) {
        out[o++] = '"';
    }
    while (i < stop && o + 6 < room) {
        o += escape_byte(s[i], out + o);
        i++;
    }
    *off = i;
    if (i == n && o < room) {
        out[o++] = '"';
        *off = n + 1; /* the closing quote written */
    }
    return o;
}

/* --- reading ---------------------------------------------------------- */

static size_t
seg_size(const struct seg *g)
{
    switch (g->kind) {
    case SEG_TEXT:
        return g->len - g->off;
    case SEG_BLOB: {
        size_t escaped;
        return pw_blob_text(g->blob, &escaped)
                   ? escaped - g->sent
                   : PW_BASE64_LEN(pw_blob_size(g->blob));
    }
    case SEG_JOINED:
        return g->len - g->sent;
    case SEG_STRING:
        init_extra();
        return escaped_len((const unsigned char *)json_string_value(g->str),
                           json_string_length(g->str));
    }
    return 0;
}

size_t
pw_reply_size(const struct pw_reply *r)
{
    size_t n = r->stage_len - r->stage_off;
    for (const struct seg *g = r->head; g != NULL; g = g->next) {
        n += seg_size(g);
    }
    return n;
}

bool
pw_reply_done(const struct pw_reply *r)
{
    return r->head == NULL && r->stage_off == r->stage_len;
}

size_t
pw_reply_held(const struct pw_reply *r)
{
    size_t n = r->stage_len - r->stage_off;
    for (const struct seg *g = r->head; g != NULL; g = g->next) {
        n += g->kind == SEG_TEXT     ? g->len - g->off
             : g->kind == SEG_JOINED ? g->len - g->sent
             : g->kind == SEG_STRING ? json_string_length(g->str)
                                     : (size_t)pw_blob_size(g->blob) - g->off;
    }
    return n;
}

bool
pw_reply_failed(const struct pw_reply *r)
{
    return r->failed;
}

const char *
pw_reply_head(const struct pw_reply *r, size_t *len)
{
    const struct seg *g = r->head;
    if (g == NULL || g->kind != SEG_TEXT) {
        *len = 0;
        return "";
    }
    *len = g->len - g->off;
    return g->text + g->off;
}

/* The next chunk of the blob segment G into the stage; true at its end. */
static bool
blob_chunk(struct pw_reply *r, struct seg *g)
{
    unsigned char raw[PW_BLOB_CHUNK];
    size_t size = (size_t)pw_blob_size(g->blob);
    size_t n = size - g->off < PW_BLOB_CHUNK ? size - g->off : PW_BLOB_CHUNK;
    if (!r->failed && pw_blob_pread(g->blob, raw, n, (long long)g->off) < 0) {
        pw_warn("an output file changed after its run ended: the rest of "
                "its bytes in this reply are zeros");
        r->failed = true;
    }
    if (r->failed) {
        memset(raw, 0, n);
    }
    r->stage_len = pw_base64_encode(raw, n, r->stage);
    g->off += n;
    return g->off == size;
}

/* The next chunk of the text blob segment G (ESCAPED bytes in all) into
 * the stage, escaped; true at its end.  A file that changed since its
 * scan gives spaces for the rest: the string keeps its announced length
 * and stays well-formed. */
static bool
text_chunk(struct pw_reply *r, struct seg *g, size_t escaped)
{
    unsigned char raw[PW_BLOB_CHUNK];
    size_t size = (size_t)pw_blob_size(g->blob);
    size_t left = escaped - g->sent;
    size_t room = left < STAGE ? left : STAGE;
    size_t n = size - g->off < PW_BLOB_CHUNK ? size - g->off : PW_BLOB_CHUNK;
    if (!r->failed && pw_blob_pread(g->blob, raw, n, (long long)g->off) < 0) {
        pw_warn("a file changed after it was read for a reply: the rest "
                "of its text in this reply is spaces");
        r->failed = true;
    }
    size_t o = 0;
    size_t i = 0;
    if (!r->failed) {
        char e[6];
        while (i < n) {
            size_t k = escape_byte(raw[i], e);
            if (o + k > room) {
                break;
            }
            memcpy(r->stage + o, e, k);
            o += k;
            i++;
        }
        g->off += i;
    }
    if (r->failed || g->off == size) {
        memset(r->stage + o, ' ', room - o); /* only if it changed */
        o = room;
        g->off = size;
    }
    r->stage_len = o;
    g->sent += o;
    return g->sent == escaped;
}

/* The length of the joined text J escaped as a string's contents. */
static size_t
joined_len(const struct pw_joined *j)
{
    size_t n;
    const struct pw_joined_part *v = pw_joined_parts(j, &n);
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        len += v[i].kind == PW_JOINED_ASCII
                   ? pw_joined_escaped2(v[i].s, v[i].n)
                   : pw_reply_escaped(v[i].s, v[i].n);
    }
    return len;
}

/* The next chunk of the joined segment G into the stage, escaped (its
 * ensure_ascii parts twice); true at its end. */
static bool
joined_chunk(struct pw_reply *r, struct seg *g)
{
    size_t n;
    const struct pw_joined_part *v = pw_joined_parts(g->joined, &n);
    size_t o = 0;
    size_t used = 0;
    while (g->part < n && used < PW_BLOB_CHUNK && o + 14 <= STAGE) {
        const struct pw_joined_part *p = &v[g->part];
        if (g->off == p->n) {
            g->part++;
            g->off = 0;
            continue;
        }
        size_t from = g->off;
        if (p->kind != PW_JOINED_ASCII) {
            o += escape_byte(p->s[g->off++], r->stage + o);
        } else {
            char e[12];
            size_t k = pw_joined_escape_char(p->s, p->n, &g->off, e);
            for (size_t m = 0; m < k; m++) {
                if (e[m] == '\\' || e[m] == '"') {
                    r->stage[o++] = '\\';
                }
                r->stage[o++] = e[m];
            }
        }
        used += g->off - from;
    }
    r->stage_len = o;
    g->sent += o;
    return g->part == n || g->sent >= g->len;
}

/* Make the next chunk of the head segment (not text) into the stage. */
static void
chunk(struct pw_reply *r)
{
    struct seg *g = r->head;
    if (r->stage == NULL) {
        r->stage = pw_xmalloc(STAGE);
    }
    r->stage_off = 0;
    r->stage_len = 0;
    bool end;
    size_t escaped;
    if (g->kind == SEG_BLOB && pw_blob_text(g->blob, &escaped)) {
        end = text_chunk(r, g, escaped);
    } else if (g->kind == SEG_BLOB) {
        end = blob_chunk(r, g);
    } else if (g->kind == SEG_JOINED) {
        end = joined_chunk(r, g);
    } else {
        size_t n = json_string_length(g->str);
        r->stage_len =
            escape_some((const unsigned char *)json_string_value(g->str), n,
                        &g->off, r->stage, STAGE);
        end = g->off > n;
    }
    if (end) {
        r->head = g->next;
        r->tail = r->head != NULL ? r->tail : NULL;
        seg_free(g);
    }
}

size_t
pw_reply_read(struct pw_reply *r, char *buf, size_t max)
{
    size_t n = 0;
    bool made = false;
    init_extra();
    while (n < max) {
        if (r->stage_off < r->stage_len) {
            size_t k = r->stage_len - r->stage_off;
            k = k < max - n ? k : max - n;
            memcpy(buf + n, r->stage + r->stage_off, k);
            r->stage_off += k;
            n += k;
            continue;
        }
        struct seg *g = r->head;
        if (g == NULL) {
            break;
        }
        if (g->kind == SEG_TEXT) {
            size_t k = g->len - g->off < max - n ? g->len - g->off : max - n;
            memcpy(buf + n, g->text + g->off, k);
            g->off += k;
            n += k;
            if (g->off == g->len) {
                r->head = g->next;
                r->tail = r->head != NULL ? r->tail : NULL;
                seg_free(g);
            }
            continue;
        }
        if (made) {
            break; /* one chunk a read */
        }
        chunk(r);
        made = true;
    }
    if (pw_reply_done(r)) {
        free(r->stage);
        r->stage = NULL;
        r->stage_len = r->stage_off = 0;
    }
    return n;
}

char *
pw_reply_flatten(struct pw_reply *r)
{
    struct pw_buf b;
    pw_buf_init(&b);
    char chunk_buf[STAGE];
    size_t n;
    while ((n = pw_reply_read(r, chunk_buf, sizeof(chunk_buf))) > 0) {
        pw_buf_append(&b, chunk_buf, n);
    }
    pw_buf_append(&b, "", 1);
    pw_reply_free(r);
    return pw_buf_take(&b, NULL);
}

/* --- from a JSON tree ------------------------------------------------- */

/* A string taken out of the tree, with where it goes back. */
struct taken {
    json_t *parent; /* borrowed */
    const char *key;
    size_t index;
    json_t *orig; /* a reference */
    struct pw_blob *blob;
    struct pw_joined *joined;
};

struct walk {
    char mark[16 + MARK_HEX + 2];
    size_t mark_len;
    struct taken *v;
    size_t n, cap;
};

/* The mark for string I of W into OUT. */
static json_t *
mark_json(const struct walk *w, size_t i)
{
    char text[sizeof(w->mark) + 24];
    snprintf(text, sizeof(text), "%s%zu", w->mark, i);
    return json_string(text);
}

/* Take M (borrowed, the member KEY or INDEX of PARENT) out if it is a
 * long string or a blob's placeholder; else walk it. */
static void walk_tree(struct walk *w, json_t *v, int depth);

static void
visit(struct walk *w, json_t *parent, const char *key, size_t index, json_t *m,
      int depth)
{
    if (!json_is_string(m)) {
        walk_tree(w, m, depth + 1);
        return;
    }
    size_t len = json_string_length(m);
    struct pw_blob *b = pw_blob_find(json_string_value(m), len);
    struct pw_joined *j = pw_joined_find(json_string_value(m), len);
    if (b == NULL && j == NULL && len < PW_REPLY_LONG_STRING) {
        return;
    }
    if (w->n == w->cap) {
        w->cap = w->cap * 2 + 8;
        w->v = pw_xrealloc(w->v, w->cap * sizeof(*w->v));
    }
    w->v[w->n] = (struct taken){parent, key, index, json_incref(m), b, j};
    json_t *mark = mark_json(w, w->n);
    w->n++;
    if (key != NULL) {
        json_object_set_new(parent, key, mark);
    } else {
        json_array_set_new(parent, index, mark);
    }
}

static void
walk_tree(struct walk *w, json_t *v, int depth)
{
    if (depth > MAX_DEPTH) {
        return;
    }
    if (json_is_object(v)) {
        const char *key;
        json_t *m; /* borrowed */
        json_object_foreach(v, key, m) {
            visit(w, v, key, 0, m, depth);
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *m; /* borrowed */
        json_array_foreach(v, i, m) {
            visit(w, v, NULL, i, m, depth);
        }
    }
}

/* Put the strings W took back into their places, the last first. */
static void
restore(struct walk *w)
{
    for (size_t i = w->n; i-- > 0;) {
        struct taken *t = &w->v[i];
        if (t->key != NULL) {
            json_object_set(t->parent, t->key, t->orig);
        } else {
            json_array_set(t->parent, t->index, t->orig);
        }
    }
}

/* Split TEXT[0..LEN) at W's marks into segments of R2.  0 or -1. */
static int
split(struct walk *w, const char *text, size_t len, struct pw_reply *r2)
{
    const char *p = text;
    const char *end = text + len;
    while (p < end) {
        const char *at =
            w->n > 0 ? memmem(p, (size_t)(end - p), w->mark, w->mark_len)
                     : NULL;
        if (at == NULL) {
            pw_reply_text(r2, p, (size_t)(end - p));
            break;
        }
        /* The mark is all of a string: a quote before, digits, a quote. */
        const char *q = at + w->mark_len;
        size_t i = 0;
        const char *digits = q;
        while (q < end && *q >= '0' && *q <= '9' && q - digits < 12) {
            i = i * 10 + (size_t)(*q++ - '0');
        }
        if (at == p || at[-1] != '"' || q == digits || q >= end || *q != '"' ||
            i >= w->n) {
            return -1;
        }
        pw_reply_text(r2, p, (size_t)(at - 1 - p));
        struct seg *g = pw_xcalloc(1, sizeof(*g));
        if (w->v[i].blob != NULL) {
            pw_reply_text(r2, "\"", 1);
            g->kind = SEG_BLOB;
            g->blob = pw_blob_ref(w->v[i].blob);
            push(r2, g);
            pw_reply_text(r2, "\"", 1);
        } else if (w->v[i].joined != NULL) {
            pw_reply_text(r2, "\"", 1);
            g->kind = SEG_JOINED;
            g->joined = pw_joined_ref(w->v[i].joined);
            g->len = joined_len(g->joined);
            push(r2, g);
            pw_reply_text(r2, "\"", 1);
        } else {
            g->kind = SEG_STRING;
            g->str = json_incref(w->v[i].orig);
            push(r2, g);
        }
        p = q + 1;
    }
    return 0;
}

int
pw_reply_add_json(struct pw_reply *r, json_t *v, size_t flags, size_t skip)
{
    struct walk w = {.n = 0};
    char secret[17];
    pw_token_random_hex(secret, 8);
    w.mark_len = (size_t)snprintf(w.mark, sizeof(w.mark), "pwseg-%s%s-",
                                  pw_token_nonce(), secret);
    walk_tree(&w, v, 0);
    char *text = pw_json_dumps(v, flags);
    restore(&w);
    struct pw_reply *r2 = pw_reply_new();
    size_t len = text != NULL ? strlen(text) : 0;
    int rc = text != NULL && len >= skip
                 ? split(&w, text + skip, len - skip, r2)
                 : -1;
    free(text);
    for (size_t i = 0; i < w.n; i++) {
        json_decref(w.v[i].orig);
    }
    free(w.v);
    if (rc < 0) {
        pw_reply_free(r2);
        return -1;
    }
    pw_reply_append(r, r2);
    return 0;
}
