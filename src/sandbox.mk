# Sandboxed executor, `pyward run` and `pyward doctor`.
libpyward_a_SOURCES += \
	src/sandbox.c src/sandbox.h \
	src/sbx-internal.h \
	src/sbx-step.c \
	src/sbx-spare.c \
	src/sbx-zygote.c \
	src/sbx-result.c \
	src/sbx-output.c src/sbx-output.h \
	src/sbx-child.c \
	src/sbx-filter.c src/sbx-filter.h \
	src/sbx-limits.c src/sbx-limits.h \
	src/sbx-layers.c src/sbx-layers.h \
	src/sbx-mountns.c src/sbx-mountns.h \
	src/sbx-guard.c src/sbx-guard.h \
	src/sbx-audit.c src/sbx-audit.h \
	src/cmd_run.c \
	src/cmd_doctor.c \
	$(NULL)
dist_rules_DATA += rules/seccomp.json rules/runtime.json
EXTRA_DIST += src/guard.py

# guard.py (trusted interpreter layers) embedded as a C byte array.
BUILT_SOURCES = src/guard-py.inc
# (BUILT_SOURCES covers `make`, `make check`; this covers `make pyward`.)
src/sbx-guard.$(OBJEXT): src/guard-py.inc
CLEANFILES += src/guard-py.inc
src/guard-py.inc: $(top_srcdir)/src/guard.py
	$(AM_V_GEN)$(MKDIR_P) src && \
	od -An -v -tx1 $(top_srcdir)/src/guard.py | \
	sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g' > $@.tmp && mv $@.tmp $@

# The beginner corpus through the sandbox.
TESTS += tests/run-sandbox-corpus.sh
EXTRA_DIST += tests/run-sandbox-corpus.sh \
	$(NULL)

if HAVE_CHECK
TESTS += tests/unit/check_sandbox
check_PROGRAMS += tests/unit/check_sandbox
tests_unit_check_sandbox_SOURCES = tests/unit/check_sandbox.c
tests_unit_check_sandbox_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_check_sandbox_LDADD = libpyward.a $(PW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/check_output
check_PROGRAMS += tests/unit/check_output
tests_unit_check_output_SOURCES = tests/unit/check_output.c
tests_unit_check_output_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_check_output_LDADD = libpyward.a $(PW_LIBS) $(CHECK_LIBS)
endif

# Latency of a run through the warm zygote next to spawning python.
noinst_PROGRAMS += tests/bench/bench-exec
tests_bench_bench_exec_SOURCES = tests/bench/bench-exec.c
tests_bench_bench_exec_LDADD = libpyward.a $(PW_LIBS)

# Data-science runs (numpy, a matplotlib plot returned as an image)
# through execute_code next to spawning python: `make bench-science`.
EXTRA_DIST += tests/bench/bench-science.mjs
bench-science: pyward$(EXEEXT)
	PYWARD_RULES_DIR='$(abs_top_srcdir)/rules' $(NODE) \
	    $(top_srcdir)/tests/bench/bench-science.mjs ./pyward$(EXEEXT)
.PHONY: bench-science
