/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * pyward.h - attributes, helpers and the error record shared by every module.
 *
 * Ownership conventions (see README, "Hacking"):
 *   _new / _load return an owned object; _get returns a borrowed one;
 *   _take steals its argument.  Owned locals are declared with one of the
 *   cleanup macros below and leave the scope only through pw_steal().
 */
#pragma once

#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

#define PW_NORETURN          __attribute__((noreturn))
#define PW_PRINTF(FMT, ARGS) __attribute__((format(printf, FMT, ARGS)))
#define PW_UNUSED            __attribute__((unused))
#define PW_WUR               __attribute__((warn_unused_result))

#define PW_N_ELEMENTS(ARR) (sizeof(ARR) / sizeof((ARR)[0]))

/* Retry a system call interrupted by a signal (bubblewrap). */
#define PW_RETRY(EXPR)                                                        \
    ({                                                                        \
        long pw_retry_rc_;                                                    \
        do {                                                                  \
            pw_retry_rc_ = (long)(EXPR);                                      \
        } while (pw_retry_rc_ == -1 && errno == EINTR);                       \
        pw_retry_rc_;                                                         \
    })

/* Move ownership out of a cleanup-managed local: returns *PP, sets it NULL. */
#define pw_steal(PP)                                                          \
    ({                                                                        \
        __typeof__(*(PP)) pw_steal_tmp_ = *(PP);                              \
        *(PP) = NULL;                                                         \
        pw_steal_tmp_;                                                        \
    })

static inline void
pw_freep(void *p)
{
    free(*(void **)p);
}

static inline void
pw_closep(int *fd)
{
    if (*fd >= 0) {
        (void)close(*fd);
    }
}

#define PW_AUTOFREE __attribute__((cleanup(pw_freep)))
#define PW_AUTOFD   __attribute__((cleanup(pw_closep)))

/*
 * An error on the request path: filled by the failing function, which then
 * returns -1 or NULL.  line/col are 1-based and 0 when they do not apply.
 */
enum pw_errcode {
    PW_ERR_NONE = 0,
    PW_ERR_USAGE,    /* bad arguments from the caller */
    PW_ERR_INPUT,    /* bad input data (source, JSON, rule file) */
    PW_ERR_IO,       /* reading or writing a file or pipe */
    PW_ERR_PYTHON,   /* the embedded interpreter raised */
    PW_ERR_SANDBOX,  /* an isolation layer could not be installed */
    PW_ERR_INTERNAL, /* pyward's own bug */
};

struct pw_error {
    enum pw_errcode code;
    int line;
    int col;
    char message[512];
};

/* Fill ERR (may be NULL) and return -1, so callers can `return pw_fail(...)`.
 */
int pw_fail(struct pw_error *err, enum pw_errcode code, const char *fmt, ...)
    PW_PRINTF(3, 4);
/* Same, appending ": strerror(errno)". */
int pw_fail_errno(struct pw_error *err, enum pw_errcode code, const char *fmt,
                  ...) PW_PRINTF(3, 4);
