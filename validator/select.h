/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * select.h - which codes to report: --select / --ignore / --extend-select /
 * --extend-ignore, by code prefix; the longest matching prefix decides,
 * and a tie goes to ignore (flake8's DecisionEngine).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

enum pw_select_list {
    PW_SEL_SELECT,
    PW_SEL_IGNORE,
    PW_SEL_EXTEND_SELECT,
    PW_SEL_EXTEND_IGNORE,
    PW_SEL_NLISTS,
};

#define PW_SELECT_MAX 64

struct pw_select {
    char *codes[PW_SEL_NLISTS][PW_SELECT_MAX]; /* owned */
    size_t n[PW_SEL_NLISTS];
    bool explicit_select;
};

void pw_select_init(struct pw_select *s);
void pw_select_free(struct pw_select *s);
/* Add the comma-separated prefixes in LIST; -1 if one is not a code
 * prefix ("PW", "PW2", "PW201") or there are too many. */
int pw_select_add(struct pw_select *s, enum pw_select_list which,
                  const char *list);
bool pw_select_wants(const struct pw_select *s, const char *code);
