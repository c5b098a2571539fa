# SPDX-License-Identifier: Apache-2.0
# Sandboxed executor, `pyward run` and `pyward doctor`.
libpyward_a_SOURCES += \
	src/sandbox/sandbox.c src/sandbox/sandbox.h \
	src/sandbox/run/record.h src/sandbox/run/child.h \
	src/sandbox/session/record.h \
	src/sandbox/run/scratch.c src/sandbox/run/scratch.h \
	src/sandbox/run/pipes.c src/sandbox/run/pipes.h \
	src/sandbox/run/step.c src/sandbox/run/step.h \
	src/sandbox/run/spare.c src/sandbox/run/spare.h \
	src/sandbox/session/session.c src/sandbox/session/session.h \
	src/sandbox/session/family.c src/sandbox/session/family.h \
	src/sandbox/session/fork.c src/sandbox/session/fork.h \
	src/sandbox/session/gate.c src/sandbox/session/gate.h \
	src/sandbox/session/copy.c \
	src/sandbox/session/wscopy.c src/sandbox/session/wscopy.h \
	src/sandbox/run/wsfiles.c src/sandbox/run/wsfiles.h \
	src/sandbox/run/zygote.c src/sandbox/run/zygote.h \
	src/sandbox/run/folios.c src/sandbox/run/folios.h \
	src/sandbox/run/result.c \
	src/sandbox/run/output.c src/sandbox/run/output.h \
	src/sandbox/os/workspace.c src/sandbox/os/workspace.h \
	src/sandbox/run/child.c \
	src/sandbox/os/checklist.c src/sandbox/os/checklist.h \
	src/sandbox/os/filter.c src/sandbox/os/filter.h \
	src/sandbox/os/limits.c src/sandbox/os/limits.h \
	src/sandbox/os/layers.c src/sandbox/os/layers.h \
	src/sandbox/os/mountns.c src/sandbox/os/mountns.h \
	src/sandbox/interp/guard.c src/sandbox/interp/guard.h \
	src/sandbox/interp/batchstate.c src/sandbox/interp/batchstate.h \
	src/sandbox/interp/audit.c src/sandbox/interp/audit.h \
	src/sandbox/interp/hookcheck.c src/sandbox/interp/hookcheck.h \
	$(NULL)
dist_rules_DATA += rules/seccomp.json rules/runtime.json
# The guard (trusted interpreter layers), in parts concatenated in this
# order into one module source, embedded as a C byte array: guard.c runs it
# in a private namespace (never in sys.modules).  tests/guard/ loads the
# same parts in the same order under plain python3.
GUARD_PY = \
	src/sandbox/guard/common.py \
	src/sandbox/guard/attrs.py \
	src/sandbox/guard/codegen.py \
	src/sandbox/guard/views.py \
	src/sandbox/guard/facade.py \
	src/sandbox/guard/safe_builtins.py \
	src/sandbox/guard/rewrite.py \
	src/sandbox/guard/errors.py \
	src/sandbox/guard/run.py \
	src/sandbox/guard/batch.py \
	src/sandbox/guard/policy.py \
	src/sandbox/guard/plots.py \
	src/sandbox/guard/warmup.py \
	$(NULL)
EXTRA_DIST += $(GUARD_PY)
AM_TESTS_ENVIRONMENT += GUARD_PY='$(GUARD_PY)'; export GUARD_PY;

BUILT_SOURCES = src/sandbox/guard-py.inc src/sandbox/guard-code.inc
# (BUILT_SOURCES covers `make`, `make check`; this covers `make pyward`.)
src/sandbox/interp/guard.$(OBJEXT): src/sandbox/guard-py.inc src/sandbox/guard-code.inc
CLEANFILES += src/sandbox/guard-py.inc src/sandbox/guard-code.inc
src/sandbox/guard-py.inc: $(GUARD_PY)
	$(AM_V_GEN)$(MKDIR_P) src/sandbox && \
	(cd $(top_srcdir) && cat $(GUARD_PY)) | od -An -v -tx1 | \
	sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g' > $@.tmp && mv $@.tmp $@
# The same source compiled at build time by the interpreter pyward embeds
# (guardc), embedded as a marshalled code object: a start loads it instead
# of compiling the source (guard.c falls back to compiling if the
# interpreter's bytecode differs).  guardc links only Python, not
# libpyward.a (whose guard.o needs this file).
noinst_PROGRAMS += src/sandbox/guardc
src_sandbox_guardc_SOURCES = src/sandbox/guardc.c
src_sandbox_guardc_LDADD = $(PYTHON_LIBS)
src/sandbox/guard-code.inc: src/sandbox/guardc$(EXEEXT) $(GUARD_PY)
	$(AM_V_GEN)$(MKDIR_P) src/sandbox && \
	(cd $(top_srcdir) && cat $(GUARD_PY)) | \
	ASAN_OPTIONS=detect_leaks=0 ./src/sandbox/guardc$(EXEEXT) $@.tmp && \
	mv $@.tmp $@

# The beginner corpus through the real sandbox.
# tests/corpus/run-sandbox.sh: listed first in Makefile.am (a long one).
EXTRA_DIST += tests/corpus/run-sandbox.sh

if HAVE_CHECK
TESTS += tests/unit/check_sandbox
check_PROGRAMS += tests/unit/check_sandbox
tests_unit_check_sandbox_SOURCES = tests/unit/check_sandbox.c
tests_unit_check_sandbox_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_check_sandbox_LDADD = libpyward.a $(PW_LIBS) $(CHECK_LIBS)
TESTS += tests/unit/check_output tests/unit/check_folios
check_PROGRAMS += tests/unit/check_folios
tests_unit_check_folios_SOURCES = tests/unit/check_folios.c
tests_unit_check_folios_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_check_folios_LDADD = libpyward.a $(PW_LIBS) $(CHECK_LIBS)
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
