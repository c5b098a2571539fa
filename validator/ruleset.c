/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * ruleset.c - load and strictly check the rule files (rules/NAME.json).
 *
 * Defines pw_ruleset_* and pw_rule_render.
 */
#include "config.h"

#include <dirent.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "core/json.h"
#include "core/profiles.h"
#include "validator/ruleset.h"
#include "validator/runtime_ref.h"
#include "core/util.h"

static const char *const event_names[PW_EV_COUNT] = {
    "syntax-error", "compile-error", "too-deep",   "not-utf8",
    "too-large",    "null-byte",     "dependency", "script-metadata",
};

static const char *const rule_keys[] = {
    "code",  "name", "summary", "message", "why",   "example",       "node",
    "where", "sets", "event",   "import",  "prune", "unless_allows", "student",
};

/* Where a loader error happened, for messages. */
struct where_ctx {
    const char *file;
    const char *rule;
    struct pw_error *err;
};

static int
lfail(const struct where_ctx *w, const char *what)
{
    if (w->rule != NULL) {
        return pw_fail(w->err, PW_ERR_INPUT, "%s: rule %s: %s", w->file,
                       w->rule, what);
    }
    return pw_fail(w->err, PW_ERR_INPUT, "%s: %s", w->file, what);
}

static bool
matches(const char *re_text, const char *s)
{
    regex_t re;
    if (regcomp(&re, re_text, REG_EXTENDED | REG_NOSUB) != 0) {
        return false;
    }
    bool ok = regexec(&re, s, 0, NULL, 0) == 0;
    regfree(&re);
    return ok;
}

static int
check_keys(const struct where_ctx *w, json_t *j, const char *const *keys,
           size_t nkeys)
{
    const char *k = pw_json_unknown_key(j, keys, nkeys);
    if (k != NULL) {
        char m[200];
        (void)snprintf(m, sizeof(m), "unknown key '%s'", k);
        return lfail(w, m);
    }
    return 0;
}

static int
get_str(const struct where_ctx *w, json_t *j, const char *key, bool required,
        char **out)
{
    json_t *v = json_object_get(j, key); /* borrowed */
    if (v == NULL && !required) {
        return 0;
    }
    if (!json_is_string(v) || json_string_length(v) == 0) {
        char m[200];
        (void)snprintf(m, sizeof(m), "key '%s' must be a non-empty string",
                       key);
        return lfail(w, m);
    }
    *out = pw_xstrdup(json_string_value(v));
    return 0;
}

/* ---- templates ---------------------------------------------------- */

/* The parts a template compiles into: the message's, or the student
 * text's. */
struct tpl_out {
    struct pw_tpl_part **v;
    int *n;
};

static void
tpl_add(struct tpl_out o, enum pw_tpl_kind kind, const char *text, size_t n)
{
    *o.v = pw_xrealloc(*o.v, sizeof(**o.v) * (size_t)(*o.n + 1));
    struct pw_tpl_part *p = &(*o.v)[(*o.n)++];
    memset(p, 0, sizeof(*p));
    p->kind = kind;
    p->text = pw_xstrndup(text, n);
}

static int
tpl_var(const struct pw_nodes *nt, struct pw_rule *r, struct tpl_out o,
        const char *name, char *msg, size_t msglen)
{
    static const struct {
        const char *name;
        enum pw_tpl_kind kind;
    } vars[] = {{"$node", PW_TPL_NODE},
                {"$module", PW_TPL_MODULE},
                {"$profile", PW_TPL_PROFILE},
                {"$detail", PW_TPL_DETAIL}};
    for (size_t i = 0; i < PW_N_ELEMENTS(vars); i++) {
        if (strcmp(name, vars[i].name) == 0) {
            tpl_add(o, vars[i].kind, "", 0);
            return 0;
        }
    }
    if (r->nkinds == 0) {
        (void)snprintf(msg, msglen, "unknown placeholder '{%s}'", name);
        return -1;
    }
    tpl_add(o, PW_TPL_PATH, "", 0);
    return pw_match_path_compile(nt, r->kinds, r->nkinds, name,
                                 &(*o.v)[*o.n - 1].path, msg, msglen);
}

static int
tpl_compile(const struct pw_nodes *nt, struct pw_rule *r, const char *s,
            struct tpl_out o, char *msg, size_t msglen)
{
    while (*s != '\0') {
        const char *open = strchr(s, '{');
        if (open == NULL) {
            tpl_add(o, PW_TPL_TEXT, s, strlen(s));
            break;
        }
        tpl_add(o, PW_TPL_TEXT, s, (size_t)(open - s));
        if (open[1] == '{') { /* "{{" is a literal "{" */
            tpl_add(o, PW_TPL_TEXT, "{", 1);
            s = open + 2;
            continue;
        }
        const char *close = strchr(open, '}');
        if (close == NULL) {
            (void)snprintf(msg, msglen, "unclosed '{' in message");
            return -1;
        }
        PW_AUTOFREE char *name =
            pw_xstrndup(open + 1, (size_t)(close - open - 1));
        if (tpl_var(nt, r, o, name, msg, msglen) < 0) {
            return -1;
        }
        s = close + 1;
    }
    return 0;
}

static void
value_text(struct pw_buf *b, const struct pw_nodes *nt, const struct pw_val *v)
{
    if (v->t == PW_V_NODE) {
        pw_buf_printf(b, "%s", v->kind >= 0 ? nt->v[v->kind].name : "");
        return;
    }
    PyObject *owned = NULL;
    PyObject *o = pw_val_object(v, &owned); /* borrowed, or OWNED */
    PW_PYAUTO PyObject *hold = owned;
    if (o == NULL || o == Py_None) {
        return;
    }
    PW_PYAUTO PyObject *s =
        PyUnicode_Check(o) ? Py_NewRef(o) : PyObject_Str(o);
    const char *u = s != NULL ? PyUnicode_AsUTF8(s) : NULL;
    if (u == NULL) {
        PyErr_Clear();
        return;
    }
    pw_buf_printf(b, "%s", u);
}

static char *
render(const struct pw_tpl_part *tpl, int ntpl, const struct pw_mctx *mc,
       const struct pw_tpl_vars *vars)
{
    struct pw_buf b;
    pw_buf_init(&b);
    for (int i = 0; i < ntpl; i++) {
        const struct pw_tpl_part *p = &tpl[i];
        const char *s = NULL;
        switch (p->kind) {
        case PW_TPL_TEXT:
            s = p->text;
            break;
        case PW_TPL_PATH:
            if (mc != NULL) {
                struct pw_val v = pw_match_path_first(mc, &p->path);
                value_text(&b, mc->nt, &v);
            }
            break;
        case PW_TPL_NODE:
            if (mc != NULL) {
                value_text(&b, mc->nt, &mc->anc[mc->depth]);
            }
            break;
        case PW_TPL_MODULE:
            s = vars != NULL ? vars->module : NULL;
            break;
        case PW_TPL_PROFILE:
            s = vars != NULL ? vars->profile : NULL;
            break;
        case PW_TPL_DETAIL:
            s = vars != NULL ? vars->detail : NULL;
            break;
        }
        if (s != NULL) {
            pw_buf_append(&b, s, strlen(s));
        }
    }
    return pw_buf_take(&b, NULL);
}

char *
pw_rule_render(const struct pw_rule *r, const struct pw_mctx *mc,
               const struct pw_tpl_vars *vars)
{
    return render(r->tpl, r->ntpl, mc, vars);
}

char *
pw_rule_render_student(const struct pw_rule *r, const struct pw_mctx *mc,
                       const struct pw_tpl_vars *vars)
{
    return r->student != NULL ? render(r->stpl, r->nstpl, mc, vars) : NULL;
}

/* ---- one rule ----------------------------------------------------- */

static int
parse_nodes(const struct where_ctx *w, const struct pw_nodes *nt, json_t *j,
            struct pw_rule *r)
{
    json_t *v = json_object_get(j, "node"); /* borrowed */
    size_t n = json_is_array(v) ? json_array_size(v) : 1;
    if (n == 0) {
        return lfail(w, "key 'node' names no node type");
    }
    r->kinds = pw_xcalloc(n + 1, sizeof(*r->kinds));
    for (size_t i = 0; i < n; i++) {
        json_t *e = json_is_array(v) ? json_array_get(v, i) : v; /* borrowed */
        const char *name = json_string_value(e);
        int k = name != NULL ? pw_nodes_find(nt, name) : -1;
        if (k < 0) {
            char m[200];
            (void)snprintf(m, sizeof(m),
                           "key 'node': unknown AST node type '%s'",
                           name != NULL ? name : "(not a string)");
            return lfail(w, m);
        }
        for (int d = 0; d < r->nkinds; d++) {
            if (r->kinds[d] == k) {
                char m[200];
                (void)snprintf(m, sizeof(m), "key 'node': '%s' is named twice",
                               name);
                return lfail(w, m);
            }
        }
        r->kinds[r->nkinds++] = k;
    }
    return 0;
}

static int
parse_sets(const struct where_ctx *w, json_t *j, struct pw_rule *r)
{
    json_t *v = json_object_get(j, "sets"); /* borrowed */
    if (!json_is_array(v) || json_array_size(v) == 0) {
        return lfail(w, "key 'sets' must be a non-empty array");
    }
    struct pw_buf b;
    pw_buf_init(&b);
    size_t i;
    json_t *e; /* borrowed */
    json_array_foreach(v, i, e) {
        const char *s = json_string_value(e);
        unsigned bit = 0;
        if (s != NULL && strcmp(s, "default") == 0) {
            bit = PW_SET_DEFAULT;
        } else if (s != NULL && strcmp(s, "restricted") == 0) {
            bit = PW_SET_RESTRICTED;
        }
        if (bit == 0) {
            pw_buf_free(&b);
            return lfail(w, "key 'sets': use \"default\" and/or "
                            "\"restricted\"");
        }
        r->sets |= bit;
        pw_buf_printf(&b, "%s%s", i > 0 ? "," : "", s);
    }
    r->sets_text = pw_buf_take(&b, NULL);
    return 0;
}

static int
parse_example(const struct where_ctx *w, json_t *j, struct pw_rule *r)
{
    static const char *const keys[] = {"bad", "good"};
    json_t *v = json_object_get(j, "example"); /* borrowed */
    if (!json_is_object(v)) {
        return lfail(w, "key 'example' must be an object {bad, good}");
    }
    if (check_keys(w, v, keys, PW_N_ELEMENTS(keys)) < 0 ||
        get_str(w, v, "bad", true, &r->bad) < 0 ||
        get_str(w, v, "good", true, &r->good) < 0) {
        return -1;
    }
    return 0;
}

static int
parse_import(const struct where_ctx *w, const struct pw_nodes *nt, json_t *j,
             struct pw_rule *r)
{
    static const char *const keys[] = {"module", "names", "verdict"};
    json_t *v = json_object_get(j, "import"); /* borrowed */
    if (v == NULL) {
        return 0;
    }
    const char *mod = json_string_value(json_object_get(v, "module"));
    const char *names = json_string_value(json_object_get(v, "names"));
    const char *verdict = json_string_value(json_object_get(v, "verdict"));
    if (!json_is_object(v) || check_keys(w, v, keys, 3) < 0) {
        return json_is_object(v) ? -1 : lfail(w, "'import' must be an object");
    }
    if (mod == NULL || verdict == NULL) {
        return lfail(w, "key 'import' needs 'module' and 'verdict'");
    }
    if (strcmp(verdict, "denied") == 0) {
        r->import_verdict = PW_IMPORT_DENIED;
    } else if (strcmp(verdict, "other-profile") == 0) {
        r->import_verdict = PW_IMPORT_OTHER_PROFILE;
    } else if (strcmp(verdict, "not-installed") == 0) {
        r->import_verdict = PW_RULE_NOT_INSTALLED;
    } else {
        return lfail(w, "key 'import': verdict is denied, other-profile or "
                        "not-installed");
    }
    char m[300];
    if (pw_match_path_compile(nt, r->kinds, r->nkinds, mod, &r->import_module,
                              m, sizeof(m)) < 0 ||
        (names != NULL &&
         pw_match_path_compile(nt, r->kinds, r->nkinds, names,
                               &r->import_names, m, sizeof(m)) < 0)) {
        char m2[400];
        (void)snprintf(m2, sizeof(m2), "key 'import': %s", m);
        return lfail(w, m2);
    }
    r->has_import = true;
    r->has_import_names = names != NULL;
    return 0;
}

static int
parse_event(const struct where_ctx *w, json_t *j, struct pw_rule *r)
{
    r->event = -1;
    json_t *v = json_object_get(j, "event"); /* borrowed */
    bool has_node = json_object_get(j, "node") != NULL;
    if (v == NULL) {
        return has_node ? 0 : lfail(w, "needs a 'node' or an 'event'");
    }
    if (has_node) {
        return lfail(w, "has both 'node' and 'event'");
    }
    for (int i = 0; i < PW_EV_COUNT; i++) {
        if (json_is_string(v) &&
            strcmp(json_string_value(v), event_names[i]) == 0) {
            r->event = i;
            return 0;
        }
    }
    return lfail(w, "key 'event': unknown event");
}

/* "unless_allows": a capability word (profiles.json "allows"); the rule
 * does not fire when the run's profiles grant it. */
static int
parse_unless(const struct where_ctx *w, json_t *j, struct pw_rule *r)
{
    json_t *v = json_object_get(j, "unless_allows"); /* borrowed */
    if (v == NULL) {
        return 0;
    }
    const char *word = json_string_value(v);
    for (unsigned bit = 1; word != NULL && bit != 0; bit <<= 1) {
        const char *known = pw_cap_word(bit);
        if (known != NULL && strcmp(known, word) == 0) {
            r->unless_caps = bit;
            return 0;
        }
    }
    return lfail(w, "key 'unless_allows' must name a capability of "
                    "profiles.json ('allows')");
}

static int
parse_strings(const struct where_ctx *w, json_t *j, struct pw_rule *r)
{
    if (get_str(w, j, "summary", true, &r->summary) < 0 ||
        get_str(w, j, "message", true, &r->message) < 0 ||
        get_str(w, j, "why", true, &r->why) < 0 ||
        get_str(w, j, "student", false, &r->student) < 0) {
        return -1;
    }
    json_t *prune = json_object_get(j, "prune"); /* borrowed */
    if (prune != NULL && !json_is_boolean(prune)) {
        return lfail(w, "key 'prune' must be true or false");
    }
    r->prune = json_is_true(prune);
    return parse_unless(w, j, r);
}

static int
parse_matchers(const struct where_ctx *w, const struct pw_nodes *nt, json_t *j,
               struct pw_rule *r)
{
    char m[300], m2[400];
    json_t *where = json_object_get(j, "where"); /* borrowed */
    if (where != NULL) {
        if (r->event >= 0) {
            return lfail(w, "key 'where' needs a 'node'");
        }
        r->has_where = true;
        if (pw_match_cond_compile(nt, r->kinds, r->nkinds, where, &r->where, m,
                                  sizeof(m)) < 0) {
            (void)snprintf(m2, sizeof(m2), "key 'where': %s", m);
            return lfail(w, m2);
        }
    }
    if (tpl_compile(nt, r, r->message, (struct tpl_out){&r->tpl, &r->ntpl}, m,
                    sizeof(m)) < 0) {
        (void)snprintf(m2, sizeof(m2), "key 'message': %s", m);
        return lfail(w, m2);
    }
    if (r->student != NULL &&
        tpl_compile(nt, r, r->student, (struct tpl_out){&r->stpl, &r->nstpl},
                    m, sizeof(m)) < 0) {
        (void)snprintf(m2, sizeof(m2), "key 'student': %s", m);
        return lfail(w, m2);
    }
    return 0;
}

static int
parse_rule(struct where_ctx *w, const struct pw_nodes *nt, json_t *j,
           struct pw_rule *r)
{
    if (!json_is_object(j)) {
        return lfail(w, "each rule must be an object");
    }
    if (get_str(w, j, "code", true, &r->code) < 0) {
        return -1;
    }
    w->rule = r->code;
    if (!matches("^PW[0-9]{3}$", r->code)) {
        return lfail(w, "key 'code' must look like PW123");
    }
    if (check_keys(w, j, rule_keys, PW_N_ELEMENTS(rule_keys)) < 0 ||
        get_str(w, j, "name", true, &r->name) < 0) {
        return -1;
    }
    if (!matches("^[a-z][a-z0-9]*(-[a-z0-9]+)*$", r->name)) {
        return lfail(w, "key 'name' must be kebab-case");
    }
    if (parse_strings(w, j, r) < 0 || parse_example(w, j, r) < 0 ||
        parse_sets(w, j, r) < 0 || parse_event(w, j, r) < 0) {
        return -1;
    }
    if (r->event < 0 && parse_nodes(w, nt, j, r) < 0) {
        return -1;
    }
    if (r->event >= 0 && (json_object_get(j, "import") != NULL ||
                          json_object_get(j, "prune") != NULL)) {
        return lfail(w, "an 'event' rule takes no 'import' or 'prune'");
    }
    if (parse_import(w, nt, j, r) < 0 || parse_matchers(w, nt, j, r) < 0) {
        return -1;
    }
    return 0;
}

/* ---- files -------------------------------------------------------- */

static void
rule_free(struct pw_rule *r)
{
    free(r->code);
    free(r->name);
    free(r->summary);
    free(r->why);
    free(r->bad);
    free(r->good);
    free(r->message);
    free(r->sets_text);
    free(r->kinds);
    pw_match_cond_free(&r->where);
    pw_match_path_free(&r->import_module);
    pw_match_path_free(&r->import_names);
    for (int i = 0; i < r->ntpl; i++) {
        free(r->tpl[i].text);
        pw_match_path_free(&r->tpl[i].path);
    }
    free(r->tpl);
    for (int i = 0; i < r->nstpl; i++) {
        free(r->stpl[i].text);
        pw_match_path_free(&r->stpl[i].path);
    }
    free(r->stpl);
    free(r->student);
}

static int
check_unique(const struct where_ctx *w, const struct pw_ruleset *rs,
             const struct pw_rule *r)
{
    if (r->code == NULL || r->name == NULL) {
        return lfail(w, "rule without code or name");
    }
    for (size_t i = 0; i < rs->n; i++) {
        char m[200];
        if (strcmp(rs->rules[i].code, r->code) == 0) {
            (void)snprintf(m, sizeof(m), "duplicate code %s", r->code);
            return lfail(w, m);
        }
        if (strcmp(rs->rules[i].name, r->name) == 0) {
            (void)snprintf(m, sizeof(m), "duplicate name '%s'", r->name);
            return lfail(w, m);
        }
    }
    return 0;
}

static int
load_file(struct pw_ruleset *rs, struct pw_runtime_refs *refs,
          const char *path, struct pw_error *err)
{
    static const char *const top_keys[] = {"family", "comment", "rules"};
    struct where_ctx w = {path, NULL, err};
    json_auto_t *j = pw_json_load_file(path, err);
    if (j == NULL || pw_runtime_refs_resolve(refs, j, path, err) < 0) {
        return -1;
    }
    if (!json_is_object(j) || check_keys(&w, j, top_keys, 3) < 0) {
        return json_is_object(j) ? -1 : lfail(&w, "not a JSON object");
    }
    json_t *rules = json_object_get(j, "rules"); /* borrowed */
    if (!json_is_string(json_object_get(j, "family")) ||
        !json_is_array(rules)) {
        return lfail(&w, "needs \"family\" (string) and \"rules\" (array)");
    }
    for (size_t i = 0; i < json_array_size(rules); i++) {
        struct pw_rule r;
        memset(&r, 0, sizeof(r));
        w.rule = NULL;
        if (parse_rule(&w, rs->nt, json_array_get(rules, i), &r) < 0 ||
            check_unique(&w, rs, &r) < 0) {
            rule_free(&r);
            return -1;
        }
        rs->rules = pw_xrealloc(rs->rules, sizeof(*rs->rules) * (rs->n + 1));
        rs->rules[rs->n++] = r;
    }
    return 0;
}

static int
cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool
is_rule_file(const char *name)
{
    size_t n = strlen(name);
    return n > 5 && strcmp(name + n - 5, ".json") == 0 && name[0] != '.' &&
           strcmp(name, "profiles.json") != 0 &&
           strcmp(name, "seccomp.json") != 0 &&
           strcmp(name, "runtime.json") != 0;
}

static int
load_dir(struct pw_ruleset *rs, const char *dir, struct pw_error *err)
{
    DIR *d = opendir(dir);
    if (d == NULL) {
        return pw_fail_errno(err, PW_ERR_IO, "%s", dir);
    }
    char **names = NULL;
    size_t n = 0;
    /* readdir is thread-safe on one DIR (glibc); readdir_r is deprecated */
    /* cppcheck-suppress readdirCalled */
    for (struct dirent *e = readdir(d); e != NULL; e = readdir(d)) {
        if (is_rule_file(e->d_name)) {
            names = pw_xrealloc(names, sizeof(*names) * (n + 1));
            names[n++] = pw_xasprintf("%s/%s", dir, e->d_name);
        }
    }
    closedir(d);
    if (n > 1) {
        qsort(names, n, sizeof(*names), cmp_str);
    }
    int rc = n == 0 ? pw_fail(err, PW_ERR_INPUT, "%s: no rule files", dir) : 0;
    struct pw_runtime_refs refs = {.dir = dir};
    for (size_t i = 0; i < n; i++) {
        if (rc == 0) {
            rc = load_file(rs, &refs, names[i], err);
        }
        free(names[i]);
    }
    pw_runtime_refs_free(&refs);
    free(names);
    return rc;
}

static int
build_dispatch(struct pw_ruleset *rs, struct pw_error *err)
{
    const struct pw_nodes *nt = rs->nt;
    rs->by_kind = pw_xcalloc((size_t)nt->n, sizeof(*rs->by_kind));
    for (int e = 0; e < PW_EV_COUNT; e++) {
        rs->events[e] = -1;
    }
    for (int k = 0; k < nt->n; k++) {
        size_t m = 0;
        rs->by_kind[k] = pw_xcalloc(rs->n + 1, sizeof(int));
        for (size_t i = 0; i < rs->n; i++) {
            const struct pw_rule *r = &rs->rules[i];
            for (int j = 0; (r->sets & rs->set) && j < r->nkinds; j++) {
                if (r->kinds[j] == k) {
                    rs->by_kind[k][m++] = (int)i;
                }
            }
        }
        rs->by_kind[k][m] = -1;
    }
    for (size_t i = 0; i < rs->n; i++) {
        const struct pw_rule *r = &rs->rules[i];
        if (r->event >= 0 && (r->sets & rs->set)) {
            rs->events[r->event] = (int)i;
        }
    }
    for (int e = 0; e < PW_EV_DEPENDENCY; e++) { /* the rest are optional */
        if (rs->events[e] < 0) {
            return pw_fail(err, PW_ERR_INPUT,
                           "rules: no rule in this set handles the event "
                           "'%s'",
                           event_names[e]);
        }
    }
    return 0;
}

struct pw_ruleset *
pw_ruleset_load(const char *rules_dir, const char *name, struct pw_error *err)
{
    unsigned set = 0;
    if (strcmp(name, "default") == 0) {
        set = PW_SET_DEFAULT;
    } else if (strcmp(name, "restricted") == 0) {
        set = PW_SET_RESTRICTED;
    } else {
        pw_fail(err, PW_ERR_USAGE, "unknown rule set '%s'", name);
        return NULL;
    }
    const struct pw_nodes *nt = pw_nodes_get(err);
    if (nt == NULL) {
        return NULL;
    }
    struct pw_ruleset *rs = pw_xcalloc(1, sizeof(*rs));
    rs->nt = nt;
    rs->set = set;
    if (load_dir(rs, rules_dir, err) < 0 || build_dispatch(rs, err) < 0) {
        pw_ruleset_free(rs);
        return NULL;
    }
    return rs;
}

void
pw_ruleset_free(struct pw_ruleset *rs)
{
    if (rs == NULL) {
        return;
    }
    for (size_t i = 0; i < rs->n; i++) {
        rule_free(&rs->rules[i]);
    }
    free(rs->rules);
    for (int k = 0; rs->by_kind != NULL && k < rs->nt->n; k++) {
        free(rs->by_kind[k]);
    }
    free(rs->by_kind);
    free(rs);
}

size_t
pw_ruleset_count(const struct pw_ruleset *rs)
{
    return rs->n;
}

void
pw_ruleset_info(const struct pw_ruleset *rs, size_t i,
                struct pw_rule_info *out)
{
    const struct pw_rule *r = &rs->rules[i];
    out->code = r->code;
    out->name = r->name;
    out->summary = r->summary;
    out->why = r->why;
    out->example_bad = r->bad;
    out->example_good = r->good;
    out->sets = r->sets_text;
}
