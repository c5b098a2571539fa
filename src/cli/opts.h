/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * opts.h - what the commands that run code (`run`, `judge`) read from
 * their options alike.
 */
#pragma once

#include <stddef.h>

#include "core/profiles.h"
#include "core/pyward.h"
#include "validator/validator.h"

/* Append ",NAME" to the profile list LIST (LEN bytes); -1 if it would
 * not fit (the caller prints its usage). */
int pw_cli_add_profile(char *list, size_t len, const char *name);

/* The rule set of a --rules RULES option (NULL: "default"): a set name,
 * or a directory of rule files validated with the default set; the
 * shipped rules are in RULES_DIR.  NULL with ERR. */
struct pw_ruleset *pw_cli_ruleset(const char *rules, const char *rules_dir,
                                  struct pw_error *err);

/* The profiles the zygote of CODE (LEN bytes) needs of MASK: the light
 * ones alone (pw_profiles_light_mask) if CODE passes RS's checks with
 * them, so that a program that imports no third-party package does not
 * wait for numpy, pandas and matplotlib to load; MASK otherwise, or with
 * no rules (--skip-validation).  The run's capabilities stay MASK's. */
pw_profile_mask pw_cli_light_mask(const struct pw_ruleset *rs,
                                  const struct pw_profiles *profiles,
                                  pw_profile_mask mask, const char *code,
                                  size_t len);
