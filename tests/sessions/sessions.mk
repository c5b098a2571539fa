# SPDX-License-Identifier: Apache-2.0
# Sessions: state across calls with explicit handles (raw JSON-RPC).
TESTS += tests/sessions/run.sh
EXTRA_DIST += tests/sessions/run.sh tests/sessions/sessions.py
