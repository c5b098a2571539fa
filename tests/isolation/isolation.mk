# SPDX-License-Identifier: Apache-2.0
# Isolation between runs: the cross-run memory test (make check).
TESTS += tests/isolation/run.sh
EXTRA_DIST += tests/isolation/run.sh tests/isolation/crossrun.py
