/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * pep440.c - PEP 440 version comparison, for the PEP 723 checks.
 *
 * Defines pw_pep440_satisfies.
 */
#include "config.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"
#include "validator/pep440.h"

#define REL_MAX 16

struct ver {
    long epoch;
    long rel[REL_MAX];
    int nrel;
    int pre; /* -1 none, 0 a, 1 b, 2 rc */
    long pre_n;
    long post; /* -1 none */
    long dev;  /* -1 none */
    char local[64];
    bool wild; /* a trailing ".*" (specifiers only) */
};

static void
skip_sep(const char **p)
{
    if (**p == '.' || **p == '-' || **p == '_') {
        (*p)++;
    }
}

static bool
number(const char **p, long *out)
{
    if (!isdigit((unsigned char)**p)) {
        return false;
    }
    char *e;
    *out = strtol(*p, &e, 10);
    *p = e;
    return true;
}

/* Does *P start with one of WORDS (case-insensitive)?  It is consumed. */
static bool
word(const char **p, const char *const *words)
{
    for (size_t i = 0; words[i] != NULL; i++) {
        size_t n = strlen(words[i]);
        if (strncasecmp(*p, words[i], n) == 0) {
            *p += n;
            return true;
        }
    }
    return false;
}

/* The pre-, post- and dev-release parts at *P into V. */
static void
parse_suffix(const char **pp, struct ver *v)
{
    static const char *const a[] = {"alpha", "a", NULL};
    static const char *const b[] = {"beta", "b", NULL};
    static const char *const rc[] = {"rc", "c", "preview", "pre", NULL};
    static const char *const post[] = {"post", "rev", "r", NULL};
    static const char *const dev[] = {"dev", NULL};
    const char *p = *pp;
    const char *q = p;
    skip_sep(&q);
    int kind = word(&q, a) ? 0 : word(&q, b) ? 1 : word(&q, rc) ? 2 : -1;
    if (kind >= 0) {
        v->pre = kind;
        skip_sep(&q);
        if (!number(&q, &v->pre_n)) {
            v->pre_n = 0;
        }
        p = q;
    }
    q = p;
    if (*q == '-' && isdigit((unsigned char)q[1])) {
        q++;
        (void)number(&q, &v->post);
        p = q;
    } else {
        skip_sep(&q);
        if (word(&q, post)) {
            skip_sep(&q);
            if (!number(&q, &v->post)) {
                v->post = 0;
            }
            p = q;
        }
    }
    q = p;
    skip_sep(&q);
    if (word(&q, dev)) {
        skip_sep(&q);
        if (!number(&q, &v->dev)) {
            v->dev = 0;
        }
        p = q;
    }
    *pp = p;
}

/* The local label "+abc.1" at *P into V.  False if malformed. */
static bool
parse_local(const char **pp, struct ver *v)
{
    const char *p = *pp;
    size_t len = strcspn(p + 1, " \t");
    if (len == 0 || len >= sizeof(v->local)) {
        return false;
    }
    for (size_t i = 0; i < len; i++) {
        char c = p[1 + i];
        if (!isalnum((unsigned char)c) && !strchr("._-", c)) {
            return false;
        }
        v->local[i] = (char)tolower((unsigned char)c);
    }
    *pp = p + 1 + len;
    return true;
}

/* Parse S (whitespace around allowed) into V; WILD_OK allows ".*". */
static bool
parse(const char *s, struct ver *v, bool wild_ok)
{
    memset(v, 0, sizeof(*v));
    v->pre = -1;
    v->post = -1;
    v->dev = -1;
    const char *p = s;
    while (isspace((unsigned char)*p)) {
        p++;
    }
    if (*p == 'v' || *p == 'V') {
        p++;
    }
    long n;
    if (!number(&p, &n)) {
        return false;
    }
    if (*p == '!') {
        v->epoch = n;
        p++;
        if (!number(&p, &n)) {
            return false;
        }
    }
    v->rel[v->nrel++] = n;
    while (*p == '.' && isdigit((unsigned char)p[1]) && v->nrel < REL_MAX) {
        p++;
        (void)number(&p, &v->rel[v->nrel++]);
    }
    if (wild_ok && strncmp(p, ".*", 2) == 0) {
        v->wild = true;
        p += 2;
    } else {
        parse_suffix(&p, v);
        if (*p == '+' && !parse_local(&p, v)) {
            return false;
        }
    }
    while (isspace((unsigned char)*p)) {
        p++;
    }
    return *p == '\0';
}

static int
cmp_long(long a, long b)
{
    return a < b ? -1 : a > b;
}

/* The release parts of A and B compared, the shorter padded with 0. */
static int
cmp_release(const struct ver *a, const struct ver *b)
{
    int n = a->nrel > b->nrel ? a->nrel : b->nrel;
    for (int i = 0; i < n; i++) {
        int c =
            cmp_long(i < a->nrel ? a->rel[i] : 0, i < b->nrel ? b->rel[i] : 0);
        if (c != 0) {
            return c;
        }
    }
    return 0;
}

/* PEP 440's order of the public versions (the local label apart). */
static int
cmp_public(const struct ver *a, const struct ver *b)
{
    int c = cmp_long(a->epoch, b->epoch);
    if (c == 0) {
        c = cmp_release(a, b);
    }
    if (c != 0) {
        return c;
    }
    /* Pre-release key: a dev release of the release itself sorts before
     * its pre-releases; no pre-release sorts after them. */
    long ap = a->pre >= 0                    ? a->pre * 1000000L + a->pre_n
              : (a->post < 0 && a->dev >= 0) ? -1
                                             : 9000000L;
    long bp = b->pre >= 0                    ? b->pre * 1000000L + b->pre_n
              : (b->post < 0 && b->dev >= 0) ? -1
                                             : 9000000L;
    if ((c = cmp_long(ap, bp)) != 0) {
        return c;
    }
    if ((c = cmp_long(a->post, b->post)) != 0) {
        return c;
    }
    return cmp_long(a->dev < 0 ? 0x7fffffffL : a->dev,
                    b->dev < 0 ? 0x7fffffffL : b->dev);
}

/* "==S.*": V's release begins with S's parts (and the same epoch). */
static bool
prefix_match(const struct ver *v, const struct ver *s)
{
    if (v->epoch != s->epoch) {
        return false;
    }
    for (int i = 0; i < s->nrel; i++) {
        if ((i < v->nrel ? v->rel[i] : 0) != s->rel[i]) {
            return false;
        }
    }
    return true;
}

static bool
equal(const struct ver *v, const struct ver *s)
{
    if (s->wild) {
        return prefix_match(v, s);
    }
    return cmp_public(v, s) == 0 &&
           (s->local[0] == '\0' || strcmp(v->local, s->local) == 0);
}

/* One clause: 1, 0 or -1 (malformed, WHY says so). */
static int
clause(const char *version, const struct ver *v, const char *cl, char *why,
       size_t size)
{
    static const char *const ops[] = {
        "===", "~=", "==", "!=", "<=", ">=", "<", ">"};
    while (isspace((unsigned char)*cl)) {
        cl++;
    }
    for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
        size_t ol = strlen(ops[i]);
        if (strncmp(cl, ops[i], ol) != 0) {
            continue;
        }
        const char *arg = cl + ol;
        if (i == 0) { /* arbitrary equality: the strings */
            while (isspace((unsigned char)*arg)) {
                arg++;
            }
            size_t n = strlen(arg);
            while (n > 0 && isspace((unsigned char)arg[n - 1])) {
                n--;
            }
            return strlen(version) == n && strncasecmp(version, arg, n) == 0;
        }
        struct ver s;
        if (!parse(arg, &s, i == 2 || i == 3) || (i == 1 && s.nrel < 2) ||
            (s.local[0] != '\0' && i != 2 && i != 3)) {
            break;
        }
        switch (i) {
        case 1: { /* ~=X.Y.Z: >= it and == X.Y.* */
            struct ver pre = s;
            pre.nrel--;
            pre.wild = true;
            return cmp_public(v, &s) >= 0 && prefix_match(v, &pre);
        }
        case 2:
            return equal(v, &s);
        case 3:
            return !equal(v, &s);
        case 4:
            return cmp_public(v, &s) <= 0;
        case 5:
            return cmp_public(v, &s) >= 0;
        case 6: /* <V: not a pre-release of V itself unless V is one */
            return cmp_public(v, &s) < 0 &&
                   !(s.pre < 0 && s.dev < 0 && v->pre >= 0 &&
                     v->epoch == s.epoch && cmp_release(v, &s) == 0);
        default: /* >V: not a post-release of V unless V is one */
            return cmp_public(v, &s) > 0 &&
                   !(s.post < 0 && v->post >= 0 && v->epoch == s.epoch &&
                     cmp_release(v, &s) == 0 && v->pre == s.pre &&
                     v->pre_n == s.pre_n);
        }
    }
    snprintf(why, size, "'%s' is not a PEP 440 version specifier", cl);
    return -1;
}

int
pw_pep440_satisfies(const char *version, const char *spec, char *why,
                    size_t size)
{
    struct ver v;
    if (!parse(version, &v, false)) {
        snprintf(why, size, "the installed version '%s' is not PEP 440",
                 version);
        return -1;
    }
    PW_AUTOFREE char *copy = pw_xstrdup(spec);
    int ok = 1;
    char *save = NULL;
    for (char *cl = strtok_r(copy, ",", &save); cl != NULL && ok == 1;
         cl = strtok_r(NULL, ",", &save)) {
        if (strspn(cl, " \t") == strlen(cl)) {
            continue;
        }
        ok = clause(version, &v, cl, why, size);
    }
    return ok;
}
