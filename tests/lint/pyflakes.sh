#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# pyflakes over the project's Python, one point a file: each module of the
# guard on its own (a module imports what it uses from the others: a name
# it only borrows from another is an undefined name here), whether every
# module of the guard's folder is one GUARD_PY embeds, and every Python
# driver of the tests.
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

# The guard's modules, in load order (GUARD_PY, as make check sets it, or
# as sandbox.mk lists it).
parts=${GUARD_PY:-$(sed -n '/^GUARD_PY = /,/(NULL)/p' src/sandbox/sandbox.mk |
    grep -o 'src/sandbox/interp/guard/[a-z_]*\.py')}
for p in $parts; do
    if out=$("$@" "$p" 2>&1); then
        ok "pyflakes: $p"
    else
        not_ok "pyflakes: $p" "$out"
    fi
done
unlisted=""
for f in $(git ls-files 'src/sandbox/interp/guard/*.py'); do
    case " $(echo $parts) " in
    *" $f "*) ;;
    *) unlisted="$unlisted $f" ;;
    esac
done
if [ -z "$unlisted" ]; then
    ok "the guard's folder holds only modules GUARD_PY embeds"
else
    not_ok "the guard's folder holds only modules GUARD_PY embeds" \
        "not in GUARD_PY:$unlisted"
fi

git ls-files '*.py' |
    grep -vE "$test_data_re|^src/sandbox/interp/guard/" \
        >"$work/drivers"
while IFS= read -r f; do
    if out=$("$@" "$f" 2>&1); then
        ok "pyflakes: $f"
    else
        not_ok "pyflakes: $f" "$out"
    fi
done <"$work/drivers"
done_testing
