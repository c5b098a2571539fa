/*
 * rules.h - where pyward finds its data at run time.
 */
#pragma once

/*
 * The rules directory, in order: EXPLICIT (a --rules DIR flag) if non-NULL,
 * $PYWARD_RULES_DIR, rules/ beside the executable (an uninstalled build in
 * the source tree), then the installed $(pkgdatadir)/rules.
 * Returns an owned string; never NULL.
 */
char *pw_rules_dir(const char *explicit_dir);
