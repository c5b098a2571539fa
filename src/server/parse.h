/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * parse.h - the parse worker: one thread that parses a large request's
 * JSON off the loop (an /mcp body or a stdio line of PW_PARSE_MIN bytes
 * or more, a Jobe run's spec) and hands the tree back through an fd the
 * loop polls.
 *
 * A job is a struct the caller embeds a struct pw_parse_job in (first).
 * WORK runs on the worker: it may use only the job's own memory, jansson
 * and the C library (never the interpreter, never any state of the
 * loop's).  DONE runs on the loop when the job is handed back, in the
 * order the jobs were parsed: the jobs of different owners (clients)
 * take turns, one each, an owner's own in the order given, so that one
 * client's many large bodies do not hold up another's; from then on the
 * job and the tree it made
 * are the loop's only.  A job belongs to the worker from pw_parse_submit
 * until its DONE: the loop neither reads nor frees it meanwhile.
 */
#pragma once

#include <stdbool.h>

/* Bodies and lines of at least this many bytes are parsed by the worker;
 * shorter ones at once on the loop: 16 KiB of small nested lists, the
 * costliest JSON per byte, took 0.5 ms to parse here, 16 KiB of a string
 * 0.2 ms (64 KiB: 2.5 ms and 0.9 ms). */
#define PW_PARSE_MIN (16u * 1024)

struct pw_parse;
struct pw_parse_job;

struct pw_parse_job {
    /* On the worker. */
    void (*work)(struct pw_parse_job *j);
    /* On the loop: STOPPING is true when the worker is being freed (the
     * job is to free itself and what it made, nothing more). */
    void (*done)(struct pw_parse_job *j, bool stopping);
    unsigned long long owner;  /* the caller's: whose job (a client) */
    unsigned long long turn;   /* the worker's: the lowest goes first */
    struct pw_parse_job *next; /* the worker's */
};

/* The worker, started (owned), or NULL with a warning when no thread
 * could be made (bodies are then parsed on the loop). */
struct pw_parse *pw_parse_new(void);
/* Stop and join the worker; every job not yet handed back gets its DONE
 * with STOPPING. */
void pw_parse_free(struct pw_parse *p);
/* The fd to poll for POLLIN: jobs are done. */
int pw_parse_fd(const struct pw_parse *p);
/* Give J to the worker. */
void pw_parse_submit(struct pw_parse *p, struct pw_parse_job *j);
/* Call DONE of every job handed back (when the fd is readable). */
void pw_parse_collect(struct pw_parse *p);
/* Jobs given and not yet handed back. */
unsigned pw_parse_pending(const struct pw_parse *p);
