#!/bin/sh
# The validator against the corpora in tests/corpus:
#   beginner/*.py  ordinary learner programs: `--rules default` accepts them;
#   attacks/*.py   escapes and forbidden constructs: both rule sets reject
#                  them (with the codes of an `# expect:` line, if any);
#   parity/*.py    RestrictedPython parity cases: the verdict of each set
#                  matches the `# restricted:` / `# default:` header lines
#                  (accept, reject, or `?` when that set is not asserted).
. "${top_srcdir:-.}/tests/lib.sh"

corpus=$top_srcdir/tests/corpus

help=$("$PYWARD" check --help 2>&1)
rc=$?
if [ "$rc" = 2 ] || printf '%s\n' "$help" | grep -q 'not built yet'; then
    echo "1..0 # SKIP validator not built"
    exit 0
fi

# run_check SET FILE: runs the validator; sets $out and $rc.
run_check() {
    out=$("$PYWARD" check --rules "$1" "$2" 2>&1)
    rc=$?
}

# head_of TEXT: the first lines of a diagnostic output.
head_of() {
    printf '%s\n' "$1" | head -n 8
}

# header FILE KEY: the value of a `# KEY: value` comment line.
header() {
    sed -n "s/^# $2: *//p" "$1" | head -n 1 | tr -d ' \r'
}

n_beginner=0
for f in "$corpus"/beginner/*.py; do
    n_beginner=$((n_beginner + 1))
    name="beginner/$(basename "$f")"
    run_check default "$f"
    if [ "$rc" = 0 ]; then
        ok "$name: accepted by the default rules"
    else
        not_ok "$name: accepted by the default rules" \
            "exit $rc; $(head_of "$out")"
    fi
done

n_attacks=0
for f in "$corpus"/attacks/*.py; do
    n_attacks=$((n_attacks + 1))
    name="attacks/$(basename "$f")"
    expect=$(header "$f" expect)
    why=
    for set in default restricted; do
        run_check "$set" "$f"
        if [ "$rc" != 1 ]; then
            why="$why--rules $set: exit $rc (want 1); $(head_of "$out")
"
            continue
        fi
        for code in $(printf '%s\n' "$expect" | tr ',' ' '); do
            if ! printf '%s\n' "$out" | grep -q ": $code "; then
                why="$why--rules $set: $code not reported; $(head_of "$out")
"
            fi
        done
    done
    if [ -z "$why" ]; then
        ok "$name: rejected by both rule sets"
    else
        not_ok "$name: rejected by both rule sets" "$why"
    fi
done

for f in "$corpus"/parity/*.py; do
    name="parity/$(basename "$f")"
    why=
    for set in restricted default; do
        want=$(header "$f" "$set")
        case $want in
        accept) want_rc=0 ;;
        reject) want_rc=1 ;;
        '?') continue ;;
        *)
            why="$why# $set: bad expectation '$want'
"
            continue
            ;;
        esac
        run_check "$set" "$f"
        if [ "$rc" != "$want_rc" ]; then
            why="$why--rules $set: exit $rc, want $want_rc ($want); $(head_of "$out")
"
        fi
    done
    if [ -z "$why" ]; then
        ok "$name: verdicts match"
    else
        not_ok "$name: verdicts match" "$why"
    fi
done

if [ "$n_beginner" -ge 150 ] && [ "$n_attacks" -ge 100 ]; then
    ok "corpus size: $n_beginner beginner programs, $n_attacks attacks"
else
    not_ok "corpus size: $n_beginner beginner programs, $n_attacks attacks" \
        "want at least 150 beginner programs and 100 attacks"
fi

done_testing
