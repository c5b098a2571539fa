/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * serve.c - `pyward serve`: set up stdio, the interpreter, the rules
 * and the zygote, then run the event loop.
 */
#include "config.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cli/cmd.h"
#include "core/log.h"
#include "core/rules.h"
#include "core/py.h"
#include "server/mcp.h"
#include "server/server.h"
#include "server/sessions.h"
#include "server/conf.h"
#include "server/events.h"
#include "server/http.h"
#include "server/listenfd.h"
#include "server/packages.h"
#include "server/tools.h"
#include "validator/blob.h"
#include "core/util.h"

/* Move the protocol to a private CLOEXEC fd and point fd 1 at stderr, so
 * that stray prints from Python or a library never reach the client. */
static int
take_stdout(void)
{
    int fd = fcntl(1, F_DUPFD_CLOEXEC, 3);
    if (fd < 0) {
        pw_die_errno("duplicating stdout");
    }
    if (dup2(2, 1) < 0) {
        pw_die_errno("pointing stdout at stderr");
    }
    if (pw_set_nonblock(fd, true) < 0) {
        pw_die_errno("making the protocol fd non-blocking");
    }
    return fd;
}

/* Load the rule set named by --rules for T; NULL after a warning. */
static struct pw_ruleset *
load_rules(const struct pw_conf *cfg, const char *rules_dir,
           struct pw_tools *t)
{
    struct pw_error err = {0};
    bool named = strcmp(cfg->rules, "default") == 0 ||
                 strcmp(cfg->rules, "restricted") == 0;
    struct pw_ruleset *rs = named
                                ? pw_ruleset_load(rules_dir, cfg->rules, &err)
                                : pw_ruleset_load(cfg->rules, "default", &err);
    if (rs == NULL) {
        pw_errorf("rules '%s': %s", cfg->rules, err.message);
        snprintf(t->rules_error, sizeof(t->rules_error), "%s", err.message);
    }
    t->rules_name = cfg->rules;
    return rs;
}

/* Where an enabled profile brings third-party packages (data_science's
 * numpy, pandas, matplotlib...), the zygote that loads them costs every
 * run its size in the fork and the exit: a second zygote of the light
 * profiles alone takes the runs that import none of those (tools.c,
 * validate_routed).  Without it, every run goes to the full one.  It
 * takes the host facts the full one probed (pw_zygote_new_beside). */
static void
start_light_zygote(const struct pw_profiles *profiles, struct pw_tools *t)
{
    pw_profile_mask light = pw_profiles_light_mask(profiles, t->enabled);
    if (t->zygote == NULL || light == 0 || light == t->enabled) {
        return;
    }
    struct pw_error err = {0};
    t->zygote_light = pw_zygote_new_beside(t->zygote, profiles, light, &err);
    if (t->zygote_light == NULL) {
        pw_warn("no light zygote, every run forks from the full one: %s",
                err.message);
        return;
    }
    t->light_mask = light;
    pw_zygote_set_compiler(t->zygote_light, pw_blob_compile);
}

static struct pw_zygote *
start_zygote(const struct pw_profiles *profiles, struct pw_tools *t)
{
    struct pw_error err = {0};
    /* The profiles' modules are imported by the zygote process while the
     * server answers: initialize is not held up by seconds of imports,
     * and runs wait for them (doc/MCP.md, "Start-up"). */
    struct pw_zygote *z = pw_zygote_new_warming(profiles, t->enabled, &err);
    if (z == NULL) {
        pw_warn("sandbox unavailable, execute_code will refuse: %s",
                err.message);
        snprintf(t->zygote_error, sizeof(t->zygote_error), "%s", err.message);
    } else {
        /* Small programs are compiled in C where the validator's parser
         * can take them (validator/blob.c), by the guard elsewhere. */
        pw_zygote_set_compiler(z, pw_blob_compile);
    }
    return z;
}

/* Serve on stdio, or on HTTP with --http. */
static int
run_server(const struct pw_conf *cfg, int proto_fd, struct pw_tools *t)
{
    struct pw_error err = {0};
    struct pw_server *s = pw_server_new(proto_fd, t, cfg->max_concurrency);
    struct pw_mcp mcp;
    pw_mcp_init(&mcp, s, t);
    struct pw_http *h = NULL;
    if (cfg->http != NULL && (h = pw_http_new(cfg, s, t, &err)) == NULL) {
        pw_errorf("%s", err.message);
        pw_server_free(s);
        return 2;
    }
    pw_log(PW_LOG_INFO, "serving MCP on %s (%d runs at once)",
           h != NULL ? "HTTP" : "stdio", cfg->max_concurrency);
    int rc = pw_server_run(s);
    pw_http_free(h);
    pw_server_free(s);
    return rc;
}

static struct pw_sessions *
new_sessions(const struct pw_conf *cfg, struct pw_error *err)
{
    struct pw_session_limits lim = {
        .ttl_s = cfg->session_ttl_s,
        .lifetime_s = cfg->session_lifetime_s,
        .max_total = cfg->max_sessions,
        .max_per_owner = cfg->max_sessions_per_owner,
    };
    return pw_sessions_new(&lim, cfg->instance_id, err);
}

static int
serve(const struct pw_conf *cfg, int proto_fd)
{
    struct pw_error err = {0};
    /* stdio has one client: the connection owns every session. */
    struct pw_tools t = {.cfg = cfg, .owner = PW_OWNER_STDIO};
    PW_AUTOFREE char *rules_dir = pw_rules_dir(NULL);
    struct pw_profiles *profiles = pw_profiles_load(rules_dir, &err);
    if (profiles == NULL || pw_py_init(&err) < 0 ||
        pw_packages_attach(profiles, cfg->packages, cfg->packages_preload,
                           &err) < 0 ||
        pw_conf_profile_mask(cfg, profiles, &t.enabled, &err) < 0) {
        pw_errorf("%s", err.message);
        pw_profiles_free(profiles);
        return 2;
    }
    /* A package set's own profile is the server's whatever the profile
     * list (runs have it when they ask for it). */
    t.enabled |= pw_profiles_on_request_mask(profiles);
    t.profiles = profiles;
    struct pw_ruleset *rs = load_rules(cfg, rules_dir, &t);
    t.rules = rs;
    /* Last: it scrubs the environment. */
    t.zygote = rs != NULL ? start_zygote(profiles, &t) : NULL;
    start_light_zygote(profiles, &t);
    int rc = 2;
    if (rs == NULL) {
        pw_errorf("cannot serve without rules");
    } else if (pw_tools_init(&t, &err) < 0 ||
               pw_tools_start_vprocs(&t, &err) < 0 ||
               (cfg->max_sessions > 0 &&
                (t.sessions = new_sessions(cfg, &err)) == NULL)) {
        pw_errorf("%s", err.message);
    } else {
        rc = run_server(cfg, proto_fd, &t);
    }
    /* Before the zygote: reaped with it.  NULL with --max-sessions 0. */
    pw_sessions_free(t.sessions);
    pw_tools_free(&t);
    pw_zygote_free(t.zygote_light);
    pw_zygote_free(t.zygote);
    pw_ruleset_free(rs);
    pw_profiles_free(profiles);
    return rc;
}

int
pw_cmd_serve(int argc, char **argv)
{
    struct pw_conf cfg;
    struct pw_error err = {0};
    int rc = pw_conf_load(&cfg, argc, argv, &err);
    if (rc != 0) {
        if (rc < 0) {
            fprintf(stderr, "pyward serve: %s\n", err.message);
        }
        pw_conf_free(&cfg);
        return rc < 0 ? 2 : 0;
    }
    pw_log_set_level((enum pw_log_level)cfg.log_level);
    /* With --http, a socket systemd passed is served instead of binding
     * HOST:PORT (read before the zygote scrubs the environment). */
    if (cfg.http != NULL && (cfg.listen_fd = pw_listen_fd_take(&err)) < 0) {
        fprintf(stderr, "pyward serve: %s\n", err.message);
        pw_conf_free(&cfg);
        return 2;
    }
    /* The event log, while $JOURNAL_STREAM is there to read. */
    if (pw_events_open(cfg.event_log, cfg.log_code, &err) < 0) {
        fprintf(stderr, "pyward serve: %s\n", err.message);
        pw_conf_free(&cfg);
        return 2;
    }
    pw_log(PW_LOG_INFO, "security events: %s", pw_events_where());
    int proto_fd = take_stdout();
    rc = serve(&cfg, proto_fd);
    pw_events_close();
    pw_conf_free(&cfg);
    (void)close(proto_fd);
    return rc;
}
