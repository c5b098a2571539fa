/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * listenfd.c - the listening socket a service manager passed (see
 * listenfd.h).
 *
 * Defines pw_listen_fd_*.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "server/listenfd.h"

/* VALUE as a whole non-negative decimal number, or -1. */
static long
number(const char *value)
{
    char *end = NULL;
    errno = 0;
    long n = value != NULL ? strtol(value, &end, 10) : -1;
    if (value == NULL || end == value || *end != '\0' || errno != 0 || n < 0) {
        return -1;
    }
    return n;
}

/* How many sockets were passed to this process: 0 when none (or when
 * they are another process's), -1 with ERR for a LISTEN_FDS that is not
 * a number. */
static int
passed_count(struct pw_error *err)
{
    const char *pid = getenv("LISTEN_PID");
    const char *fds = getenv("LISTEN_FDS");
    if (pid == NULL || fds == NULL || number(pid) != (long)getpid()) {
        return 0;
    }
    long n = number(fds);
    if (n < 0) {
        return pw_fail(err, PW_ERR_USAGE,
                       "socket activation: LISTEN_FDS is not a number: '%s'",
                       fds);
    }
    if (n > 1) {
        return pw_fail(err, PW_ERR_USAGE,
                       "socket activation: %ld sockets passed (LISTEN_FDS); "
                       "pyward serves one: give the socket unit a single "
                       "ListenStream=",
                       n);
    }
    return (int)n;
}

static int
sockopt(int fd, int name, int *value)
{
    socklen_t len = sizeof(*value);
    return getsockopt(fd, SOL_SOCKET, name, value, &len);
}

/* 0 if FD is a listening TCP socket, else -1 with ERR. */
static int
check_listening(int fd, struct pw_error *err)
{
    int type = 0;
    int listening = 0;
    struct sockaddr_storage ss;
    if (sockopt(fd, SO_TYPE, &type) < 0) {
        return pw_fail_errno(err, PW_ERR_USAGE,
                             "socket activation: fd %d is not a socket", fd);
    }
    if (type != SOCK_STREAM || sockopt(fd, SO_ACCEPTCONN, &listening) < 0 ||
        !listening) {
        return pw_fail(err, PW_ERR_USAGE,
                       "socket activation: fd %d is not a listening stream "
                       "socket (ListenStream=)",
                       fd);
    }
    if (pw_listen_fd_address(fd, &ss, err) < 0) {
        return -1;
    }
    if (ss.ss_family != AF_INET && ss.ss_family != AF_INET6) {
        return pw_fail(err, PW_ERR_USAGE,
                       "socket activation: fd %d is not a TCP socket (IPv4 "
                       "or IPv6); pyward does not serve a Unix socket",
                       fd);
    }
    return 0;
}

int
pw_listen_fd_take(struct pw_error *err)
{
    int n = passed_count(err);
    if (getenv("LISTEN_PID") != NULL || getenv("LISTEN_FDS") != NULL) {
        (void)unsetenv("LISTEN_PID");
        (void)unsetenv("LISTEN_FDS");
        (void)unsetenv("LISTEN_FDNAMES");
    }
    if (n <= 0) {
        return n;
    }
    int fd = PW_LISTEN_FDS_START;
    if (check_listening(fd, err) < 0) {
        return -1;
    }
    if (pw_set_cloexec(fd, true) < 0 || pw_set_nonblock(fd, true) < 0) {
        return pw_fail_errno(err, PW_ERR_IO, "socket activation: fd %d", fd);
    }
    return fd;
}

int
pw_listen_fd_address(int fd, struct sockaddr_storage *ss, struct pw_error *err)
{
    socklen_t len = sizeof(*ss);
    memset(ss, 0, sizeof(*ss));
    if (getsockname(fd, (struct sockaddr *)ss, &len) < 0) {
        return pw_fail_errno(err, PW_ERR_IO,
                             "socket activation: getsockname(fd %d)", fd);
    }
    return 0;
}
