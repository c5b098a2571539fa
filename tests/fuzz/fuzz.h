/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz.h - what the libFuzzer targets under tests/fuzz/ share: the entry
 * points every target defines, and the once-per-process set-up.
 *
 * Each target is built twice: with libFuzzer (--enable-fuzz, clang) and
 * with replay.c, a plain main() that feeds it every file named on its
 * command line, so the seed corpus and the regression inputs are replayed
 * by every `make check`.
 */
#pragma once

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerInitialize(int *argc, char ***argv);
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Start the embedded interpreter and quiet the logs; aborts on failure. */
void pw_fuzz_init_python(void);
/* The rules directory in use (PYWARD_RULES_DIR or the built-in one;
 * owned by the fuzz support code). */
const char *pw_fuzz_rules_dir(void);
/* Abort with MSG and the error text: a set-up failure, not a finding. */
void pw_fuzz_die(const char *msg, const char *detail);
