/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * rules.c - locate installed or in-tree data (pw_rules_dir).
 */
#include "config.h"

#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/rules.h"
#include "core/util.h"

/* An uninstalled build's source and build trees (from the Makefile);
 * empty when built some other way. */
#ifndef PW_SRC_RULES_DIR
#define PW_SRC_RULES_DIR ""
#endif
#ifndef PW_BUILD_DIR
#define PW_BUILD_DIR ""
#endif

static bool
has_rules(const char *dir)
{
    PW_AUTOFREE char *marker = pw_xasprintf("%s/profiles.json", dir);
    return access(marker, R_OK) == 0;
}

/* True if DIR is TOP or lies under it. */
static bool
under(const char *dir, const char *top)
{
    size_t n = strlen(top);
    return n > 0 && strncmp(dir, top, n) == 0 &&
           (dir[n] == '\0' || dir[n] == '/');
}

char *
pw_rules_dir_for(const char *explicit_dir, const char *exe_dir)
{
    if (explicit_dir != NULL) {
        return pw_xstrdup(explicit_dir);
    }
    const char *env = getenv("PYWARD_RULES_DIR");
    if (env != NULL && *env != '\0') {
        return pw_xstrdup(env);
    }
    if (exe_dir != NULL) {
        char *beside = pw_xasprintf("%s/rules", exe_dir);
        if (has_rules(beside)) {
            return beside;
        }
        free(beside);
        if (under(exe_dir, PW_BUILD_DIR) && has_rules(PW_SRC_RULES_DIR)) {
            return pw_xstrdup(PW_SRC_RULES_DIR);
        }
    }
    return pw_xstrdup(PW_RULES_DIR);
}

char *
pw_rules_dir(const char *explicit_dir)
{
    PW_AUTOFREE char *exe_dir = pw_exe_dir();
    return pw_rules_dir_for(explicit_dir, exe_dir);
}
