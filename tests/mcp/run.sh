#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Raw JSON-RPC cases for `pyward serve` (tests/mcp/cases.mjs), one TAP
# point each, driven by a node script that speaks the wire format itself.
. "${top_srcdir:-.}/tests/lib.sh"

NODE=${NODE:-node}
if ! command -v "$NODE" >/dev/null 2>&1; then
    echo "1..0 # SKIP node not installed"
    exit 0
fi
exec "$NODE" "$top_srcdir/tests/mcp/run.mjs"
