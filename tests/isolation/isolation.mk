# SPDX-License-Identifier: Apache-2.0
# Isolation between runs: the cross-run memory test (make check), and no
# process outliving a killed server.
TESTS += tests/isolation/run.sh tests/isolation/orphans.sh
EXTRA_DIST += tests/isolation/run.sh tests/isolation/crossrun.py \
	tests/isolation/orphans.sh tests/isolation/orphans.py
