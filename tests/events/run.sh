#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# The security event log of `pyward serve` (tests/events/test_events.py):
# the records of runs and refusals over stdio, HTTP and Jobe, read back.
. "${top_srcdir:-.}/tests/lib.sh"

exec "${PYTHON3:-python3}" "$top_srcdir/tests/events/test_events.py"
