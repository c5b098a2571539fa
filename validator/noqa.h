/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * noqa.h - `# noqa` comments (lint mode only; never applied by pw_validate).
 *
 *   x = 1  # noqa                 every finding on this line
 *   x = 1  # noqa: PW201,PW3      findings whose code starts with a listed
 *                                 prefix
 *   # pyward: noqa                anywhere: the whole file is skipped
 */
#pragma once

#include <stdbool.h>

#include "validator/validator.h"

/* True if some line carries the file-level "# pyward: noqa". */
bool pw_noqa_file(const char *src, size_t len);
/* Remove the findings a "# noqa" comment on their line suppresses. */
void pw_noqa_apply(struct pw_diags *d, const char *src, size_t len);
/* Whether the line [LINE, LINE+N) suppresses CODE. */
bool pw_noqa_line(const char *line, size_t n, const char *code);
