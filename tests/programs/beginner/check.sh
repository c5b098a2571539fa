#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The beginner corpus through the validator: `pyward check --rules default`
# accepts every program of tests/programs/beginner/cases/ (ordinary
# learner programs), checked once over the folder; one point per program,
# and one that the corpus keeps its size.
. "${top_srcdir:-.}/tests/lib.sh"

cases=$top_srcdir/tests/programs/beginner/cases
validator_findings "$cases" default
n=0
for f in "$cases"/*.py; do
    n=$((n + 1))
    base=${f##*/}
    if [ -s "$work/default/$base" ]; then
        not_ok "beginner/$base: accepted by the default rules" \
            "$(found default "$base")"
    else
        ok "beginner/$base: accepted by the default rules"
    fi
done

if [ "$n" -ge 150 ]; then
    ok "corpus size: $n beginner programs"
else
    not_ok "corpus size: $n beginner programs" \
        "want at least 150 beginner programs"
fi

done_testing
