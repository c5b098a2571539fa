#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Servers sharing one host (tests/host/many_servers.py).
. "${top_srcdir:-.}/tests/lib.sh"

: "${PYTHON3:=python3}"
exec 2>&1
exec "$PYTHON3" "$top_srcdir/tests/host/many_servers.py"
