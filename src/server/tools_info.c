/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * tools_info.c - the tools' start-up state: get_sandbox_info's description
 * (pyward's fields and the python sandbox server's security_profiles,
 * resource_limits and container_mode), the active isolation layers, and
 * the operator's modules beyond the profiles'.
 *
 * Defines pw_tools_init and pw_tools_free (the other pw_tools_* are in
 * tools.c and tools_schema.c).
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "core/log.h"
#include "core/py.h"
#include "core/util.h"
#include "server/packages.h"
#include "server/session_tool.h"
#include "server/tools.h"

/* True if some pattern of LIST matches NAME. */
static bool
listed(const char *const *list, const char *name)
{
    for (size_t i = 0; list != NULL && list[i] != NULL; i++) {
        if (pw_module_matches(list[i], name)) {
            return true;
        }
    }
    return false;
}

/* New reference: the capability words of CAPS. */
static json_t *
allows_json(unsigned caps)
{
    json_t *list = json_array();
    for (unsigned bit = 1; bit != 0 && bit <= caps; bit <<= 1) {
        const char *word = (caps & bit) ? pw_cap_word(bit) : NULL;
        if (word != NULL) {
            json_array_append_new(list, json_string(word));
        }
    }
    return list;
}

/* New reference: the modules of profile P importable here (and, under
 * SANDBOX_ALLOWED_IMPORTS, listed by the operator). */
static json_t *
modules_json(const struct pw_tools *t, const struct pw_profile *p)
{
    const char *const *only = (const char *const *)t->cfg->only_imports;
    json_t *mods = json_array();
    for (size_t m = 0; mods != NULL && m < p->nmodules; m++) {
        if ((only == NULL || listed(only, p->modules[m])) &&
            pw_py_module_findable(p->modules[m]) &&
            json_array_append_new(mods, json_string(p->modules[m])) < 0) {
            json_decref(mods);
            mods = NULL;
        }
    }
    return mods;
}

/* New reference: the python sandbox contract's security_profiles:
 * {NAME: {enabled, modules}} for every profile. */
static json_t *
security_profiles_json(const struct pw_tools *t)
{
    json_auto_t *out = json_object();
    for (size_t i = 0; i < t->profiles->n; i++) {
        const struct pw_profile *p = &t->profiles->v[i];
        bool on = (t->enabled & ((pw_profile_mask)1 << i)) != 0;
        if (json_object_set_new(out, p->name,
                                json_pack("{s:b,s:o}", "enabled", on,
                                          "modules", modules_json(t, p))) <
            0) {
            return NULL;
        }
    }
    return pw_steal(&out);
}

/* "128m" for a size in whole MiB, else the number of bytes. */
static json_t *
size_text(long long n)
{
    char buf[32];
    if (n % (1LL << 30) == 0) {
        snprintf(buf, sizeof(buf), "%lldg", n >> 30);
    } else if (n % (1LL << 20) == 0) {
        snprintf(buf, sizeof(buf), "%lldm", n >> 20);
    } else {
        snprintf(buf, sizeof(buf), "%lld", n);
    }
    return json_string(buf);
}

/* New reference: a NULL-terminated list as JSON, or null. */
static json_t *
list_json(char **list)
{
    if (list == NULL) {
        return json_null();
    }
    json_t *out = json_array();
    for (size_t i = 0; list[i] != NULL; i++) {
        json_array_append_new(out, json_string(list[i]));
    }
    return out;
}

static const char *const container_layers[] = {
    "user_namespace", "pid_namespace", "mount_namespace", "network_namespace"};

/* From the zygote's ISOLATION report: the active layers' names, and
 * whether the namespaces a container would give are all active. */
static void
layers_summary(struct pw_tools *t, json_t *isolation)
{
    const char *key;
    json_t *v; /* borrowed */
    t->layers = json_array();
    json_object_foreach(isolation, key, v) {
        if (json_is_true(json_object_get(v, "active"))) {
            json_array_append_new(t->layers, json_string(key));
        }
    }
    size_t len = 0;
    t->container_missing[0] = '\0';
    for (size_t i = 0; i < PW_N_ELEMENTS(container_layers); i++) {
        json_t *l = json_object_get(isolation, container_layers[i]);
        if (!json_is_true(json_object_get(l, "active")) &&
            len < sizeof(t->container_missing)) {
            len += (size_t)snprintf(t->container_missing + len,
                                    sizeof(t->container_missing) - len, "%s%s",
                                    len > 0 ? ", " : "", container_layers[i]);
        }
    }
    t->container_available = t->zygote != NULL && len == 0;
}

/* The modules the operator trusts beyond the profiles': those added
 * (PYWARD_ALLOWED_IMPORTS) and those SANDBOX_ALLOWED_IMPORTS lists, which
 * narrows every call to them (narrow_to_operator). */
static void
operator_extra(struct pw_tools *t)
{
    char **lists[] = {t->cfg->allowed_imports, t->cfg->only_imports};
    size_t n = 0;
    for (size_t l = 0; l < PW_N_ELEMENTS(lists); l++) {
        for (size_t i = 0; lists[l] != NULL && lists[l][i] != NULL; i++) {
            n++;
        }
    }
    t->extra = pw_xcalloc(n + 1, sizeof(char *));
    n = 0;
    for (size_t l = 0; l < PW_N_ELEMENTS(lists); l++) {
        for (size_t i = 0; lists[l] != NULL && lists[l][i] != NULL; i++) {
            t->extra[n++] = lists[l][i];
        }
    }
}

/* Add the python sandbox contract's fields to the info object. */
static int
contract_info(struct pw_tools *t)
{
    const struct pw_conf *cfg = t->cfg;
    json_t *fields = json_pack(
        "{s:b,s:o,s:{s:f,s:I,s:o},s:{s:b,s:b,s:o,s:b},s:{s:o,s:o}}", "success",
        1, "security_profiles", json_null(), "resource_limits", "timeout",
        cfg->timeout_s, "max_output_size", (json_int_t)cfg->max_output,
        "memory_limit", size_text(cfg->memory), "container_mode", "available",
        t->container_available, "enabled", cfg->container_mode, "image",
        cfg->container_image != NULL ? json_string(cfg->container_image)
                                     : json_null(),
        "image_used", 0, "allowed_imports", "only",
        list_json(cfg->only_imports), "added",
        list_json(cfg->allowed_imports));
    int rc = fields != NULL ? json_object_update(t->info, fields) : -1;
    json_decref(fields);
    return rc;
}

/* New reference: [{name, summary, default, modules, allows}] of enabled
 * profiles, each listing the modules actually importable on this host. */
static json_t *
profiles_json(const struct pw_tools *t)
{
    json_auto_t *list = json_array();
    for (size_t i = 0; i < t->profiles->n; i++) {
        const struct pw_profile *p = &t->profiles->v[i];
        if ((t->enabled & ((pw_profile_mask)1 << i)) == 0) {
            continue;
        }
        json_t *mods = modules_json(t, p);
        if (json_array_append_new(
                list, json_pack("{s:s,s:s,s:b,s:o,s:o}", "name", p->name,
                                "summary", p->summary ? p->summary : "",
                                "default", p->is_default, "modules", mods,
                                "allows", allows_json(p->caps))) < 0) {
            return NULL;
        }
    }
    return pw_steal(&list);
}

static json_t *
limits_json(const struct pw_conf *cfg)
{
    return json_pack(
        "{s:{s:f,s:f},s:{s:I,s:I},s:I,s:I,s:i}", "timeout", "default",
        cfg->timeout_s, "max", cfg->max_timeout_s, "memory_bytes", "default",
        (json_int_t)cfg->memory, "max", (json_int_t)cfg->max_memory,
        "max_output_bytes", (json_int_t)cfg->max_output, "max_code_bytes",
        (json_int_t)cfg->max_code, "max_concurrency", cfg->max_concurrency);
}

int
pw_tools_init(struct pw_tools *t, struct pw_error *err)
{
    json_t *layers =
        t->zygote != NULL ? pw_zygote_layers_json(t->zygote) : json_object();
    t->info = json_pack("{s:s,s:s,s:s,s:o,s:o,s:b,s:b,s:o}", "version",
                        PACKAGE_VERSION, "python_version", pw_py_version(),
                        "rules", t->rules_name, "profiles", json_null(),
                        "limits", limits_json(t->cfg), "sandbox_available",
                        t->zygote != NULL, "validator_available",
                        t->rules != NULL, "isolation", layers);
    if (t->info != NULL) {
        (void)json_object_set_new(t->info, "package_sets",
                                  pw_packages_json(t->profiles));
    }
    /* NULL: out of memory ("profiles" is filled by pw_tools_info). */
    operator_extra(t);
    (void)pw_compat_parse(t->cfg->compat, &t->compat); /* conf.c checked it */
    if (t->info != NULL) {
        layers_summary(t, json_object_get(t->info, "isolation"));
    }
    if (t->info == NULL || contract_info(t) < 0) {
        return pw_fail(err, PW_ERR_INTERNAL,
                       "building the sandbox description");
    }
    /* -1: the error text was cut inside a character. */
    if (t->zygote == NULL &&
        json_object_set_new(t->info, "sandbox_error",
                            json_string(t->zygote_error)) < 0) {
        return pw_fail(err, PW_ERR_INTERNAL,
                       "building the sandbox description");
    }
    return 0;
}

json_t *
pw_tools_info(struct pw_tools *t)
{
    /* Looking the profiles' modules up reads the directories of
     * sys.path (tens of milliseconds with data_science): done when the
     * description is first asked for, not before the server answers
     * ("profiles" is null until then). */
    if (json_is_null(json_object_get(t->info, "profiles"))) {
        json_t *profiles = profiles_json(t);
        json_t *contract = security_profiles_json(t);
        (void)json_object_set_new(t->info, "profiles",
                                  profiles != NULL ? profiles : json_array());
        (void)json_object_set_new(t->info, "security_profiles",
                                  contract != NULL ? contract : json_object());
    }
    struct pw_zygote *z = t->zygote;
    if (z == NULL || t->info_current || pw_zygote_warming(z)) {
        return t->info;
    }
    /* Warm now (or failed to be): the modules found missing, the base of
     * the memory limit, or why runs are refused. */
    t->info_current = true;
    json_t *layers = pw_zygote_layers_json(z);
    if (layers != NULL) {
        (void)json_object_set_new(t->info, "isolation", layers);
    }
    const char *why = pw_zygote_error(z);
    if (why != NULL) {
        (void)json_object_set_new(t->info, "sandbox_available", json_false());
        (void)json_object_set_new(t->info, "sandbox_error", json_string(why));
    }
    return t->info;
}

/* A program compiled for runs as the zygote compiles it (in a validator
 * process: pw_vproc_compile_fn). */
static char *
vproc_compile(void *ctx, const char *code, size_t len, unsigned caps,
              size_t *out_len)
{
    return pw_zygote_compile(ctx, code, len, caps, out_len);
}

int
pw_tools_start_vprocs(struct pw_tools *t, struct pw_error *err)
{
    if (t->rules == NULL && !t->cfg->skip_validation) {
        return 0; /* nothing to validate (under --skip-validation the
                   * processes compile, no rules needed) */
    }
    for (size_t i = 0; i < PW_TOOLS_VPROCS; i++) {
        t->vprocs[i] = pw_vproc_new(
            t->rules, t->profiles, (const char *const *)t->extra,
            t->zygote != NULL ? vproc_compile : NULL, t->zygote, err);
        if (t->vprocs[i] == NULL) {
            return -1;
        }
    }
    return 0;
}

void
pw_tools_vproc_pollfds(const struct pw_tools *t, struct pollfd *fds)
{
    for (size_t i = 0; i < PW_TOOLS_VPROCS; i++) {
        fds[i] = t->vprocs[i] != NULL ? pw_vproc_pollfd(t->vprocs[i])
                                      : (struct pollfd){-1, 0, 0};
    }
}

void
pw_tools_vproc_step(struct pw_tools *t, const struct pollfd *fds)
{
    for (size_t i = 0; i < PW_TOOLS_VPROCS; i++) {
        if (t->vprocs[i] != NULL && fds[i].fd >= 0 && fds[i].revents != 0) {
            pw_vproc_step(t->vprocs[i], fds[i].revents);
        }
    }
}

size_t
pw_tools_checks_pending(const struct pw_tools *t)
{
    size_t n = 0;
    for (size_t i = 0; i < PW_TOOLS_VPROCS; i++) {
        n += t->vprocs[i] != NULL ? pw_vproc_pending(t->vprocs[i]) : 0;
    }
    return n;
}

void
pw_tools_free(struct pw_tools *t)
{
    for (size_t i = 0; i < PW_TOOLS_VPROCS; i++) {
        pw_vproc_free(t->vprocs[i]);
        t->vprocs[i] = NULL;
    }
    /* A copy still under way: its session was freed with the sessions
     * (which ends it), so its step now frees it. */
    for (size_t i = 0; i < PW_TOOLS_FORKS; i++) {
        json_t *result = NULL;
        if (t->forks[i].sf != NULL &&
            pw_session_fork_step(t->forks[i].sf, NULL, 0, false, &result)) {
            t->forks[i].sf = NULL;
        }
    }
    /* The file calls under way: fds closed, temporary files removed. */
    while (t->files != NULL) {
        struct pw_tools_file *f = t->files;
        t->files = f->next;
        pw_session_file_free(f->sf);
        free(f);
    }
    json_decref(t->info);
    json_decref(t->layers);
    free(t->extra);
    t->extra = NULL;
    t->info = NULL;
    t->layers = NULL;
}

/* ", "-joined strings of the JSON list L into B. */
static void
join_text(struct pw_buf *b, json_t *l)
{
    size_t i;
    json_t *v; /* borrowed */
    json_array_foreach(l, i, v) {
        pw_buf_printf(b, "%s%s", i > 0 ? ", " : "", json_string_value(v));
    }
    if (json_array_size(l) == 0) {
        pw_buf_printf(b, "(none)");
    }
}

/* "128 MiB" or "N bytes" for a size in bytes. */
static void
size_words(struct pw_buf *b, json_t *v)
{
    long long n = (long long)json_integer_value(v);
    if (n > 0 && n % (1LL << 20) == 0) {
        pw_buf_printf(b, "%lld MiB", n >> 20);
    } else {
        pw_buf_printf(b, "%lld bytes", n);
    }
}

void
pw_tools_info_text(struct pw_tools *t, struct pw_buf *b)
{
    json_t *info = pw_tools_info(t); /* borrowed */
    bool up = json_is_true(json_object_get(info, "sandbox_available"));
    pw_buf_printf(
        b, "pyward %s, Python %s; sandbox %s%s\n", PACKAGE_VERSION,
        pw_py_version(), up ? "available" : "UNAVAILABLE",
        up && pw_zygote_warming(t->zygote)
            ? " (importing the profiles' modules: runs that need them wait)"
            : "");
    const char *why =
        json_string_value(json_object_get(info, "sandbox_error"));
    if (why != NULL) {
        pw_buf_printf(b, "Why: %s\n", why);
    }
    pw_buf_printf(b, "Profiles enabled here (a call's 'profile' picks among "
                     "them; without it, all of them):\n");
    size_t i;
    json_t *p; /* borrowed */
    json_array_foreach(json_object_get(info, "profiles"), i, p) {
        pw_buf_printf(
            b, "- %s%s: %s\n  modules: ",
            json_string_value(json_object_get(p, "name")),
            json_is_true(json_object_get(p, "default")) ? " (default)" : "",
            json_string_value(json_object_get(p, "summary")));
        join_text(b, json_object_get(p, "modules"));
        json_t *allows = json_object_get(p, "allows"); /* borrowed */
        if (json_array_size(allows) > 0) {
            pw_buf_printf(b, "\n  allows: ");
            join_text(b, allows);
        }
        pw_buf_printf(b, "\n");
    }
    json_t *only = json_object_get(json_object_get(info, "allowed_imports"),
                                   "only"); /* borrowed */
    if (json_is_array(only)) {
        pw_buf_printf(b, "Imports narrowed by the operator to: ");
        join_text(b, only);
        pw_buf_printf(b, "\n");
    }
    const char *off = NULL;
    for (size_t k = 0; k < t->profiles->n && off == NULL; k++) {
        const struct pw_profile *q = &t->profiles->v[k];
        if ((q->caps & PW_CAP_NETWORK) &&
            (t->enabled & ((pw_profile_mask)1 << k)) == 0) {
            off = q->name;
        }
    }
    if (off != NULL) {
        pw_buf_printf(b,
                      "The network is off: the '%s' profile, which turns it "
                      "on, is not enabled (pyward serve --profiles "
                      "basic,%s or SANDBOX_ENABLE_NETWORK=1).\n",
                      off, off);
    }
    json_t *l = json_object_get(info, "limits"); /* borrowed */
    json_t *tm = json_object_get(l, "timeout");
    json_t *mem = json_object_get(l, "memory_bytes");
    pw_buf_printf(b,
                  "Limits: timeout %g s (a call may ask up to %g s), "
                  "memory ",
                  json_number_value(json_object_get(tm, "default")),
                  json_number_value(json_object_get(tm, "max")));
    size_words(b, json_object_get(mem, "default"));
    pw_buf_printf(b, " (up to ");
    size_words(b, json_object_get(mem, "max"));
    pw_buf_printf(b, "), output ");
    size_words(b, json_object_get(l, "max_output_bytes"));
    pw_buf_printf(b, " a stream, code ");
    size_words(b, json_object_get(l, "max_code_bytes"));
    pw_buf_printf(
        b, ", %lld runs at once\n",
        (long long)json_integer_value(json_object_get(l, "max_concurrency")));
    pw_buf_printf(b, "Isolation layers active: ");
    join_text(b, t->layers);
    pw_buf_printf(b, "\n");
}
