/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz-common.c - set-up shared by the fuzz targets.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>

#include "fuzz.h"
#include "core/json.h"
#include "core/log.h"
#include "core/rules.h"
#include "core/py.h"

void
pw_fuzz_die(const char *msg, const char *detail)
{
    (void)fprintf(stderr, "fuzz set-up: %s: %s\n", msg,
                  detail != NULL ? detail : "");
    abort();
}

void
pw_fuzz_init_python(void)
{
    struct pw_error err = {0};
    pw_json_init();
    pw_log_set_level(PW_LOG_ERROR);
    if (pw_py_init(&err) < 0) {
        pw_fuzz_die("python", err.message);
    }
}

const char *
pw_fuzz_rules_dir(void)
{
    static char *dir;
    if (dir == NULL) {
        dir = pw_rules_dir(NULL);
    }
    return dir;
}
