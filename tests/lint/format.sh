#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every C source is formatted as .clang-format says (one TAP point a file).
. "${top_srcdir:-.}/tests/lib.sh"
lint_gate

CLANG_FORMAT=${CLANG_FORMAT:-clang-format}
if ! command -v "$CLANG_FORMAT" >/dev/null 2>&1; then
    echo "1..0 # SKIP clang-format not installed"
    exit 0
fi
cd "$top_srcdir" || exit 1
if [ -d .git ] && command -v git >/dev/null 2>&1; then
    files=$(git ls-files '*.c' '*.h')
else
    files=$(find src validator tests -name '*.[ch]' | sort)
fi
for f in $files; do
    if out=$("$CLANG_FORMAT" --dry-run -Werror "$f" 2>&1); then
        ok "clang-format $f"
    else
        not_ok "clang-format $f" "$(printf '%s\n' "$out" | head -20)"
    fi
done
done_testing
