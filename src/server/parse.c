/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * parse.c - the parse worker (parse.h).
 *
 * One thread, started when the server is made and joined when it is
 * freed.  Two lists pass jobs between it and the loop, each under the
 * one mutex, held only to link or unlink a job (never across a parse or
 * a call out): the jobs to do (the worker waits on a condition for
 * them) and the jobs done (the worker adds to an eventfd's count for
 * each, which the loop polls).  The worker begins a job only once the
 * loop has taken the one before: at most one tree is made or waits for
 * the loop at a time, as when the loop parsed; the bodies waiting are
 * the requests' own (each counted as one being read).  A job's memory and the
 * tree it makes are touched by one thread at a time: the worker's from submit
 * until it links the job into the done list, the loop's from when it unlinks
 * it (the mutex orders the two), so jansson's reference counts and
 * objects are never shared.  jansson's hash seed is set once before the
 * thread starts (json_object_seed), so no object is ever made while
 * the seed is chosen.
 *
 * The loop forks (validator processes, the zygote's helpers).  A child
 * holds a copy of this process with the loop's thread alone: it never
 * touches the worker, its lists or its mutex (the mutex may be copied
 * held).  The worker itself allocates with malloc, which glibc keeps
 * usable in a child across fork (its arenas' locks are taken around
 * fork), and jansson keeps no lock of its own.  Every signal is blocked
 * in the worker: they go to the loop's thread, whose ppoll takes them.
 */
#include "config.h"

#include <errno.h>
#include <jansson.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include "core/log.h"
#include "core/pyward.h"
#include "core/util.h"
#include "server/parse.h"

struct list {
    struct pw_parse_job *head, *tail;
};

struct pw_parse {
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;
    struct list todo; /* under MU */
    struct list done; /* under MU */
    bool stop;        /* under MU */
    /* Under MU: the turn of the job begun last, and its owner while it
     * is worked on (WORKING). */
    unsigned long long turn;
    unsigned long long owner;
    bool working;
    int efd;
    unsigned pending; /* the loop's: given, not yet handed back */
};

static void
push(struct list *l, struct pw_parse_job *j)
{
    j->next = NULL;
    if (l->tail != NULL) {
        l->tail->next = j;
    } else {
        l->head = j;
    }
    l->tail = j;
}

static struct pw_parse_job *
pop(struct list *l)
{
    struct pw_parse_job *j = l->head;
    if (j != NULL) {
        l->head = j->next;
        if (l->head == NULL) {
            l->tail = NULL;
        }
        j->next = NULL;
    }
    return j;
}

/* The job of L whose turn it is taken off L: the lowest turn, the first
 * given of those; NULL if L is empty. */
static struct pw_parse_job *
take_turn(struct list *l)
{
    struct pw_parse_job **best = &l->head;
    struct pw_parse_job *prev = NULL, *best_prev = NULL;
    for (struct pw_parse_job **at = &l->head; *at != NULL;
         prev = *at, at = &(*at)->next) {
        if ((*at)->turn < (*best)->turn) {
            best = at;
            best_prev = prev;
        }
    }
    struct pw_parse_job *j = *best;
    if (j != NULL) {
        *best = j->next;
        if (l->tail == j) {
            l->tail = best_prev;
        }
        j->next = NULL;
    }
    return j;
}

static void *
worker(void *arg)
{
    struct pw_parse *p = arg;
    for (;;) {
        pthread_mutex_lock(&p->mu);
        /* One tree at a time: the next parse begins once the loop has
         * taken the last one. */
        while (!p->stop && (p->todo.head == NULL || p->done.head != NULL)) {
            pthread_cond_wait(&p->cv, &p->mu);
        }
        struct pw_parse_job *j = p->stop ? NULL : take_turn(&p->todo);
        if (j != NULL) {
            p->turn = j->turn > p->turn ? j->turn : p->turn;
            p->owner = j->owner;
            p->working = true;
        }
        pthread_mutex_unlock(&p->mu);
        if (j == NULL) {
            return NULL;
        }
        j->work(j);
        pthread_mutex_lock(&p->mu);
        p->working = false;
        push(&p->done, j);
        pthread_mutex_unlock(&p->mu);
        uint64_t one = 1;
        (void)PW_RETRY(write(p->efd, &one, sizeof(one)));
    }
}

struct pw_parse *
pw_parse_new(void)
{
    struct pw_parse *p = pw_xcalloc(1, sizeof(*p));
    p->efd = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
    if (p->efd < 0) {
        pw_warn_errno("the parse worker's eventfd");
        free(p);
        return NULL;
    }
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    json_object_seed(0);
    sigset_t all, old;
    sigfillset(&all);
    pthread_sigmask(SIG_SETMASK, &all, &old);
    int rc = pthread_create(&p->thread, NULL, worker, p);
    pthread_sigmask(SIG_SETMASK, &old, NULL);
    if (rc != 0) {
        errno = rc;
        pw_warn_errno("the parse worker");
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
        (void)close(p->efd);
        free(p);
        return NULL;
    }
    return p;
}

void
pw_parse_free(struct pw_parse *p)
{
    if (p == NULL) {
        return;
    }
    pthread_mutex_lock(&p->mu);
    p->stop = true;
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    pthread_join(p->thread, NULL); /* after the job it is on, if any */
    struct pw_parse_job *j;
    while ((j = pop(&p->done)) != NULL || (j = pop(&p->todo)) != NULL) {
        j->done(j, true);
    }
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    (void)close(p->efd);
    free(p);
}

int
pw_parse_fd(const struct pw_parse *p)
{
    return p != NULL && p->pending > 0 ? p->efd : -1;
}

void
pw_parse_submit(struct pw_parse *p, struct pw_parse_job *j)
{
    p->pending++;
    pthread_mutex_lock(&p->mu);
    /* The turn after its owner's last job still waiting or worked on, or
     * the current one: an owner with nothing waiting goes before those
     * with more. */
    j->turn = p->working && p->owner == j->owner ? p->turn + 1 : p->turn;
    for (const struct pw_parse_job *o = p->todo.head; o != NULL; o = o->next) {
        if (o->owner == j->owner && o->turn >= j->turn) {
            j->turn = o->turn + 1;
        }
    }
    push(&p->todo, j);
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
}

void
pw_parse_collect(struct pw_parse *p)
{
    uint64_t n;
    if (p == NULL || PW_RETRY(read(p->efd, &n, sizeof(n))) < 0) {
        return;
    }
    pthread_mutex_lock(&p->mu);
    struct list done = p->done;
    p->done = (struct list){NULL, NULL};
    pthread_cond_signal(&p->cv);
    pthread_mutex_unlock(&p->mu);
    struct pw_parse_job *j;
    while ((j = pop(&done)) != NULL) {
        p->pending--;
        j->done(j, false);
    }
}

unsigned
pw_parse_pending(const struct pw_parse *p)
{
    return p != NULL ? p->pending : 0;
}
