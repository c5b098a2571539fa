/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * batchstate.h - what a batch's process must find unchanged between two
 * tests (batchstate.c): the classes that existed when the batch began,
 * and the namespaces of the modules loaded then.
 */
#pragma once

#include <stdbool.h>

/* Before the first test: list the mutable classes (every heap type
 * reachable from object.__subclasses__) and, for each module of
 * sys.modules, its namespace, its public dicts and lists and the
 * attribute dicts of the objects it holds.  0, or -1 with a Python error
 * set. */
int pw_sbx_batch_state_take(void);
/* Record their present versions (after the guard's own reset). */
void pw_sbx_batch_state_mark(void);
/* True if a class was modified, or a dict or list listed changed, since
 * the last mark. */
bool pw_sbx_batch_state_changed(void);
