#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Batch grading against a process per test through grade_code
# (tests/redteam/batch.py): the faithful, judge and red-team programs both
# ways, the fallback after a test that ends the batch's process, and the
# batch attacks of tests/redteam/batch/.
. "${top_srcdir:-.}/tests/lib.sh"

exec "${PYTHON3:-python3}" "$top_srcdir/tests/redteam/batch.py"
