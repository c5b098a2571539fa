/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * doctor.c - `pyward doctor`: each isolation layer, whether it works
 * on this host and why not; ends with a real sandboxed run as self-test.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cmd.h"
#include "core/rules.h"
#include "core/py.h"
#include "grade/queue.h"
#include "sandbox/run/folios.h"
#include "sandbox/sandbox.h"
#include "core/util.h"
#include "server/events.h"
#include "server/mhd.h"
#include "server/packages.h"

static json_t *
self_test(struct pw_zygote *z, struct pw_profiles *profiles,
          pw_profile_mask mask)
{
    static const char code[] = "print(sum(range(10)))\n";
    struct pw_importset set = {.profiles = profiles, .mask = mask};
    struct pw_sbx_request req = {.code = code,
                                 .code_len = sizeof(code) - 1,
                                 .limits = {.timeout_s = 10},
                                 .imports = &set,
                                 .capture_output = true};
    json_t *res = NULL;
    struct pw_error err = {0};
    if (pw_queue_run_json(z, &req, &res, &err) < 0) {
        return json_pack("{s:b,s:s}", "active", 0, "detail", err.message);
    }
    const char *out = json_string_value(json_object_get(res, "stdout"));
    bool ok = out != NULL && strcmp(out, "45\n") == 0;
    char detail[128];
    snprintf(detail, sizeof(detail), "print(sum(range(10))) -> %s in %.1f ms",
             ok ? "45" : "WRONG",
             json_real_value(json_object_get(res, "execution_time")) * 1e3);
    json_decref(res);
    return json_pack("{s:b,s:s}", "active", ok, "detail", detail);
}

/* New reference: whether `serve --http` can load its HTTP library (no
 * other command loads it, so a host without it still runs and checks). */
static json_t *
http_listener(void)
{
    struct pw_error err = {0};
    if (pw_mhd_load(&err) < 0) {
        return json_pack("{s:b,s:s}", "active", 0, "detail", err.message);
    }
    PW_AUTOFREE char *t = pw_xasprintf(
        "%s loads (serve --http; no other command maps it)", PW_MHD_SONAME);
    return json_pack("{s:b,s:s}", "active", 1, "detail", t);
}

/* New reference: whether a server's zygote moves its memory into large
 * folios (cheaper forks and exits, doc/DEPLOY.md). */
static json_t *
large_folios(void)
{
    char why[200];
    bool on = pw_sbx_folios_available(why, sizeof(why));
    PW_AUTOFREE char *t =
        on ? pw_xasprintf("%s: a server's zygotes move their memory into "
                          "them once warm",
                          why)
           : pw_xstrdup(why);
    return json_pack("{s:b,s:s}", "active", on, "detail", t);
}

/* New reference: a run's default limits as every command applies them
 * (rules/seccomp.json "defaults"). */
static json_t *
defaults_text(const char *rules_dir)
{
    struct pw_sbx_limits d;
    struct pw_error err = {0};
    if (pw_sbx_defaults_load(rules_dir, &d, &err) < 0) {
        return json_string(err.message);
    }
    PW_AUTOFREE char *t = pw_xasprintf(
        "timeout %g s, memory %lld MiB, output %lld KiB per stream "
        "(seccomp.json)",
        d.timeout_s, d.memory_bytes >> 20, d.max_output_bytes >> 10);
    return json_string(t);
}

static void
print_text(json_t *layers)
{
    const char *name;
    json_t *v;
    json_object_foreach(layers, name, v) {
        if (!json_is_object(v)) {
            printf("%-20s %s\n", name, json_string_value(v));
            continue;
        }
        bool on = json_is_true(json_object_get(v, "active"));
        printf("%-20s %-4s %s\n", name, on ? "yes" : "no",
               json_string_value(json_object_get(v, "detail")));
    }
}

int
pw_cmd_doctor(int argc, char **argv)
{
    bool as_json = false;
    for (int i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--json") == 0) {
            as_json = true;
        } else {
            fprintf(stderr, "usage: pyward doctor [--json]\n");
            return strcmp(argv[i], "--help") == 0 ? 0 : 2;
        }
    }
    /* Where `serve` would send its security events (read before the
     * zygote scrubs the environment). */
    char events[300];
    pw_events_describe(getenv("PYWARD_EVENT_LOG"), events, sizeof(events));
    /* The package sets, while $PYWARD_STATE_DIR is there to read. */
    json_auto_t *sets = pw_packages_describe();
    struct pw_error err = {0};
    PW_AUTOFREE char *rules_dir = pw_rules_dir(NULL);
    struct pw_profiles *profiles = pw_profiles_load(rules_dir, &err);
    struct pw_zygote *z = NULL;
    if (profiles != NULL) {
        z = pw_zygote_new(profiles, pw_profiles_default_mask(profiles), &err);
    }
    if (z == NULL) {
        fprintf(stderr, "pyward: doctor: the sandbox cannot work here: %s\n",
                err.message);
        pw_profiles_free(profiles);
        return 2;
    }
    json_auto_t *layers = pw_zygote_layers_json(z);
    if (layers != NULL) {
        json_object_set_new(
            layers, "self_test",
            self_test(z, profiles, pw_profiles_default_mask(profiles)));
        json_object_set_new(layers, "http_listener", http_listener());
        json_object_set_new(layers, "large_folios", large_folios());
        json_object_set_new(layers, "python", json_string(pw_py_version()));
        json_object_set_new(layers, "pyward", json_string(PACKAGE_VERSION));
        json_object_set_new(layers, "rules", json_string(rules_dir));
        json_object_set_new(layers, "defaults", defaults_text(rules_dir));
        json_object_set_new(layers, "events", json_string(events));
        json_object_set_new(layers, "package_sets", json_incref(sets));
    }
    if (layers != NULL && as_json) {
        json_dumpf(layers, stdout, JSON_INDENT(2));
        fputc('\n', stdout);
    } else if (layers != NULL) {
        print_text(layers);
    }
    bool ok =
        layers != NULL && json_is_true(json_object_get(
                              json_object_get(layers, "self_test"), "active"));
    pw_zygote_free(z);
    pw_profiles_free(profiles);
    return ok ? 0 : 1;
}
