#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# pyflakes over the project's Python: the guard as the one module it runs
# as (its parts concatenated in the order of GUARD_PY, a finding named by
# part and line), and every Python driver of the tests, one point each.
# Programs kept as test data are left out ($test_data_re, tests/lib.sh).
. "${top_srcdir:-.}/tests/lib.sh"
lint_gate

cd "$top_srcdir" || exit 1
if command -v pyflakes3 >/dev/null 2>&1; then
    set -- pyflakes3
elif "${PYTHON3:-python3}" -m pyflakes --version >/dev/null 2>&1; then
    set -- "${PYTHON3:-python3}" -m pyflakes
else
    echo "1..0 # SKIP pyflakes not installed (Debian: pyflakes3)"
    exit 0
fi
if ! command -v git >/dev/null 2>&1 ||
    ! git ls-files --error-unmatch configure.ac >/dev/null 2>&1; then
    echo "1..0 # SKIP not a git checkout"
    exit 0
fi

work=$(tmpdir_new)
trap 'rm -rf "$work"' EXIT

# The guard's parts, in load order (GUARD_PY, as make check sets it, or
# as sandbox.mk lists it).
parts=${GUARD_PY:-$(sed -n '/^GUARD_PY = /,/(NULL)/p' src/sandbox/sandbox.mk |
    grep -o 'src/sandbox/guard/[a-z_]*\.py')}
: >"$work/guard.py"
: >"$work/map"
for p in $parts; do
    echo "$p $(wc -l <"$work/guard.py")" >>"$work/map"
    cat "$p" >>"$work/guard.py"
done
"$@" "$work/guard.py" >"$work/out" 2>&1
# guard.py:LINE:COL: MSG -> PART:LINE:COL: MSG
findings=$(awk -v map="$work/map" '
    BEGIN { while ((getline l < map) > 0) { split(l, a, " ");
            n++; part[n] = a[1]; start[n] = a[2] } }
    { split($0, f, ":"); line = f[2] + 0; k = 1
      for (i = 1; i <= n; i++) if (line > start[i]) k = i
      sub(/^[^:]*:[0-9]+/, part[k] ":" line - start[k]); print }' \
    "$work/out")
if [ -z "$findings" ]; then
    ok "pyflakes: the guard ($(echo $parts | wc -w) parts as one module)"
else
    not_ok "pyflakes: the guard" "$findings"
fi

git ls-files '*.py' |
    grep -vE "$test_data_re|^src/sandbox/guard/" \
        >"$work/drivers"
while IFS= read -r f; do
    if out=$("$@" "$f" 2>&1); then
        ok "pyflakes: $f"
    else
        not_ok "pyflakes: $f" "$out"
    fi
done <"$work/drivers"
done_testing
