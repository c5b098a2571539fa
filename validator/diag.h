/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * diag.h - helpers on the findings list beyond validator.h.
 */
#pragma once

#include "validator/validator.h"

/* Append a finding; takes MESSAGE (owned). */
void pw_diags_add(struct pw_diags *d, const char *code, const char *rule,
                  char *message, int line, int col, int end_line, int end_col);
/* Append a copy of each finding of FROM to TO. */
void pw_diags_copy(struct pw_diags *to, const struct pw_diags *from);
/* Remove the finding at index I, keeping the order of the others. */
void pw_diags_remove(struct pw_diags *d, size_t i);
/* Order by line, column, code. */
int pw_diag_cmp(const struct pw_diag *a, const struct pw_diag *b);
/* New reference: one finding as an object. */
json_t *pw_diag_to_json(const struct pw_diag *g);
