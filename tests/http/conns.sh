#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# `pyward serve --http` against connections that would keep others out:
# idle and slow ones, the caps, the reserve for probes, the idle timeout
# (tests/http/test_conns.py).
. "${top_srcdir:-.}/tests/lib.sh"

exec "${PYTHON3:-python3}" "$top_srcdir/tests/http/test_conns.py"
