/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * gate.c - the fork gate: a copy's hello is taken from the process the
 * server just let a session clone, and from no other.
 *
 * The processes that share a session's PID namespace are its family: the
 * session, its copies and their init.  Any of them may have run code
 * that got past the interpreter's layers, so its own word is worth
 * nothing, and its parent is no proof either: the copies a session made
 * before are its children as much as the one it makes now.  What tells
 * the new process apart is the kernel's list of the forker's children
 * (/proc/PID/task/TID/children): taken while the forker waits, stopped,
 * in the clone the server is about to let through, it holds every
 * process it made before; nothing but that clone can add a child to it
 * (every other clone is a refused call, and the forker is no subreaper);
 * a thread is on no such list.  A hello is admitted from a process on
 * the list now and not then, one per clone let through.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/util.h"
#include "sandbox/session/gate.h"

/* The children of FORKER's thread FORKER into OUT (at most MAX): their
 * number, or -1 with errno. */
static int
children(pid_t forker, pid_t *out, int max)
{
    char path[64];
    char buf[PW_SBX_GATE_MAX * 12 + 1];
    snprintf(path, sizeof(path), "/proc/%d/task/%d/children", (int)forker,
             (int)forker);
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    size_t len = 0;
    ssize_t n = 0;
    while (len < sizeof(buf) - 1 &&
           (n = PW_RETRY(read(fd, buf + len, sizeof(buf) - 1 - len))) > 0) {
        len += (size_t)n;
    }
    int e = errno;
    close(fd);
    if (n < 0) {
        errno = e;
        return -1;
    }
    if (len == sizeof(buf) - 1) {
        errno = E2BIG;
        return -1;
    }
    buf[len] = '\0';
    int count = 0;
    for (char *p = buf, *end; *p != '\0'; p = end) {
        long v = strtol(p, &end, 10);
        if (end == p) {
            break;
        }
        if (count == max) {
            errno = E2BIG;
            return -1;
        }
        out[count++] = (pid_t)v;
    }
    return count;
}

static bool
holds(const pid_t *list, int n, pid_t pid)
{
    for (int i = 0; i < n; i++) {
        if (list[i] == pid) {
            return true;
        }
    }
    return false;
}

int
pw_sbx_gate_let(struct pw_sbx_gate *g, pid_t forker)
{
    if (forker <= 0 || (g->let > 0 && forker != g->forker) ||
        g->let >= (int)PW_N_ELEMENTS(g->admitted)) {
        errno = EINVAL;
        return -1;
    }
    if (g->let == 0) {
        int n = children(forker, g->before, PW_SBX_GATE_MAX);
        if (n < 0) {
            return -1;
        }
        g->forker = forker;
        g->nbefore = n;
    }
    g->let++;
    return 0;
}

bool
pw_sbx_gate_admits(struct pw_sbx_gate *g, pid_t pid)
{
    if (g->let == 0 || g->taken >= g->let || pid <= 0 || pid == g->forker ||
        holds(g->before, g->nbefore, pid) ||
        holds(g->admitted, g->taken, pid)) {
        return false;
    }
    pid_t now[PW_SBX_GATE_MAX];
    int n = children(g->forker, now, PW_SBX_GATE_MAX);
    if (n < 0 || !holds(now, n, pid)) {
        return false;
    }
    g->admitted[g->taken++] = pid;
    return true;
}
