# SPDX-License-Identifier: Apache-2.0
# Programs that must run (tests/programs/), a folder for each way they are
# checked, its drivers inside it:
#   beginner/  the beginner corpus (its programs in cases/): check.sh,
#              the validator accepts them; python.sh, CPython 3.11 prints
#              each one's .out; sandbox.sh, so does `pyward run`;
#   faithful/  errors as python3.11 shows them (run.sh, faithful.py; the
#              programs in cases/);
#   idioms/    idioms python3 runs that the sandbox accepts (run.sh);
#   examples/  the programs the README and pyward(1) show (run.sh).
# The programs at the top are the red team's: tests/redteam/run.sh runs
# them next to the attacks.  The folder ships whole (EXTRA_DIST in
# tests/redteam/redteam.mk).  tests/programs/beginner/sandbox.sh and
# tests/programs/faithful/run.sh: listed first in Makefile.am (long ones).
TESTS += \
	tests/programs/beginner/check.sh \
	tests/programs/beginner/python.sh \
	tests/programs/idioms/run.sh \
	tests/programs/examples/run.sh \
	$(NULL)
