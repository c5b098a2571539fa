#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Batch grading against a process per test through grade_code
# (tests/judge/batch.py): the faithful, judge and red-team programs both
# ways, the fallback after a test that ends the batch's process, and the
# batch attacks in tests/judge/batch/.
. "${top_srcdir:-.}/tests/lib.sh"

exec "${PYTHON3:-python3}" "$top_srcdir/tests/judge/batch.py"
