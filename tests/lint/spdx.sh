#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Every tracked source file carries "SPDX-License-Identifier: Apache-2.0"
# in its first 5 lines: *.c *.h *.py *.sh *.mjs *.mk, Makefile.am,
# configure.ac, autogen.sh, .ci/run.  Programs kept as test data are left
# out, since their bytes and line numbers are what the tests check: lint
# fixtures (tests/cases/), corpora (tests/corpus/), red-team attacks
# (tests/redteam/CATEGORY/, tests/judge/attacks/, tests/judge/batch/) and
# programs (tests/programs/), the differential error programs
# (tests/faithful/cases/), fuzz seeds and regression inputs, and
# tests/examples/.
. "${top_srcdir:-.}/tests/lib.sh"
lint_gate

cd "$top_srcdir" || exit 1
if ! command -v git >/dev/null 2>&1 ||
    ! git ls-files --error-unmatch configure.ac >/dev/null 2>&1; then
    echo "1..0 # SKIP not a git checkout"
    exit 0
fi

missing=$(git ls-files '*.c' '*.h' '*.py' '*.sh' '*.mjs' '*.mk' \
    Makefile.am configure.ac autogen.sh .ci/run |
    grep -vE '^tests/(cases|corpus|programs|examples|fuzz/corpus|fuzz/regress|faithful/cases)/|^tests/redteam/[^/]+/|^tests/judge/(attacks|batch)/' |
    while IFS= read -r f; do
        if ! head -n 5 "$f" |
            grep -q 'SPDX-License-Identifier: Apache-2\.0'; then
            echo "$f"
        fi
    done)
if [ -z "$missing" ]; then
    ok "every source file carries SPDX-License-Identifier: Apache-2.0"
else
    not_ok "every source file carries SPDX-License-Identifier: Apache-2.0" \
        "$(printf '%s\n' "$missing" | wc -l) files without it in their first 5 lines:
$(printf '%s\n' "$missing" | head -n 40)"
fi
done_testing
