/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * report.h - findings of a lint run over many files, and their output
 * formats (concise text, full text, json, sarif, github) and --statistics.
 *
 * A message reads "what: why; what to do".  Its concise form, the first
 * line of a finding in text output, ends at the first ": " or "; " outside
 * double quotes and brackets whose part before names something (holds a
 * quote or a bracket), else at the next such separator; the rest is the
 * hint, shown on demand.
 */
#pragma once

#include <stdio.h>

#include "validator/validator.h"

enum pw_format {
    PW_FMT_TEXT, /* concise: one line a finding */
    PW_FMT_JSON,
    PW_FMT_SARIF,
    PW_FMT_GITHUB,
    PW_FMT_FULL, /* concise line, source line with carets, hint */
};

struct pw_finding {
    size_t file; /* index into paths */
    struct pw_diag d;
    char *source; /* owned or NULL: the text of the finding's line */
};

/* What text output shows besides the concise line. */
struct pw_report_show {
    bool source;
    bool hint;
};

struct pw_report {
    char **paths; /* owned */
    size_t npaths;
    struct pw_finding *v;
    size_t n, cap;
};

void pw_report_init(struct pw_report *r);
void pw_report_free(struct pw_report *r);
/* Take every finding of D (D is left empty) for the file PATH; with SRC
 * (LEN bytes; may be NULL) each keeps the text of its line. */
void pw_report_take(struct pw_report *r, const char *path, struct pw_diags *d,
                    const char *src, size_t len);
/* The length of MSG's concise form; *HINT is set to the rest (after the
 * separator; "" when there is none). */
size_t pw_message_head(const char *msg, const char **hint);
/* Sort by path, line, column, code. */
void pw_report_sort(struct pw_report *r);
/* -1 if the name is unknown. */
int pw_format_parse(const char *name);
/* Print in FMT; RS gives the rule table for SARIF; SHOW adds to the text
 * format.  -1 if a path or message is not valid UTF-8 (JSON, SARIF) or
 * the output fails. */
int pw_report_print(FILE *out, const struct pw_report *r, enum pw_format fmt,
                    const struct pw_ruleset *rs,
                    const struct pw_report_show *show);
/* flake8-style "count code message" lines, by code. */
void pw_report_statistics(FILE *out, const struct pw_report *r);
