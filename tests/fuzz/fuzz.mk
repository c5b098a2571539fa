# SPDX-License-Identifier: Apache-2.0
# Fuzzing (tests/fuzz/).  Each target is linked twice: with replay.c into
# tests/fuzz/replay-TARGET, always built, which `make check` runs over the
# seed corpus and the regression inputs; and with libFuzzer into
# tests/fuzz/fuzz-TARGET when configured with --enable-fuzz (CC=clang),
# which `make check` runs for FUZZ_CHECK_SECONDS each and `make fuzz` for
# FUZZ_SECONDS each.
FUZZ_COMMON = tests/fuzz/fuzz.h tests/fuzz/fuzz-common.c
FUZZ_SECONDS = 300
FUZZ_CHECK_SECONDS = 20

check_PROGRAMS += \
	tests/fuzz/replay-http \
	tests/fuzz/replay-jobeput \
	tests/fuzz/replay-jsonrpc \
	tests/fuzz/replay-rules \
	tests/fuzz/replay-validate \
	$(NULL)
tests_fuzz_replay_http_SOURCES = \
	tests/fuzz/fuzz-http.c tests/fuzz/replay.c $(FUZZ_COMMON)
tests_fuzz_replay_http_LDADD = libpyward.a $(PW_LIBS)
tests_fuzz_replay_jobeput_SOURCES = \
	tests/fuzz/fuzz-jobeput.c tests/fuzz/replay.c $(FUZZ_COMMON)
tests_fuzz_replay_jobeput_LDADD = libpyward.a $(PW_LIBS)
tests_fuzz_replay_jsonrpc_SOURCES = \
	tests/fuzz/fuzz-jsonrpc.c tests/fuzz/replay.c $(FUZZ_COMMON)
tests_fuzz_replay_jsonrpc_LDADD = libpyward.a $(PW_LIBS)
tests_fuzz_replay_rules_SOURCES = \
	tests/fuzz/fuzz-rules.c tests/fuzz/replay.c $(FUZZ_COMMON)
tests_fuzz_replay_rules_LDADD = libpyward.a $(PW_LIBS)
tests_fuzz_replay_validate_SOURCES = \
	tests/fuzz/fuzz-validate.c tests/fuzz/replay.c $(FUZZ_COMMON)
tests_fuzz_replay_validate_LDADD = libpyward.a $(PW_LIBS)

TESTS += tests/fuzz/replay.sh
EXTRA_DIST += \
	tests/fuzz/replay.sh \
	tests/fuzz/run-fuzz.sh \
	tests/fuzz/jsonrpc.dict \
	tests/fuzz/rules.dict \
	tests/fuzz/corpus \
	tests/fuzz/regress \
	$(NULL)

if PW_FUZZ
check_PROGRAMS += \
	tests/fuzz/fuzz-http \
	tests/fuzz/fuzz-jobeput \
	tests/fuzz/fuzz-jsonrpc \
	tests/fuzz/fuzz-rules \
	tests/fuzz/fuzz-validate \
	$(NULL)
tests_fuzz_fuzz_http_SOURCES = tests/fuzz/fuzz-http.c $(FUZZ_COMMON)
tests_fuzz_fuzz_http_LDFLAGS = $(AM_LDFLAGS) $(PW_FUZZ_LDFLAGS)
tests_fuzz_fuzz_http_LDADD = libpyward.a $(PW_LIBS)
tests_fuzz_fuzz_jobeput_SOURCES = tests/fuzz/fuzz-jobeput.c $(FUZZ_COMMON)
tests_fuzz_fuzz_jobeput_LDFLAGS = $(AM_LDFLAGS) $(PW_FUZZ_LDFLAGS)
tests_fuzz_fuzz_jobeput_LDADD = libpyward.a $(PW_LIBS)
tests_fuzz_fuzz_jsonrpc_SOURCES = tests/fuzz/fuzz-jsonrpc.c $(FUZZ_COMMON)
tests_fuzz_fuzz_jsonrpc_LDFLAGS = $(AM_LDFLAGS) $(PW_FUZZ_LDFLAGS)
tests_fuzz_fuzz_jsonrpc_LDADD = libpyward.a $(PW_LIBS)
tests_fuzz_fuzz_rules_SOURCES = tests/fuzz/fuzz-rules.c $(FUZZ_COMMON)
tests_fuzz_fuzz_rules_LDFLAGS = $(AM_LDFLAGS) $(PW_FUZZ_LDFLAGS)
tests_fuzz_fuzz_rules_LDADD = libpyward.a $(PW_LIBS)
tests_fuzz_fuzz_validate_SOURCES = tests/fuzz/fuzz-validate.c $(FUZZ_COMMON)
tests_fuzz_fuzz_validate_LDFLAGS = $(AM_LDFLAGS) $(PW_FUZZ_LDFLAGS)
tests_fuzz_fuzz_validate_LDADD = libpyward.a $(PW_LIBS)

TESTS += tests/fuzz/run-fuzz.sh
AM_TESTS_ENVIRONMENT += \
	FUZZ_SECONDS='$(FUZZ_CHECK_SECONDS)'; export FUZZ_SECONDS;

# The long run: `make fuzz` (FUZZ_SECONDS=N per target).  New inputs go to
# fuzz-work/TARGET, findings to fuzz-work/TARGET-crash-*.
fuzz: $(check_PROGRAMS)
	$(AM_V_at)$(MKDIR_P) fuzz-work
	FUZZ_SECONDS='$(FUZZ_SECONDS)' FUZZ_WORK='$(abs_top_builddir)/fuzz-work' \
	top_srcdir='$(abs_top_srcdir)' top_builddir='$(abs_top_builddir)' \
	PYWARD_RULES_DIR='$(abs_top_srcdir)/rules' \
	$(SHELL) $(top_srcdir)/tests/fuzz/run-fuzz.sh | tee fuzz-work/report.tap
	@! grep -q '^not ok' fuzz-work/report.tap
else
fuzz:
	@echo "make fuzz: configure with --enable-fuzz CC=clang first" >&2; exit 1
endif
.PHONY: fuzz

clean-local: clean-fuzz-work
clean-fuzz-work:
	-rm -rf fuzz-work
.PHONY: clean-fuzz-work
