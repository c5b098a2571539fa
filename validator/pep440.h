/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * pep440.h - PEP 440 versions and version specifiers: an installed
 * distribution's version against a PEP 508 requirement's specifier
 * ("==1.4.*", ">=2,<3", "~=0.9", "!=1.0").
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>

/*
 * Does VERSION satisfy every clause of SPEC (comma-separated; empty:
 * yes)?  1 yes, 0 no, -1 SPEC or VERSION is not PEP 440 (then WHY, of
 * SIZE bytes, says which).  Operators: ==, !=, <=, >=, <, >, ~=, === and
 * "==X.*"/"!=X.*"; local labels ("+ubuntu1") are ignored unless the
 * clause names one; a pre-release is compared by its order, whatever the
 * clause says of pre-releases (the version is installed, not chosen).
 */
int pw_pep440_satisfies(const char *version, const char *spec, char *why,
                        size_t size);
