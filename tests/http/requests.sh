#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Large requests (tests/http/test_requests.py): their JSON parsed off the
# loop; the others answered meanwhile, stdio's order kept, clients gone
# mid-parse.
. "${top_srcdir:-.}/tests/lib.sh"

exec "${PYTHON3:-python3}" "$top_srcdir/tests/http/test_requests.py"
