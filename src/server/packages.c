/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * packages.c - package sets attached to a server's profiles.
 */
#include "config.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "server/packages.h"

static bool
provided(const struct pw_pkgset *sets, size_t n, const char *mod)
{
    for (size_t i = 0; i < n; i++) {
        for (size_t k = 0; k < sets[i].n; k++) {
            for (size_t m = 0; m < sets[i].v[k].nmodules; m++) {
                if (strcmp(sets[i].v[k].modules[m], mod) == 0) {
                    return true;
                }
            }
        }
    }
    return false;
}

int
pw_packages_attach(struct pw_profiles *p, char *const *specs,
                   char *const *preload, struct pw_error *err)
{
    struct pw_pkgset sets[PW_PKGSETS_MAX];
    char *profile[PW_PKGSETS_MAX];
    size_t n = 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && specs != NULL && specs[i] != NULL; i++) {
        if (n == PW_PKGSETS_MAX) {
            rc = pw_fail(err, PW_ERR_USAGE, "--packages: at most %d sets",
                         PW_PKGSETS_MAX);
            break;
        }
        PW_AUTOFREE char *name = pw_xstrdup(specs[i]);
        char *colon = strchr(name, ':');
        if (colon != NULL) {
            *colon = '\0';
        }
        if (pw_pkgset_read(&sets[n], name, err) < 0) {
            rc = -1;
            break;
        }
        profile[n++] = colon != NULL ? pw_xstrdup(colon + 1) : NULL;
    }
    for (size_t i = 0; rc == 0 && preload != NULL && preload[i] != NULL; i++) {
        if (!provided(sets, n, preload[i])) {
            rc = pw_fail(err, PW_ERR_USAGE,
                         "--packages-preload: no package set given provides "
                         "a module '%s'",
                         preload[i]);
        }
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rc = pw_pkgset_attach(p, &sets[i], profile[i],
                              (const char *const *)preload, err);
    }
    for (size_t i = 0; i < n; i++) {
        pw_pkgset_clear(&sets[i]);
        free(profile[i]);
    }
    return rc;
}

json_t *
pw_pkgset_json(const struct pw_pkgset *s)
{
    json_t *dists = json_array();
    for (size_t k = 0; k < s->n; k++) {
        const struct pw_dist *d = &s->v[k];
        json_t *mods = json_array();
        for (size_t m = 0; m < d->nmodules; m++) {
            json_array_append_new(mods, json_string(d->modules[m]));
        }
        json_array_append_new(
            dists, json_pack("{s:s,s:s,s:o,s:b}", "name", d->name, "version",
                             d->version, "modules", mods, "pth_file", d->pth));
    }
    return json_pack("{s:s,s:s,s:o}", "name", s->name, "dir", s->dir,
                     "distributions", dists);
}

/* The profile whose package list holds S's first distribution. */
static const char *
profile_of(const struct pw_profiles *p, const struct pw_pkgset *s)
{
    for (size_t i = 0; s->n > 0 && i < p->n; i++) {
        for (size_t k = 0; k < p->v[i].npackages; k++) {
            if (strcmp(p->v[i].packages[k], s->v[0].key) == 0) {
                return p->v[i].name;
            }
        }
    }
    return NULL;
}

json_t *
pw_packages_json(const struct pw_profiles *p)
{
    json_t *out = json_array();
    for (size_t i = 0; i < p->npaths; i++) {
        struct pw_pkgset s;
        struct pw_error err = {0};
        if (pw_pkgset_read(&s, p->paths[i], &err) < 0) {
            continue;
        }
        json_t *one = pw_pkgset_json(&s);
        const char *prof = profile_of(p, &s);
        json_object_set_new(one, "profile",
                            prof != NULL ? json_string(prof) : json_null());
        json_array_append_new(out, one);
        pw_pkgset_clear(&s);
    }
    return out;
}

json_t *
pw_packages_describe(void)
{
    PW_AUTOFREE char *root = pw_pkgset_root();
    struct dirent **names = NULL;
    int n = scandir(root, &names, NULL, alphasort);
    struct pw_buf b;
    pw_buf_init(&b);
    int sets = 0;
    for (int i = 0; i < n; i++) {
        struct pw_pkgset s;
        struct pw_error err = {0};
        if (names[i]->d_name[0] != '.' &&
            pw_pkgset_read(&s, names[i]->d_name, &err) == 0) {
            pw_buf_printf(&b, "%s%s (", sets++ > 0 ? "; " : "", s.name);
            for (size_t k = 0; k < s.n; k++) {
                pw_buf_printf(&b, "%s%s %s:", k > 0 ? ", " : "", s.v[k].name,
                              s.v[k].version);
                for (size_t m = 0; m < s.v[k].nmodules; m++) {
                    pw_buf_printf(&b, " %s", s.v[k].modules[m]);
                }
            }
            pw_buf_printf(&b, ")");
            pw_pkgset_clear(&s);
        }
        free(names[i]);
    }
    free(names);
    if (sets == 0) {
        pw_buf_printf(&b, "none");
    }
    pw_buf_printf(&b, " in %s (runs see a set with serve --packages)", root);
    json_t *out = json_pack("{s:b,s:s}", "active", sets > 0, "detail",
                            b.data != NULL ? b.data : "");
    pw_buf_free(&b);
    return out;
}
