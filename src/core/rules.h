/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * rules.h - where pyward finds its data at run time.
 */
#pragma once

/*
 * The rules directory, in order: EXPLICIT (a --rules DIR flag) if non-NULL,
 * $PYWARD_RULES_DIR, rules/ beside the executable (an uninstalled build in
 * the source tree), the source tree's rules/ for an executable of an
 * uninstalled build made outside it (`../configure` in a build
 * directory: the executable lies under that build directory), then the
 * installed $(pkgdatadir)/rules.
 * Returns an owned string; never NULL.
 */
char *pw_rules_dir(const char *explicit_dir);
/* The same for an executable in EXE_DIR (NULL: unknown). */
char *pw_rules_dir_for(const char *explicit_dir, const char *exe_dir);
