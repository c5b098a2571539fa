#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The attacks of tests/redteam/validator/ (escapes and forbidden
# constructs) through the validator alone: both rule sets, `--rules
# default` and `--rules restricted`, reject every one, with the codes of
# its `# expect:` line if it has one.  `pyward check --format json` runs
# once per rule set over the folder; one point per attack, and one that
# the folder keeps its size.
. "${top_srcdir:-.}/tests/lib.sh"

attacks=$top_srcdir/tests/redteam/validator
validator_findings "$attacks" default restricted
n=0
headers "$attacks" expect >"$work/expect"
while read -r base expect; do
    n=$((n + 1))
    [ "$expect" = - ] && expect=
    why=
    for set in default restricted; do
        if [ ! -s "$work/$set/$base" ]; then
            why="$why--rules $set: accepted (want rejected)
"
            continue
        fi
        for code in $(printf '%s\n' "$expect" | tr ',' ' '); do
            if ! grep -q "^$code " "$work/$set/$base"; then
                why="$why--rules $set: $code not reported; $(
                    found "$set" "$base")
"
            fi
        done
    done
    if [ -z "$why" ]; then
        ok "attacks/$base: rejected by both rule sets"
    else
        not_ok "attacks/$base: rejected by both rule sets" "$why"
    fi
done <"$work/expect"

if [ "$n" -ge 100 ]; then
    ok "corpus size: $n attacks"
else
    not_ok "corpus size: $n attacks" "want at least 100 attacks"
fi

done_testing
