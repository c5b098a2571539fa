#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# clang-tidy (checks in .clang-tidy, all as errors) over every C source:
# one TAP point a file.  CFLAGS for the sources come from the build.
. "${top_srcdir:-.}/tests/lib.sh"
lint_gate

CLANG_TIDY=${CLANG_TIDY:-clang-tidy}
if ! command -v "$CLANG_TIDY" >/dev/null 2>&1; then
    echo "1..0 # SKIP clang-tidy not installed"
    exit 0
fi
cd "$top_srcdir" || exit 1
if [ -d .git ] && command -v git >/dev/null 2>&1; then
    files=$(git ls-files 'src/*.c' 'validator/*.c')
else
    files=$(find src validator -name '*.c' | sort)
fi
flags="-std=gnu11 -I$top_builddir -Isrc -I. -DPW_LINT_STUBS $TIDY_CFLAGS"
for f in $files; do
    # shellcheck disable=SC2086
    if out=$("$CLANG_TIDY" --quiet "$f" -- $flags 2>&1); then
        ok "clang-tidy $f"
    else
        not_ok "clang-tidy $f" "$(printf '%s\n' "$out" | grep -v 'warnings generated' | head -30)"
    fi
done
done_testing
