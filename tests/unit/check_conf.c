/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_conf.c - `pyward serve`'s configuration (src/server/conf.c) as
 * pyward(1) and doc/MCP.md describe it: each option's default, its flag
 * (--flag VALUE and --flag=VALUE), each of its environment variables
 * (PYWARD_* and the SANDBOX_* names of the python sandbox server), flags
 * over the environment over the defaults, PYWARD_* over SANDBOX_*, bad
 * values refused with a message naming the option, sizes with k/m/g,
 * booleans, log levels, a default above its maximum, --help, and the
 * profiles the operator enables.  One TAP point a case of the tables.
 */
#include "config.h"

#include <check.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/log.h"
#include "core/rules.h"
#include "core/util.h"
#include "server/conf.h"

extern char **environ;

enum kind { SECONDS, SIZE, COUNT, STRING, LOGLEVEL, BOOL, LIST, LIST_ADD };

/* An option as the documentation gives it. */
struct opt {
    const char *flag;   /* without "--"; NULL: environment only */
    const char *env[3]; /* its variables, the one that wins first */
    enum kind kind;
    size_t offset;
    const char *dflt; /* the default, as value_text shows it */
    const char *good; /* a value, and as value_text shows it */
    const char *good_shown;
    const char *alt; /* another value (shown as itself) */
    const char *bad; /* a value refused, or NULL */
};

#define AT(field) offsetof(struct pw_conf, field)

static const struct opt opts[] = {
    {"timeout",
     {"PYWARD_TIMEOUT", "SANDBOX_TIMEOUT", "SANDBOX_DEFAULT_TIMEOUT"},
     SECONDS,
     AT(timeout_s),
     "30",
     "12.5",
     "12.5",
     "7",
     "soon"},
    {"max-timeout",
     {"PYWARD_MAX_TIMEOUT", "SANDBOX_MAX_TIMEOUT"},
     SECONDS,
     AT(max_timeout_s),
     "300",
     "600",
     "600",
     "400",
     "0"},
    {"max-output",
     {"PYWARD_MAX_OUTPUT_SIZE", "SANDBOX_MAX_OUTPUT_SIZE"},
     SIZE,
     AT(max_output),
     "1048576",
     "2m",
     "2097152",
     "4096",
     "-1"},
    {"memory",
     {"PYWARD_DEFAULT_MEMORY_LIMIT", "SANDBOX_DEFAULT_MEMORY_LIMIT"},
     SIZE,
     AT(memory),
     "268435456",
     "128m",
     "134217728",
     "1000000",
     "lots"},
    {"max-memory",
     {"PYWARD_MAX_MEMORY"},
     SIZE,
     AT(max_memory),
     "4294967296",
     "8g",
     "8589934592",
     "1073741824",
     "0"},
    {"profiles",
     {"PYWARD_PROFILES"},
     STRING,
     AT(profiles),
     "(null)",
     "basic,network",
     "basic,network",
     "basic",
     NULL},
    {"rules",
     {"PYWARD_RULES"},
     STRING,
     AT(rules),
     "default",
     "restricted",
     "restricted",
     "/etc/pyward/rules",
     NULL},
    {"max-concurrency",
     {"PYWARD_MAX_CONCURRENCY"},
     COUNT,
     AT(max_concurrency),
     "cores",
     "3",
     "3",
     "5",
     "2.5"},
    {"session-ttl",
     {"PYWARD_SESSION_TTL"},
     SECONDS,
     AT(session_ttl_s),
     "600",
     "120",
     "120",
     "0.5",
     "-1"},
    {"session-lifetime",
     {"PYWARD_SESSION_LIFETIME"},
     SECONDS,
     AT(session_lifetime_s),
     "3600",
     "7200",
     "7200",
     "60",
     "nan"},
    {"max-sessions",
     {"PYWARD_MAX_SESSIONS"},
     COUNT,
     AT(max_sessions),
     "16",
     "0", /* no sessions */
     "0",
     "1",
     "-1"},
    {"max-sessions-per-client",
     {"PYWARD_MAX_SESSIONS_PER_CLIENT"},
     COUNT,
     AT(max_sessions_per_owner),
     "4",
     "2",
     "2",
     "8",
     "0"},
    {"instance-id",
     {"PYWARD_INSTANCE_ID"},
     STRING,
     AT(instance_id),
     "(null)",
     "p1",
     "p1",
     "p2",
     NULL},
    {"compat",
     {"PYWARD_COMPAT"},
     STRING,
     AT(compat),
     "(null)",
     "bentorun",
     "bentorun",
     "code-sandbox-mcp",
     NULL},
    {"http",
     {"PYWARD_HTTP"},
     STRING,
     AT(http),
     "(null)",
     "127.0.0.1:8080",
     "127.0.0.1:8080",
     "[::1]:9",
     NULL},
    {"auth-token-file",
     {"PYWARD_AUTH_TOKEN_FILE"},
     STRING,
     AT(auth_token_file),
     "(null)",
     "/etc/pyward/tokens",
     "/etc/pyward/tokens",
     "tokens",
     NULL},
    {"allow-origin",
     {"PYWARD_ALLOW_ORIGIN"},
     LIST,
     AT(allow_origins),
     "(null)",
     "https://a.example, https://b.example",
     "https://a.example|https://b.example",
     "https://c.example",
     NULL},
    {"cors-origin",
     {"PYWARD_CORS_ORIGIN"},
     LIST_ADD,
     AT(cors_origins),
     "(null)",
     "https://a.example, https://b.example",
     "https://a.example|https://b.example",
     "https://c.example",
     NULL},
    {"tls-cert",
     {"PYWARD_TLS_CERT"},
     STRING,
     AT(tls_cert),
     "(null)",
     "cert.pem",
     "cert.pem",
     "c2.pem",
     NULL},
    {"tls-key",
     {"PYWARD_TLS_KEY"},
     STRING,
     AT(tls_key),
     "(null)",
     "key.pem",
     "key.pem",
     "k2.pem",
     NULL},
    {"grace",
     {"PYWARD_GRACE"},
     SECONDS,
     AT(grace_s),
     "30",
     "5",
     "5",
     "0.25",
     "inf"},
    {"max-connections",
     {"PYWARD_MAX_CONNECTIONS"},
     COUNT,
     AT(max_connections),
     "64",
     "10",
     "10",
     "20",
     "-4"},
    {"max-queued",
     {"PYWARD_MAX_QUEUED"},
     COUNT,
     AT(max_queued),
     "64",
     "7",
     "7",
     "9",
     "x"},
    {"max-body",
     {"PYWARD_MAX_BODY"},
     SIZE,
     AT(max_body),
     "8388608",
     "1m",
     "1048576",
     "512",
     "1t"},
    {"request-timeout",
     {"PYWARD_REQUEST_TIMEOUT"},
     SECONDS,
     AT(request_timeout_s),
     "30",
     "5",
     "5",
     "90",
     "5s"},
    {"idle-timeout",
     {"PYWARD_IDLE_TIMEOUT"},
     SECONDS,
     AT(idle_timeout_s),
     "60",
     "9",
     "9",
     "120",
     ""},
    {"jobe",
     {"PYWARD_JOBE"},
     BOOL,
     AT(jobe),
     "false",
     "yes",
     "true",
     NULL,
     "maybe"},
    {"jobe-files",
     {"PYWARD_JOBE_FILES"},
     STRING,
     AT(jobe_files),
     "(null)",
     "/var/cache/jobe",
     "/var/cache/jobe",
     "/tmp/j",
     NULL},
    {"jobe-files-quota",
     {"PYWARD_JOBE_FILES_QUOTA"},
     SIZE,
     AT(jobe_files_quota),
     "0",
     "1m",
     "1048576",
     "512",
     "1t"},
    {"jobe-keys",
     {"PYWARD_JOBE_KEYS"},
     STRING,
     AT(jobe_keys),
     "(null)",
     "/etc/pyward/keys",
     "/etc/pyward/keys",
     "keys",
     NULL},
    {"log-level",
     {"PYWARD_LOG_LEVEL"},
     LOGLEVEL,
     AT(log_level),
     "warning",
     "debug",
     "debug",
     "error",
     "loud"},
    {"log-probes",
     {"PYWARD_LOG_PROBES"},
     BOOL,
     AT(log_probes),
     "false",
     "yes",
     "true",
     NULL,
     "maybe"},
    {NULL,
     {"PYWARD_ENABLE_NETWORK", "SANDBOX_ENABLE_NETWORK"},
     BOOL,
     AT(enable_network),
     "false",
     "1",
     "true",
     NULL,
     "2"},
    {NULL,
     {"PYWARD_ENABLE_FILESYSTEM", "SANDBOX_ENABLE_FILESYSTEM"},
     BOOL,
     AT(enable_filesystem),
     "false",
     "true",
     "true",
     NULL,
     "y"},
    {NULL,
     {"PYWARD_ENABLE_DATA_SCIENCE", "SANDBOX_ENABLE_DATA_SCIENCE"},
     BOOL,
     AT(enable_data_science),
     "false",
     "on",
     "true",
     NULL,
     "enable"},
    {NULL,
     {"PYWARD_ENABLE_CONTAINER_MODE", "SANDBOX_ENABLE_CONTAINER_MODE"},
     BOOL,
     AT(container_mode),
     "false",
     "YES",
     "true",
     NULL,
     "truee"},
    {NULL,
     {"PYWARD_ALLOWED_IMPORTS"},
     LIST,
     AT(allowed_imports),
     "(null)",
     "math, json ,re",
     "math|json|re",
     NULL,
     NULL},
    {NULL,
     {"SANDBOX_ALLOWED_IMPORTS"},
     LIST,
     AT(only_imports),
     "(null)",
     "math,statistics",
     "math|statistics",
     NULL,
     NULL},
    {NULL,
     {"SANDBOX_CONTAINER_IMAGE"},
     STRING,
     AT(container_image),
     "(null)",
     "python:3.11-slim",
     "python:3.11-slim",
     NULL,
     NULL},
};

static struct pw_conf cfg;
static struct pw_error err;

/* Every PYWARD_* and SANDBOX_* variable but the rules directory unset. */
static void
clear_env(void)
{
    char *names[256];
    size_t n = 0;
    for (char **e = environ; *e != NULL && n < PW_N_ELEMENTS(names); e++) {
        if ((strncmp(*e, "PYWARD_", 7) == 0 ||
             strncmp(*e, "SANDBOX_", 8) == 0) &&
            strncmp(*e, "PYWARD_RULES_DIR=", 17) != 0) {
            names[n++] = pw_xstrndup(*e, strcspn(*e, "="));
        }
    }
    for (size_t i = 0; i < n; i++) {
        unsetenv(names[i]);
        free(names[i]);
    }
}

static void
setup(void)
{
    clear_env();
    memset(&err, 0, sizeof(err));
}

static void
teardown(void)
{
    pw_conf_free(&cfg);
}

/* The options of the HTTP server alone (refused without --http). */
static const char *const http_only[][2] = {
    {"--jobe", "PYWARD_JOBE"},
    {"--jobe-keys", "PYWARD_JOBE_KEYS"},
    {"--auth-token-file", "PYWARD_AUTH_TOKEN_FILE"},
};

/* True if FLAGS or the environment give one of http_only and no --http:
 * the probes of those options then add --http. */
static bool
needs_http(const char *const *flags)
{
    bool some = false;
    for (size_t i = 0; flags[i] != NULL; i++) {
        if (strncmp(flags[i], "--http", 6) == 0 &&
            (flags[i][6] == '\0' || flags[i][6] == '=')) {
            return false;
        }
        for (size_t k = 0; k < PW_N_ELEMENTS(http_only); k++) {
            size_t n = strlen(http_only[k][0]);
            some |= strncmp(flags[i], http_only[k][0], n) == 0 &&
                    (flags[i][n] == '\0' || flags[i][n] == '=');
        }
    }
    for (size_t k = 0; k < PW_N_ELEMENTS(http_only); k++) {
        some |= getenv(http_only[k][1]) != NULL;
    }
    return some && getenv("PYWARD_HTTP") == NULL;
}

static bool no_http_added; /* load_v adds no --http */

/* pw_conf_load of "serve" and FLAGS (NULL-terminated), with --http
 * added when an option of the HTTP server alone is given without it. */
static int
load_v(const char *const *flags)
{
    char *argv[16] = {"serve"};
    int argc = 1;
    for (size_t i = 0; flags[i] != NULL; i++) {
        ck_assert_int_lt(argc, (int)PW_N_ELEMENTS(argv) - 3);
        argv[argc++] = (char *)flags[i];
    }
    if (!no_http_added && needs_http(flags)) {
        argv[argc++] = "--http";
        argv[argc++] = "127.0.0.1:0";
    }
    argv[argc] = NULL;
    pw_conf_free(&cfg);
    memset(&err, 0, sizeof(err));
    return pw_conf_load(&cfg, argc, argv, &err);
}

#define LOAD(...) load_v((const char *const[]){__VA_ARGS__, NULL})

static const char *const level_names[] = {"debug", "info", "warning", "error"};

/* O's value in CFG as text. */
static const char *
value_text(const struct opt *o)
{
    static char text[512];
    const char *field = (const char *)&cfg + o->offset;
    switch (o->kind) {
    case SECONDS:
        snprintf(text, sizeof(text), "%g",
                 *(const double *)(const void *)field);
        break;
    case SIZE:
        snprintf(text, sizeof(text), "%lld",
                 *(const long long *)(const void *)field);
        break;
    case COUNT:
        snprintf(text, sizeof(text), "%d", *(const int *)(const void *)field);
        break;
    case LOGLEVEL: {
        int level = *(const int *)(const void *)field;
        snprintf(text, sizeof(text), "%s",
                 level >= 0 && level < (int)PW_N_ELEMENTS(level_names)
                     ? level_names[level]
                     : "?");
        break;
    }
    case BOOL:
        snprintf(text, sizeof(text), "%s",
                 *(const bool *)(const void *)field ? "true" : "false");
        break;
    case STRING: {
        const char *s = *(char *const *)(const void *)field;
        snprintf(text, sizeof(text), "%s", s != NULL ? s : "(null)");
        break;
    }
    case LIST:
    case LIST_ADD: {
        char *const *v = *(char **const *)(const void *)field;
        size_t o_len = 0;
        text[0] = '\0';
        if (v == NULL) {
            snprintf(text, sizeof(text), "(null)");
        }
        for (size_t i = 0; v != NULL && v[i] != NULL; i++) {
            o_len += (size_t)snprintf(text + o_len, sizeof(text) - o_len,
                                      "%s%s", i > 0 ? "|" : "", v[i]);
        }
        break;
    }
    }
    return text;
}

/* What a value given as VALUE shows as. */
static const char *
shown(const struct opt *o, const char *value)
{
    return strcmp(value, o->good) == 0 ? o->good_shown : value;
}

/* ---- one TAP point an option, or an option's variable --------------- */

/* Indexes into OPTS (and its env[]), built before the tests run. */
struct probe {
    int opt;
    int env;
};
static struct probe flags[64], envs[96], bad_flags[64], bad_envs[96],
    several[32];
static int n_flags, n_envs, n_bad_flags, n_bad_envs, n_several;

START_TEST(defaults)
{
    const struct opt *o = &opts[_i];
    ck_assert_int_eq(LOAD(NULL), 0);
    char cores[32];
    snprintf(cores, sizeof(cores), "%ld", sysconf(_SC_NPROCESSORS_ONLN));
    ck_assert_str_eq(value_text(o),
                     strcmp(o->dflt, "cores") == 0 ? cores : o->dflt);
    ck_assert(!cfg.timeout_given);
    ck_assert(!cfg.memory_given);
}
END_TEST

START_TEST(flag_sets)
{
    const struct opt *o = &opts[flags[_i].opt];
    char eq[128];
    snprintf(eq, sizeof(eq), "--%s=%s", o->flag, o->good);
    char flag[64];
    snprintf(flag, sizeof(flag), "--%s", o->flag);
    if (o->kind == BOOL) {
        ck_assert_msg(LOAD(flag) == 0, "%s", err.message);
        ck_assert_str_eq(value_text(o), "true");
        /* A switch takes no value. */
        ck_assert_int_eq(LOAD(eq), -1);
        return;
    }
    ck_assert_msg(LOAD(flag, o->good) == 0, "%s", err.message);
    ck_assert_str_eq(value_text(o), o->good_shown);
    ck_assert_msg(LOAD(eq) == 0, "%s", err.message);
    ck_assert_str_eq(value_text(o), o->good_shown);
    /* The last one given wins; a repeatable list's flags add up. */
    ck_assert_msg(LOAD(flag, o->good, flag, o->alt) == 0, "%s", err.message);
    if (o->kind == LIST_ADD) {
        char both[256];
        snprintf(both, sizeof(both), "%s|%s", o->good_shown, o->alt);
        ck_assert_str_eq(value_text(o), both);
        return;
    }
    ck_assert_str_eq(value_text(o), o->alt);
}
END_TEST

START_TEST(env_sets)
{
    const struct opt *o = &opts[envs[_i].opt];
    const char *name = o->env[envs[_i].env];
    setenv(name, o->good, 1);
    ck_assert_msg(LOAD(NULL) == 0, "%s: %s", name, err.message);
    ck_assert_str_eq(value_text(o), o->good_shown);
}
END_TEST

/* Flags over the environment; PYWARD_* over SANDBOX_*. */
START_TEST(flag_over_env)
{
    const struct opt *o = &opts[flags[_i].opt];
    for (size_t e = 0; e < PW_N_ELEMENTS(o->env) && o->env[e]; e++) {
        setenv(o->env[e], o->kind == BOOL ? "no" : o->good, 1);
    }
    char flag[64];
    snprintf(flag, sizeof(flag), "--%s", o->flag);
    if (o->kind == BOOL) {
        ck_assert_msg(LOAD(flag) == 0, "%s", err.message);
        ck_assert_str_eq(value_text(o), "true");
    } else {
        ck_assert_msg(LOAD(flag, o->alt) == 0, "%s", err.message);
        ck_assert_str_eq(value_text(o), shown(o, o->alt));
    }
}
END_TEST

START_TEST(pyward_over_sandbox)
{
    const struct opt *o = &opts[several[_i].opt];
    const char *other = o->kind == BOOL ? "0" : o->alt;
    setenv(o->env[0], o->good, 1);
    for (size_t e = 1; e < PW_N_ELEMENTS(o->env) && o->env[e]; e++) {
        setenv(o->env[e], other, 1);
    }
    ck_assert_msg(LOAD(NULL) == 0, "%s", err.message);
    ck_assert_str_eq(value_text(o), o->good_shown);
}
END_TEST

START_TEST(bad_flag)
{
    const struct opt *o = &opts[bad_flags[_i].opt];
    char flag[64];
    snprintf(flag, sizeof(flag), "--%s", o->flag);
    char eq[64];
    snprintf(eq, sizeof(eq), "--%s=%s", o->flag, o->bad);
    ck_assert_int_eq(LOAD(flag, o->bad), -1);
    ck_assert_int_eq(err.code, PW_ERR_USAGE);
    char want[128];
    snprintf(want, sizeof(want), "--%s: invalid value '%s'", o->flag, o->bad);
    ck_assert_str_eq(err.message, want);
    ck_assert_int_eq(LOAD(eq), -1);
    ck_assert_str_eq(err.message, want);
}
END_TEST

START_TEST(bad_env)
{
    const struct opt *o = &opts[bad_envs[_i].opt];
    const char *name = o->env[bad_envs[_i].env];
    setenv(name, o->bad, 1);
    ck_assert_int_eq(LOAD(NULL), -1);
    ck_assert_int_eq(err.code, PW_ERR_USAGE);
    char want[128];
    snprintf(want, sizeof(want), "%s: invalid value '%s'", name, o->bad);
    ck_assert_str_eq(err.message, want);
    /* Refused even when a flag would give a good value. */
    if (o->flag != NULL && o->kind != BOOL) {
        char flag[64];
        snprintf(flag, sizeof(flag), "--%s", o->flag);
        ck_assert_int_eq(LOAD(flag, o->good), -1);
        ck_assert_str_eq(err.message, want);
    }
}
END_TEST

/* ---- kinds of values ------------------------------------------------ */

static const struct {
    const char *text;
    long long bytes; /* -1: refused */
} sizes[] = {
    {"1", 1},
    {"1000", 1000},
    {"64k", 64LL << 10},
    {"64K", 64LL << 10},
    {"3m", 3LL << 20},
    {"3M", 3LL << 20},
    {"2g", 2LL << 30},
    {"2G", 2LL << 30},
    {"64kb", 64LL << 10},
    {"64KiB", 64LL << 10},
    {"5MB", 5LL << 20},
    {"1GiB", 1LL << 30},
    {"0010k", 10LL << 10},
    {"1t", -1},
    {"1.5m", -1},
    {"m", -1},
    {"-1m", -1},
    {" 1m", -1},
    {"1 m", -1},
    {"1mm", -1},
    {"1mbb", -1},
    {"0", -1},
    {"0k", -1},
    {"k1", -1},
    {"1e6", -1},
    {"", -1},
    {"99999999999g", -1},
    {"99999999999999999999", -1},
};

START_TEST(size_values)
{
    const char *text = sizes[_i].text;
    int rc = LOAD("--max-body", text);
    if (sizes[_i].bytes < 0) {
        ck_assert_msg(rc == -1, "'%s' taken as %lld", text, cfg.max_body);
        char want[96];
        snprintf(want, sizeof(want), "--max-body: invalid value '%s'", text);
        ck_assert_str_eq(err.message, want);
    } else {
        ck_assert_msg(rc == 0, "'%s': %s", text, err.message);
        ck_assert_int_eq(cfg.max_body, sizes[_i].bytes);
    }
}
END_TEST

static const struct {
    const char *text;
    int value; /* 1 true, 0 false, -1 refused */
} bools[] = {
    {"1", 1},   {"true", 1}, {"yes", 1},   {"on", 1},      {"TRUE", 1},
    {"Yes", 1}, {"ON", 1},   {"0", 0},     {"false", 0},   {"no", 0},
    {"off", 0}, {"", 0},     {"FALSE", 0}, {"Off", 0},     {"NO", 0},
    {"2", -1},  {"y", -1},   {"n", -1},    {"enable", -1}, {"truee", -1},
    {" 1", -1}, {"1 ", -1},  {"-1", -1},
};

START_TEST(bool_values)
{
    const char *text = bools[_i].text;
    setenv("SANDBOX_ENABLE_NETWORK", text, 1);
    int rc = LOAD(NULL);
    if (bools[_i].value < 0) {
        ck_assert_msg(rc == -1, "'%s' taken", text);
        char want[96];
        snprintf(want, sizeof(want),
                 "SANDBOX_ENABLE_NETWORK: invalid value '%s'", text);
        ck_assert_str_eq(err.message, want);
    } else {
        ck_assert_msg(rc == 0, "'%s': %s", text, err.message);
        ck_assert_int_eq(cfg.enable_network, bools[_i].value);
    }
}
END_TEST

static const struct {
    const char *text;
    double value; /* 0: refused */
} seconds[] = {
    {"0.5", 0.5}, {"10", 10},  {"007", 7}, {"2.25", 2.25}, {"0", 0},
    {"-1", 0},    {"-0.5", 0}, {"nan", 0}, {"inf", 0},     {"5s", 0},
    {"", 0},      {"1,5", 0},  {"ten", 0}, {"1 ", 0},      {"infinity", 0},
};

START_TEST(seconds_values)
{
    const char *text = seconds[_i].text;
    int rc = LOAD("--grace", text);
    if (seconds[_i].value == 0) {
        ck_assert_msg(rc == -1, "'%s' taken as %g", text, cfg.grace_s);
        char want[96];
        snprintf(want, sizeof(want), "--grace: invalid value '%s'", text);
        ck_assert_str_eq(err.message, want);
    } else {
        ck_assert_msg(rc == 0, "'%s': %s", text, err.message);
        ck_assert(cfg.grace_s == seconds[_i].value);
    }
}
END_TEST

static const struct {
    const char *text;
    int value; /* 0: refused */
} counts[] = {
    {"1", 1},   {"64", 64}, {"200", 200}, {"0", 0},  {"-1", 0},
    {"2.5", 0}, {"x", 0},   {"", 0},      {"3x", 0}, {"nan", 0},
};

START_TEST(count_values)
{
    const char *text = counts[_i].text;
    int rc = LOAD("--max-queued", text);
    if (counts[_i].value == 0) {
        ck_assert_msg(rc == -1, "'%s' taken as %d", text, cfg.max_queued);
        char want[96];
        snprintf(want, sizeof(want), "--max-queued: invalid value '%s'", text);
        ck_assert_str_eq(err.message, want);
    } else {
        ck_assert_msg(rc == 0, "'%s': %s", text, err.message);
        ck_assert_int_eq(cfg.max_queued, counts[_i].value);
    }
}
END_TEST

static const struct {
    const char *text;
    int level; /* -1: refused */
} levels[] = {
    {"debug", PW_LOG_DEBUG},
    {"info", PW_LOG_INFO},
    {"warning", PW_LOG_WARN},
    {"error", PW_LOG_ERROR},
    {"WARNING", PW_LOG_WARN},
    {"Debug", PW_LOG_DEBUG},
    {"loud", -1},
    {"", -1},
    {"verbose", -1},
};

START_TEST(log_levels)
{
    const char *text = levels[_i].text;
    int rc = LOAD("--log-level", text);
    if (levels[_i].level < 0) {
        ck_assert_int_eq(rc, -1);
        char want[96];
        snprintf(want, sizeof(want), "--log-level: invalid value '%s'", text);
        ck_assert_str_eq(err.message, want);
    } else {
        ck_assert_msg(rc == 0, "'%s': %s", text, err.message);
        ck_assert_int_eq(cfg.log_level, levels[_i].level);
    }
}
END_TEST

/* ---- the command line ---------------------------------------------- */

START_TEST(documented_message)
{
    /* doc/MCP.md's example. */
    setenv("SANDBOX_MAX_TIMEOUT", "soon", 1);
    ck_assert_int_eq(LOAD(NULL), -1);
    ck_assert_str_eq(err.message, "SANDBOX_MAX_TIMEOUT: invalid value 'soon'");
}
END_TEST

START_TEST(bad_command_lines)
{
    ck_assert_int_eq(LOAD("--bogus"), -1);
    ck_assert_str_eq(err.message,
                     "unknown or incomplete option '--bogus' (see --help)");
    ck_assert_int_eq(LOAD("--timeout"), -1);
    ck_assert_str_eq(err.message,
                     "unknown or incomplete option '--timeout' (see --help)");
    ck_assert_int_eq(LOAD("--jobe=1"), -1);
    ck_assert_ptr_nonnull(strstr(err.message, "'--jobe=1'"));
    ck_assert_int_eq(LOAD("-x"), -1);
    ck_assert_ptr_nonnull(strstr(err.message, "'-x'"));
    ck_assert_int_eq(LOAD("extra"), -1);
    ck_assert_str_eq(err.message, "unexpected argument 'extra'");
    ck_assert_int_eq(LOAD("--timeout", "5", "extra"), -1);
    ck_assert_str_eq(err.message, "unexpected argument 'extra'");
    ck_assert_int_eq(err.code, PW_ERR_USAGE);
}
END_TEST

START_TEST(compat_names)
{
    static const char *const names[] = {"mcp-python-exec-sandbox",
                                        "code-sandbox-mcp", "bentorun"};
    for (size_t i = 0; i < PW_N_ELEMENTS(names); i++) {
        ck_assert_int_eq(LOAD("--compat", names[i]), 0);
        ck_assert_str_eq(cfg.compat, names[i]);
    }
    ck_assert_int_eq(LOAD("--compat", "nonesuch"), -1);
    ck_assert_str_eq(err.message,
                     "--compat: unknown tool set 'nonesuch' (one of "
                     "mcp-python-exec-sandbox, code-sandbox-mcp, bentorun)");
    setenv("PYWARD_COMPAT", "Bentorun", 1);
    ck_assert_int_eq(LOAD(NULL), -1);
    ck_assert_ptr_nonnull(strstr(err.message, "'Bentorun'"));
}
END_TEST

/* --help prints every flag with its variable, and asks to exit 0. */
START_TEST(help)
{
    FILE *out = tmpfile();
    ck_assert_ptr_nonnull(out);
    fflush(stdout);
    int saved = fcntl(1, F_DUPFD_CLOEXEC, 0);
    ck_assert_int_ge(saved, 0);
    ck_assert_int_ge(dup2(fileno(out), 1), 0);
    int rc = LOAD("--timeout", "5", "--help", "--bogus");
    int rc_short = LOAD("-h");
    fflush(stdout);
    ck_assert_int_ge(dup2(saved, 1), 0);
    close(saved);
    ck_assert_int_eq(rc, 1);
    ck_assert_int_eq(rc_short, 1);
    struct pw_buf b;
    pw_buf_init(&b);
    rewind(out);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof(chunk), out)) > 0) {
        pw_buf_append(&b, chunk, n);
    }
    fclose(out);
    ck_assert_ptr_nonnull(b.data);
    /* A flag with its PYWARD_* variable; an environment-only option by
     * its SANDBOX_* name (or its only one). */
    for (size_t i = 0; i < PW_N_ELEMENTS(opts); i++) {
        const struct opt *o = &opts[i];
        const char *name =
            o->flag != NULL || o->env[1] == NULL ? o->env[0] : o->env[1];
        ck_assert_msg(strstr(b.data, name) != NULL, "--help does not name %s",
                      name);
        if (o->flag != NULL) {
            char flag[64];
            snprintf(flag, sizeof(flag), "--%s ", o->flag);
            ck_assert_msg(strstr(b.data, flag) != NULL,
                          "--help does not show %s", flag);
        }
    }
    pw_buf_free(&b);
}
END_TEST

/* A default above its maximum follows the maximum down; given, it is an
 * error. */
START_TEST(defaults_under_maximums)
{
    ck_assert_int_eq(LOAD("--max-timeout", "10"), 0);
    ck_assert(cfg.timeout_s == 10);
    ck_assert(!cfg.timeout_given);
    ck_assert_int_eq(LOAD("--timeout", "400"), -1);
    ck_assert_str_eq(err.message,
                     "timeout 400 exceeds the maximum timeout 300");
    ck_assert_int_eq(LOAD("--timeout", "20", "--max-timeout", "10"), -1);
    ck_assert_str_eq(err.message, "timeout 20 exceeds the maximum timeout 10");
    ck_assert_int_eq(LOAD("--timeout", "10", "--max-timeout", "10"), 0);
    ck_assert(cfg.timeout_given);
    ck_assert_int_eq(LOAD("--max-memory", "128m"), 0);
    ck_assert_int_eq(cfg.memory, 128LL << 20);
    ck_assert(!cfg.memory_given);
    ck_assert_int_eq(LOAD("--memory", "8g"), -1);
    ck_assert_str_eq(err.message, "memory 8589934592 exceeds the maximum "
                                  "memory 4294967296");
    ck_assert_int_eq(LOAD("--memory", "1g", "--max-memory", "1g"), 0);
    ck_assert(cfg.memory_given);
    /* Given in the environment is given too. */
    setenv("SANDBOX_TIMEOUT", "20", 1);
    ck_assert_int_eq(LOAD("--max-timeout", "10"), -1);
    ck_assert_str_eq(err.message, "timeout 20 exceeds the maximum timeout 10");
}
END_TEST

START_TEST(free_clears)
{
    ck_assert_int_eq(LOAD("--http", "127.0.0.1:1", "--allow-origin", "a,b"),
                     0);
    pw_conf_free(&cfg);
    ck_assert_ptr_null(cfg.rules);
    ck_assert_ptr_null(cfg.http);
    ck_assert_ptr_null(cfg.allow_origins);
    ck_assert(cfg.timeout_s == 0);
    pw_conf_free(&cfg); /* twice is harmless */
}
END_TEST

/* ---- the profiles the operator enables ------------------------------ */

START_TEST(profile_env_names)
{
    ck_assert_str_eq(pw_conf_profile_env("network"), "SANDBOX_ENABLE_NETWORK");
    ck_assert_str_eq(pw_conf_profile_env("filesystem"),
                     "SANDBOX_ENABLE_FILESYSTEM");
    ck_assert_str_eq(pw_conf_profile_env("data_science"),
                     "SANDBOX_ENABLE_DATA_SCIENCE");
    ck_assert_ptr_null(pw_conf_profile_env("basic"));
    ck_assert_ptr_null(pw_conf_profile_env("jobe"));
    ck_assert_ptr_null(pw_conf_profile_env("Network"));
}
END_TEST

static struct pw_profiles *profiles;

/* The mask of the profiles named in LIST (comma-separated). */
static pw_profile_mask
mask_of(const char *list)
{
    pw_profile_mask m = 0;
    struct pw_error e = {0};
    ck_assert_msg(pw_profiles_parse_list(profiles, list, &m, &e) == 0, "%s",
                  e.message);
    return m;
}

/* The mask CFG enables (-1 cast: refused). */
static pw_profile_mask
enabled(void)
{
    pw_profile_mask m = 0;
    if (pw_conf_profile_mask(&cfg, profiles, &m, &err) < 0) {
        return ~(pw_profile_mask)0;
    }
    return m;
}

/* --jobe, --jobe-keys and --auth-token-file (or their variables)
 * without --http: a usage error naming the option and --http. */
START_TEST(http_only_options)
{
    no_http_added = true;
    for (size_t k = 0; k < PW_N_ELEMENTS(http_only); k++) {
        bool is_bool = strcmp(http_only[k][0], "--jobe") == 0;
        int rc = is_bool ? LOAD(http_only[k][0])
                         : LOAD(http_only[k][0], "/etc/pyward/x");
        ck_assert_int_eq(rc, -1);
        ck_assert_int_eq(err.code, PW_ERR_USAGE);
        ck_assert_ptr_nonnull(strstr(err.message, http_only[k][0]));
        ck_assert_ptr_nonnull(strstr(err.message, "needs --http"));
        setenv(http_only[k][1], is_bool ? "1" : "/etc/pyward/x", 1);
        ck_assert_int_eq(LOAD(NULL), -1);
        ck_assert_ptr_nonnull(strstr(err.message, http_only[k][0]));
        setenv("PYWARD_HTTP", "127.0.0.1:0", 1);
        ck_assert_msg(LOAD(NULL) == 0, "%s", err.message);
        unsetenv("PYWARD_HTTP");
        unsetenv(http_only[k][1]);
        rc = is_bool ? LOAD(http_only[k][0], "--http", "127.0.0.1:0")
                     : LOAD(http_only[k][0], "/x", "--http", "127.0.0.1:0");
        ck_assert_msg(rc == 0, "%s", err.message);
    }
    no_http_added = false;
}
END_TEST

START_TEST(profile_masks)
{
    ck_assert_int_eq(LOAD(NULL), 0);
    ck_assert_uint_eq(enabled(), mask_of("basic"));
    setenv("SANDBOX_ENABLE_NETWORK", "1", 1);
    setenv("SANDBOX_ENABLE_DATA_SCIENCE", "yes", 1);
    setenv("SANDBOX_ENABLE_FILESYSTEM", "0", 1);
    ck_assert_int_eq(LOAD(NULL), 0);
    ck_assert_uint_eq(enabled(), mask_of("basic,network,data_science"));
    /* --profiles names them all: the toggles add nothing. */
    ck_assert_int_eq(LOAD("--profiles", "data_science"), 0);
    ck_assert_uint_eq(enabled(), mask_of("data_science"));
    setenv("PYWARD_PROFILES", "filesystem", 1);
    ck_assert_int_eq(LOAD(NULL), 0);
    ck_assert_uint_eq(enabled(), mask_of("filesystem"));
    /* --jobe adds basic and jobe. */
    ck_assert_int_eq(LOAD("--jobe", "--profiles", "network"), 0);
    ck_assert_uint_eq(enabled(), mask_of("network,basic,jobe"));
    ck_assert_int_eq(LOAD("--profiles", "basic,nope"), 0);
    ck_assert_uint_eq(enabled(), ~(pw_profile_mask)0);
    ck_assert_ptr_nonnull(strstr(err.message, "nope"));
}
END_TEST

/* ---- set-up --------------------------------------------------------- */

static void
add(struct probe *v, int *n, int cap, int opt, int env)
{
    if (*n >= cap) {
        fprintf(stderr, "too many probes\n");
        abort();
    }
    v[(*n)++] = (struct probe){opt, env};
}

static void
probes(void)
{
    for (int i = 0; i < (int)PW_N_ELEMENTS(opts); i++) {
        const struct opt *o = &opts[i];
        if (o->flag != NULL) {
            add(flags, &n_flags, (int)PW_N_ELEMENTS(flags), i, 0);
        }
        if (o->flag != NULL && o->bad != NULL && o->kind != BOOL) {
            add(bad_flags, &n_bad_flags, (int)PW_N_ELEMENTS(bad_flags), i, 0);
        }
        if (o->env[1] != NULL) {
            add(several, &n_several, (int)PW_N_ELEMENTS(several), i, 0);
        }
        for (int e = 0; e < (int)PW_N_ELEMENTS(o->env) && o->env[e]; e++) {
            add(envs, &n_envs, (int)PW_N_ELEMENTS(envs), i, e);
            if (o->bad != NULL) {
                add(bad_envs, &n_bad_envs, (int)PW_N_ELEMENTS(bad_envs), i, e);
            }
        }
    }
}

int
main(void)
{
    struct pw_error e = {0};
    PW_AUTOFREE char *dir = pw_rules_dir(NULL);
    profiles = pw_profiles_load(dir, &e);
    if (profiles == NULL) {
        fprintf(stderr, "profiles: %s\n", e.message);
        return EXIT_FAILURE;
    }
    probes();
    Suite *s = suite_create("conf");
    TCase *each = tcase_create("options");
    tcase_add_checked_fixture(each, setup, teardown);
    tcase_add_loop_test(each, defaults, 0, (int)PW_N_ELEMENTS(opts));
    tcase_add_loop_test(each, flag_sets, 0, n_flags);
    tcase_add_loop_test(each, env_sets, 0, n_envs);
    tcase_add_loop_test(each, flag_over_env, 0, n_flags);
    tcase_add_loop_test(each, pyward_over_sandbox, 0, n_several);
    tcase_add_loop_test(each, bad_flag, 0, n_bad_flags);
    tcase_add_loop_test(each, bad_env, 0, n_bad_envs);
    suite_add_tcase(s, each);
    TCase *vals = tcase_create("values");
    tcase_add_checked_fixture(vals, setup, teardown);
    tcase_add_loop_test(vals, size_values, 0, (int)PW_N_ELEMENTS(sizes));
    tcase_add_loop_test(vals, bool_values, 0, (int)PW_N_ELEMENTS(bools));
    tcase_add_loop_test(vals, seconds_values, 0, (int)PW_N_ELEMENTS(seconds));
    tcase_add_loop_test(vals, count_values, 0, (int)PW_N_ELEMENTS(counts));
    tcase_add_loop_test(vals, log_levels, 0, (int)PW_N_ELEMENTS(levels));
    suite_add_tcase(s, vals);
    TCase *cl = tcase_create("command line");
    tcase_add_checked_fixture(cl, setup, teardown);
    tcase_add_test(cl, documented_message);
    tcase_add_test(cl, bad_command_lines);
    tcase_add_test(cl, compat_names);
    tcase_add_test(cl, help);
    tcase_add_test(cl, defaults_under_maximums);
    tcase_add_test(cl, free_clears);
    tcase_add_test(cl, profile_env_names);
    tcase_add_test(cl, profile_masks);
    tcase_add_test(cl, http_only_options);
    suite_add_tcase(s, cl);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    pw_profiles_free(profiles);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
