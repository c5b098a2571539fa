/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * gate.h - does a clean tree need the compile stage at all?
 *
 * Compiling the tree costs about as much as parsing it.  CPython's
 * compiler and symbol table reject only a known set of constructs
 * (`return` or `break` in the wrong place, duplicate parameters or keyword
 * arguments, assignments to __debug__, starred targets, global and
 * nonlocal clashes, async constructs outside async functions, `match`
 * pattern errors, deep nesting, ...).  The walk offers every node to the
 * gate; a tree made only of node kinds that cannot trigger any of them
 * (checked per node where the kind alone does not settle it) and nested
 * no deeper than PW_GATE_MAX_DEPTH cannot fail to compile, so the compile
 * stage is skipped for it.  Anything else is compiled as before.
 */
#pragma once

#include <stdbool.h>

#include "validator/nodes.h"

/* Deeper trees are always compiled (the compiler's block and recursion
 * limits are far above this). */
#define PW_GATE_MAX_DEPTH 20

/* Per-kind verdicts for the node table NT (process-wide, built on first
 * use; never NULL). */
const unsigned char *pw_gate_table(const struct pw_nodes *nt);

/* True if the node ANC[DEPTH] of kind K (verdict TABLE[K]) could make the
 * compile stage fail, so the tree must be compiled. */
bool pw_gate_needs_compile(const struct pw_nodes *nt,
                           const unsigned char *table, int k,
                           const struct pw_val *anc, int depth);
