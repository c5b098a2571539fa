/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * listenfd.h - a listening socket passed by a service manager (systemd's
 * socket activation; the protocol of sd_listen_fds(3), read here without
 * libsystemd): LISTEN_PID names the process the sockets are for,
 * LISTEN_FDS how many there are, from fd 3 on.
 */
#pragma once

#include <sys/socket.h>

#include "core/pyward.h"

#define PW_LISTEN_FDS_START 3 /* SD_LISTEN_FDS_START */

/* The socket passed to this process, if any.  Returns its fd (made
 * close-on-exec and non-blocking), 0 when none was passed (LISTEN_PID
 * unset or naming another process, LISTEN_FDS unset or 0), or -1 with
 * ERR when what was passed cannot be served: LISTEN_FDS not a number,
 * more than one socket, or fd 3 not a listening TCP socket (IPv4 or
 * IPv6).  Read it before the environment is scrubbed; LISTEN_PID,
 * LISTEN_FDS and LISTEN_FDNAMES are unset once read. */
int pw_listen_fd_take(struct pw_error *err);

/* The address FD is bound to, into SS.  0, or -1 with ERR. */
int pw_listen_fd_address(int fd, struct sockaddr_storage *ss,
                         struct pw_error *err);
