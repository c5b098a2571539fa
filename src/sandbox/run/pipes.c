/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * pipes.c - the four channels of a run: stdin, stdout, stderr (pipes)
 * and the result channel (a socket pair: it also carries fds).
 */
#include "config.h"

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

#include "sandbox/run/pipes.h"

int
pw_sbx_pipes_new(int p[4][2], struct pw_error *err)
{
    for (int i = 0; i < 4; i++) {
        p[i][0] = p[i][1] = -1;
    }
    for (int i = 0; i < 3; i++) {
        if (pipe2(p[i], O_CLOEXEC) < 0) {
            return pw_fail_errno(err, PW_ERR_SANDBOX, "pipe2");
        }
    }
    /* The result channel also carries the workspace fd (SCM_RIGHTS). */
    if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, p[3]) < 0) {
        return pw_fail_errno(err, PW_ERR_SANDBOX, "socketpair");
    }
    return 0;
}

void
pw_sbx_pipes_close(int p[4][2], int side)
{
    for (int i = 0; i < 4; i++) {
        if (p[i][side] >= 0) {
            close(p[i][side]);
            p[i][side] = -1;
        }
    }
}
