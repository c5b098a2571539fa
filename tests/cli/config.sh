#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `pyward check` configured: [tool.pyward] in pyproject.toml and
# pyward.toml (every key, where they are looked for, --config,
# --isolated, errors naming the file, the line and the key), the default
# and configured excludes, .gitignore and .ignore inside and outside a git
# work tree (against git's own answers), the output (the summary line,
# -q, --show-source, --show-hint, --output-format) and --stdin-filename.
. "${top_srcdir:-.}/tests/lib.sh"

tmp=$(tmpdir_new)
trap 'rm -rf "$tmp"' EXIT
py=${PYTHON3:-python3}

# run DIR CMD...: CMD in DIR; stdout in $out, stderr in $err, status $rc.
run() {
    d=$1
    shift
    out=$(cd "$d" && "$@" 2>"$tmp/stderr")
    rc=$?
    err=$(cat "$tmp/stderr")
}

# same NAME WANT: a point that passes when $out equals WANT.
same() {
    if [ "$out" = "$2" ]; then
        ok "$1"
    else
        not_ok "$1" "expected:
$2
got (exit $rc):
$out
$err"
    fi
}

# has NAME PATTERN [STATUS]: $out (or $err after 'err') matches PATTERN
# and the exit status is STATUS (default 1).
has() {
    name=$1 pat=$2 want=${3:-1}
    if [ "$rc" != "$want" ]; then
        not_ok "$name" "exit $rc, expected $want: $out $err"
    elif ! printf '%s\n%s\n' "$out" "$err" | grep -q -- "$pat"; then
        not_ok "$name" "no '$pat' in: $out $err"
    else
        ok "$name"
    fi
}

# files: the files reported, one line, in order.
files() {
    printf '%s\n' "$out" | grep -v '^Found ' | cut -d: -f1 | uniq |
        tr '\n' ' '
}

P=$PYWARD
bad='eval("1")
import socket
'

# --- discovery ------------------------------------------------------------
mkdir -p "$tmp/d/proj/src/deep" "$tmp/d/proj/plain/inner"
printf '%s' "$bad" >"$tmp/d/proj/src/deep/a.py"
printf '%s' "$bad" >"$tmp/d/proj/plain/inner/b.py"
printf '[tool.pyward]\nignore = ["PW1"]\n' >"$tmp/d/proj/pyproject.toml"
run "$tmp/d/proj/src/deep" "$P" check -q a.py
same "pyproject.toml found from the file's directory upward" \
    "a.py:1:1: PW202 'eval()' is not available in the sandbox"
run "$tmp/d" "$P" check -q proj/src/deep/a.py
same "found from the checked path, not the working directory" \
    "proj/src/deep/a.py:1:1: PW202 'eval()' is not available in the sandbox"
printf 'select = ["PW1"]\n' >"$tmp/d/proj/pyward.toml"
run "$tmp/d/proj" "$P" check -q src
has "pyward.toml comes before pyproject.toml in one directory" "PW102"
if printf '%s' "$out" | grep -q PW202; then
    not_ok "pyward.toml's settings only" "$out"
else
    ok "pyward.toml's settings only"
fi
rm "$tmp/d/proj/pyward.toml"
printf '[project]\nname = "x"\n' >"$tmp/d/proj/plain/pyproject.toml"
run "$tmp/d/proj/plain" "$P" check -q inner
same "a pyproject.toml without [tool.pyward] is passed over" \
    "inner/b.py:1:1: PW202 'eval()' is not available in the sandbox"
printf '[tool.pyward]\nselect = ["PW1"]\n' >"$tmp/d/proj/plain/inner/pyproject.toml"
run "$tmp/d/proj" "$P" check -q .
same "a directory's own configuration applies below it" \
    "plain/inner/b.py:2:8: PW102 module 'socket' needs the 'network' profile, which is not selected here
src/deep/a.py:1:1: PW202 'eval()' is not available in the sandbox"
printf 'select = ["PW2"]\n' >"$tmp/d/other.toml"
run "$tmp/d/proj" "$P" check -q --config ../other.toml plain
same "--config replaces the files found" \
    "plain/inner/b.py:1:1: PW202 'eval()' is not available in the sandbox"
run "$tmp/d/proj" "$P" check -q --isolated src
same "--isolated reads none" \
    "src/deep/a.py:1:1: PW202 'eval()' is not available in the sandbox
src/deep/a.py:2:8: PW102 module 'socket' needs the 'network' profile, which is not selected here"
run "$tmp/d/proj" "$P" check --isolated --config ../other.toml src
has "--config with --isolated is a usage error" "exclude each other" 2
run "$tmp/d/proj" "$P" check --config ../none.toml src
has "a missing --config file is an error" "none.toml" 2

mkdir -p "$tmp/legacy/sub"
printf '[flake8]\nmax-line-length = 100\n\n[pyward]\nselect = PW2\n' >"$tmp/legacy/setup.cfg"
printf 'eval(1)\n' >"$tmp/legacy/sub/a.py"
run "$tmp/legacy/sub" "$P" check a.py
has "a [pyward] section of setup.cfg: a warning that it is not read" \
    "setup.cfg: its \[pyward\] section is not read; move it to \[tool.pyward\]"
printf '[tool.pyward]\n' >"$tmp/legacy/pyproject.toml"
run "$tmp/legacy/sub" "$P" check a.py
if [ -z "$err" ]; then ok "no warning once a configuration is found"; else not_ok "no warning once a configuration is found" "$err"; fi

# --- every key ------------------------------------------------------------
mkdir -p "$tmp/k"
k=$tmp/k
printf 'class A:\n    def inc(self):\n        self.n += 1\n' >"$k/idiom.py"
printf 'import socket\n' >"$k/net.py"
printf 'eval("1")\nimport os\nx.__dict__\n' >"$k/mixed.py"
# key CONF CMD...: run CMD in $k with pyward.toml CONF.
key() {
    printf '%s\n' "$1" >"$k/pyward.toml"
    shift
    run "$k" "$@"
}
key 'rules = "restricted"' "$P" check -q idiom.py
has "rules" "PW306"
key "rules = \"$PYWARD_RULES_DIR\"" "$P" check -q idiom.py
same "rules: a directory" ""
key 'profile = "network"' "$P" check -q net.py
same "profile: a string" ""
key 'profile = ["basic", "network"]' "$P" check -q net.py
same "profile: an array" ""
key 'select = ["PW2"]' "$P" check -q mixed.py
same "select" "mixed.py:1:1: PW202 'eval()' is not available in the sandbox"
key 'select = ["PW2"]
extend-select = ["PW305"]' "$P" check -q mixed.py
same "extend-select" "mixed.py:1:1: PW202 'eval()' is not available in the sandbox
mixed.py:3:1: PW305 the attribute \"__dict__\" is not allowed"
key 'ignore = ["PW1", "PW3"]' "$P" check -q mixed.py
same "ignore" "mixed.py:1:1: PW202 'eval()' is not available in the sandbox"
key 'extend-ignore = ["PW2"]
ignore = ["PW1"]' "$P" check -q mixed.py
same "extend-ignore" "mixed.py:3:1: PW305 the attribute \"__dict__\" is not allowed"
key 'ignore = ["PW1"]' "$P" check -q --ignore PW3 mixed.py
same "--ignore adds to the configuration's ignore" \
    "mixed.py:1:1: PW202 'eval()' is not available in the sandbox"
key 'select = ["PW1"]' "$P" check -q --select PW3 mixed.py
same "--select replaces the configuration's select" \
    "mixed.py:3:1: PW305 the attribute \"__dict__\" is not allowed"
mkdir -p "$k/tests/unit" "$k/lib"
printf 'eval("1")\nimport os\n' >"$k/tests/unit/test_x.py"
printf 'eval("1")\nimport os\n' >"$k/lib/y.py"
key '[per-file-ignores]
"test_*.py" = ["PW2"]
"lib/*.py" = ["PW101"]' "$P" check -q tests lib
same "per-file-ignores: a name glob and a path glob" \
    "lib/y.py:1:1: PW202 'eval()' is not available in the sandbox
tests/unit/test_x.py:2:8: PW101 module 'os' cannot be imported here"
key '[per-file-ignores]
"!lib/**" = ["PW1"]' "$P" check -q tests lib
same "per-file-ignores: '!' for every file not matching" \
    "lib/y.py:1:1: PW202 'eval()' is not available in the sandbox
lib/y.py:2:8: PW101 module 'os' cannot be imported here
tests/unit/test_x.py:1:1: PW202 'eval()' is not available in the sandbox"
key 'extend-per-file-ignores = { "tests/**/*.py" = ["PW"] }' \
    "$P" check -q tests lib
same "extend-per-file-ignores, and '**'" \
    "lib/y.py:1:1: PW202 'eval()' is not available in the sandbox
lib/y.py:2:8: PW101 module 'os' cannot be imported here"
rm -rf "$k/tests" "$k/lib"

# --- excludes ---------------------------------------------------------------
x=$tmp/x
for d in .git .hg .svn .venv venv build dist node_modules __pycache__ \
    site-packages .tox .nox .eggs _build buck-out src src/build gen; do
    mkdir -p "$x/$d"
    printf 'eval(1)\n' >"$x/$d/f.py"
done
printf 'eval(1)\n' >"$x/top.py"
run "$x" "$P" check -q --isolated .
same "the default excludes" \
    "$(printf '%s\n' gen/f.py src/f.py top.py |
        sed "s/\$/:1:1: PW202 'eval()' is not available in the sandbox/")"
mkdir -p "$tmp/links/real"
printf 'eval(1)\n' >"$tmp/links/real/r.py"
ln -s .. "$tmp/links/real/up"
ln -s real "$tmp/links/again"
ln -s real/r.py "$tmp/links/alias.py"
ln -s nowhere.py "$tmp/links/dangling.py"
run "$tmp/links" "$P" check -q --isolated .
same "links: to a file checked, to a directory not followed" \
    "alias.py:1:1: PW202 'eval()' is not available in the sandbox
real/r.py:1:1: PW202 'eval()' is not available in the sandbox"
run "$x" "$P" check -q --isolated top.py src ./top.py "$x/src/f.py"
same "a file named twice is checked once" \
    "$(printf '%s\n' src/f.py top.py |
        sed "s/\$/:1:1: PW202 'eval()' is not available in the sandbox/")"
run "$x" "$P" check -q --isolated build/f.py
has "a file named on the command line is checked though excluded" "^build/f.py:1:1"
run "$x" "$P" check -q --isolated --force-exclude build/f.py
same "--force-exclude leaves it out" ""
run "$x" "$P" check -q --isolated --force-exclude src/build/f.py
same "--force-exclude: an excluded directory above it" ""
run "$x" "$P" check -q --isolated --exclude gen,top.py .
has "--exclude replaces the defaults" "^build/f.py:"
if printf '%s' "$out" | grep -q '^gen/\|^top.py'; then
    not_ok "--exclude leaves out what it names" "$out"
else
    ok "--exclude leaves out what it names"
fi
run "$x" "$P" check -q --isolated --extend-exclude src/build,gen .
same "--extend-exclude: a path relative to the working directory" \
    "$(printf '%s\n' src/f.py top.py |
        sed "s/\$/:1:1: PW202 'eval()' is not available in the sandbox/")"
printf 'exclude = ["gen"]\n' >"$x/pyward.toml"
run "$x" "$P" check -q .
case $(files) in
*build/f.py*node_modules/f.py*) ok "exclude in the configuration replaces the defaults" ;;
*) not_ok "exclude in the configuration replaces the defaults" "$out" ;;
esac
printf 'extend-exclude = ["src/*", "top.py"]\n' >"$x/pyward.toml"
run "$x/gen" "$P" check -q ..
same "extend-exclude: relative to the configuration's directory" \
    "../gen/f.py:1:1: PW202 'eval()' is not available in the sandbox"
printf 'force-exclude = true\n' >"$x/pyward.toml"
run "$x" "$P" check -q build/f.py
same "force-exclude in the configuration" ""
rm "$x/pyward.toml"

# --- .gitignore and .ignore -------------------------------------------------
# One tree, its ignore files exercising every kind of pattern; what pyward
# leaves out must be what git leaves out (git check-ignore) inside a work
# tree, and the same outside one.
g=$tmp/g/repo
mkdir -p "$g"
for f in a.py top.py pkg/a.py pkg/gen/x.py pkg/gen/keep.py pkg/tmp_1.py \
    pkg/tmp_keep.py pkg/x_tmp.py pkg/only_ignore.py pkg/deep/d.py pkg/deep/e.py \
    docs/build2/d.py docs/a/b/c/d.py docs/n.py 'sp ace/s.py' \
    lit/star.py data/f.py data/sub/g.py notes/n.py; do
    mkdir -p "$g/$(dirname "$f")"
    printf 'eval(1)\n' >"$g/$f"
done
cat >"$g/.gitignore" <<'EOF'
# a comment, then a blank line

gen/
tmp_*.py
!tmp_keep.py
*_tmp.py
/top.py
docs/**/d.py
sp\ ace/
lit/st[a-z]r.py
data/**
!data/sub/
notes
EOF
printf 'e.py\n!/d.py\n' >"$g/pkg/deep/.gitignore"
printf 'only_ignore.py\n' >"$g/pkg/.ignore"
(cd "$g" && find . -name '*.py' | sed 's|^\./||' | LC_ALL=C sort) >"$tmp/all"
# pyward's file list in order, without the .ignore's effect (git does not
# read .ignore files).
pyward_files() {
    (cd "$1" && "$P" check -q --isolated .) | cut -d: -f1 | LC_ALL=C sort
}
if command -v git >/dev/null 2>&1; then
    (cd "$g" && git init -q . && git config user.email t@e && git config user.name t)
    # git's answer: the files it does not ignore, but for the one only
    # the .ignore file leaves out (git does not read .ignore files).
    (cd "$g" && git ls-files --others --exclude-standard | grep '\.py$' |
        LC_ALL=C sort) >"$tmp/git.all"
    if grep -qx pkg/only_ignore.py "$tmp/git.all"; then
        ok "git does not read .ignore"
    else
        not_ok "git does not read .ignore" "$(cat "$tmp/git.all")"
    fi
    grep -vx pkg/only_ignore.py "$tmp/git.all" >"$tmp/git"
    pyward_files "$g" >"$tmp/pw"
    if cmp -s "$tmp/git" "$tmp/pw"; then
        ok "inside a git work tree: the files git does not ignore"
    else
        not_ok "inside a git work tree: the files git does not ignore" \
            "$(diff "$tmp/git" "$tmp/pw")"
    fi
    printf 'pkg/a.py\n' >"$g/.git/info/exclude"
    run "$g" "$P" check -q --isolated pkg
    if printf '%s' "$out" | grep -q '^pkg/a.py'; then
        not_ok ".git/info/exclude" "$out"
    else
        ok ".git/info/exclude"
    fi
    rm "$g/.git/info/exclude"
    # A walk that starts below the top reads the ignore files above it.
    run "$g/pkg" "$P" check -q --isolated .
    same "the work tree's ignore files above the walk's start" \
        "$(printf '%s\n' a.py deep/d.py tmp_keep.py |
            sed "s/\$/:1:1: PW202 'eval()' is not available in the sandbox/")"
    cp -r "$g" "$tmp/outside"
    rm -rf "$tmp/outside/.git"
    pyward_files "$tmp/outside" >"$tmp/pw2"
    if cmp -s "$tmp/git" "$tmp/pw2"; then
        ok "outside a work tree: .gitignore files read the same way"
    else
        not_ok "outside a work tree: .gitignore files read the same way" \
            "$(diff "$tmp/git" "$tmp/pw2")"
    fi
else
    skip "git does not read .ignore" "no git"
    skip "inside a git work tree: the files git does not ignore" "no git"
    skip ".git/info/exclude" "no git"
    skip "the work tree's ignore files above the walk's start" "no git"
    skip "outside a work tree: .gitignore files read the same way" "no git"
fi
pyward_files "$g" >"$tmp/pw"
run "$g" "$P" check -q --isolated --no-respect-gitignore .
n=$(printf '%s\n' "$out" | wc -l)
want=$(wc -l <"$tmp/all")
if [ "$n" = "$want" ]; then
    ok "--no-respect-gitignore checks every file"
else
    not_ok "--no-respect-gitignore checks every file" "$n of $want: $out"
fi
printf 'respect-gitignore = false\n' >"$g/pyward.toml"
run "$g" "$P" check -q .
n=$(printf '%s\n' "$out" | wc -l)
if [ "$n" = "$want" ]; then
    ok "respect-gitignore = false"
else
    not_ok "respect-gitignore = false" "$n of $want"
fi
run "$g" "$P" check -q --respect-gitignore .
pyward_respect=$(printf '%s\n' "$out" | cut -d: -f1 | LC_ALL=C sort)
if [ "$pyward_respect" = "$(cat "$tmp/pw")" ]; then
    ok "--respect-gitignore over respect-gitignore = false"
else
    not_ok "--respect-gitignore over respect-gitignore = false" "$out"
fi
rm "$g/pyward.toml"
run "$g" "$P" check -q --isolated pkg/tmp_1.py
has "an ignored file named on the command line is checked" "^pkg/tmp_1.py:"

# --- errors in the configuration -------------------------------------------
e=$tmp/e
mkdir -p "$e"
printf 'x = 1\n' >"$e/ok.py"
# conf_err NAME FILE TEXT PATTERN: pyward check exits 2 with PATTERN.
conf_err() {
    rm -f "$e/pyproject.toml" "$e/pyward.toml"
    printf '%s\n' "$3" >"$e/$2"
    run "$e" "$P" check ok.py
    has "$1" "$4" 2
}
conf_err "an unknown key names the file, the line and the key" pyproject.toml \
    '[project]
name = "x"

[tool.pyward]
select = ["PW2"]
selct = ["PW3"]' "pyproject.toml:6: \[tool.pyward\] 'selct' is not a key"
conf_err "a string for an array" pyward.toml \
    'ignore = "PW2"' "pyward.toml:1: 'ignore' must be an array of strings, not a string"
conf_err "an integer in an array" pyward.toml \
    '
exclude = ["a", 3]' "pyward.toml:2: 'exclude' must be an array of strings; item 2 is an integer"
conf_err "a boolean key" pyward.toml \
    'respect-gitignore = 1' "pyward.toml:1: 'respect-gitignore' must be true or false, not an integer"
conf_err "force-exclude is a boolean" pyward.toml \
    'force-exclude = "yes"' "'force-exclude' must be true or false"
conf_err "rules is a string" pyward.toml 'rules = ["a"]' "'rules' must be a string"
conf_err "profile is a string or an array" pyward.toml 'profile = 1' "'profile' must be a string or an array"
conf_err "a code that is not pyward's" pyward.toml \
    'select = ["E501"]' "'select' holds 'E501', which is not a code prefix"
conf_err "per-file-ignores in a table of its own" pyproject.toml \
    '[tool.pyward]
ignore = []

[tool.pyward.per-file-ignores]
"a.py" = ["PW2"]
"b.py" = "PW2"' "pyproject.toml:6: \[tool.pyward\] per-file-ignores 'b.py' must be an array"
conf_err "per-file-ignores must be a table" pyward.toml \
    'per-file-ignores = ["a"]' "'per-file-ignores' must be a table"
conf_err "an unknown profile: the file, the line, the key" pyward.toml \
    '
profile = "nope"' "pyward.toml:2: 'profile': unknown profile 'nope'"
conf_err "a rules directory that is not there" pyproject.toml \
    '[tool.pyward]
rules = "no-such-dir"' "pyproject.toml:2: \[tool.pyward\] 'rules': unknown rule set"
conf_err "invalid TOML" pyward.toml 'select = [' "pyward.toml: invalid TOML: "
rm -f "$e/pyproject.toml" "$e/pyward.toml"

# --- output -------------------------------------------------------------------
o=$tmp/o
mkdir -p "$o"
printf 'x = 1\n' >"$o/clean.py"
printf 'eval("1")\n' >"$o/one.py"
printf 'if 1:\n\teval("é" + input())\nexec("1")\n' >"$o/two.py"
run "$o" "$P" check --isolated clean.py
if [ "$rc" = 0 ] && [ -z "$out" ]; then ok "clean: nothing printed"; else not_ok "clean: nothing printed" "$out"; fi
run "$o" "$P" check --isolated --statistics clean.py
same "clean with --statistics: the summary" "Found 0 errors."
run "$o" "$P" check --isolated one.py
same "one finding: 'Found 1 error.'" \
    "one.py:1:1: PW202 'eval()' is not available in the sandbox
Found 1 error."
run "$o" "$P" check --isolated --statistics two.py
has "--statistics, then the summary" "^2      PW202 code-execution-builtin"
if [ "$(printf '%s\n' "$out" | tail -n 1)" = "Found 2 errors." ]; then
    ok "'Found 2 errors.' last"
else
    not_ok "'Found 2 errors.' last" "$out"
fi
run "$o" "$P" check --isolated -q one.py
same "-q: no summary" "one.py:1:1: PW202 'eval()' is not available in the sandbox"
run "$o" "$P" check --isolated --quiet --exit-zero one.py
has "--quiet --exit-zero" "^one.py:1:1" 0
run "$o" "$P" check --isolated -e -q one.py
has "-e" "^one.py" 0
run "$o" "$P" check --isolated -q --show-source two.py
tab=$(printf '\t')
same "--show-source: the line, carets under the columns (tabs kept)" \
    "two.py:2:2: PW202 'eval()' is not available in the sandbox
  2 | ${tab}eval(\"é\" + input())
    | ${tab}^^^^^^^^^^^^^^^^^^^
two.py:3:1: PW202 'exec()' is not available in the sandbox
  3 | exec(\"1\")
    | ^^^^^^^^^"
run "$o" "$P" check --isolated -q --show-hint one.py
same "--show-hint" \
    "one.py:1:1: PW202 'eval()' is not available in the sandbox
  = hint: it runs or loads code the checker never saw; write the code directly, use 'import' for allowed modules, or choose functions from a dict"
run "$o" "$P" check --isolated --output-format full one.py
same "--output-format full" \
    "one.py:1:1: PW202 'eval()' is not available in the sandbox
  1 | eval(\"1\")
    | ^^^^^^^^^
  = hint: it runs or loads code the checker never saw; write the code directly, use 'import' for allowed modules, or choose functions from a dict
Found 1 error."
run "$o" "$P" check --isolated --output-format concise one.py
has "--output-format concise" "^one.py:1:1: PW202 'eval()' is not available in the sandbox$"
run "$o" "$P" check --isolated --output-format json one.py
if printf '%s' "$out" | $py -c '
import json, sys
d = json.load(sys.stdin)
assert len(d) == 1, d
f = d[0]
assert f["concise"] == "'"'eval()'"' is not available in the sandbox", f
assert f["hint"].startswith("it runs or loads code"), f
assert f["message"] == f["concise"] + ": " + f["hint"], f
'; then
    ok "--output-format json: message, concise and hint, no summary"
else
    not_ok "--output-format json: message, concise and hint, no summary" "$out"
fi
run "$o" "$P" check --isolated --output-format sarif one.py
has "--output-format sarif" '"version": "2.1.0"'
run "$o" "$P" check --isolated --output-format github one.py
has "--output-format github: no summary" "^::error file=one.py"
if printf '%s' "$out" | grep -q '^Found'; then not_ok "github: no summary line" "$out"; else ok "github: no summary line"; fi
run "$o" "$P" check --output-format xml one.py
has "a bad value names the option" "^pyward check: bad value 'xml' for --output-format" 2
run "$o" "$P" check --bogus one.py
has "an unknown option: 'pyward check:' before it" "^pyward check: unrecognized option '--bogus'" 2

# --- --stdin-filename -----------------------------------------------------------
mkdir -p "$o/tests"
printf '[tool.pyward.per-file-ignores]\n"tests/*" = ["PW202"]\n' >"$o/pyproject.toml"
run "$o" sh -c 'printf "eval(1)\nopen(1)\n" | "$0" check -q --stdin-filename tests/t.py' "$P"
same "--stdin-filename without a path: stdin, named, its per-file ignores" \
    "tests/t.py:2:1: PW204 'open()' is not available with the selected profiles"
run "$o" sh -c 'printf "eval(1)\n" | "$0" check -q --stdin-filename lesson.py -' "$P"
same "--stdin-filename with '-'" \
    "lesson.py:1:1: PW202 'eval()' is not available in the sandbox"
run "$o" sh -c 'printf "eval(1)\n" | "$0" check -q --force-exclude --stdin-filename build/x.py' "$P"
same "--stdin-filename of an excluded file with --force-exclude" ""
run "$tmp" sh -c 'printf "eval(1)\n" | "$0" check -q --stdin-filename o/tests/t.py' "$P"
same "--stdin-filename: the configuration found from the name's directory" ""

# --- the pre-commit hooks -------------------------------------------------------
# .pre-commit-hooks.yaml through pre-commit itself (when it is installed and
# the source tree is a git checkout): the excludes and the configuration
# apply to the files pre-commit names.
if command -v pre-commit >/dev/null 2>&1 && command -v git >/dev/null 2>&1 &&
    [ -e "$top_srcdir/.git" ]; then
    pc=$tmp/pc
    mkdir -p "$pc/lessons" "$pc/build"
    printf 'eval("1")\nimport os\n' >"$pc/lessons/l1.py"
    printf 'eval(1)\n' >"$pc/build/gen.py"
    printf '[tool.pyward.per-file-ignores]\n"l1.py" = ["PW1"]\n' >"$pc/pyproject.toml"
    bindir=$(cd "$(dirname "$P")" && pwd)
    (cd "$pc" && git init -q . && git add -A)
    out=$(cd "$pc" && PATH="$bindir:$PATH" PRE_COMMIT_HOME="$tmp/pc-home" \
        pre-commit try-repo "$top_srcdir" pyward --all-files 2>&1)
    case $out in
    *"lessons/l1.py:1:1: PW202"*"Found 1 error."*)
        if printf '%s' "$out" | grep -q 'build/gen.py\|PW101'; then
            not_ok "pre-commit runs the pyward hook" "$out"
        else
            ok "pre-commit runs the pyward hook"
        fi
        ;;
    *) not_ok "pre-commit runs the pyward hook" "$out" ;;
    esac
else
    skip "pre-commit runs the pyward hook" "no pre-commit, git or checkout"
fi

done_testing
