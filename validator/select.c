/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * select.c - prefix selection of codes.
 */
#include "config.h"

#include <ctype.h>
#include <string.h>

#include "validator/select.h"
#include "core/util.h"

void
pw_select_init(struct pw_select *s)
{
    memset(s, 0, sizeof(*s));
}

void
pw_select_free(struct pw_select *s)
{
    for (int l = 0; l < PW_SEL_NLISTS; l++) {
        for (size_t i = 0; i < s->n[l]; i++) {
            free(s->codes[l][i]);
        }
    }
    pw_select_init(s);
}

static bool
valid_prefix(const char *p)
{
    size_t n = strlen(p);
    if (n == 0 || n > 5) {
        return false;
    }
    for (size_t i = 0; i < n; i++) {
        bool ok = i < 2 ? toupper((unsigned char)p[i]) == "PW"[i]
                        : isdigit((unsigned char)p[i]) != 0;
        if (!ok) {
            return false;
        }
    }
    return true;
}

int
pw_select_add(struct pw_select *s, enum pw_select_list which, const char *list)
{
    PW_AUTOFREE char *copy = pw_xstrdup(list);
    char *save = NULL;
    if (which == PW_SEL_SELECT) {
        s->explicit_select = true;
    }
    for (char *t = strtok_r(copy, ", \t", &save); t != NULL;
         t = strtok_r(NULL, ", \t", &save)) {
        if (!valid_prefix(t) || s->n[which] == PW_SELECT_MAX) {
            return -1;
        }
        for (char *c = t; *c != '\0'; c++) {
            *c = (char)toupper((unsigned char)*c);
        }
        s->codes[which][s->n[which]++] = pw_xstrdup(t);
    }
    return 0;
}

static size_t
longest(const struct pw_select *s, enum pw_select_list which, const char *code)
{
    size_t best = 0;
    for (size_t i = 0; i < s->n[which]; i++) {
        size_t n = strlen(s->codes[which][i]);
        if (n > best && strncmp(code, s->codes[which][i], n) == 0) {
            best = n;
        }
    }
    return best;
}

bool
pw_select_wants(const struct pw_select *s, const char *code)
{
    size_t sel = s->explicit_select ? longest(s, PW_SEL_SELECT, code)
                 : strncmp(code, "PW", 2) == 0 ? 2
                                               : 0;
    size_t esel = longest(s, PW_SEL_EXTEND_SELECT, code);
    sel = esel > sel ? esel : sel;
    size_t ign = longest(s, PW_SEL_IGNORE, code);
    size_t eign = longest(s, PW_SEL_EXTEND_IGNORE, code);
    ign = eign > ign ? eign : ign;
    return sel > 0 && sel > ign;
}
