#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The validator against the corpora in tests/corpus:
#   beginner/*.py  ordinary learner programs: `--rules default` accepts them;
#   attacks/*.py   escapes and forbidden constructs: both rule sets reject
#                  them (with the codes of an `# expect:` line, if any);
#   parity/*.py    RestrictedPython parity cases: the verdict of each set
#                  matches the `# restricted:` / `# default:` header lines
#                  (accept, reject, or `?` when that set is not asserted).
# `pyward check --format json` runs once per directory and rule set; each
# file's TAP point is derived from the findings reported for it.
. "${top_srcdir:-.}/tests/lib.sh"

corpus=$top_srcdir/tests/corpus

help=$("$PYWARD" check --help 2>&1)
rc=$?
if [ "$rc" = 2 ] || printf '%s\n' "$help" | grep -q 'not built yet'; then
    echo "1..0 # SKIP validator not built"
    exit 0
fi

work=$(tmpdir_new)
trap 'rm -rf "$work"' EXIT

# split_findings JSON OUTDIR: pyward's pretty-printed JSON array of
# findings (one key a line; each object lists code before filename) becomes
# one file per checked file, OUTDIR/BASENAME, with a "CODE LINE:COL
# MESSAGE" line per finding.
split_findings() {
    mkdir -p "$2"
    awk -v dir="$2" '
        function val(s) {
            sub(/^[^:]*: */, "", s); sub(/,$/, "", s)
            if (s ~ /^"/) { s = substr(s, 2, length(s) - 2) }
            gsub(/\\"/, "\"", s)
            return s
        }
        /^ *"code":/ { code = val($0) }
        /^ *"line":/ { line = val($0) }
        /^ *"column":/ { col = val($0) }
        /^ *"message":/ { msg = val($0) }
        /^ *"filename":/ {
            n = split(val($0), p, "/")
            out = dir "/" p[n]
            printf "%s %s:%s %s\n", code, line, col, msg >>out
            close(out)
        }' "$1"
}

# run_set DIR SET: checks every file of DIR at once; the findings for
# DIR/F.py go to $work/DIR.SET/F.py (absent when there are none).  A run
# that fails (exit 2) is a failing point of its own.
run_set() {
    "$PYWARD" check --format json --rules "$2" "$corpus/$1" \
        >"$work/$1.$2.json" 2>"$work/$1.$2.err"
    if [ "$?" = 2 ]; then
        not_ok "pyward check --rules $2 $1/ runs" \
            "exit 2; $(head -n 8 "$work/$1.$2.err")"
    fi
    split_findings "$work/$1.$2.json" "$work/$1.$2"
}

# headers DIR KEY...: one line per file of DIR: its base name and the value
# of each `# KEY: value` comment line ("-" when absent).
headers() {
    d=$1
    shift
    awk -v keys="$*" '
        BEGIN { nk = split(keys, k, " ") }
        FNR == 1 {
            if (f != "") { emit() }
            f = FILENAME; sub(/.*\//, "", f)
            for (i = 1; i <= nk; i++) { v[i] = "-" }
        }
        {
            for (i = 1; i <= nk; i++) {
                if (v[i] == "-" && index($0, "# " k[i] ":") == 1) {
                    s = substr($0, length(k[i]) + 4)
                    gsub(/[ \r]/, "", s)
                    v[i] = s == "" ? "-" : s
                }
            }
        }
        function emit(  i, line) {
            line = f
            for (i = 1; i <= nk; i++) { line = line " " v[i] }
            print line
        }
        END { if (f != "") { emit() } }' "$corpus/$d"/*.py
}

# found DIR SET F: prints the first findings for F (nothing when none).
found() {
    if [ -s "$work/$1.$2/$3" ]; then
        head -n 8 "$work/$1.$2/$3"
    fi
}

run_set beginner default
for d in attacks parity; do
    for set in default restricted; do
        run_set "$d" "$set"
    done
done

n_beginner=0
for f in "$corpus"/beginner/*.py; do
    n_beginner=$((n_beginner + 1))
    base=${f##*/}
    if [ -s "$work/beginner.default/$base" ]; then
        not_ok "beginner/$base: accepted by the default rules" \
            "$(found beginner default "$base")"
    else
        ok "beginner/$base: accepted by the default rules"
    fi
done

n_attacks=0
headers attacks expect >"$work/attacks.expect"
while read -r base expect; do
    n_attacks=$((n_attacks + 1))
    [ "$expect" = - ] && expect=
    why=
    for set in default restricted; do
        if [ ! -s "$work/attacks.$set/$base" ]; then
            why="$why--rules $set: accepted (want rejected)
"
            continue
        fi
        for code in $(printf '%s\n' "$expect" | tr ',' ' '); do
            if ! grep -q "^$code " "$work/attacks.$set/$base"; then
                why="$why--rules $set: $code not reported; $(
                    found attacks "$set" "$base")
"
            fi
        done
    done
    if [ -z "$why" ]; then
        ok "attacks/$base: rejected by both rule sets"
    else
        not_ok "attacks/$base: rejected by both rule sets" "$why"
    fi
done <"$work/attacks.expect"

headers parity restricted default >"$work/parity.expect"
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
        [ -s "$work/parity.$set/$base" ] && got=reject
        if [ "$got" != "$want" ]; then
            why="$why--rules $set: $got, want $want; $(
                found parity "$set" "$base")
"
        fi
    done
    if [ -z "$why" ]; then
        ok "parity/$base: verdicts match"
    else
        not_ok "parity/$base: verdicts match" "$why"
    fi
done <"$work/parity.expect"

if [ "$n_beginner" -ge 150 ] && [ "$n_attacks" -ge 100 ]; then
    ok "corpus size: $n_beginner beginner programs, $n_attacks attacks"
else
    not_ok "corpus size: $n_beginner beginner programs, $n_attacks attacks" \
        "want at least 150 beginner programs and 100 attacks"
fi

done_testing
