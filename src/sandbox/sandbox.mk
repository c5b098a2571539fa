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
	src/sandbox/session/files.c src/sandbox/session/files.h \
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
# The guard (trusted interpreter layers): the modules pyward_guard.NAME
# of src/sandbox/interp/guard/NAME.py, the loader first.  guardc compiles
# each at build time with the interpreter pyward embeds and writes its
# source and its marshalled code object as C arrays, one per module, with
# the table guard.c walks: guard.c runs the loader, which makes the other
# modules (in this order, each one's imports first) without the import
# system and never in sys.modules (see loader.py).  guard.c falls back to
# compiling a module's source if the interpreter's bytecode differs.
# tests/guard/ loads the same modules with the same loader under plain
# python3.  guardc links only Python, not libpyward.a (whose guard.o
# needs its output).
GUARD_PY = \
	src/sandbox/interp/guard/loader.py \
	src/sandbox/interp/guard/common.py \
	src/sandbox/interp/guard/facade.py \
	src/sandbox/interp/guard/views.py \
	src/sandbox/interp/guard/attrs.py \
	src/sandbox/interp/guard/codegen.py \
	src/sandbox/interp/guard/safe_builtins.py \
	src/sandbox/interp/guard/rewrite.py \
	src/sandbox/interp/guard/errors.py \
	src/sandbox/interp/guard/plots.py \
	src/sandbox/interp/guard/run.py \
	src/sandbox/interp/guard/batch.py \
	src/sandbox/interp/guard/policy.py \
	src/sandbox/interp/guard/warmup.py \
	src/sandbox/interp/guard/entry.py \
	$(NULL)
EXTRA_DIST += $(GUARD_PY)
AM_TESTS_ENVIRONMENT += GUARD_PY='$(GUARD_PY)'; export GUARD_PY;

BUILT_SOURCES = src/sandbox/interp/guard-modules.inc
# (BUILT_SOURCES covers `make`, `make check`; this covers `make pyward`.)
src/sandbox/interp/guard.$(OBJEXT): src/sandbox/interp/guard-modules.inc
CLEANFILES += src/sandbox/interp/guard-modules.inc
noinst_PROGRAMS += src/sandbox/guardc
src_sandbox_guardc_SOURCES = src/sandbox/guardc.c
src_sandbox_guardc_LDADD = $(PYTHON_LIBS)
src/sandbox/interp/guard-modules.inc: src/sandbox/guardc$(EXEEXT) $(GUARD_PY)
	$(AM_V_GEN)$(MKDIR_P) src/sandbox/interp && \
	ASAN_OPTIONS=detect_leaks=0 ./src/sandbox/guardc$(EXEEXT) $@.tmp \
	    $(top_srcdir) $(GUARD_PY) && \
	mv $@.tmp $@

# The beginner corpus through the real sandbox.
# tests/programs/beginner/sandbox.sh: listed first in Makefile.am (a long
# one).
EXTRA_DIST += tests/programs/beginner/sandbox.sh

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
