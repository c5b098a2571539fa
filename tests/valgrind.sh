#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `make valgrind`: the server's tests under valgrind memcheck, one TAP
# point each: the unit suites of the JSON-RPC layer and the validator (in
# one process: CK_FORK=no), the fuzz targets' replay over their seed
# corpora and regression inputs (the MCP dispatcher, the rule-file
# loaders, the validator), and `pyward serve` itself over the JSON-RPC
# sessions of that corpus.  A point fails on any memcheck error or
# definite leak outside tests/supp/valgrind.supp.
. "${top_srcdir:-$(cd "$(dirname "$0")/.." && pwd)}/tests/lib.sh"

VALGRIND=${VALGRIND:-valgrind}
if ! command -v "$VALGRIND" >/dev/null 2>&1; then
    echo "1..0 # SKIP valgrind not installed"
    exit 0
fi
work=$(tmpdir_new)
trap 'rm -rf "$work"' EXIT
supp="--suppressions=$top_srcdir/tests/supp/valgrind.supp"
VG="$VALGRIND --tool=memcheck --leak-check=full --show-leak-kinds=definite"
VG="$VG --errors-for-leak-kinds=definite --error-exitcode=99"
VG="$VG --child-silent-after-fork=yes $supp"

# vg NAME CMD...: a point that passes when CMD runs clean under valgrind.
vg() {
    name=$1
    shift
    # shellcheck disable=SC2086 # VG is a word list
    if $VG --log-file="$work/vg.log" "$@" >"$work/out.log" 2>&1; then
        ok "valgrind: $name"
    else
        not_ok "valgrind: $name" "$(tail -n 20 "$work/out.log"; cat "$work/vg.log")"
    fi
}

export CK_FORK=no
for u in check_jsonrpc check_validator; do
    if [ -x "$top_builddir/tests/unit/$u" ]; then
        vg "unit suite $u" "$top_builddir/tests/unit/$u"
    else
        skip "valgrind: unit suite $u" "not built (Check missing)"
    fi
done
for t in jobeput jsonrpc rules validate; do
    dirs=$(fuzz_seeds "$t")
    # shellcheck disable=SC2086 # the directories are split on purpose
    vg "fuzz target $t over its corpus" "$top_builddir/tests/fuzz/replay-$t" $dirs
done

# `pyward serve` itself under valgrind, its stdin each JSON-RPC session of
# the fuzz seed corpus: the process must run clean and exit 0 at the end
# of its input.  (The raw suite tests/mcp does not fit here: valgrind
# cannot emulate the seccomp set-up, so the server starts without its
# sandbox, and the suite's reply deadlines are too short under valgrind.)
n=0
bad=""
for f in "$top_srcdir"/tests/fuzz/corpus/jsonrpc/*; do
    n=$((n + 1))
    # shellcheck disable=SC2086 # VG is a word list
    if ! $VG --log-file="$work/serve.$n.log" "$PYWARD" serve <"$f" \
        >"$work/serve.$n.out" 2>"$work/serve.$n.err" ||
        ! [ -s "$work/serve.$n.out" ]; then
        bad="$bad
== $f (exit $?)
$(tail -n 5 "$work/serve.$n.err")
$(cat "$work/serve.$n.log")"
    fi
done
if [ -z "$bad" ] && [ "$n" -gt 0 ]; then
    ok "valgrind: pyward serve over $n JSON-RPC sessions"
else
    not_ok "valgrind: pyward serve over $n JSON-RPC sessions" "$bad"
fi
echo "1..$tap_n"
echo "$((tap_n - tap_failed)) passed, $tap_failed failed"
[ "$tap_failed" = 0 ]
