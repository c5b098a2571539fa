/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * script_meta.h - PEP 723 inline script metadata ("# /// script") checked
 * against the profiles and the embedded interpreter.
 */
#pragma once

#include <jansson.h>
#include <stddef.h>

#include "core/profiles.h"
#include "validator/ruleset.h"
#include "validator/validator.h"

/*
 * Check the dependencies and requires-python of SRC's "# /// script"
 * block (SRC may be NULL), and the dependencies DEPS (NULL-terminated or
 * NULL: execute_code's argument, reported on line 0), against SET (may
 * be NULL: dependencies are then not judged).  Each problem is a finding
 * in OUT (the rules' "dependency" and "script-metadata" events; a rule set
 * without them reports nothing).  Needs the interpreter (tomllib).
 */
void pw_script_meta_check(const struct pw_ruleset *rs,
                          const struct pw_importset *set, const char *src,
                          size_t len, const char *const *deps,
                          struct pw_diags *out);

/* The bytes of SRC's "# /// script" block once its lines are TOML (the
 * comment marks taken off), or 0 when SRC has none: what reading it
 * would parse.  No interpreter: a scan of SRC. */
size_t pw_script_meta_size(const char *src, size_t len);

/* New reference: {requires-python, dependencies} of SRC's "# /// script"
 * block (what it declares, unchecked), or NULL when SRC has none. */
json_t *pw_script_meta_read(const char *src, size_t len);

/* The profiles of ENABLED that package sets brought (on_request) and
 * whose distributions SRC's "# /// script" block or DEPS (NULL-terminated
 * or NULL) name: a run of SRC has them, whatever its call's profiles. */
pw_profile_mask pw_script_meta_sets(const struct pw_profiles *p,
                                    pw_profile_mask enabled, const char *src,
                                    size_t len, const char *const *deps);
