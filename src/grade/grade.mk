# SPDX-License-Identifier: Apache-2.0
# The run queue, and grading: suites of tests, the checkers, verdicts.
libpyward_a_SOURCES += \
	src/grade/suite.c src/grade/suite.h \
	src/grade/compare.c src/grade/compare.h \
	src/grade/queue.c src/grade/queue.h \
	src/grade/grade.c src/grade/grade.h \
	$(NULL)

# `pyward judge` through the real sandbox, and the grading attacks.
TESTS += tests/judge/run.sh
EXTRA_DIST += tests/judge/run.sh tests/judge/test_judge.py tests/judge/attacks
# Batch grading against a process per test, the fallback, the batch
# attacks (tests/judge/batch/).
TESTS += tests/judge/batch.sh
EXTRA_DIST += tests/judge/batch.sh tests/judge/batch.py tests/judge/batch

# `pyward judge` on 40 tests next to spawning python3 per test:
# `make bench-judge`.
EXTRA_DIST += tests/bench/bench-judge.py
bench-judge: pyward$(EXEEXT)
	PYWARD_RULES_DIR=$(abs_top_srcdir)/rules $(PYTHON3) \
	    $(top_srcdir)/tests/bench/bench-judge.py ./pyward$(EXEEXT)
.PHONY: bench-judge

# The built-in checkers and the suite's checker fields.
if HAVE_CHECK
TESTS += tests/unit/check_compare
check_PROGRAMS += tests/unit/check_compare
tests_unit_check_compare_SOURCES = tests/unit/check_compare.c
tests_unit_check_compare_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_check_compare_LDADD = libpyward.a $(PW_LIBS) $(CHECK_LIBS)
endif

# Ping and short-run latency, idle and while another client grades a
# suite, over stdio and HTTP: `make bench-fair`.
EXTRA_DIST += tests/bench/bench-fair.py
bench-fair: pyward$(EXEEXT)
	PYWARD_RULES_DIR=$(abs_top_srcdir)/rules $(PYTHON3) \
	    $(top_srcdir)/tests/bench/bench-fair.py ./pyward$(EXEEXT)
.PHONY: bench-fair
