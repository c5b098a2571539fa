# SPDX-License-Identifier: Apache-2.0
# Grading: suites of tests, the checkers, parallel runs, verdicts.
libpyward_a_SOURCES += \
	src/grade/suite.c src/grade/suite.h \
	src/grade/compare.c src/grade/compare.h \
	src/grade/batch.c src/grade/batch.h \
	src/grade/grade.c src/grade/grade.h \
	$(NULL)

# `pyward judge` through the real sandbox, and the grading attacks.
TESTS += tests/judge/run.sh
EXTRA_DIST += tests/judge/run.sh tests/judge/test_judge.py tests/judge/attacks
