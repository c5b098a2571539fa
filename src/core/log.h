/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * log.h - diagnostics of pyward itself, on stderr only (never stdout, which
 * belongs to JSON-RPC in `serve`).
 */
#pragma once

#include "core/pyward.h"

enum pw_log_level {
    PW_LOG_DEBUG,
    PW_LOG_INFO,
    PW_LOG_WARN,
    PW_LOG_ERROR,
    PW_LOG_FATAL, /* pw_errorf: labelled "error", never filtered */
};

/* Messages below LEVEL are dropped.  Default PW_LOG_WARN. */
void pw_log_set_level(enum pw_log_level level);
enum pw_log_level pw_log_get_level(void);
/* Parse "debug", "info", "warning", "error" (MCP names too); -1 if unknown. */
int pw_log_level_parse(const char *name);

void pw_log(enum pw_log_level level, const char *fmt, ...) PW_PRINTF(2, 3);
void pw_warn(const char *fmt, ...) PW_PRINTF(1, 2);
/* Like pw_warn, appending ": strerror(errno)". */
void pw_warn_errno(const char *fmt, ...) PW_PRINTF(1, 2);

/* A failure that ends the command (it then exits non-zero): printed
 * "pyward: error: msg" whatever the level. */
void pw_errorf(const char *fmt, ...) PW_PRINTF(1, 2);
/* Like pw_errorf, appending ": strerror(errno)". */
void pw_errorf_errno(const char *fmt, ...) PW_PRINTF(1, 2);

/* Internal failures in start-up code only: print "pyward: msg" and exit 2. */
PW_NORETURN void pw_die(const char *fmt, ...) PW_PRINTF(1, 2);
PW_NORETURN void pw_die_errno(const char *fmt, ...) PW_PRINTF(1, 2);
PW_NORETURN void pw_die_oom(void);
