#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The HAProxy tests: three `pyward serve --http` instances behind HAProxy
# (contrib/haproxy/haproxy.cfg, Debian's haproxy) on loopback.
#  - tests/haproxy/failover.mjs: a bounded load of execute_code calls
#    through it with the MCP SDK's v2 client, one instance killed in the
#    middle;
#  - tests/haproxy/sessions.mjs: sessions made through it by the v2 and v1
#    SDK clients and raw JSON-RPC, and their calls routed to the instance
#    holding each (by Mcp-Param-Session-Id, else by the body).
# One TAP stream: the second's points are numbered after the first's.
# The SDK is installed with `npm ci` from tests/mcp-client's lock into
# a work directory of the build tree.
. "${top_srcdir:-.}/tests/lib.sh"

NODE=${NODE:-node}
NPM=${NPM:-npm}
if ! command -v haproxy >/dev/null 2>&1; then
    echo "1..0 # SKIP haproxy not installed (./autogen.sh --deps)"
    exit 0
fi
if ! command -v "$NODE" >/dev/null 2>&1; then
    echo "1..0 # SKIP node not installed"
    exit 0
fi
lock="$top_srcdir/tests/mcp-client/package-lock.json"
work="$top_builddir/tests/haproxy-work"
mkdir -p "$work" || exit 1
if ! cmp -s "$lock" "$work/package-lock.json" ||
    [ ! -d "$work/node_modules/@modelcontextprotocol/client" ]; then
    cp "$top_srcdir/tests/mcp-client/package.json" "$lock" "$work/" &&
        chmod u+w "$work/package.json" "$work/package-lock.json"
    if ! out=$(cd "$work" && "$NPM" ci --no-audit --no-fund 2>&1); then
        echo "1..1"
        echo "not ok 1 - npm ci of the MCP SDK"
        printf '%s\n' "$out" | tail -20 | sed 's/^/# /'
        exit 0
    fi
fi
for f in cluster.mjs failover.mjs sessions.mjs; do
    cp "$top_srcdir/tests/haproxy/$f" "$work/" || exit 1
done
cfg="$top_srcdir/contrib/haproxy/haproxy.cfg"
run=$(mktemp -d "$work/run.XXXXXX") || exit 1
"$NODE" "$work/failover.mjs" "$PYWARD" "$cfg" "$run" >"$run/failover.tap"
grep -v '^1\.\.' "$run/failover.tap"
done=$(grep -c -E '^(not )?ok ' "$run/failover.tap")
TAP_OFFSET=$done "$NODE" "$work/sessions.mjs" "$PYWARD" "$cfg" "$run"
rc=$?
rm -rf "$run"
exit $rc
