/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * pkgset.c - package sets read from their files, and attached to the
 * profiles.
 */
#include "config.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/log.h"
#include "core/pkgset.h"
#include "core/py.h"
#include "core/util.h"

#define META_MAX (4u << 20)

char *
pw_pkgset_root(void)
{
    const char *state = getenv("PYWARD_STATE_DIR");
    return pw_xasprintf("%s/packages", state != NULL && state[0] == '/'
                                           ? state
                                           : "/var/lib/pyward");
}

char *
pw_pkgset_dir(const char *name, struct pw_error *err)
{
    if (name[0] == '/') {
        return pw_xstrdup(name);
    }
    size_t n = strlen(name);
    bool ok = n > 0 && n <= 64 && name[0] != '.';
    for (size_t i = 0; ok && i < n; i++) {
        ok = isalnum((unsigned char)name[i]) || strchr("-_.", name[i]);
    }
    if (!ok) {
        pw_fail(err, PW_ERR_USAGE,
                "'%s' is not a package set name (letters, digits, '-', '_' "
                "and '.', at most 64)",
                name);
        return NULL;
    }
    PW_AUTOFREE char *root = pw_pkgset_root();
    return pw_xasprintf("%s/%s", root, name);
}

void
pw_pkgset_normalize(const char *name, size_t len, char *out, size_t size)
{
    size_t n = 0;
    for (size_t i = 0; i < len && n + 1 < size; i++) {
        bool sep = strchr("-_.", name[i]) != NULL;
        if (sep && n > 0 && out[n - 1] == '-') {
            continue;
        }
        out[n++] = sep ? '-' : (char)tolower((unsigned char)name[i]);
    }
    while (n > 0 && out[n - 1] == '-') {
        n--;
    }
    out[n] = '\0';
}

/* The value of the header FIELD ("Name") in METADATA's text T, owned,
 * or NULL. */
static char *
header(const char *t, const char *field)
{
    size_t fl = strlen(field);
    for (const char *p = t; p != NULL && *p != '\0' && *p != '\n';) {
        if (strncmp(p, field, fl) == 0 && p[fl] == ':') {
            const char *v = p + fl + 1;
            v += strspn(v, " \t");
            size_t n = strcspn(v, "\r\n");
            while (n > 0 && isspace((unsigned char)v[n - 1])) {
                n--;
            }
            return pw_xstrndup(v, n);
        }
        p = strchr(p, '\n');
        p = p != NULL ? p + 1 : NULL;
    }
    return NULL;
}

static bool
has(char *const *list, size_t n, const char *s)
{
    for (size_t i = 0; i < n; i++) {
        if (strcmp(list[i], s) == 0) {
            return true;
        }
    }
    return false;
}

static void
add_module(struct pw_dist *d, const char *s, size_t n)
{
    char name[128];
    if (n == 0 || n >= sizeof(name)) {
        return;
    }
    memcpy(name, s, n);
    name[n] = '\0';
    bool ok = isalpha((unsigned char)name[0]) || name[0] == '_';
    for (size_t i = 0; ok && i < n; i++) {
        ok = isalnum((unsigned char)name[i]) || name[i] == '_';
    }
    if (!ok || has(d->modules, d->nmodules, name)) {
        return;
    }
    d->modules = pw_xrealloc(d->modules, (d->nmodules + 2) * sizeof(char *));
    d->modules[d->nmodules++] = pw_xstrdup(name);
    d->modules[d->nmodules] = NULL;
}

/* The top-level modules from RECORD's paths: "pkg/x.py" gives pkg,
 * "mod.py" and "mod.cpython-311-x86_64-linux-gnu.so" give mod; the
 * metadata, bytecode, scripts and .pth files give none (a .pth is
 * noted). */
static void
modules_from_record(struct pw_dist *d, const char *t)
{
    for (const char *p = t; p != NULL && *p != '\0';) {
        size_t line = strcspn(p, "\r\n");
        size_t path = strcspn(p, ",\r\n");
        size_t first = strcspn(p, "/,\r\n");
        if (path >= 4 && strncmp(p + path - 4, ".pth", 4) == 0 &&
            first == path) {
            d->pth = true;
        } else if (first < path) {
            if (!(first > 10 &&
                  strncmp(p + first - 10, ".dist-info", 10) == 0) &&
                !(first > 5 && strncmp(p + first - 5, ".data", 5) == 0) &&
                strncmp(p, "..", 2) != 0 &&
                strncmp(p, "__pycache__", 11) != 0) {
                add_module(d, p, first);
            }
        } else if (path > 3 && strncmp(p + path - 3, ".py", 3) == 0) {
            add_module(d, p, path - 3);
        } else if (path > 3 && strncmp(p + path - 3, ".so", 3) == 0) {
            add_module(d, p, strcspn(p, "."));
        }
        p += line;
        p += strspn(p, "\r\n");
    }
}

static void
dist_clear(struct pw_dist *d)
{
    free(d->name);
    free(d->key);
    free(d->version);
    for (size_t i = 0; i < d->nmodules; i++) {
        free(d->modules[i]);
    }
    free(d->modules);
}

/* One NAME.dist-info directory of S. */
static void
read_dist(struct pw_pkgset *s, const char *info)
{
    struct pw_buf meta;
    struct pw_buf rec;
    pw_buf_init(&meta);
    pw_buf_init(&rec);
    PW_AUTOFREE char *mp = pw_xasprintf("%s/%s/METADATA", s->dir, info);
    PW_AUTOFREE char *rp = pw_xasprintf("%s/%s/RECORD", s->dir, info);
    PW_AUTOFREE char *tp = pw_xasprintf("%s/%s/top_level.txt", s->dir, info);
    struct pw_error err = {0};
    if (pw_read_file(mp, META_MAX, &meta, &err) == 0 && meta.data != NULL) {
        struct pw_dist d = {0};
        d.name = header(meta.data, "Name");
        d.version = header(meta.data, "Version");
        if (d.name == NULL || d.version == NULL) {
            dist_clear(&d);
        } else {
            char key[128];
            pw_pkgset_normalize(d.name, strlen(d.name), key, sizeof(key));
            d.key = pw_xstrdup(key);
            if (pw_read_file(rp, META_MAX, &rec, &err) == 0 &&
                rec.data != NULL) {
                modules_from_record(&d, rec.data);
            }
            struct pw_buf top;
            pw_buf_init(&top);
            if (d.nmodules == 0 &&
                pw_read_file(tp, META_MAX, &top, &err) == 0 &&
                top.data != NULL) {
                for (const char *p = top.data; *p != '\0';) {
                    size_t n = strcspn(p, "\r\n");
                    add_module(&d, p, n);
                    p += n;
                    p += strspn(p, "\r\n");
                }
            }
            pw_buf_free(&top);
            s->v = pw_xrealloc(s->v, (s->n + 1) * sizeof(*s->v));
            s->v[s->n++] = d;
        }
    }
    pw_buf_free(&meta);
    pw_buf_free(&rec);
}

static int
by_key(const void *a, const void *b)
{
    return strcmp(((const struct pw_dist *)a)->key,
                  ((const struct pw_dist *)b)->key);
}

int
pw_pkgset_read(struct pw_pkgset *s, const char *name, struct pw_error *err)
{
    memset(s, 0, sizeof(*s));
    s->dir = pw_pkgset_dir(name, err);
    if (s->dir == NULL) {
        return -1;
    }
    const char *base = strrchr(s->dir, '/');
    s->name = pw_xstrdup(name[0] == '/' && base != NULL ? base + 1 : name);
    DIR *dir = opendir(s->dir);
    if (dir == NULL) {
        pw_fail(err, PW_ERR_USAGE,
                "no package set '%s' (%s: no such directory; `pyward "
                "packages install --set %s ...` makes it)",
                name, s->dir, s->name);
        pw_pkgset_clear(s);
        return -1;
    }
    struct dirent *e;
    /* cppcheck-suppress readdirCalled */
    while ((e = readdir(dir)) != NULL) {
        size_t n = strlen(e->d_name);
        if (n > 10 && strcmp(e->d_name + n - 10, ".dist-info") == 0) {
            read_dist(s, e->d_name);
        }
    }
    closedir(dir);
    if (s->n > 1) {
        qsort(s->v, s->n, sizeof(*s->v), by_key);
    }
    return 0;
}

void
pw_pkgset_clear(struct pw_pkgset *s)
{
    for (size_t i = 0; i < s->n; i++) {
        dist_clear(&s->v[i]);
    }
    free(s->v);
    free(s->name);
    free(s->dir);
    memset(s, 0, sizeof(*s));
}

const struct pw_dist *
pw_pkgset_find(const struct pw_pkgset *s, const char *name)
{
    char key[128];
    pw_pkgset_normalize(name, strlen(name), key, sizeof(key));
    for (size_t i = 0; i < s->n; i++) {
        if (strcmp(s->v[i].key, key) == 0) {
            return &s->v[i];
        }
    }
    return NULL;
}

/* ---- attaching ------------------------------------------------------ */

static void
push(char ***list, size_t *n, const char *s)
{
    *list = pw_xrealloc(*list, (*n + 2) * sizeof(char *));
    (*list)[(*n)++] = s != NULL ? pw_xstrdup(s) : NULL;
    (*list)[*n] = NULL;
}

/* PROFILE's index in P, or a new profile NAME of its own. */
static int
target(struct pw_profiles *p, const char *profile, const char *name,
       struct pw_error *err)
{
    if (profile != NULL) {
        int i = pw_profiles_index(p, profile);
        return i >= 0 ? i
                      : pw_fail(err, PW_ERR_USAGE,
                                "--packages %s:%s: no profile named '%s'",
                                name, profile, profile);
    }
    int i = pw_profiles_index(p, name);
    if (i >= 0 && !p->v[i].on_request) {
        return pw_fail(err, PW_ERR_USAGE,
                       "--packages %s: a profile has that name already; "
                       "name the profile its modules go to (%s:PROFILE)",
                       name, name);
    }
    if (i >= 0) {
        return i;
    }
    if (p->n >= PW_PROFILES_MAX) {
        return pw_fail(err, PW_ERR_USAGE, "--packages %s: at most %d profiles",
                       name, PW_PROFILES_MAX);
    }
    p->v = pw_xrealloc(p->v, (p->n + 1) * sizeof(*p->v));
    struct pw_profile *pr = &p->v[p->n];
    memset(pr, 0, sizeof(*pr));
    pr->name = pw_xstrdup(name);
    pr->summary = pw_xasprintf("the package set '%s'", name);
    pr->on_request = true;
    return (int)p->n++;
}

/* Runs of a server started as root are nobody's: each directory from /
 * to DIR must let others through, and DIR list.  0, or -1 and ERR. */
static int
others_reach(const char *dir, struct pw_error *err)
{
    if (geteuid() != 0) {
        return 0;
    }
    PW_AUTOFREE char *p = pw_xstrdup(dir);
    for (char *s = p + 1;; s++) {
        if (*s == '/' || *s == '\0') {
            char c = *s;
            *s = '\0';
            struct stat st;
            mode_t need = c == '\0' ? (S_IROTH | S_IXOTH) : S_IXOTH;
            if (stat(p, &st) < 0 || (st.st_mode & need) != need) {
                return pw_fail(err, PW_ERR_USAGE,
                               "package set %s: runs (as nobody) cannot "
                               "read it: %s is not %s by others",
                               dir, p, c == '\0' ? "readable" : "searchable");
            }
            *s = c;
            if (c == '\0') {
                return 0;
            }
        }
    }
}

int
pw_pkgset_attach(struct pw_profiles *p, const struct pw_pkgset *s,
                 const char *profile, const char *const *preload,
                 struct pw_error *err)
{
    if (others_reach(s->dir, err) < 0) {
        return -1;
    }
    int i = target(p, profile, s->name, err);
    if (i < 0) {
        return -1;
    }
    struct pw_profile *pr = &p->v[i];
    for (size_t k = 0; k < s->n; k++) {
        const struct pw_dist *d = &s->v[k];
        for (size_t m = 0; m < d->nmodules; m++) {
            const char *mod = d->modules[m];
            if (has(pr->modules, pr->nmodules, mod)) {
                continue;
            }
            if (pw_py_module_findable(mod)) {
                pw_log(PW_LOG_WARN,
                       "package set '%s': module '%s' of %s is left out: "
                       "the standard library or a site directory has it",
                       s->name, mod, d->name);
                continue;
            }
            push(&pr->modules, &pr->nmodules, mod);
            pw_py_module_add(mod);
            bool pre = false;
            for (size_t j = 0; preload != NULL && preload[j] != NULL; j++) {
                pre = pre || strcmp(preload[j], mod) == 0;
            }
            if (!pre) {
                push(&pr->lazy, &pr->nlazy, mod);
            }
        }
        size_t before = pr->npackages;
        push(&pr->packages, &pr->npackages, d->key);
        char **v = pw_xcalloc(before + 2, sizeof(char *));
        for (size_t j = 0; pr->versions != NULL && j < before; j++) {
            v[j] = pr->versions[j];
        }
        free(pr->versions);
        v[before] = pw_xstrdup(d->version);
        pr->versions = v;
    }
    push(&p->paths, &p->npaths, s->dir);
    return 0;
}
