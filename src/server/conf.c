/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * conf.c - `pyward serve` options, one table for flags and environment.
 *
 * Defines pw_conf_* (named conf.c: a config.h here would shadow the
 * build's).
 */
#include "config.h"

#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "core/log.h"
#include "core/rules.h"
#include "sandbox/sandbox.h"
#include "server/compat.h"
#include "server/conf.h"
#include "core/util.h"

enum opt_kind {
    OPT_SECONDS,
    OPT_SIZE,
    OPT_COUNT,
    OPT_COUNT0, /* a count that may be 0 */
    OPT_STRING,
    OPT_LOGLEVEL,
    OPT_BOOL,
    OPT_LIST,
    OPT_LIST_ADD, /* each value's items added to the list: repeatable */
};

static const struct option_entry {
    const char *flag;          /* long option, or NULL: environment only */
    const char *env;           /* PYWARD_* name, or NULL */
    const char *env_compat[2]; /* SANDBOX_* names, or NULL */
    enum opt_kind kind;
    size_t offset;
    const char *help;
} options[] = {
    {"timeout",
     "PYWARD_TIMEOUT",
     {"SANDBOX_TIMEOUT", "SANDBOX_DEFAULT_TIMEOUT"},
     OPT_SECONDS,
     offsetof(struct pw_conf, timeout_s),
     "default run timeout (s)"},
    {"max-timeout",
     "PYWARD_MAX_TIMEOUT",
     {"SANDBOX_MAX_TIMEOUT", NULL},
     OPT_SECONDS,
     offsetof(struct pw_conf, max_timeout_s),
     "largest timeout (s)"},
    {"max-output",
     "PYWARD_MAX_OUTPUT_SIZE",
     {"SANDBOX_MAX_OUTPUT_SIZE", NULL},
     OPT_SIZE,
     offsetof(struct pw_conf, max_output),
     "bytes kept per output stream"},
    {"memory",
     "PYWARD_DEFAULT_MEMORY_LIMIT",
     {"SANDBOX_DEFAULT_MEMORY_LIMIT", NULL},
     OPT_SIZE,
     offsetof(struct pw_conf, memory),
     "default memory limit"},
    {"max-memory",
     "PYWARD_MAX_MEMORY",
     {NULL, NULL},
     OPT_SIZE,
     offsetof(struct pw_conf, max_memory),
     "largest memory limit"},
    {"profiles",
     "PYWARD_PROFILES",
     {NULL, NULL},
     OPT_STRING,
     offsetof(struct pw_conf, profiles),
     "profiles clients may use"},
    {"rules",
     "PYWARD_RULES",
     {NULL, NULL},
     OPT_STRING,
     offsetof(struct pw_conf, rules),
     "default|restricted|DIR"},
    {"max-concurrency",
     "PYWARD_MAX_CONCURRENCY",
     {NULL, NULL},
     OPT_COUNT,
     offsetof(struct pw_conf, max_concurrency),
     "runs in flight"},
    {"session-ttl",
     "PYWARD_SESSION_TTL",
     {NULL, NULL},
     OPT_SECONDS,
     offsetof(struct pw_conf, session_ttl_s),
     "idle session expiry (s)"},
    {"session-lifetime",
     "PYWARD_SESSION_LIFETIME",
     {NULL, NULL},
     OPT_SECONDS,
     offsetof(struct pw_conf, session_lifetime_s),
     "longest session life (s)"},
    {"max-sessions",
     "PYWARD_MAX_SESSIONS",
     {NULL, NULL},
     OPT_COUNT0,
     offsetof(struct pw_conf, max_sessions),
     "sessions on this server (0: none)"},
    {"max-sessions-per-client",
     "PYWARD_MAX_SESSIONS_PER_CLIENT",
     {NULL, NULL},
     OPT_COUNT,
     offsetof(struct pw_conf, max_sessions_per_owner),
     "sessions per client"},
    {"instance-id",
     "PYWARD_INSTANCE_ID",
     {NULL, NULL},
     OPT_STRING,
     offsetof(struct pw_conf, instance_id),
     "prefix of session ids"},
    {"compat",
     "PYWARD_COMPAT",
     {NULL, NULL},
     OPT_STRING,
     offsetof(struct pw_conf, compat),
     "another server's tool set"},
    {"http",
     "PYWARD_HTTP",
     {NULL, NULL},
     OPT_STRING,
     offsetof(struct pw_conf, http),
     "serve HTTP on HOST:PORT"},
    {"auth-token-file",
     "PYWARD_AUTH_TOKEN_FILE",
     {NULL, NULL},
     OPT_STRING,
     offsetof(struct pw_conf, auth_token_file),
     "bearer tokens, one a line"},
    {"allow-origin",
     "PYWARD_ALLOW_ORIGIN",
     {NULL, NULL},
     OPT_LIST,
     offsetof(struct pw_conf, allow_origins),
     "Origins allowed (comma list)"},
    {"cors-origin",
     "PYWARD_CORS_ORIGIN",
     {NULL, NULL},
     OPT_LIST_ADD,
     offsetof(struct pw_conf, cors_origins),
     "browser Origin answered with CORS (repeatable)"},
    {"allow-host",
     "PYWARD_ALLOW_HOST",
     {NULL, NULL},
     OPT_LIST,
     offsetof(struct pw_conf, allow_hosts),
     "Host names allowed (comma list)"},
    {"packages",
     "PYWARD_PACKAGES",
     {"SANDBOX_PACKAGES", NULL},
     OPT_LIST_ADD,
     offsetof(struct pw_conf, packages),
     "package sets runs see: NAME[:PROFILE]"},
    {"packages-preload",
     "PYWARD_PACKAGES_PRELOAD",
     {NULL, NULL},
     OPT_LIST_ADD,
     offsetof(struct pw_conf, packages_preload),
     "their modules the zygote imports"},
    {"tls-cert",
     "PYWARD_TLS_CERT",
     {NULL, NULL},
     OPT_STRING,
     offsetof(struct pw_conf, tls_cert),
     "PEM certificate (HTTPS)"},
    {"tls-key",
     "PYWARD_TLS_KEY",
     {NULL, NULL},
     OPT_STRING,
     offsetof(struct pw_conf, tls_key),
     "PEM private key (HTTPS)"},
    {"grace",
     "PYWARD_GRACE",
     {NULL, NULL},
     OPT_SECONDS,
     offsetof(struct pw_conf, grace_s),
     "SIGTERM: runs may finish (s)"},
    {"max-connections",
     "PYWARD_MAX_CONNECTIONS",
     {NULL, NULL},
     OPT_COUNT,
     offsetof(struct pw_conf, max_connections),
     "HTTP requests at once"},
    {"max-connections-per-address",
     "PYWARD_MAX_CONNECTIONS_PER_ADDRESS",
     {NULL, NULL},
     OPT_COUNT,
     offsetof(struct pw_conf, max_per_address),
     "of them, from one address"},
    {"max-queued",
     "PYWARD_MAX_QUEUED",
     {NULL, NULL},
     OPT_COUNT,
     offsetof(struct pw_conf, max_queued),
     "runs waiting (HTTP)"},
    {"max-body",
     "PYWARD_MAX_BODY",
     {NULL, NULL},
     OPT_SIZE,
     offsetof(struct pw_conf, max_body),
     "largest HTTP request body"},
    {"request-timeout",
     "PYWARD_REQUEST_TIMEOUT",
     {NULL, NULL},
     OPT_SECONDS,
     offsetof(struct pw_conf, request_timeout_s),
     "HTTP headers and body in (s)"},
    {"idle-timeout",
     "PYWARD_IDLE_TIMEOUT",
     {NULL, NULL},
     OPT_SECONDS,
     offsetof(struct pw_conf, idle_timeout_s),
     "HTTP connection idle (s)"},
    {"skip-validation",
     NULL,
     {NULL, NULL},
     OPT_BOOL,
     offsetof(struct pw_conf, skip_validation),
     "no static rules (testing)"},
    {"jobe",
     "PYWARD_JOBE",
     {NULL, NULL},
     OPT_BOOL,
     offsetof(struct pw_conf, jobe),
     "Jobe API at /jobe (with --http)"},
    {"jobe-files",
     "PYWARD_JOBE_FILES",
     {NULL, NULL},
     OPT_STRING,
     offsetof(struct pw_conf, jobe_files),
     "Jobe file cache DIR"},
    {"jobe-files-max",
     "PYWARD_JOBE_FILES_MAX",
     {NULL, NULL},
     OPT_SIZE,
     offsetof(struct pw_conf, jobe_files_max),
     "bytes the Jobe cache holds"},
    {"jobe-files-quota",
     "PYWARD_JOBE_FILES_QUOTA",
     {NULL, NULL},
     OPT_SIZE,
     offsetof(struct pw_conf, jobe_files_quota),
     "bytes of one Jobe client's files"},
    {"jobe-keys",
     "PYWARD_JOBE_KEYS",
     {NULL, NULL},
     OPT_STRING,
     offsetof(struct pw_conf, jobe_keys),
     "Jobe X-API-KEYs, one a line"},
    {"event-log",
     "PYWARD_EVENT_LOG",
     {NULL, NULL},
     OPT_STRING,
     offsetof(struct pw_conf, event_log),
     "where security events go"},
    {"log-code",
     "PYWARD_LOG_CODE",
     {NULL, NULL},
     OPT_BOOL,
     offsetof(struct pw_conf, log_code),
     "run records carry the code"},
    {"log-level",
     "PYWARD_LOG_LEVEL",
     {NULL, NULL},
     OPT_LOGLEVEL,
     offsetof(struct pw_conf, log_level),
     "debug|info|warning|error"},
    {"log-probes",
     "PYWARD_LOG_PROBES",
     {NULL, NULL},
     OPT_BOOL,
     offsetof(struct pw_conf, log_probes),
     "access-log /healthz, /readyz"},
    {NULL,
     "PYWARD_ENABLE_NETWORK",
     {"SANDBOX_ENABLE_NETWORK", NULL},
     OPT_BOOL,
     offsetof(struct pw_conf, enable_network),
     NULL},
    {NULL,
     "PYWARD_ENABLE_FILESYSTEM",
     {"SANDBOX_ENABLE_FILESYSTEM", NULL},
     OPT_BOOL,
     offsetof(struct pw_conf, enable_filesystem),
     NULL},
    {NULL,
     "PYWARD_ENABLE_DATA_SCIENCE",
     {"SANDBOX_ENABLE_DATA_SCIENCE", NULL},
     OPT_BOOL,
     offsetof(struct pw_conf, enable_data_science),
     NULL},
    {NULL,
     "PYWARD_ALLOWED_IMPORTS",
     {NULL, NULL},
     OPT_LIST,
     offsetof(struct pw_conf, allowed_imports),
     NULL},
    {NULL,
     NULL,
     {"SANDBOX_ALLOWED_IMPORTS", NULL},
     OPT_LIST,
     offsetof(struct pw_conf, only_imports),
     NULL},
    {NULL,
     "PYWARD_ENABLE_CONTAINER_MODE",
     {"SANDBOX_ENABLE_CONTAINER_MODE", NULL},
     OPT_BOOL,
     offsetof(struct pw_conf, container_mode),
     NULL},
    {NULL,
     NULL,
     {"SANDBOX_CONTAINER_IMAGE", NULL},
     OPT_STRING,
     offsetof(struct pw_conf, container_image),
     NULL},
};

static int
parse_bool(const char *s, bool *out)
{
    static const char *const yes[] = {"1", "true", "yes", "on"};
    static const char *const no[] = {"0", "false", "no", "off", ""};
    for (size_t i = 0; i < PW_N_ELEMENTS(yes); i++) {
        if (strcasecmp(s, yes[i]) == 0) {
            *out = true;
            return 0;
        }
    }
    for (size_t i = 0; i < PW_N_ELEMENTS(no); i++) {
        if (strcasecmp(s, no[i]) == 0) {
            *out = false;
            return 0;
        }
    }
    return -1;
}

/* Split "a, b,c" into an owned NULL-terminated vector. */
static char **
split_list(const char *s)
{
    size_t n = 0;
    char **v = pw_xcalloc(strlen(s) / 2 + 2, sizeof(char *));
    const char *p = s;
    while (*p != '\0') {
        size_t len = strcspn(p, ", \t");
        if (len > 0) {
            v[n++] = pw_xstrndup(p, len);
        }
        p += len;
        p += strspn(p, ", \t");
    }
    v[n] = NULL;
    return v;
}

static void
free_list(char **v)
{
    for (size_t i = 0; v != NULL && v[i] != NULL; i++) {
        free(v[i]);
    }
    free(v);
}

static int
parse_number(const char *s, double *out)
{
    char *end = NULL;
    errno = 0;
    double d = strtod(s, &end);
    if (errno != 0 || end == s || *end != '\0' || !isfinite(d) || d <= 0) {
        return -1;
    }
    *out = d;
    return 0;
}

/* Add VALUE's items to *LIST: the flags (FLAG) add to each other and
 * replace what the environment gave. */
static void
add_to_list(struct pw_conf *cfg, char ***list, const char *value, bool flag)
{
    if (!flag || !cfg->lists_flagged) {
        free_list(*list);
        *list = NULL;
    }
    cfg->lists_flagged |= flag;
    char **add = split_list(value);
    size_t n = 0, k = 0;
    while (*list != NULL && (*list)[n] != NULL) {
        n++;
    }
    while (add[k] != NULL) {
        k++;
    }
    *list = pw_xrealloc(*list, (n + k + 1) * sizeof(char *));
    memcpy(*list + n, add, (k + 1) * sizeof(char *));
    free(add);
}

/* Store VALUE into the field of E; SRC names where it came from. */
static int
set_option(struct pw_conf *cfg, const struct option_entry *e,
           const char *value, const char *src, struct pw_error *err)
{
    char *field = (char *)cfg + e->offset;
    cfg->timeout_given |= e->offset == offsetof(struct pw_conf, timeout_s);
    cfg->memory_given |= e->offset == offsetof(struct pw_conf, memory);
    double d = 0;
    switch (e->kind) {
    case OPT_SECONDS:
        if (parse_number(value, &d) < 0) {
            goto bad;
        }
        *(double *)(void *)field = d;
        return 0;
    case OPT_SIZE: {
        long long n = pw_parse_size(value);
        if (n <= 0) {
            goto bad;
        }
        *(long long *)(void *)field = n;
        return 0;
    }
    case OPT_COUNT:
        if (parse_number(value, &d) < 0 || d != floor(d) || d > 1024) {
            goto bad;
        }
        *(int *)(void *)field = (int)d;
        return 0;
    case OPT_COUNT0:
        if (strcmp(value, "0") == 0) {
            *(int *)(void *)field = 0;
            return 0;
        }
        if (parse_number(value, &d) < 0 || d != floor(d) || d > 1024) {
            goto bad;
        }
        *(int *)(void *)field = (int)d;
        return 0;
    case OPT_LOGLEVEL: {
        int level = pw_log_level_parse(value);
        if (level < 0) {
            goto bad;
        }
        *(int *)(void *)field = level;
        return 0;
    }
    case OPT_BOOL:
        if (parse_bool(value, (bool *)(void *)field) < 0) {
            goto bad;
        }
        return 0;
    case OPT_STRING:
        free(*(char **)(void *)field);
        *(char **)(void *)field = pw_xstrdup(value);
        return 0;
    case OPT_LIST:
        free_list(*(char ***)(void *)field);
        *(char ***)(void *)field = split_list(value);
        return 0;
    case OPT_LIST_ADD:
        add_to_list(cfg, (char ***)(void *)field, value, src[0] == '-');
        return 0;
    }
bad:
    return pw_fail(err, PW_ERR_USAGE, "%s: invalid value '%s'", src, value);
}

static int
load_env(struct pw_conf *cfg, struct pw_error *err)
{
    for (size_t i = 0; i < PW_N_ELEMENTS(options); i++) {
        const struct option_entry *e = &options[i];
        /* The compatibility names first, so the PYWARD_ one wins. */
        const char *names[] = {e->env_compat[0], e->env_compat[1], e->env};
        for (size_t j = 0; j < PW_N_ELEMENTS(names); j++) {
            const char *v = names[j] != NULL ? getenv(names[j]) : NULL;
            if (v != NULL && set_option(cfg, e, v, names[j], err) < 0) {
                return -1;
            }
        }
    }
    return 0;
}

static void
set_defaults(struct pw_conf *cfg)
{
    memset(cfg, 0, sizeof(*cfg));
    /* A run's limits: the defaults of rules/seccomp.json, as every command
     * takes them (0 when they do not load: the sandbox is unavailable
     * then, and says why). */
    struct pw_sbx_limits d = {0};
    struct pw_error err = {0};
    PW_AUTOFREE char *dir = pw_rules_dir(NULL);
    if (pw_sbx_defaults_load(dir, &d, &err) < 0) {
        pw_log(PW_LOG_DEBUG, "run defaults: %s", err.message);
    }
    cfg->timeout_s = d.timeout_s;
    cfg->max_timeout_s = 300;
    cfg->memory = d.memory_bytes;
    cfg->max_memory = 4LL << 30;
    cfg->max_output = d.max_output_bytes;
    cfg->max_code = PW_MAX_CODE_BYTES;
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    cfg->max_concurrency = cores > 0 ? (int)cores : 1;
    cfg->log_level = PW_LOG_WARN;
    cfg->rules = pw_xstrdup("default");
    cfg->session_ttl_s = 600;
    cfg->session_lifetime_s = 3600;
    cfg->max_sessions = 16;
    cfg->max_sessions_per_owner = 4;
    cfg->grace_s = 30;
    cfg->max_connections = 64;
    cfg->max_queued = 64;
    cfg->max_body = 8LL << 20;
    cfg->jobe_files_max = 256LL << 20;
    cfg->request_timeout_s = 30;
    cfg->idle_timeout_s = 60;
}

void
pw_conf_usage(void)
{
    printf("usage: pyward serve [OPTIONS]\n\n"
           "MCP server over stdio (JSON-RPC 2.0, one message per line), "
           "or over\nStreamable HTTP at /mcp with --http HOST:PORT.  With "
           "--http, a listening\nsocket systemd passed (LISTEN_PID, "
           "LISTEN_FDS=1) is served instead of\nHOST:PORT.\n\n"
           "options (each also read from the environment variable shown):"
           "\n");
    for (size_t i = 0; i < PW_N_ELEMENTS(options); i++) {
        const struct option_entry *e = &options[i];
        if (e->flag != NULL) {
            printf("  --%-28s %-27s %s\n", e->flag, e->help,
                   e->env != NULL ? e->env : "(no variable)");
        }
    }
    printf("\nenvironment only: SANDBOX_ENABLE_NETWORK, "
           "SANDBOX_ENABLE_FILESYSTEM,\n  SANDBOX_ENABLE_DATA_SCIENCE, "
           "SANDBOX_ENABLE_CONTAINER_MODE (PYWARD_* too),\n"
           "  SANDBOX_ALLOWED_IMPORTS (the only modules runs may import),\n"
           "  PYWARD_ALLOWED_IMPORTS (modules added to the profiles'),\n"
           "  SANDBOX_CONTAINER_IMAGE (accepted; pyward runs no image)\n"
           "SANDBOX_DEFAULT_TIMEOUT and SANDBOX_MAX_TIMEOUT are read too.\n");
}

/* A default above its maximum is an error when both were given, else the
 * default follows the maximum down. */
static int
check_consistency(struct pw_conf *cfg, struct pw_error *err)
{
    enum pw_compat mode;
    if (pw_compat_parse(cfg->compat, &mode) < 0) {
        return pw_fail(err, PW_ERR_USAGE,
                       "--compat: unknown tool set '%s' (one of %s)",
                       cfg->compat, pw_compat_names());
    }
    /* Options of the HTTP transport mean nothing on stdio: refused
     * rather than ignored. */
    static const struct {
        size_t offset;
        bool is_bool;
        const char *flag;
    } http_only[] = {
        {offsetof(struct pw_conf, jobe), true, "--jobe"},
        {offsetof(struct pw_conf, jobe_keys), false, "--jobe-keys"},
        {offsetof(struct pw_conf, auth_token_file), false,
         "--auth-token-file"},
    };
    for (size_t i = 0; cfg->http == NULL && i < PW_N_ELEMENTS(http_only);
         i++) {
        const char *at = (const char *)cfg + http_only[i].offset;
        bool set = http_only[i].is_bool ? *(const bool *)at
                                        : *(char *const *)at != NULL;
        if (set) {
            return pw_fail(err, PW_ERR_USAGE,
                           "%s needs --http HOST:PORT (it is an option of "
                           "the HTTP server; without --http, pyward serve "
                           "speaks MCP on stdio)",
                           http_only[i].flag);
        }
    }
    if (cfg->timeout_s > cfg->max_timeout_s && !cfg->timeout_given) {
        cfg->timeout_s = cfg->max_timeout_s;
    }
    if (cfg->memory > cfg->max_memory && !cfg->memory_given) {
        cfg->memory = cfg->max_memory;
    }
    /* One address may take half the connections unless told otherwise,
     * and never more than all of them. */
    if (cfg->max_per_address == 0) {
        cfg->max_per_address = (cfg->max_connections + 1) / 2;
    }
    if (cfg->max_per_address > cfg->max_connections) {
        cfg->max_per_address = cfg->max_connections;
    }
    if (cfg->timeout_s > cfg->max_timeout_s) {
        return pw_fail(err, PW_ERR_USAGE,
                       "timeout %g exceeds the maximum timeout %g",
                       cfg->timeout_s, cfg->max_timeout_s);
    }
    if (cfg->memory > cfg->max_memory) {
        return pw_fail(err, PW_ERR_USAGE,
                       "memory %lld exceeds the maximum memory %lld",
                       cfg->memory, cfg->max_memory);
    }
    return 0;
}

int
pw_conf_load(struct pw_conf *cfg, int argc, char **argv, struct pw_error *err)
{
    struct option longopts[PW_N_ELEMENTS(options) + 2];
    int n = 0;
    set_defaults(cfg);
    /* Where the Jobe file cache makes its directory: read now, before
     * the zygote scrubs the environment. */
    const char *tmp = getenv("TMPDIR");
    cfg->tmpdir = tmp != NULL && *tmp != '\0' ? pw_xstrdup(tmp) : NULL;
    if (load_env(cfg, err) < 0) {
        return -1;
    }
    for (size_t i = 0; i < PW_N_ELEMENTS(options); i++) {
        if (options[i].flag != NULL) {
            int arg =
                options[i].kind == OPT_BOOL ? no_argument : required_argument;
            longopts[n++] =
                (struct option){options[i].flag, arg, NULL, (int)i};
        }
    }
    longopts[n++] = (struct option){"help", no_argument, NULL, 'h'};
    longopts[n] = (struct option){NULL, 0, NULL, 0};
    optind = 1;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, "+h", longopts, NULL)) != -1) {
        if (c == 'h') {
            pw_conf_usage();
            return 1;
        }
        if (c == '?' || c == ':') {
            return pw_fail(err, PW_ERR_USAGE,
                           "unknown or incomplete option "
                           "'%s' (see --help)",
                           argv[optind - 1]);
        }
        char src[64];
        snprintf(src, sizeof(src), "--%s", options[c].flag);
        if (set_option(cfg, &options[c], optarg != NULL ? optarg : "1", src,
                       err) < 0) {
            return -1;
        }
    }
    if (optind < argc) {
        return pw_fail(err, PW_ERR_USAGE, "unexpected argument '%s'",
                       argv[optind]);
    }
    if (cfg->container_image != NULL) {
        pw_log(PW_LOG_WARN,
               "SANDBOX_CONTAINER_IMAGE=%s: pyward runs no container image; "
               "every run has its own process, namespaces and seccomp "
               "filter (use_container is accepted)",
               cfg->container_image);
    }
    return check_consistency(cfg, err);
}

void
pw_conf_free(struct pw_conf *cfg)
{
    free(cfg->rules);
    free(cfg->profiles);
    free(cfg->instance_id);
    free(cfg->container_image);
    free(cfg->compat);
    free_list(cfg->allowed_imports);
    free_list(cfg->packages);
    free_list(cfg->packages_preload);
    free_list(cfg->only_imports);
    free(cfg->http);
    free(cfg->auth_token_file);
    free(cfg->jobe_files);
    free(cfg->jobe_keys);
    free(cfg->tmpdir);
    free(cfg->event_log);
    free_list(cfg->allow_origins);
    free_list(cfg->cors_origins);
    free_list(cfg->allow_hosts);
    free(cfg->tls_cert);
    free(cfg->tls_key);
    memset(cfg, 0, sizeof(*cfg));
}

/* The SANDBOX_ENABLE_* switch of each profile that has one. */
static const struct {
    size_t offset;
    const char *name;
    const char *env;
} toggles[] = {
    {offsetof(struct pw_conf, enable_network), "network",
     "SANDBOX_ENABLE_NETWORK"},
    {offsetof(struct pw_conf, enable_filesystem), "filesystem",
     "SANDBOX_ENABLE_FILESYSTEM"},
    {offsetof(struct pw_conf, enable_data_science), "data_science",
     "SANDBOX_ENABLE_DATA_SCIENCE"},
};

const char *
pw_conf_profile_env(const char *profile)
{
    for (size_t i = 0; i < PW_N_ELEMENTS(toggles); i++) {
        if (strcmp(toggles[i].name, profile) == 0) {
            return toggles[i].env;
        }
    }
    return NULL;
}

/* The profiles --profiles names, or the default ones and those the
 * environment's toggles add. */
static int
chosen_mask(const struct pw_conf *cfg, const struct pw_profiles *profiles,
            pw_profile_mask *mask, struct pw_error *err)
{
    if (cfg->profiles != NULL) {
        return pw_profiles_parse_list(profiles, cfg->profiles, mask, err);
    }
    *mask = pw_profiles_default_mask(profiles);
    for (size_t i = 0; i < PW_N_ELEMENTS(toggles); i++) {
        if (!*(const bool *)((const char *)cfg + toggles[i].offset)) {
            continue;
        }
        int idx = pw_profiles_index(profiles, toggles[i].name);
        if (idx < 0) {
            return pw_fail(err, PW_ERR_USAGE, "no profile named '%s'",
                           toggles[i].name);
        }
        *mask |= (pw_profile_mask)1 << idx;
    }
    return 0;
}

int
pw_conf_profile_mask(const struct pw_conf *cfg,
                     const struct pw_profiles *profiles, pw_profile_mask *mask,
                     struct pw_error *err)
{
    if (chosen_mask(cfg, profiles, mask, err) < 0) {
        return -1;
    }
    /* The Jobe API runs its programs under basic and jobe. */
    static const char *const jobe[] = {"basic", "jobe"};
    for (size_t i = 0; cfg->jobe && i < PW_N_ELEMENTS(jobe); i++) {
        int idx = pw_profiles_index(profiles, jobe[i]);
        if (idx < 0) {
            return pw_fail(err, PW_ERR_USAGE, "--jobe: no profile named '%s'",
                           jobe[i]);
        }
        *mask |= (pw_profile_mask)1 << idx;
    }
    return 0;
}
