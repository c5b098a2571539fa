/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * profiles.c - load rules/profiles.json and answer import questions.
 */
#include "config.h"

#include <jansson.h>
#include <stdint.h>
#include <string.h>

#include "core/json.h"
#include "core/profiles.h"
#include "core/util.h"

static const struct {
    const char *word;
    unsigned bit;
} cap_words[] = {
    {"network", PW_CAP_NETWORK},
    {"workspace-files", PW_CAP_WORKSPACE_FILES},
    {"open-builtin", PW_CAP_OPEN_BUILTIN},
    {"template-names", PW_CAP_TEMPLATE_NAMES},
    {"output-files", PW_CAP_OUTPUT_FILES},
};

static void
profile_clear(struct pw_profile *pr)
{
    free(pr->name);
    free(pr->summary);
    for (size_t i = 0; i < pr->nmodules; i++) {
        free(pr->modules[i]);
    }
    free(pr->modules);
    for (size_t i = 0; i < pr->npreload; i++) {
        free(pr->preload[i]);
    }
    free(pr->preload);
    for (size_t i = 0; i < pr->npackages; i++) {
        free(pr->packages[i]);
    }
    free(pr->packages);
    for (size_t i = 0; pr->versions != NULL && i < pr->npackages; i++) {
        free(pr->versions[i]);
    }
    free(pr->versions);
    for (size_t i = 0; i < pr->nlazy; i++) {
        free(pr->lazy[i]);
    }
    free(pr->lazy);
}

void
pw_profiles_free(struct pw_profiles *p)
{
    if (p == NULL) {
        return;
    }
    for (size_t i = 0; i < p->n; i++) {
        profile_clear(&p->v[i]);
    }
    profile_clear(&p->always);
    for (size_t i = 0; i < p->npaths; i++) {
        free(p->paths[i]);
    }
    free(p->paths);
    free(p->v);
    free(p);
}

static int
check_keys(json_t *obj, const char *const *allowed, const char *file,
           const char *where, struct pw_error *err)
{
    const char *key = pw_json_unknown_key(obj, allowed, SIZE_MAX);
    if (key != NULL) {
        return pw_fail(err, PW_ERR_INPUT, "%s: %s: unknown key '%s'", file,
                       where, key);
    }
    return 0;
}

/* A list of module names KEY of profile PR into *V (NULL-terminated). */
static int
load_names(json_t *arr, const char *key, struct pw_profile *pr, char ***v,
           size_t *n, const char *file, struct pw_error *err)
{
    if (!json_is_array(arr)) {
        return pw_fail(err, PW_ERR_INPUT,
                       "%s: profile '%s': '%s' must be a list", file, pr->name,
                       key);
    }
    *v = pw_xcalloc(json_array_size(arr) + 1, sizeof(char *));
    size_t i;
    json_t *m;
    json_array_foreach(arr, i, m) {
        if (!json_is_string(m) || json_string_length(m) == 0) {
            return pw_fail(err, PW_ERR_INPUT,
                           "%s: profile '%s': %s item %zu is not a name", file,
                           pr->name, key, i);
        }
        (*v)[(*n)++] = pw_xstrdup(json_string_value(m));
    }
    return 0;
}

static int
load_caps(json_t *arr, struct pw_profile *pr, const char *file,
          struct pw_error *err)
{
    if (arr == NULL) {
        return 0;
    }
    if (!json_is_array(arr)) {
        return pw_fail(err, PW_ERR_INPUT,
                       "%s: profile '%s': 'allows' must be a list", file,
                       pr->name);
    }
    size_t i;
    json_t *w;
    json_array_foreach(arr, i, w) {
        const char *word = json_string_value(w);
        unsigned bit = 0;
        for (size_t k = 0; word != NULL && k < PW_N_ELEMENTS(cap_words); k++) {
            if (strcmp(word, cap_words[k].word) == 0) {
                bit = cap_words[k].bit;
            }
        }
        if (bit == 0) {
            return pw_fail(err, PW_ERR_INPUT,
                           "%s: profile '%s': unknown capability in 'allows' "
                           "(known: network, workspace-files, output-files, "
                           "open-builtin, template-names)",
                           file, pr->name);
        }
        pr->caps |= bit;
    }
    return 0;
}

static int
load_profile(json_t *obj, struct pw_profile *pr, const char *file,
             struct pw_error *err)
{
    static const char *const keys[] = {"name",     "summary", "default",
                                       "modules",  "allows",  "preload",
                                       "packages", NULL};
    if (!json_is_object(obj)) {
        return pw_fail(err, PW_ERR_INPUT, "%s: a profile must be an object",
                       file);
    }
    const char *name = json_string_value(json_object_get(obj, "name"));
    if (name == NULL || *name == '\0') {
        return pw_fail(err, PW_ERR_INPUT, "%s: a profile has no 'name'", file);
    }
    pr->name = pw_xstrdup(name);
    if (check_keys(obj, keys, file, name, err) < 0) {
        return -1;
    }
    const char *summary = json_string_value(json_object_get(obj, "summary"));
    pr->summary = pw_xstrdup(summary != NULL ? summary : "");
    pr->is_default = json_is_true(json_object_get(obj, "default"));
    if (load_names(json_object_get(obj, "modules"), "modules", pr,
                   &pr->modules, &pr->nmodules, file, err) < 0) {
        return -1;
    }
    json_t *preload = json_object_get(obj, "preload"); /* borrowed */
    if (preload != NULL && load_names(preload, "preload", pr, &pr->preload,
                                      &pr->npreload, file, err) < 0) {
        return -1;
    }
    json_t *packages = json_object_get(obj, "packages"); /* borrowed */
    if (packages != NULL && load_names(packages, "packages", pr, &pr->packages,
                                       &pr->npackages, file, err) < 0) {
        return -1;
    }
    return load_caps(json_object_get(obj, "allows"), pr, file, err);
}

static int
load_all(json_t *root, struct pw_profiles *p, const char *file,
         struct pw_error *err)
{
    static const char *const keys[] = {"profiles", "always", NULL};
    if (!json_is_object(root)) {
        return pw_fail(err, PW_ERR_INPUT, "%s: must hold a JSON object", file);
    }
    if (check_keys(root, keys, file, "top level", err) < 0) {
        return -1;
    }
    p->always.name = pw_xstrdup("(always)");
    p->always.summary = pw_xstrdup("");
    json_t *always = json_object_get(root, "always"); /* borrowed */
    if (always != NULL &&
        load_names(always, "always", &p->always, &p->always.modules,
                   &p->always.nmodules, file, err) < 0) {
        return -1;
    }
    json_t *arr = json_object_get(root, "profiles");
    if (!json_is_array(arr) || json_array_size(arr) == 0 ||
        json_array_size(arr) > PW_PROFILES_MAX) {
        return pw_fail(err, PW_ERR_INPUT,
                       "%s: 'profiles' must be a list of 1 to %d profiles",
                       file, PW_PROFILES_MAX);
    }
    p->v = pw_xcalloc(json_array_size(arr), sizeof(*p->v));
    size_t i;
    json_t *obj;
    json_array_foreach(arr, i, obj) {
        p->n = i + 1;
        if (load_profile(obj, &p->v[i], file, err) < 0) {
            return -1;
        }
        for (size_t k = 0; k < i; k++) {
            if (strcmp(p->v[k].name, p->v[i].name) == 0) {
                return pw_fail(err, PW_ERR_INPUT,
                               "%s: profile '%s' is defined twice", file,
                               p->v[i].name);
            }
        }
    }
    return 0;
}

struct pw_profiles *
pw_profiles_load(const char *rules_dir, struct pw_error *err)
{
    PW_AUTOFREE char *file = pw_xasprintf("%s/profiles.json", rules_dir);
    json_t *root = pw_json_load_file(file, err);
    if (root == NULL) {
        return NULL;
    }
    struct pw_profiles *p = pw_xcalloc(1, sizeof(*p));
    int rc = load_all(root, p, file, err);
    json_decref(root);
    if (rc < 0) {
        pw_profiles_free(p);
        return NULL;
    }
    return p;
}

pw_profile_mask
pw_profiles_on_request_mask(const struct pw_profiles *p)
{
    pw_profile_mask m = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->v[i].on_request) {
            m |= (pw_profile_mask)1 << i;
        }
    }
    return m;
}

int
pw_profiles_index(const struct pw_profiles *p, const char *name)
{
    for (size_t i = 0; i < p->n; i++) {
        if (strcmp(p->v[i].name, name) == 0) {
            return (int)i;
        }
    }
    return -1;
}

const struct pw_profile *
pw_profiles_find(const struct pw_profiles *p, const char *name)
{
    int i = pw_profiles_index(p, name);
    return i < 0 ? NULL : &p->v[i];
}

pw_profile_mask
pw_profiles_default_mask(const struct pw_profiles *p)
{
    pw_profile_mask m = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (p->v[i].is_default) {
            m |= 1UL << i;
        }
    }
    return m;
}

pw_profile_mask
pw_profiles_light_mask(const struct pw_profiles *p, pw_profile_mask enabled)
{
    pw_profile_mask m = 0;
    for (size_t i = 0; i < p->n; i++) {
        if ((enabled & (1UL << i)) != 0 && p->v[i].npackages == 0) {
            m |= 1UL << i;
        }
    }
    return m;
}

int
pw_profiles_parse_list(const struct pw_profiles *p, const char *list,
                       pw_profile_mask *out, struct pw_error *err)
{
    PW_AUTOFREE char *copy = pw_xstrdup(list);
    pw_profile_mask m = 0;
    char *save = NULL;
    for (char *tok = strtok_r(copy, ", ", &save); tok != NULL;
         tok = strtok_r(NULL, ", ", &save)) {
        int i = pw_profiles_index(p, tok);
        if (i < 0) {
            return pw_fail(err, PW_ERR_USAGE, "unknown profile '%s'", tok);
        }
        m |= 1UL << i;
    }
    *out = m;
    return 0;
}

const char *
pw_cap_word(unsigned bit)
{
    for (size_t k = 0; k < PW_N_ELEMENTS(cap_words); k++) {
        if (cap_words[k].bit == bit) {
            return cap_words[k].word;
        }
    }
    return NULL;
}

unsigned
pw_profiles_caps(const struct pw_profiles *p, pw_profile_mask mask)
{
    unsigned caps = 0;
    for (size_t i = 0; i < p->n; i++) {
        if (mask & (1UL << i)) {
            caps |= p->v[i].caps;
        }
    }
    return caps;
}

bool
pw_module_matches(const char *pattern, const char *name)
{
    size_t n = strlen(pattern);
    return strncmp(pattern, name, n) == 0 &&
           (name[n] == '\0' || name[n] == '.');
}

static bool
list_matches(const char *const *list, const char *name)
{
    for (size_t i = 0; list != NULL && list[i] != NULL; i++) {
        if (pw_module_matches(list[i], name)) {
            return true;
        }
    }
    return false;
}

static bool
profile_matches(const struct pw_profile *pr, const char *name)
{
    return list_matches((const char *const *)pr->modules, name);
}

enum pw_import_verdict
pw_importset_check(const struct pw_importset *set, const char *module,
                   const char **which)
{
    const struct pw_profiles *p = set->profiles;
    if (profile_matches(&p->always, module)) {
        return PW_IMPORT_ALLOWED;
    }
    bool in_mask = list_matches(set->extra, module);
    for (size_t i = 0; !in_mask && i < p->n; i++) {
        in_mask =
            (set->mask & (1UL << i)) && profile_matches(&p->v[i], module);
    }
    if (in_mask && (set->only == NULL || list_matches(set->only, module))) {
        return PW_IMPORT_ALLOWED;
    }
    if (in_mask) {
        return PW_IMPORT_DENIED;
    }
    for (size_t i = 0; i < p->n; i++) {
        if (!(set->mask & (1UL << i)) && profile_matches(&p->v[i], module)) {
            if (which != NULL) {
                *which = p->v[i].name;
            }
            return PW_IMPORT_OTHER_PROFILE;
        }
    }
    return PW_IMPORT_DENIED;
}
