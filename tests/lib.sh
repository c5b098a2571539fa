# SPDX-License-Identifier: Apache-2.0
# tests/lib.sh - sourced by the shell test drivers.  TAP output: one
# `ok N - name` or `not ok N - name` line per test point, a plan at the end.
# Logs of a failing point go to stderr (kept in the .log by automake).

# The source tree: the nearest folder above the script that holds
# configure.ac (scripts live in tests/ and in folders below it).
if [ -z "${top_srcdir:-}" ]; then
    top_srcdir=$(cd "$(dirname "$0")" && pwd)
    while [ ! -f "$top_srcdir/configure.ac" ] && [ "$top_srcdir" != / ]; do
        top_srcdir=$(dirname "$top_srcdir")
    done
fi
: "${top_builddir:=$top_srcdir}"
: "${PYWARD:=$top_builddir/pyward}"
: "${PYWARD_RULES_DIR:=$top_srcdir/rules}"
export PYWARD PYWARD_RULES_DIR

tap_n=0
tap_failed=0

# ok NAME: a passing point.  not_ok NAME [DETAIL]: a failing one.
ok() {
    tap_n=$((tap_n + 1))
    echo "ok $tap_n - $1"
}

not_ok() {
    tap_n=$((tap_n + 1))
    tap_failed=$((tap_failed + 1))
    echo "not ok $tap_n - $1"
    if [ -n "${2:-}" ]; then
        printf '%s\n' "$2" | sed 's/^/# /' >&2
    fi
}

skip() {
    tap_n=$((tap_n + 1))
    echo "ok $tap_n - $1 # SKIP ${2:-}"
}

# check NAME CMD...: a point that passes when CMD exits 0.
check() {
    name=$1
    shift
    if out=$("$@" 2>&1); then
        ok "$name"
    else
        not_ok "$name" "$out"
    fi
}

# done_testing: print the plan; exit 0 (failures are counted by the driver).
done_testing() {
    echo "1..$tap_n"
    exit 0
}

tmpdir_new() {
    mktemp -d "${TMPDIR:-/tmp}/pyward-test.XXXXXX"
}

# lint_gate: a lint test stops here with PW_LINT=skip (CI's sanitizer
# build, where the same sources are linted once already).
lint_gate() {
    if [ "${PW_LINT:-}" = skip ]; then
        echo "1..0 # SKIP PW_LINT=skip: linted in another build"
        exit 0
    fi
}

# fuzz_seeds TARGET: the seed directories of a fuzz target, space-separated:
# its own corpus, its regression inputs, and for the validator the
# programs the other suites already keep (the rule cases and the parity
# cases, the programs that must run and the beginner corpus, every folder
# of attacks).
fuzz_seeds() {
    seeds="$top_srcdir/tests/fuzz/corpus/$1"
    if [ -d "$top_srcdir/tests/fuzz/regress/$1" ]; then
        seeds="$seeds $top_srcdir/tests/fuzz/regress/$1"
    fi
    if [ "$1" = validate ]; then
        for d in tests/cases tests/cases/parity tests/programs \
            tests/programs/beginner/cases; do
            seeds="$seeds $top_srcdir/$d"
        done
        for d in "$top_srcdir"/tests/redteam/*/; do
            seeds="$seeds ${d%/}"
        done
    fi
    echo "$seeds"
}

# runs_print NAME WANT STDIN ARG...: two points, `pyward run ARG...` with
# validation and with --skip-validation: each run, reading the file STDIN,
# exits 0 and prints exactly the file WANT.  Needs $work.
runs_print() {
    rp_name=$1 rp_want=$2 rp_stdin=$3
    shift 3
    for rp_mode in validated --skip-validation; do
        if [ "$rp_mode" = validated ]; then
            "$PYWARD" run "$@"
        else
            "$PYWARD" run --skip-validation "$@"
        fi <"$rp_stdin" >"$work/out" 2>"$work/err"
        rp_rc=$?
        if [ "$rp_rc" = 0 ] && cmp -s "$work/out" "$rp_want"; then
            ok "$rp_name: pyward run ($rp_mode) prints its .out"
        else
            not_ok "$rp_name: pyward run ($rp_mode) prints its .out" \
                "exit $rp_rc; $(diff "$rp_want" "$work/out" | head -n 10)
$(head -n 10 "$work/err")"
        fi
    done
}

# Test data: the programs the suites keep (the rule cases, the programs
# that must run, the attacks, fuzz seeds and regression inputs), as an
# extended regular expression over paths from the top.  Their bytes and
# line numbers are what the tests check, so the lints of source files
# (tests/lint/spdx.sh, tests/lint/pyflakes.sh) leave them out; the
# idioms (tests/programs/idioms/) are linted as sources.  Drivers are not
# data: a folder of programs has only shell drivers beside them, or
# keeps its programs in cases/.
test_data_re='^tests/(fuzz/corpus|fuzz/regress|programs/[^/]+/cases)/|^tests/(cases|cases/parity|programs|programs/examples|redteam/[^/]+)/[^/]+\.py$'

# The validator over a folder of programs, for the drivers that check its
# verdicts on a corpus (tests/programs/beginner/check.sh,
# tests/redteam/validator/run.sh, tests/cases/parity/run.sh).
#
# validator_findings DIR SET...: the driver stops here (a skip) when the
# validator is not built.  Else $work is a new scratch folder (removed at
# exit), and `pyward check --format json --rules SET` runs once over every
# file of DIR for each SET: the findings for DIR/F.py go to $work/SET/F.py,
# a "CODE LINE:COL MESSAGE" line each (absent when there are none).  A run
# that fails (exit 2) is a failing point of its own.
validator_findings() {
    help=$("$PYWARD" check --help 2>&1)
    if [ "$?" = 2 ] || printf '%s\n' "$help" | grep -q 'not built yet'; then
        echo "1..0 # SKIP validator not built"
        exit 0
    fi
    work=$(tmpdir_new)
    trap 'rm -rf "$work"' EXIT
    vf_dir=$1
    shift
    for vf_set in "$@"; do
        findings_of "$vf_dir" "$vf_set"
    done
}

# findings_of DIR SET: the findings of one SET over DIR, as above.
findings_of() {
    "$PYWARD" check --format json --rules "$2" "$1" \
        >"$work/$2.json" 2>"$work/$2.err"
    if [ "$?" = 2 ]; then
        not_ok "pyward check --rules $2 ${1#"$top_srcdir"/}/ runs" \
            "exit 2; $(head -n 8 "$work/$2.err")"
    fi
    # pyward's pretty-printed JSON array of findings (one key a line; each
    # object lists code before filename), one file per checked file.
    mkdir -p "$work/$2"
    awk -v dir="$work/$2" '
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
        }' "$work/$2.json"
}

# found SET F: the first findings for F under SET (nothing when none).
found() {
    if [ -s "$work/$1/$2" ]; then
        head -n 8 "$work/$1/$2"
    fi
}

# headers DIR KEY...: one line per program of DIR: its base name and the
# value of each `# KEY: value` comment line ("-" when absent).
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
        END { if (f != "") { emit() } }' "$d"/*.py
}
