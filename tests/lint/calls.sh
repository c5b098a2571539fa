#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The calls between the C files under src/ and validator/ (what
# tests/lint/layers.sh cannot see from the includes): every call points
# down the areas, cli -> server -> grade -> {validator, sandbox} -> core,
# and no two or more files call each other in a cycle beyond those
# tests/lint/calls.baseline lists (the cycles still to break; a broken one
# leaves the list).  The graph: tests/lint/calls.py.
. "${top_srcdir:-.}/tests/lib.sh"
lint_gate

cd "$top_srcdir" || exit 1
if ! command -v ctags >/dev/null 2>&1 ||
    ! ctags --version 2>/dev/null | grep -q 'Universal Ctags'; then
    echo "1..0 # SKIP Universal Ctags not installed (Debian: universal-ctags)"
    exit 0
fi
# The programs' own files: guardc.c is a build tool of its own.
files=$(find src validator -name '*.c' ! -name guardc.c | LC_ALL=C sort)
if [ -z "$files" ]; then
    not_ok "the source files are found" "no .c under $top_srcdir/src"
    done_testing
fi
# shellcheck disable=SC2086
exec "${PYTHON3:-python3}" tests/lint/calls.py tests/lint/calls.baseline $files
