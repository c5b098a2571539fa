/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * jobe_put.c - a Jobe file PUT read as its body comes: the body
 * {"file_contents": "BASE64"} parsed a piece at a time (JSON's white
 * space, escapes inside the strings, \uXXXX and surrogate pairs, UTF-8,
 * numbers, literals, other keys and values skipped, nesting up to
 * DEPTH_MAX), the base64 decoded as it comes and written to the file's
 * temporary file at once (pw_jobe_upload_write, jobe_files.c).  What it
 * keeps between two pieces is the parser's state and the last quantum of
 * base64: never the body, never the file.
 *
 * Its answers are Jobe's (Jobe's PHP json_decode reads the whole body,
 * then takes file_contents): other keys are ignored, of a key given
 * twice the last counts (an earlier value's bytes are dropped), a body
 * that is not JSON or has no file_contents (or null) is "missing
 * file_contents parameter", contents that are not a string of padded
 * base64 "not valid base-64".  A body that is not JSON is answered as
 * soon as that is known, the rest of it unread; so is a body past its cap
 * or a file past the cache's (413).
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/base64.h"
#include "core/util.h"
#include "server/jobe.h"

#define DEPTH_MAX 512   /* json_decode's default depth */
#define KEY_MAX   16    /* of a key's bytes kept: "file_contents" fits */
#define OUT_BLOCK 16384 /* decoded bytes written at once */
#define CONTENTS  "file_contents"

/* Each base64 character's value plus one (0: not one of them). */
static const unsigned char b64_plus1[256] = {
    ['A'] = 1,  ['B'] = 2,  ['C'] = 3,  ['D'] = 4,  ['E'] = 5,  ['F'] = 6,
    ['G'] = 7,  ['H'] = 8,  ['I'] = 9,  ['J'] = 10, ['K'] = 11, ['L'] = 12,
    ['M'] = 13, ['N'] = 14, ['O'] = 15, ['P'] = 16, ['Q'] = 17, ['R'] = 18,
    ['S'] = 19, ['T'] = 20, ['U'] = 21, ['V'] = 22, ['W'] = 23, ['X'] = 24,
    ['Y'] = 25, ['Z'] = 26, ['a'] = 27, ['b'] = 28, ['c'] = 29, ['d'] = 30,
    ['e'] = 31, ['f'] = 32, ['g'] = 33, ['h'] = 34, ['i'] = 35, ['j'] = 36,
    ['k'] = 37, ['l'] = 38, ['m'] = 39, ['n'] = 40, ['o'] = 41, ['p'] = 42,
    ['q'] = 43, ['r'] = 44, ['s'] = 45, ['t'] = 46, ['u'] = 47, ['v'] = 48,
    ['w'] = 49, ['x'] = 50, ['y'] = 51, ['z'] = 52, ['0'] = 53, ['1'] = 54,
    ['2'] = 55, ['3'] = 56, ['4'] = 57, ['5'] = 58, ['6'] = 59, ['7'] = 60,
    ['8'] = 61, ['9'] = 62, ['+'] = 63, ['/'] = 64,
};

enum pstate {
    P_VALUE,      /* a value next */
    P_FIRST_KEY,  /* after '{': a key or '}' */
    P_KEY,        /* after ',' in an object: a key */
    P_COLON,      /* after a key */
    P_NEXT,       /* after a value in a container: ',' or its end */
    P_FIRST_ITEM, /* after '[': a value or ']' */
    P_STRING,
    P_ESCAPE,  /* after '\' */
    P_HEX,     /* in \uXXXX */
    P_NUMBER,  /* in a number (num says where) */
    P_LITERAL, /* in true, false or null */
    P_DONE,    /* the body's value is over: white space only */
    P_BAD,     /* not JSON */
};

enum skind { S_KEY, S_CONTENTS, S_OTHER };

enum number { N_MINUS, N_ZERO, N_INT, N_DOT, N_FRAC, N_E, N_ESIGN, N_EXP };

/* The last file_contents seen. */
enum contents { C_NONE, C_NULL, C_OTHER, C_STRING };

struct pw_jobe_put {
    struct pw_jobe_files *files; /* borrowed: the cache outlives it */
    char client[72];
    char id[72];
    struct pw_jobe_upload *up; /* owned, once file_contents is a string */
    long long body;
    long long body_max;
    enum pstate st;
    enum skind kind;
    enum number num;
    enum contents fc;
    bool want; /* the value after this key is file_contents */
    bool b64_bad;
    struct pw_base64_dec dec;
    unsigned depth;
    unsigned char stack[DEPTH_MAX / 8]; /* a bit per level: 1 an object */
    char key[KEY_MAX];
    size_t keylen; /* KEY_MAX + 1: longer than any key looked for */
    unsigned hex, hexn;
    bool need_low;   /* a high surrogate's \u waits for its low */
    unsigned u8need; /* continuation bytes still due */
    unsigned char u8lo, u8hi;
    const char *lit;
    unsigned litpos;
};

static void
put_answer(struct pw_jobe_answer *a, unsigned status, const char *msg)
{
    memset(a, 0, sizeof(*a));
    a->status = status;
    if (msg != NULL) {
        json_t *s = json_string(msg);
        a->body = json_dumps(s, JSON_ENCODE_ANY | JSON_COMPACT);
        json_decref(s);
    }
}

struct pw_jobe_put *
pw_jobe_put_new(struct pw_jobe_files *files, const char *client,
                const char *id, long long body_max)
{
    struct pw_jobe_put *p = pw_xcalloc(1, sizeof(*p));
    p->files = files;
    snprintf(p->client, sizeof(p->client), "%s", client);
    snprintf(p->id, sizeof(p->id), "%s", id);
    p->body_max = body_max;
    p->st = P_VALUE;
    return p;
}

void
pw_jobe_put_free(struct pw_jobe_put *p)
{
    if (p != NULL) {
        pw_jobe_upload_free(p->up);
        free(p);
    }
}

/* The decoded bytes OUT (*ON of them) to the file: 0, or -1 with A. */
static int
flush(struct pw_jobe_put *p, unsigned char *out, size_t *on,
      struct pw_jobe_answer *a)
{
    size_t n = *on;
    *on = 0;
    if (n == 0 || p->fc != C_STRING || p->b64_bad) {
        return 0;
    }
    struct pw_error err = {0};
    if (pw_jobe_upload_write(p->up, out, n, &err) < 0) {
        PW_AUTOFREE char *m = pw_xasprintf(
            "put: failed to write file %s to cache: %s", p->id, err.message);
        put_answer(a, err.code == PW_ERR_USAGE ? 413 : 500, m);
        return -1;
    }
    return 0;
}

/* A value of file_contents of kind FC begins: what an earlier one wrote
 * is dropped.  0, or -1 with A. */
static int
contents_begin(struct pw_jobe_put *p, enum contents fc, size_t *on,
               struct pw_jobe_answer *a)
{
    struct pw_error err = {0};
    *on = 0;
    p->fc = fc;
    p->b64_bad = false;
    memset(&p->dec, 0, sizeof(p->dec));
    if (p->up != NULL && pw_jobe_upload_len(p->up) > 0 &&
        pw_jobe_upload_reset(p->up, &err) < 0) {
        PW_AUTOFREE char *m = pw_xasprintf(
            "put: failed to write file %s to cache: %s", p->id, err.message);
        put_answer(a, 500, m);
        return -1;
    }
    if (fc == C_STRING && p->up == NULL &&
        (p->up = pw_jobe_upload_new(p->files, p->client, p->id, &err)) ==
            NULL) {
        PW_AUTOFREE char *m = pw_xasprintf(
            "put: failed to write file %s to cache: %s", p->id, err.message);
        put_answer(a, 500, m);
        return -1;
    }
    return 0;
}

static bool
is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool
is_object(const struct pw_jobe_put *p)
{
    unsigned d = p->depth - 1;
    return (p->stack[d / 8] >> (d % 8)) & 1;
}

/* A value is over. */
static void
value_done(struct pw_jobe_put *p)
{
    p->st = p->depth == 0 ? P_DONE : P_NEXT;
}

static void
push(struct pw_jobe_put *p, bool object)
{
    if (p->depth == DEPTH_MAX) {
        p->st = P_BAD;
        return;
    }
    unsigned d = p->depth++;
    p->stack[d / 8] = (unsigned char)((p->stack[d / 8] & ~(1u << (d % 8))) |
                                      ((unsigned)object << (d % 8)));
    p->st = object ? P_FIRST_KEY : P_FIRST_ITEM;
}

static void
string_begin(struct pw_jobe_put *p, enum skind kind)
{
    p->kind = kind;
    p->keylen = 0;
    p->need_low = false;
    p->u8need = 0;
    p->st = P_STRING;
}

/* One character C of a string, unescaped (ASCII, or NON_ASCII for a
 * byte or code point past it). */
static void
string_char(struct pw_jobe_put *p, unsigned char c, bool non_ascii,
            unsigned char *out, size_t *on)
{
    if (p->kind == S_KEY) {
        if (non_ascii || p->keylen >= KEY_MAX) {
            p->keylen = KEY_MAX + 1;
        } else {
            p->key[p->keylen++] = (char)c;
        }
    } else if (p->kind == S_CONTENTS && !p->b64_bad) {
        int n =
            non_ascii ? -1 : pw_base64_dec_char(&p->dec, (char)c, out + *on);
        if (n < 0) {
            p->b64_bad = true;
        } else {
            *on += (size_t)n;
        }
    }
}

static void
string_end(struct pw_jobe_put *p)
{
    if (p->need_low || p->u8need > 0) {
        p->st = P_BAD;
        return;
    }
    if (p->kind == S_KEY) {
        p->want = p->depth == 1 && p->keylen == strlen(CONTENTS) &&
                  memcmp(p->key, CONTENTS, p->keylen) == 0;
        p->st = P_COLON;
        return;
    }
    if (p->kind == S_CONTENTS && !p->b64_bad &&
        pw_base64_dec_end(&p->dec) < 0) {
        p->b64_bad = true;
    }
    value_done(p);
}

/* A raw byte C of a string: UTF-8 checked as JSON wants it. */
static void
string_byte(struct pw_jobe_put *p, unsigned char c, unsigned char *out,
            size_t *on)
{
    if (p->need_low) {
        p->st = P_BAD;
        return;
    }
    if (p->u8need > 0) {
        if (c < p->u8lo || c > p->u8hi) {
            p->st = P_BAD;
            return;
        }
        p->u8need--;
        p->u8lo = 0x80;
        p->u8hi = 0xBF;
        if (p->u8need == 0) {
            string_char(p, 0, true, out, on);
        }
        return;
    }
    if (c < 0x80) {
        string_char(p, c, false, out, on);
        return;
    }
    p->u8lo = 0x80;
    p->u8hi = 0xBF;
    if (c >= 0xC2 && c <= 0xDF) {
        p->u8need = 1;
    } else if (c >= 0xE0 && c <= 0xEF) {
        p->u8need = 2;
        p->u8lo = c == 0xE0 ? 0xA0 : 0x80;
        p->u8hi = c == 0xED ? 0x9F : 0xBF;
    } else if (c >= 0xF0 && c <= 0xF4) {
        p->u8need = 3;
        p->u8lo = c == 0xF0 ? 0x90 : 0x80;
        p->u8hi = c == 0xF4 ? 0x8F : 0xBF;
    } else {
        p->st = P_BAD;
    }
}

/* The code unit of a \uXXXX. */
static void
string_unit(struct pw_jobe_put *p, unsigned u, unsigned char *out, size_t *on)
{
    p->st = P_STRING;
    if (p->need_low) {
        p->need_low = false;
        if (u < 0xDC00 || u > 0xDFFF) {
            p->st = P_BAD;
            return;
        }
        string_char(p, 0, true, out, on);
    } else if (u >= 0xD800 && u <= 0xDBFF) {
        p->need_low = true;
    } else if (u >= 0xDC00 && u <= 0xDFFF) {
        p->st = P_BAD;
    } else {
        string_char(p, (unsigned char)u, u >= 0x80, out, on);
    }
}

static const char *
escaped(unsigned char c)
{
    switch (c) {
    case '"':
        return "\"";
    case '\\':
        return "\\";
    case '/':
        return "/";
    case 'b':
        return "\b";
    case 'f':
        return "\f";
    case 'n':
        return "\n";
    case 'r':
        return "\r";
    case 't':
        return "\t";
    default:
        return NULL;
    }
}

static int
hex_value(unsigned char c)
{
    return c >= '0' && c <= '9'   ? c - '0'
           : c >= 'a' && c <= 'f' ? c - 'a' + 10
           : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                  : -1;
}

/* A value begins with C (white space skipped by the caller): 0, or -1
 * with A. */
static int
value_begin(struct pw_jobe_put *p, unsigned char c, size_t *on,
            struct pw_jobe_answer *a)
{
    bool want = p->want;
    p->want = false;
    if (p->depth == 0 && c != '{') {
        /* Not an object: whatever follows, no file_contents. */
        p->st = P_BAD;
        return 0;
    }
    if (want && contents_begin(p,
                               c == '"'   ? C_STRING
                               : c == 'n' ? C_NULL
                                          : C_OTHER,
                               on, a) < 0) {
        return -1;
    }
    if (c == '{' || c == '[') {
        push(p, c == '{');
    } else if (c == '"') {
        string_begin(p, want ? S_CONTENTS : S_OTHER);
    } else if (c == '-' || (c >= '0' && c <= '9')) {
        p->st = P_NUMBER;
        p->num = c == '-' ? N_MINUS : c == '0' ? N_ZERO : N_INT;
    } else if (c == 't' || c == 'f' || c == 'n') {
        p->st = P_LITERAL;
        p->lit = c == 't' ? "true" : c == 'f' ? "false" : "null";
        p->litpos = 1;
    } else {
        p->st = P_BAD;
    }
    return 0;
}

/* C in a number: true if it is the number's, false if the number ended
 * before it (C is then seen again). */
static bool
number_byte(struct pw_jobe_put *p, unsigned char c)
{
    bool dig = c >= '0' && c <= '9';
    bool e = c == 'e' || c == 'E';
    switch (p->num) {
    case N_MINUS:
        p->num = c == '0' ? N_ZERO : N_INT;
        p->st = dig ? P_NUMBER : P_BAD;
        return true;
    case N_DOT:
        p->num = N_FRAC;
        p->st = dig ? P_NUMBER : P_BAD;
        return true;
    case N_E:
        p->num = dig ? N_EXP : N_ESIGN;
        p->st = dig || c == '+' || c == '-' ? P_NUMBER : P_BAD;
        return true;
    case N_ESIGN:
        p->num = N_EXP;
        p->st = dig ? P_NUMBER : P_BAD;
        return true;
    case N_ZERO:
    case N_INT:
    case N_FRAC:
        if (dig && p->num != N_ZERO) {
            return true;
        }
        if (c == '.' && p->num != N_FRAC) {
            p->num = N_DOT;
            return true;
        }
        if (e) {
            p->num = N_E;
            return true;
        }
        break;
    case N_EXP:
        if (dig) {
            return true;
        }
        break;
    }
    value_done(p);
    return false;
}

/* One byte C between a value's tokens: 1 if taken, -1 with A. */
static int step_between(struct pw_jobe_put *p, unsigned char c, size_t *on,
                        struct pw_jobe_answer *a);

/* One byte C of the body: 1 if taken, 0 if it is to be seen again, -1
 * with A. */
static int
step(struct pw_jobe_put *p, unsigned char c, unsigned char *out, size_t *on,
     struct pw_jobe_answer *a)
{
    switch (p->st) {
    case P_STRING:
        if (c == '"') {
            string_end(p);
        } else if (c == '\\') {
            p->st = p->u8need > 0 ? P_BAD : P_ESCAPE;
        } else if (c < 0x20) {
            p->st = P_BAD;
        } else {
            string_byte(p, c, out, on);
        }
        return 1;
    case P_ESCAPE:
        if (c == 'u') {
            p->st = P_HEX;
            p->hex = p->hexn = 0;
        } else if (escaped(c) != NULL && !p->need_low) {
            p->st = P_STRING;
            string_char(p, (unsigned char)*escaped(c), false, out, on);
        } else {
            p->st = P_BAD;
        }
        return 1;
    case P_HEX:
        if (hex_value(c) < 0) {
            p->st = P_BAD;
        } else {
            p->hex = p->hex << 4 | (unsigned)hex_value(c);
            if (++p->hexn == 4) {
                string_unit(p, p->hex, out, on);
            }
        }
        return 1;
    case P_NUMBER:
        return number_byte(p, c) ? 1 : 0;
    case P_LITERAL:
        if (c != (unsigned char)p->lit[p->litpos]) {
            p->st = P_BAD;
        } else if (p->lit[++p->litpos] == '\0') {
            value_done(p);
        }
        return 1;
    default:
        return step_between(p, c, on, a);
    }
}

static int
step_between(struct pw_jobe_put *p, unsigned char c, size_t *on,
             struct pw_jobe_answer *a)
{
    if (is_space(c)) {
        return 1;
    }
    switch (p->st) {
    case P_VALUE:
        return value_begin(p, c, on, a) < 0 ? -1 : 1;
    case P_FIRST_ITEM:
        if (c == ']') {
            p->depth--;
            value_done(p);
            return 1;
        }
        return value_begin(p, c, on, a) < 0 ? -1 : 1;
    case P_FIRST_KEY:
    case P_KEY:
        if (c == '"') {
            string_begin(p, S_KEY);
        } else if (c == '}' && p->st == P_FIRST_KEY) {
            p->depth--;
            value_done(p);
        } else {
            p->st = P_BAD;
        }
        return 1;
    case P_COLON:
        p->st = c == ':' ? P_VALUE : P_BAD;
        return 1;
    case P_NEXT:
        if (c == ',') {
            p->st = is_object(p) ? P_KEY : P_VALUE;
        } else if (c == (is_object(p) ? '}' : ']')) {
            p->depth--;
            value_done(p);
        } else {
            p->st = P_BAD;
        }
        return 1;
    default:
        p->st = P_BAD;
        return 1;
    }
}

int
pw_jobe_put_feed(struct pw_jobe_put *p, const char *data, size_t len,
                 struct pw_jobe_answer *a)
{
    if (p->body + (long long)len > p->body_max) {
        PW_AUTOFREE char *m = pw_xasprintf(
            "put: failed to write file %s to cache: the request's body is "
            "more than %lld bytes",
            p->id, p->body_max);
        put_answer(a, 413, m);
        return -1;
    }
    p->body += (long long)len;
    unsigned char out[OUT_BLOCK];
    size_t on = 0;
    size_t i = 0;
    while (i < len) {
        if (p->st == P_STRING && p->kind == S_CONTENTS && !p->b64_bad &&
            p->u8need == 0 && !p->need_low) {
            /* The common run: whole quanta of base64, then characters
             * one by one ('=', the string's end, an escape). */
            const unsigned char *u = (const unsigned char *)data;
            while (i < len && on + 3 <= sizeof(out)) {
                if (p->dec.n == 0 && !p->dec.over && i + 4 <= len) {
                    unsigned a0 = b64_plus1[u[i]], a1 = b64_plus1[u[i + 1]],
                             a2 = b64_plus1[u[i + 2]],
                             a3 = b64_plus1[u[i + 3]];
                    if (a0 != 0 && a1 != 0 && a2 != 0 && a3 != 0) {
                        unsigned w = (a0 - 1) << 18 | (a1 - 1) << 12 |
                                     (a2 - 1) << 6 | (a3 - 1);
                        out[on++] = (unsigned char)(w >> 16);
                        out[on++] = (unsigned char)(w >> 8);
                        out[on++] = (unsigned char)w;
                        i += 4;
                        continue;
                    }
                }
                unsigned char c = u[i];
                if (c == '"' || c == '\\' || c < 0x20 || c >= 0x80) {
                    break;
                }
                int n = pw_base64_dec_char(&p->dec, (char)c, out + on);
                if (n < 0) {
                    p->b64_bad = true;
                    break;
                }
                on += (size_t)n;
                i++;
            }
            if (i == len) {
                break;
            }
        }
        if (on + 3 > sizeof(out) && flush(p, out, &on, a) < 0) {
            return -1;
        }
        int rc = step(p, (unsigned char)data[i], out, &on, a);
        if (rc < 0) {
            return -1;
        }
        i += (size_t)rc;
        if (p->st == P_BAD) {
            put_answer(a, 400, "put: missing file_contents parameter");
            return -1;
        }
    }
    return flush(p, out, &on, a);
}

long long
pw_jobe_put_body_left(const struct pw_jobe_put *p)
{
    return p->body < p->body_max ? p->body_max - p->body : 0;
}

void
pw_jobe_put_end(struct pw_jobe_put *p, struct pw_jobe_answer *a)
{
    if (p->st != P_DONE || p->fc == C_NONE || p->fc == C_NULL) {
        put_answer(a, 400, "put: missing file_contents parameter");
        return;
    }
    if (p->fc == C_OTHER || p->b64_bad) {
        PW_AUTOFREE char *m = pw_xasprintf(
            "put: contents of file %s are not valid base-64", p->id);
        put_answer(a, 400, m);
        return;
    }
    struct pw_error err = {0};
    int rc = pw_jobe_upload_commit(p->up, &err);
    if (rc < 0) {
        PW_AUTOFREE char *m = pw_xasprintf(
            "put: failed to write file %s to cache: %s", p->id, err.message);
        put_answer(a,
                   rc == -2                   ? 503
                   : err.code == PW_ERR_USAGE ? 413
                                              : 500,
                   m);
        return;
    }
    put_answer(a, 204, NULL);
}
