/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * report.h - findings of a lint run over many files, and their output
 * formats (text, json, sarif, github) and --statistics.
 */
#pragma once

#include <stdio.h>

#include "validator/validator.h"

enum pw_format { PW_FMT_TEXT, PW_FMT_JSON, PW_FMT_SARIF, PW_FMT_GITHUB };

struct pw_finding {
    size_t file; /* index into paths */
    struct pw_diag d;
};

struct pw_report {
    char **paths; /* owned */
    size_t npaths;
    struct pw_finding *v;
    size_t n, cap;
};

void pw_report_init(struct pw_report *r);
void pw_report_free(struct pw_report *r);
/* Take every finding of D (D is left empty) for the file PATH. */
void pw_report_take(struct pw_report *r, const char *path, struct pw_diags *d);
/* Sort by path, line, column, code. */
void pw_report_sort(struct pw_report *r);
/* -1 if the name is unknown. */
int pw_format_parse(const char *name);
/* Print in FMT; RS gives the rule table for SARIF.  -1 if a path or
 * message is not valid UTF-8 (JSON, SARIF) or the output fails. */
int pw_report_print(FILE *out, const struct pw_report *r, enum pw_format fmt,
                    const struct pw_ruleset *rs);
/* flake8-style "count code message" lines, by code. */
void pw_report_statistics(FILE *out, const struct pw_report *r);
