/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * batch.h - run several requests through the sandbox at once, up to a
 * number in flight, and collect their results in request order.
 */
#pragma once

#include <jansson.h>
#include <stddef.h>

#include "sandbox/sandbox.h"

/* Run the N requests REQS on Z with at most JOBS children at a time.
 * RESULTS[i] gets a new reference to request i's result (the
 * execute_code fields); a run the sandbox could not start gets
 * {"status": "internal_error", "error": {"message": ...}}. */
void pw_batch_run(struct pw_zygote *z, const struct pw_sbx_request *reqs,
                  size_t n, int jobs, json_t **results);

/* The number of runs worth having in flight on this host (its CPUs). */
int pw_batch_jobs_default(void);
