#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
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

# Without PYWARD_RULES_DIR the binary finds its rules by itself: beside
# it in the source tree, or the source tree's from a build directory
# (`../configure`) before it is installed.
if out=$(env -u PYWARD_RULES_DIR "$PYWARD" rules 2>&1); then
    ok "an uninstalled binary finds its rules"
else
    not_ok "an uninstalled binary finds its rules" "$out"
fi

done_testing
