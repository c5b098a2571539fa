/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * mhd.h - libmicrohttpd, loaded when an HTTP listener starts.
 *
 * Only `pyward serve --http` uses it.  Linked into the binary, it and the
 * TLS libraries it needs (GnuTLS, nettle, gmp, p11-kit, ...: some forty
 * mappings) would be loaded by every pyward process, and copied into and
 * torn down with every run forked from the zygote.  The listener calls
 * the library through this table instead: pw_mhd_load fills it once, with
 * the headers' own types, and says which library or symbol is missing.
 */
#ifndef PW_SERVER_MHD_H
#define PW_SERVER_MHD_H

#include <microhttpd.h>

#include "core/pyward.h"

struct pw_mhd {
    __typeof__(&MHD_start_daemon) start_daemon;
    __typeof__(&MHD_stop_daemon) stop_daemon;
    __typeof__(&MHD_quiesce_daemon) quiesce_daemon;
    __typeof__(&MHD_get_daemon_info) get_daemon_info;
    __typeof__(&MHD_get_timeout) get_timeout;
    __typeof__(&MHD_run) run;
    __typeof__(&MHD_get_connection_info) get_connection_info;
    __typeof__(&MHD_get_connection_values) get_connection_values;
    __typeof__(&MHD_lookup_connection_value) lookup_connection_value;
    __typeof__(&MHD_suspend_connection) suspend_connection;
    __typeof__(&MHD_resume_connection) resume_connection;
    __typeof__(&MHD_create_response_from_buffer) create_response_from_buffer;
    __typeof__(&MHD_create_response_from_callback)
        create_response_from_callback;
    __typeof__(&MHD_add_response_header) add_response_header;
    __typeof__(&MHD_queue_response) queue_response;
    __typeof__(&MHD_destroy_response) destroy_response;
};

/* Filled by pw_mhd_load; all NULL before. */
extern struct pw_mhd pw_mhd;

/* Load the library (PW_MHD_SONAME) and its symbols, once; -1 with ERR
 * naming what is missing. */
int pw_mhd_load(struct pw_error *err);

#endif
