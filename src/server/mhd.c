/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * mhd.c - libmicrohttpd's functions, looked up when first needed (mhd.h).
 */
#include "config.h"

#include <dlfcn.h>
#include <stddef.h>
#include <string.h>

#include "server/mhd.h"

struct pw_mhd pw_mhd;

/* Each entry of struct pw_mhd with the symbol that fills it. */
static const struct {
    const char *name;
    size_t offset;
} symbols[] = {
#define SYM(f)                                                                \
    {                                                                         \
        "MHD_" #f, offsetof(struct pw_mhd, f)                                 \
    }
    SYM(start_daemon),
    SYM(stop_daemon),
    SYM(quiesce_daemon),
    SYM(get_daemon_info),
    SYM(get_timeout),
    SYM(run),
    SYM(get_connection_info),
    SYM(get_connection_values),
    SYM(lookup_connection_value),
    SYM(suspend_connection),
    SYM(resume_connection),
    SYM(create_response_from_buffer),
    SYM(create_response_from_callback),
    SYM(add_response_header),
    SYM(queue_response),
    SYM(destroy_response),
#undef SYM
};

int
pw_mhd_load(struct pw_error *err)
{
    static void *lib;
    if (lib != NULL) {
        return 0;
    }
    void *h = dlopen(PW_MHD_SONAME, RTLD_NOW | RTLD_LOCAL);
    if (h == NULL) {
        return pw_fail(err, PW_ERR_IO, "the HTTP listener needs %s: %s",
                       PW_MHD_SONAME, dlerror());
    }
    struct pw_mhd t;
    for (size_t i = 0; i < PW_N_ELEMENTS(symbols); i++) {
        void *sym = dlsym(h, symbols[i].name);
        if (sym == NULL) {
            dlclose(h);
            return pw_fail(err, PW_ERR_IO, "%s has no %s", PW_MHD_SONAME,
                           symbols[i].name);
        }
        /* POSIX: a function's address as dlsym's void pointer. */
        memcpy((char *)&t + symbols[i].offset, &sym, sizeof(sym));
    }
    pw_mhd = t;
    lib = h;
    return 0;
}

_Static_assert(sizeof(struct pw_mhd) ==
                   PW_N_ELEMENTS(symbols) * sizeof(void (*)(void)),
               "every entry of struct pw_mhd has its symbol");
