/*
 * rules.c - locate installed or in-tree data.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "core/rules.h"
#include "core/util.h"

static char *
beside_exe(void)
{
    PW_AUTOFREE char *dir = pw_exe_dir();
    if (dir == NULL) {
        return NULL;
    }
    char *rules = pw_xasprintf("%s/rules", dir);
    PW_AUTOFREE char *marker = pw_xasprintf("%s/profiles.json", rules);
    if (access(marker, R_OK) == 0) {
        return rules;
    }
    free(rules);
    return NULL;
}

char *
pw_rules_dir(const char *explicit_dir)
{
    if (explicit_dir != NULL) {
        return pw_xstrdup(explicit_dir);
    }
    const char *env = getenv("PYWARD_RULES_DIR");
    if (env != NULL && *env != '\0') {
        return pw_xstrdup(env);
    }
    char *local = beside_exe();
    if (local != NULL) {
        return local;
    }
    return pw_xstrdup(PW_RULES_DIR);
}
