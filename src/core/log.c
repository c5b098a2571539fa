/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * log.c - pyward's own messages, to stderr.
 *
 * Defines pw_log_* and the pw_warn, pw_die and pw_fail families.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "core/log.h"

static enum pw_log_level current_level = PW_LOG_WARN;

static const char *const level_names[] = {
    [PW_LOG_DEBUG] = "debug",  [PW_LOG_INFO] = "info",
    [PW_LOG_WARN] = "warning", [PW_LOG_ERROR] = "error",
    [PW_LOG_FATAL] = "error",
};

void
pw_log_set_level(enum pw_log_level level)
{
    current_level = level;
}

enum pw_log_level
pw_log_get_level(void)
{
    return current_level;
}

int
pw_log_level_parse(const char *name)
{
    static const struct {
        const char *name;
        enum pw_log_level level;
    } table[] = {
        {"debug", PW_LOG_DEBUG},     {"info", PW_LOG_INFO},
        {"notice", PW_LOG_INFO},     {"warning", PW_LOG_WARN},
        {"warn", PW_LOG_WARN},       {"error", PW_LOG_ERROR},
        {"critical", PW_LOG_ERROR},  {"alert", PW_LOG_ERROR},
        {"emergency", PW_LOG_ERROR},
    };
    for (size_t i = 0; i < PW_N_ELEMENTS(table); i++) {
        if (strcasecmp(name, table[i].name) == 0) {
            return (int)table[i].level;
        }
    }
    return -1;
}

static void
vlog(enum pw_log_level level, int errnum, const char *fmt, va_list ap)
{
    char buf[1024];
    int n = vsnprintf(buf, sizeof(buf), fmt, ap);
    if (n < 0) {
        return;
    }
    const char *sep = level == PW_LOG_ERROR ? "" : ": ";
    const char *name = level == PW_LOG_ERROR ? "" : level_names[level];
    if (errnum != 0) {
        fprintf(stderr, "pyward: %s%s%s: %s\n", name, sep, buf,
                strerror(errnum));
    } else {
        fprintf(stderr, "pyward: %s%s%s\n", name, sep, buf);
    }
}

void
pw_log(enum pw_log_level level, const char *fmt, ...)
{
    if (level < current_level) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vlog(level, 0, fmt, ap);
    va_end(ap);
}

void
pw_warn(const char *fmt, ...)
{
    if (PW_LOG_WARN < current_level) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vlog(PW_LOG_WARN, 0, fmt, ap);
    va_end(ap);
}

void
pw_warn_errno(const char *fmt, ...)
{
    int saved = errno;
    if (PW_LOG_WARN < current_level) {
        return;
    }
    va_list ap;
    va_start(ap, fmt);
    vlog(PW_LOG_WARN, saved, fmt, ap);
    va_end(ap);
}

void
pw_errorf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(PW_LOG_FATAL, 0, fmt, ap);
    va_end(ap);
}

void
pw_errorf_errno(const char *fmt, ...)
{
    int saved = errno;
    va_list ap;
    va_start(ap, fmt);
    vlog(PW_LOG_FATAL, saved, fmt, ap);
    va_end(ap);
}

void
pw_die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(PW_LOG_ERROR, 0, fmt, ap);
    va_end(ap);
    exit(2);
}

void
pw_die_errno(const char *fmt, ...)
{
    int saved = errno;
    va_list ap;
    va_start(ap, fmt);
    vlog(PW_LOG_ERROR, saved, fmt, ap);
    va_end(ap);
    exit(2);
}

void
pw_die_oom(void)
{
    static const char msg[] = "pyward: out of memory\n";
    (void)!write(STDERR_FILENO, msg, sizeof(msg) - 1);
    _exit(2);
}

int
pw_fail(struct pw_error *err, enum pw_errcode code, const char *fmt, ...)
{
    if (err != NULL) {
        va_list ap;
        va_start(ap, fmt);
        err->code = code;
        (void)vsnprintf(err->message, sizeof(err->message), fmt, ap);
        va_end(ap);
    }
    return -1;
}

int
pw_fail_errno(struct pw_error *err, enum pw_errcode code, const char *fmt, ...)
{
    int saved = errno;
    if (err != NULL) {
        char buf[400];
        va_list ap;
        va_start(ap, fmt);
        (void)vsnprintf(buf, sizeof(buf), fmt, ap);
        va_end(ap);
        err->code = code;
        (void)snprintf(err->message, sizeof(err->message), "%s: %s", buf,
                       strerror(saved));
    }
    errno = saved;
    return -1;
}
