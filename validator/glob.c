/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * glob.c - globs and ignore files (gitignore(5) semantics).
 *
 * Defines pw_glob_match and pw_ignore_*.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "validator/glob.h"

/* A character class at *PP ('['): 1 if C is in it, 0 if not; *PP moves
 * past the ']'.  -1 if the class is not closed ('[' is then a literal). */
static int
class_match(const char **pp, unsigned char c)
{
    const char *p = *pp + 1;
    bool neg = *p == '!' || *p == '^';
    p += neg;
    bool hit = false;
    for (bool first = true; *p != '\0' && (*p != ']' || first);
         first = false) {
        unsigned char lo = (unsigned char)*p;
        if (lo == '\\' && p[1] != '\0') {
            lo = (unsigned char)*++p;
        }
        unsigned char hi = lo;
        if (p[1] == '-' && p[2] != ']' && p[2] != '\0') {
            p += 2;
            if (*p == '\\' && p[1] != '\0') {
                p++;
            }
            hi = (unsigned char)*p;
        }
        hit = hit || (c >= lo && c <= hi);
        p++;
    }
    if (*p != ']') {
        return -1;
    }
    *pp = p + 1;
    return hit != neg;
}

static bool
match_at(const char *pat, const char *p, const char *s)
{
    while (*p != '\0') {
        if (p[0] == '*' && p[1] == '*' && (p == pat || p[-1] == '/') &&
            (p[2] == '/' || p[2] == '\0')) {
            if (p[2] == '\0') {
                return true;
            }
            for (const char *t = s;;) {
                if (match_at(pat, p + 3, t)) {
                    return true;
                }
                t = strchr(t, '/');
                if (t == NULL) {
                    return false;
                }
                t++;
            }
        }
        if (*p == '*') {
            while (*p == '*') {
                p++;
            }
            for (const char *t = s;; t++) {
                if (match_at(pat, p, t)) {
                    return true;
                }
                if (*t == '\0' || *t == '/') {
                    return false;
                }
            }
        }
        if (*p == '?' || *p == '[') {
            if (*s == '\0' || *s == '/') {
                return false;
            }
            if (*p == '?') {
                p++;
                s++;
                continue;
            }
            const char *q = p;
            int r = class_match(&q, (unsigned char)*s);
            if (r >= 0) {
                if (r == 0) {
                    return false;
                }
                p = q;
                s++;
                continue;
            }
        }
        if (*p == '\\' && p[1] != '\0') {
            p++;
        }
        if (*p != *s) {
            return false;
        }
        p++;
        s++;
    }
    return *s == '\0';
}

bool
pw_glob_match(const char *pat, const char *path)
{
    return match_at(pat, pat, path);
}

/* One line of an ignore file into IG (dropped if it is blank, a comment,
 * or matches nothing). */
static void
add_line(struct pw_ignore *ig, const char *line, size_t n)
{
    if (n > 0 && line[n - 1] == '\r') {
        n--;
    }
    while (n > 0 && line[n - 1] == ' ' && !(n > 1 && line[n - 2] == '\\')) {
        n--;
    }
    if (n == 0 || line[0] == '#') {
        return;
    }
    struct pw_ignore_pat pt = {0};
    if (line[0] == '!') {
        pt.negate = true;
        line++;
        n--;
    }
    if (n > 0 && line[n - 1] == '/') {
        pt.dir_only = true;
        n--;
    }
    pt.anchored = memchr(line, '/', n) != NULL;
    if (n > 0 && line[0] == '/') {
        line++;
        n--;
    }
    if (n == 0) {
        return;
    }
    char *g = pw_xstrndup(line, n);
    /* "a\ " kept a quoted blank: the matcher reads '\' as a quote. */
    pt.glob = g;
    ig->v = pw_xrealloc(ig->v, sizeof(*ig->v) * (ig->n + 1));
    ig->v[ig->n++] = pt;
}

void
pw_ignore_parse(struct pw_ignore *ig, const char *dir, const char *text,
                size_t len)
{
    memset(ig, 0, sizeof(*ig));
    size_t dl = strlen(dir);
    while (dl > 0 && dir[dl - 1] == '/') {
        dl--;
    }
    ig->dir = pw_xstrndup(dir, dl);
    for (size_t i = 0; i < len;) {
        const char *nl = memchr(text + i, '\n', len - i);
        size_t end = nl != NULL ? (size_t)(nl - text) : len;
        add_line(ig, text + i, end - i);
        i = end + 1;
    }
}

bool
pw_ignore_load(struct pw_ignore *ig, const char *dir, const char *name)
{
    memset(ig, 0, sizeof(*ig));
    PW_AUTOFREE char *path = pw_xasprintf("%s/%s", dir, name);
    struct pw_buf b;
    struct pw_error err = {0};
    pw_buf_init(&b);
    if (pw_read_file(path, (size_t)1 << 20, &b, &err) < 0) {
        pw_buf_free(&b);
        return false;
    }
    pw_ignore_parse(ig, dir, b.data != NULL ? b.data : "", b.len);
    pw_buf_free(&b);
    return true;
}

void
pw_ignore_free(struct pw_ignore *ig)
{
    for (size_t i = 0; i < ig->n; i++) {
        free(ig->v[i].glob);
    }
    free(ig->v);
    free(ig->dir);
    memset(ig, 0, sizeof(*ig));
}

int
pw_ignore_match(const struct pw_ignore *ig, const char *abs, bool is_dir)
{
    if (ig->dir == NULL) {
        return 0;
    }
    size_t dl = strlen(ig->dir);
    if (strncmp(abs, ig->dir, dl) != 0 || abs[dl] != '/') {
        return 0;
    }
    const char *rel = abs + dl + 1;
    const char *base = strrchr(rel, '/');
    base = base != NULL ? base + 1 : rel;
    for (size_t i = ig->n; i-- > 0;) {
        const struct pw_ignore_pat *pt = &ig->v[i];
        if (pt->dir_only && !is_dir) {
            continue;
        }
        if (pw_glob_match(pt->glob, pt->anchored ? rel : base)) {
            return pt->negate ? -1 : 1;
        }
    }
    return 0;
}

void
pw_strv_add(struct pw_strv *s, const char *str)
{
    s->v = pw_xrealloc(s->v, sizeof(*s->v) * (s->n + 1));
    s->v[s->n++] = pw_xstrdup(str);
}

void
pw_strv_free(struct pw_strv *s)
{
    for (size_t i = 0; i < s->n; i++) {
        free(s->v[i]);
    }
    free(s->v);
    memset(s, 0, sizeof(*s));
}

/* Append the components of P to the absolute path in B, resolving "."
 * and ".." as text. */
static void
join_clean(struct pw_buf *b, const char *p)
{
    while (*p != '\0') {
        size_t n = strcspn(p, "/");
        if (n == 0 || (n == 1 && p[0] == '.')) {
            /* nothing */
        } else if (n == 2 && p[0] == '.' && p[1] == '.') {
            char *slash = b->len > 0 ? strrchr(b->data, '/') : NULL;
            b->len = slash != NULL ? (size_t)(slash - b->data) : 0;
            b->data[b->len] = '\0';
        } else {
            pw_buf_append(b, "/", 1);
            pw_buf_append(b, p, n);
        }
        p += n;
        p += *p == '/';
    }
}

char *
pw_path_abs(const char *path)
{
    char *r = realpath(path, NULL);
    if (r != NULL) {
        return r;
    }
    struct pw_buf b;
    pw_buf_init(&b);
    if (path[0] != '/') {
        PW_AUTOFREE char *cwd = getcwd(NULL, 0);
        join_clean(&b, cwd != NULL ? cwd : "/");
    }
    join_clean(&b, path);
    if (b.len == 0) {
        pw_buf_append(&b, "/", 1);
    }
    return pw_buf_take(&b, NULL);
}

void
pw_globs_add(struct pw_strv *globs, const char *base, const char *pat)
{
    while (pat[0] == '.' && pat[1] == '/') {
        pat += 2;
    }
    size_t n = strlen(pat);
    while (n > 1 && pat[n - 1] == '/') {
        n--;
    }
    PW_AUTOFREE char *p = pw_xstrndup(pat, n);
    if (strchr(p, '/') == NULL) {
        pw_strv_add(globs, p);
        return;
    }
    if (p[0] == '/') {
        pw_strv_add(globs, p);
        return;
    }
    PW_AUTOFREE char *a =
        pw_xasprintf("%s/%s", strcmp(base, "/") == 0 ? "" : base, p);
    pw_strv_add(globs, a);
}

bool
pw_globs_match(const struct pw_strv *globs, const char *abs)
{
    const char *base = strrchr(abs, '/');
    base = base != NULL ? base + 1 : abs;
    for (size_t i = 0; i < globs->n; i++) {
        const char *g = globs->v[i];
        if (pw_glob_match(g, g[0] == '/' ? abs : base)) {
            return true;
        }
    }
    return false;
}

static void
push_file(struct pw_ignores *s, const char *dir, const char *name,
          size_t *pushed)
{
    struct pw_ignore ig;
    if (pw_ignore_load(&ig, dir, name)) {
        s->v = pw_xrealloc(s->v, sizeof(*s->v) * (s->n + 1));
        s->v[s->n++] = ig;
        ++*pushed;
    }
}

size_t
pw_ignores_push(struct pw_ignores *s, const char *dir)
{
    size_t pushed = 0;
    push_file(s, dir, ".gitignore", &pushed);
    push_file(s, dir, ".ignore", &pushed);
    return pushed;
}

void
pw_ignores_pop(struct pw_ignores *s, size_t n)
{
    while (n-- > 0 && s->n > 0) {
        pw_ignore_free(&s->v[--s->n]);
    }
}

void
pw_ignores_free(struct pw_ignores *s)
{
    pw_ignores_pop(s, s->n);
    free(s->v);
    s->v = NULL;
}

void
pw_ignores_start(struct pw_ignores *s, const char *root)
{
    /* The top of the work tree: the nearest directory holding .git. */
    PW_AUTOFREE char *top = pw_xstrdup(root);
    for (;;) {
        PW_AUTOFREE char *git =
            pw_xasprintf("%s/.git", strcmp(top, "/") == 0 ? "" : top);
        if (access(git, F_OK) == 0) {
            break;
        }
        char *slash = strrchr(top, '/');
        if (slash == NULL || strcmp(top, "/") == 0) {
            return; /* not in a work tree */
        }
        if (slash == top) {
            slash[1] = '\0';
        } else {
            *slash = '\0';
        }
    }
    PW_AUTOFREE char *info = pw_xasprintf("%s/.git/info", top);
    struct pw_ignore ig;
    if (pw_ignore_load(&ig, info, "exclude")) {
        /* Its patterns are relative to the top of the work tree. */
        free(ig.dir);
        ig.dir = pw_xstrdup(strcmp(top, "/") == 0 ? "" : top);
        s->v = pw_xrealloc(s->v, sizeof(*s->v) * (s->n + 1));
        s->v[s->n++] = ig;
    }
    /* The directories from TOP down to ROOT's parent. */
    if (strcmp(top, root) == 0) {
        return;
    }
    (void)pw_ignores_push(s, top);
    for (size_t i = strlen(top) + 1; root[i] != '\0'; i++) {
        if (root[i] == '/') {
            PW_AUTOFREE char *dir = pw_xstrndup(root, i);
            (void)pw_ignores_push(s, dir);
        }
    }
}

bool
pw_ignores_match(const struct pw_ignores *s, const char *abs, bool is_dir)
{
    for (size_t i = s->n; i-- > 0;) {
        int m = pw_ignore_match(&s->v[i], abs, is_dir);
        if (m != 0) {
            return m > 0;
        }
    }
    return false;
}
