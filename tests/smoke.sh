#!/bin/sh
# The binary starts, knows its commands and refuses unknown ones.
. "${top_srcdir:-.}/tests/lib.sh"

out=$("$PYWARD" --version)
case "$out" in
pyward\ *) ok "--version prints the version" ;;
*) not_ok "--version prints the version" "$out" ;;
esac

if "$PYWARD" --help | grep -q '^  check '; then
    ok "--help lists the commands"
else
    not_ok "--help lists the commands"
fi

"$PYWARD" no-such-command >/dev/null 2>&1
rc=$?
if [ "$rc" = 2 ]; then
    ok "an unknown command exits 2"
else
    not_ok "an unknown command exits 2" "exit $rc"
fi

done_testing
