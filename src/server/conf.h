/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * conf.h - configuration of `pyward serve`: command-line flags over
 * PYWARD_* / SANDBOX_* environment variables over built-in defaults.
 *
 * Read everything here BEFORE pw_zygote_new(), which scrubs the
 * environment.
 */
#pragma once

#include <stdbool.h>

#include "core/profiles.h"
#include "core/pyward.h"

/* Largest code string a client may send (bytes). */
#define PW_MAX_CODE_BYTES (2LL * 1024 * 1024)

struct pw_conf {
    double timeout_s;           /* default per run */
    double max_timeout_s;       /* what a client may ask at most */
    long long memory;           /* default RLIMIT_AS, bytes */
    long long max_memory;       /* what a client may ask at most */
    long long max_output;       /* bytes per stream */
    long long max_code;         /* bytes of source */
    int max_concurrency;        /* runs in flight; the rest queue */
    int log_level;              /* enum pw_log_level */
    bool log_probes;            /* access-log /healthz and /readyz */
    char *rules;                /* "default", "restricted" or a DIR (owned) */
    char *profiles;             /* comma list (owned) or NULL: from env */
    bool enable_network;        /* SANDBOX_ENABLE_NETWORK */
    bool enable_filesystem;     /* SANDBOX_ENABLE_FILESYSTEM */
    bool enable_data_science;   /* SANDBOX_ENABLE_DATA_SCIENCE */
    char **allowed_imports;     /* operator's extra modules, NULL-terminated */
    char **packages;            /* package sets, NAME[:PROFILE] (owned) */
    char **packages_preload;    /* their modules the zygote imports */
    double session_ttl_s;       /* idle session expiry, default and most */
    double session_lifetime_s;  /* the longest a session lives */
    int max_sessions;           /* on this server (0: sessions off) */
    int max_sessions_per_owner; /* per client (owner) */
    char *instance_id;          /* session id prefix (owned) or NULL */
    char **only_imports;        /* SANDBOX_ALLOWED_IMPORTS: the only modules
                                   runs may import (NULL: the profiles') */
    bool container_mode;        /* SANDBOX_ENABLE_CONTAINER_MODE: every run
                                   needs the namespace layers */
    char *container_image;      /* SANDBOX_CONTAINER_IMAGE (unused, owned) */
    char *compat;               /* --compat: another server's tools (owned) */
    char *http;                 /* HOST:PORT to serve HTTP on, or NULL */
    char *auth_token_file;      /* bearer tokens, one a line (owned) */
    bool jobe;                  /* the Jobe API under /jobe (HTTP only) */
    bool skip_validation;       /* runs meet the runtime layers alone */
    char *jobe_files;           /* its file cache (owned) or NULL: one of
                                   the instance's own under $TMPDIR */
    long long jobe_files_max;   /* the bytes the cache holds at most */
    char *tmpdir;               /* $TMPDIR at start (owned), or NULL */
    long long jobe_files_quota; /* of one client's files (0: the cap
                                   shared among the keys) */
    char *jobe_keys;            /* its X-API-KEYs, one a line (owned) */
    char *event_log;            /* --event-log (owned) or NULL: default */
    bool log_code;              /* run records carry the code */
    char **allow_origins;       /* Origins allowed besides loopback ones */
    char **cors_origins;        /* Origins answered with CORS headers */
    bool lists_flagged;         /* a repeatable list was given as a flag */
    char **allow_hosts;         /* Host values allowed besides the
                                   listener's loopback names */
    char *tls_cert;             /* PEM files: HTTPS (owned) */
    char *tls_key;
    double grace_s;           /* SIGTERM: how long runs may finish */
    int max_connections;      /* HTTP requests served at once */
    int max_per_address;      /* of them from one client address (0 in
                                 the defaults: half of max_connections) */
    int max_queued;           /* runs waiting (HTTP); more get 503 */
    long long max_body;       /* bytes of an HTTP request body */
    double request_timeout_s; /* headers and body must be in by then */
    double idle_timeout_s;    /* keep-alive connection with nothing */
    bool timeout_given;       /* set explicitly (not the default) */
    bool memory_given;
    /* Not an option: the listening socket systemd passed (>= 3; --http's
     * HOST:PORT is then not used), or 0 when none was. */
    int listen_fd;
};

/*
 * Fill CFG from the defaults, the environment, then ARGV (flags win).
 * Returns 0, 1 when --help was printed (exit 0), or -1 with ERR for a
 * usage error.
 */
int pw_conf_load(struct pw_conf *cfg, int argc, char **argv,
                 struct pw_error *err);
void pw_conf_free(struct pw_conf *cfg);

/* The profile mask the operator enabled, from CFG and the profile set.
 * Returns 0, or -1 with ERR on an unknown profile name. */
int pw_conf_profile_mask(const struct pw_conf *cfg,
                         const struct pw_profiles *profiles,
                         pw_profile_mask *mask, struct pw_error *err);

/* The environment variable that enables PROFILE (SANDBOX_ENABLE_*), or
 * NULL when it has none. */
const char *pw_conf_profile_env(const char *profile);

/* Print the --help text to stdout. */
void pw_conf_usage(void);
