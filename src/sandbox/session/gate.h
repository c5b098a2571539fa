/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * gate.h - the fork gate (gate.c): which process's hello fork_session
 * (fork.c) takes for the copy the server asked for.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

/* Most children a forker may have when its clone is let through; a
 * session and its copies are at most session_nproc processes
 * (rules/seccomp.json). */
#define PW_SBX_GATE_MAX 256

struct pw_sbx_gate {
    pid_t forker;
    int let;   /* clones let through */
    int taken; /* hellos admitted */
    int nbefore;
    pid_t before[PW_SBX_GATE_MAX]; /* the forker's children at the first */
    pid_t admitted[4];
};

/* Before the server lets through a clone of FORKER (the thread FORKER of
 * the process FORKER, stopped in the call): the first time, the
 * processes FORKER made before (its children); each time, room for one
 * more hello.  G starts zeroed.  0, or -1 with errno (the clone must not
 * go on). */
int pw_sbx_gate_let(struct pw_sbx_gate *g, pid_t forker);

/* Whether the hello PID (the calling thread the listener reported) comes
 * from a process one of the clones let through made: a child of the
 * forker's thread that was not its child when the gate was first let
 * (a thread is nobody's child; a process the forker made before, or one
 * that another process made, is not new), not admitted already, and no
 * more hellos than clones let through.  Admitted from then on. */
bool pw_sbx_gate_admits(struct pw_sbx_gate *g, pid_t pid);
