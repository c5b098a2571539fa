#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# End-to-end tests of `pyward serve` through the official MCP TypeScript
# SDK client.  Installs the locked SDK with `npm ci` into the build tree,
# then runs node's test runner with its TAP reporter.
. "${top_srcdir:-.}/tests/lib.sh"

NODE=${NODE:-node}
NPM=${NPM:-npm}
if ! command -v "$NODE" >/dev/null 2>&1; then
    echo "1..0 # SKIP node not installed"
    exit 0
fi
src="$top_srcdir/tests/mcp-client"
work="$top_builddir/tests/mcp-client-work"
mkdir -p "$work" || exit 1
# Every *.test.mjs (and the modules they share, *.mjs) is a suite.
rm -f "$work"/*.mjs
cp "$src"/*.mjs "$work/"
# npm ci only when the lock changed since the last install.
if ! cmp -s "$src/package-lock.json" "$work/package-lock.json" ||
    [ ! -d "$work/node_modules/@modelcontextprotocol/sdk" ] ||
    [ ! -d "$work/node_modules/@modelcontextprotocol/client" ]; then
    cp "$src/package.json" "$src/package-lock.json" "$work/" &&
        chmod u+w "$work/package.json" "$work/package-lock.json"
    if ! out=$(cd "$work" && "$NPM" ci --no-audit --no-fund 2>&1); then
        echo "1..1"
        echo "not ok 1 - npm ci of the MCP SDK"
        printf '%s\n' "$out" | tail -20 | sed 's/^/# /'
        exit 0
    fi
fi
cd "$work" || exit 1
# node prints its TAP on stdout; subtests are not used, so every test is
# one top-level point.
"$NODE" --test --test-reporter=tap --test-concurrency=1 ./*.test.mjs
exit 0
