#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The man pages match the program: every option and environment variable
# that `pyward COMMAND --help` prints is documented in doc/pyward.1 (the
# options under that command's section), the rules table of
# doc/pyward-rules.5 is what `pyward rules` prints, and groff formats both
# pages without a warning.
. "${top_srcdir:-.}/tests/lib.sh"

man1=$top_srcdir/doc/pyward.1
man5=$top_srcdir/doc/pyward-rules.5

# section NAME: the text of pyward.1's `.SS NAME` section, with \- as -.
section() {
    awk -v s=".SS $1" '$0 == s { on = 1; next } /^\.S[HS]/ { on = 0 } on' \
        "$man1" | sed 's/\\-/-/g'
}

# has TEXT WORD: WORD occurs in TEXT as a whole option or variable name.
has() {
    printf '%s\n' "$1" | grep -qE -- "(^|[^A-Za-z0-9_-])$2([^A-Za-z0-9_-]|\$)"
}

page=$(sed 's/\\-/-/g' "$man1")
for cmd in '' serve check run judge rules doctor packages; do
    if [ -n "$cmd" ]; then
        help=$("$PYWARD" "$cmd" --help 2>&1)
        text=$(section "$cmd")
        where="pyward.1 $cmd"
    else
        help=$("$PYWARD" --help 2>&1)
        text=$(section '"global options"')
        where="pyward.1 global options"
    fi
    if [ -z "$text" ]; then
        not_ok "$where: a section" "no .SS line for it in doc/pyward.1"
        continue
    fi
    for opt in $(printf '%s\n' "$help" | grep -oE -- '--[a-z][a-z-]*' |
        sort -u); do
        if has "$text" "$opt"; then
            ok "$where: $opt"
        else
            not_ok "$where: $opt" "'pyward $cmd --help' prints $opt"
        fi
    done
    for var in $(printf '%s\n' "$help" |
        grep -oE '(PYWARD|SANDBOX)_[A-Z][A-Z_]*' | sort -u); do
        if has "$page" "$var"; then
            ok "pyward.1: $var"
        else
            not_ok "pyward.1: $var" "'pyward $cmd --help' names $var"
        fi
    done
done

# The table as `pyward rules` prints it: code name sets summary, one
# space apart.  pyward-rules.5 has `.B CODE NAME` then `SETS: SUMMARY`.
work=$(tmpdir_new)
trap 'rm -rf "$work"' EXIT
if ! "$PYWARD" rules >"$work/rules.out" 2>"$work/rules.err"; then
    not_ok "pyward rules" "$(cat "$work/rules.err")"
fi
sed -E 's/^(PW[0-9]+) +([^ ]+) +([^ ]+) +/\1 \2 \3 /' "$work/rules.out" |
    sort >"$work/want"
sed 's/\\-/-/g' "$man5" | awk '
    /^\.B PW[0-9][0-9][0-9] / { code = $2; name = $3; next }
    code != "" {
        sets = $0; sub(/: .*/, "", sets); gsub(/, /, ",", sets)
        summary = $0; sub(/^[^:]*: /, "", summary)
        print code " " name " " sets " " summary
        code = ""
    }' | sort >"$work/got"
while IFS= read -r line; do
    code=${line%% *}
    if grep -qxF -- "$line" "$work/got"; then
        ok "pyward-rules.5: $code"
    else
        not_ok "pyward-rules.5: $code" "pyward rules: $line
pyward-rules.5: $(grep "^$code " "$work/got")"
    fi
done <"$work/want"
extra=$(comm -13 "$work/want" "$work/got")
if [ -z "$extra" ]; then
    ok "pyward-rules.5: no rule that pyward rules does not print"
else
    not_ok "pyward-rules.5: no rule that pyward rules does not print" "$extra"
fi

# pyward(1) points at installed documents: each path it names under
# /usr/share/doc/pyward/ is one that `make install` puts in $(docdir)
# (Makefile.am's dist_doc_DATA), and it names no doc/FILE of the source
# tree instead.
installed=$(sed -n '/^dist_doc_DATA *=/,/NULL)/p' "$top_srcdir/Makefile.am" |
    grep -oE '[A-Za-z/]+(\.md)?' | grep -vx 'dist_doc_DATA\|NULL' |
    sed 's|.*/||')
named=$(sed 's/\\-/-/g' "$man1" | grep -oE '/usr/share/doc/pyward/[A-Za-z.]*[A-Za-z]' |
    sed 's|.*/||' | sort -u)
bad=""
for f in $named; do
    printf '%s\n' "$installed" | grep -qxF "$f" || bad="$bad $f"
done
tree=$(sed 's/\\-/-/g' "$man1" | grep -nE '(^|[ (])doc/[A-Za-z]' || true)
if [ -n "$named" ] && [ -z "$bad" ] && [ -z "$tree" ]; then
    ok "pyward.1 names the installed documents ($(echo $named))"
else
    not_ok "pyward.1 names the installed documents" \
        "not installed:$bad; source-tree paths: $tree"
fi

if command -v groff >/dev/null 2>&1; then
    for page in "$man1" "$man5"; do
        check "groff formats ${page##*/} without a warning" \
            sh -c 'out=$(groff -t -man -Tutf8 -ww -z "$1" 2>&1) &&
                [ -z "$out" ] || { printf "%s\n" "$out"; exit 1; }' sh "$page"
    done
else
    skip "groff formats the man pages without a warning" "groff not installed"
fi
done_testing
