#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `pyward check` and `pyward rules` from the outside: hostile input, exit
# codes, output formats, noqa, select/ignore, stdin, directories.
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(tmpdir_new)
trap 'rm -rf "$tmp"' EXIT
py=${PYTHON3:-python3}

# expect NAME RC PATTERN CMD...: exit status RC and stdout matching PATTERN.
expect() {
    name=$1 want=$2 pat=$3
    shift 3
    out=$("$@" 2>"$tmp/stderr")
    rc=$?
    if [ "$rc" != "$want" ]; then
        not_ok "$name" "exit $rc, expected $want: $out $(cat "$tmp/stderr")"
    elif ! printf '%s\n' "$out" | grep -q -- "$pat"; then
        not_ok "$name" "output does not match '$pat': $out"
    else
        ok "$name"
    fi
}

# --- hostile input: a diagnostic, never a crash or a hang -------------
$py - "$tmp" <<'PYEOF'
import sys
d = sys.argv[1]
def w(name, data):
    open(d + "/" + name, "wb").write(data if isinstance(data, bytes) else data.encode())
w("parens.py", "x = " + "(" * 100000 + "1" + ")" * 100000 + "\n")
w("brackets.py", "x = " + "[" * 100000 + "]" * 100000 + "\n")
w("binop.py", "x = 1" + " + 1" * 50000 + "\n")
w("unary.py", "x = " + "-" * 100000 + "1\n")
w("calls.py", "x = f" + "()" * 100000 + "\n")
w("lines.py", "x = 1\n" * 1000000)
w("blank.py", "\n" * 1000000)
w("big.py", "#" * (10 * 1024 * 1024) + "\n")
w("nul.py", b"x = 1\x00\n")
w("utf8.py", b"x = '\xff\xfe'\n")
w("cookie.py", b"# -*- coding: latin-1 -*-\nx = '\xe9'\n")
w("surrogate.py", b"x = '\xed\xa0\x80'\n")
w("bom.py", b"\xef\xbb\xbfx = 1\n")
PYEOF
expect "100,000 nested parentheses" 1 ":1:.*PW001 syntax error: too many nested" "$PYWARD" check "$tmp/parens.py"
expect "100,000 nested brackets" 1 "PW001" "$PYWARD" check "$tmp/brackets.py"
expect "50,000-deep binary operators" 1 "binop.py:1:1: PW003" "$PYWARD" check "$tmp/binop.py"
expect "100,000 unary minus" 1 "PW003" "$PYWARD" check "$tmp/unary.py"
expect "100,000 chained calls" 1 "PW003" "$PYWARD" check "$tmp/calls.py"
expect "a million lines" 1 "PW005 .*6000000 bytes" "$PYWARD" check "$tmp/lines.py"
expect "a million blank lines" 1 "PW005 .*1000000 lines" "$PYWARD" check "$tmp/blank.py"
expect "a 10 MB file" 1 "big.py:1:1: PW005" "$PYWARD" check "$tmp/big.py"
expect "a NUL byte" 1 "nul.py:1:6: PW006" "$PYWARD" check "$tmp/nul.py"
expect "invalid UTF-8" 1 "utf8.py:1:6: PW004 .*0xff" "$PYWARD" check "$tmp/utf8.py"
expect "a coding cookie does not change the encoding" 1 "cookie.py:2:6: PW004" "$PYWARD" check "$tmp/cookie.py"
expect "an encoded surrogate is not UTF-8" 1 "PW004" "$PYWARD" check "$tmp/surrogate.py"
expect "a UTF-8 BOM is fine" 0 "" "$PYWARD" check "$tmp/bom.py"
expect "hostile files in one run" 1 "utf8.py" "$PYWARD" check "$tmp"

# --- exit codes ---------------------------------------------------------
printf 'print("hello")\n' >"$tmp/clean.py"
printf 'eval("1")\n' >"$tmp/bad.py"
expect "clean file exits 0" 0 "" "$PYWARD" check "$tmp/clean.py"
expect "findings exit 1" 1 "bad.py:1:1: PW202" "$PYWARD" check "$tmp/bad.py"
expect "--exit-zero" 0 "PW202" "$PYWARD" check --exit-zero "$tmp/bad.py"
expect "missing file exits 2" 2 "" "$PYWARD" check "$tmp/nope.py"
check "a fatal error is labelled an error" grep -q '^pyward: error: .*nope.py' "$tmp/stderr"
expect "serve with an unknown profile exits 2" 2 "" "$PYWARD" serve --profile nope </dev/null
check "serve's fatal error is labelled an error" grep -q "^pyward: error: unknown profile 'nope'" "$tmp/stderr"
for opt in "--jobe" "--jobe-keys $tmp/keys" "--auth-token-file $tmp/tokens"; do
    # shellcheck disable=SC2086 # the option and its value: two words
    expect "serve $opt without --http exits 2" 2 "" "$PYWARD" serve $opt </dev/null
    check "serve $opt without --http names both" grep -q "^pyward serve: ${opt%% *} needs --http" "$tmp/stderr"
done
expect "unknown option exits 2" 2 "" "$PYWARD" check --bogus "$tmp/clean.py"
expect "no path exits 2" 2 "" "$PYWARD" check
expect "bad --format exits 2" 2 "" "$PYWARD" check --format xml "$tmp/clean.py"
expect "bad --select exits 2" 2 "" "$PYWARD" check --select E501 "$tmp/clean.py"
expect "unknown profile exits 2" 2 "" "$PYWARD" check --profile nope "$tmp/clean.py"
expect "unknown rule set dir exits 2" 2 "" "$PYWARD" check --rules "$tmp/none" "$tmp/clean.py"
expect "--help documents every option" 0 "--extend-ignore" "$PYWARD" check --help

# --- stdin --------------------------------------------------------------
expect "stdin is shown as -" 1 "^-:1:1: PW202" sh -c "printf 'eval(1)\n' | \"\$PYWARD\" check -"
expect "--stdin-filename" 1 "^lesson.py:1:1: PW202" sh -c "printf 'eval(1)\n' | \"\$PYWARD\" check --stdin-filename lesson.py -"

# --- rule sets ------------------------------------------------------------
printf 'class A:\n    def inc(self):\n        self.n += 1\nif __name__ == "__main__":\n    A().inc()\n' >"$tmp/idioms.py"
expect "default accepts learner idioms" 0 "" "$PYWARD" check "$tmp/idioms.py"
expect "restricted rejects them" 1 "PW306" "$PYWARD" check --rules restricted "$tmp/idioms.py"
expect "restricted checks imports too" 1 "PW101" sh -c "printf 'import os\n' | \"\$PYWARD\" check --rules restricted -"

# --- noqa -----------------------------------------------------------------
printf 'eval("1")  # noqa\nexec("1")  # noqa: PW2\nopen("f")  # noqa: PW3\n' >"$tmp/noqa.py"
expect "noqa: blanket and prefix" 1 "noqa.py:3:1: PW204" "$PYWARD" check "$tmp/noqa.py"
n=$("$PYWARD" check -q "$tmp/noqa.py" | wc -l)
if [ "$n" = 1 ]; then ok "noqa silences exactly two lines"; else not_ok "noqa silences exactly two lines" "$n lines"; fi
expect "--disable-noqa" 1 "noqa.py:1:1: PW202" "$PYWARD" check --disable-noqa "$tmp/noqa.py"
printf '# pyward: noqa\neval("1")\n' >"$tmp/filenoqa.py"
expect "# pyward: noqa skips the file" 0 "" "$PYWARD" check "$tmp/filenoqa.py"

# --- select / ignore ------------------------------------------------------
printf 'import os\neval("1")\nx.__dict__\n' >"$tmp/mixed.py"
expect "--select PW2" 1 "PW202" "$PYWARD" check --select PW2 "$tmp/mixed.py"
n=$("$PYWARD" check -q --select PW2 "$tmp/mixed.py" | wc -l)
if [ "$n" = 1 ]; then ok "--select keeps one code"; else not_ok "--select keeps one code" "$n"; fi
n=$("$PYWARD" check -q --ignore PW1,PW3 "$tmp/mixed.py" | wc -l)
if [ "$n" = 1 ]; then ok "--ignore drops two families"; else not_ok "--ignore drops two families" "$n"; fi
n=$("$PYWARD" check --ignore PW3 --extend-select PW305 "$tmp/mixed.py" | grep -c PW305)
if [ "$n" = 1 ]; then ok "longer prefix wins"; else not_ok "longer prefix wins" "$n"; fi
expect "--statistics" 1 "^1      PW202 code-execution-builtin" "$PYWARD" check --statistics "$tmp/mixed.py"

# --- formats --------------------------------------------------------------
"$PYWARD" check --format json "$tmp/mixed.py" >"$tmp/out.json"
if $py -c 'import json,sys; d=json.load(open(sys.argv[1])); assert len(d)==3 and d[0]["code"]=="PW101" and d[0]["line"]==1 and d[0]["filename"].endswith("mixed.py")' "$tmp/out.json"; then
    ok "--format json is valid JSON"
else
    not_ok "--format json is valid JSON" "$(cat "$tmp/out.json")"
fi
"$PYWARD" check --format sarif "$tmp/mixed.py" >"$tmp/out.sarif"
if $py -c 'import json,sys; d=json.load(open(sys.argv[1])); r=d["runs"][0]; assert d["version"]=="2.1.0" and len(r["results"])==3 and r["results"][1]["ruleId"]=="PW202" and any(x["id"]=="PW202" for x in r["tool"]["driver"]["rules"])' "$tmp/out.sarif"; then
    ok "--format sarif is valid SARIF 2.1.0"
else
    not_ok "--format sarif is valid SARIF 2.1.0" "$(cat "$tmp/out.sarif")"
fi
expect "--format github" 1 "^::error file=.*mixed.py,line=2,col=1,endLine=2,endColumn=10,title=PW202::PW202 " "$PYWARD" check --format github "$tmp/mixed.py"

# --- directories ----------------------------------------------------------
mkdir -p "$tmp/tree/sub" "$tmp/tree/.hidden"
printf 'eval(1)\n' >"$tmp/tree/sub/a.py"
printf 'eval(1)\n' >"$tmp/tree/b.py"
printf 'eval(1)\n' >"$tmp/tree/notes.txt"
printf 'eval(1)\n' >"$tmp/tree/.hidden/c.py"
out=$("$PYWARD" check -q "$tmp/tree" | sed "s|$tmp/tree/||" | cut -d: -f1 | tr '\n' ' ')
if [ "$out" = "b.py sub/a.py " ]; then ok "directories: *.py, recursive, sorted"; else not_ok "directories: *.py, recursive, sorted" "$out"; fi

# --- pyward rules -----------------------------------------------------------
expect "rules lists every code" 0 "^PW305 .*private-attribute .*default" "$PYWARD" rules
expect "rules explains a code" 0 "^Why: " "$PYWARD" rules PW201
expect "rules explains a name" 0 "^PW306 augmented-attribute" "$PYWARD" rules augmented-attribute
expect "rules: unknown code exits 2" 2 "" "$PYWARD" rules PW999
expect "rules --check" 0 "all valid" "$PYWARD" rules --check
mkdir -p "$tmp/badrules"
cp "$PYWARD_RULES_DIR"/*.json "$tmp/badrules/"
sed -i 's/"summary": "call to open()"/"summary": "call to open()", "severity": "error"/' "$tmp/badrules/calls.json"
"$PYWARD" rules --check --rules "$tmp/badrules" 2>"$tmp/err" >/dev/null
rc=$?
if [ "$rc" = 1 ] && grep -q "calls.json: rule PW204: unknown key 'severity'" "$tmp/err"; then
    ok "rules --check names the file, the rule and the key"
else
    not_ok "rules --check names the file, the rule and the key" "exit $rc: $(cat "$tmp/err")"
fi

mkdir -p "$tmp/badref"
cp "$PYWARD_RULES_DIR"/*.json "$tmp/badref/"
sed -i 's/"attributes.inspect"}/"attributes.nope"}/' "$tmp/badref/attributes.json"
"$PYWARD" rules --check --rules "$tmp/badref" 2>"$tmp/err" >/dev/null
rc=$?
if [ "$rc" = 1 ] &&
    grep -q 'attributes.json: {"$runtime": "attributes.nope"}: runtime.json has no such list' "$tmp/err"; then
    ok "a rule's reference to a list runtime.json lacks is an error"
else
    not_ok "a rule's reference to a list runtime.json lacks is an error" "exit $rc: $(cat "$tmp/err")"
fi

done_testing
