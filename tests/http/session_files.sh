#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# A session's read_file and write_file over HTTP
# (tests/http/test_session_files.py): round trips, the loop free while a
# large file is read, unread replies' memory, a file changed meanwhile.
. "${top_srcdir:-.}/tests/lib.sh"

exec "${PYTHON3:-python3}" "$top_srcdir/tests/http/test_session_files.py"
