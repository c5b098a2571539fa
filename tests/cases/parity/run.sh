#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# RestrictedPython parity cases (tests/cases/parity/*.py): the verdict of
# each rule set matches the program's `# restricted:` / `# default:`
# header lines (accept, reject, or `?` when that set is not asserted).
# `pyward check --format json` runs once per rule set over the folder; one
# point per case.
. "${top_srcdir:-.}/tests/lib.sh"

parity=$top_srcdir/tests/cases/parity
validator_findings "$parity" default restricted
headers "$parity" restricted default >"$work/expect"
while read -r base want_restricted want_default; do
    why=
    for pair in "restricted $want_restricted" "default $want_default"; do
        set=${pair%% *}
        want=${pair#* }
        case $want in
        accept | reject) ;;
        '?') continue ;;
        *)
            why="$why# $set: bad expectation '$want'
"
            continue
            ;;
        esac
        got=accept
        [ -s "$work/$set/$base" ] && got=reject
        if [ "$got" != "$want" ]; then
            why="$why--rules $set: $got, want $want; $(found "$set" "$base")
"
        fi
    done
    if [ -z "$why" ]; then
        ok "parity/$base: verdicts match"
    else
        not_ok "parity/$base: verdicts match" "$why"
    fi
done <"$work/expect"

done_testing
