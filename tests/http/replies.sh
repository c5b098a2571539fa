#!/bin/sh
# SPDX-License-Identifier: Apache-2.0
# Large replies (tests/http/test_replies.py): output files and long
# streams byte for byte over stdio, HTTP JSON and SSE; unread replies'
# memory and fds; a file changed before its reply is written.
. "${top_srcdir:-.}/tests/lib.sh"

exec "${PYTHON3:-python3}" "$top_srcdir/tests/http/test_replies.py"
