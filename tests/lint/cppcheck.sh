#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# cppcheck finds no warning, style, performance or portability problem.
. "${top_srcdir:-.}/tests/lib.sh"
lint_gate

if ! command -v cppcheck >/dev/null 2>&1; then
    echo "1..0 # SKIP cppcheck not installed"
    exit 0
fi
cd "$top_srcdir" || exit 1
for dir in src validator; do
    if out=$(cppcheck --quiet --enable=warning,performance,portability \
        --std=c11 --library=posix --library=python --inline-suppr \
        --suppressions-list=tests/supp/cppcheck.supp \
        --error-exitcode=1 -I src -I . -D__GNUC__ -DPW_LINT_STUBS \
        "$dir" 2>&1); then
        ok "cppcheck $dir"
    else
        not_ok "cppcheck $dir" "$out"
    fi
done
done_testing
