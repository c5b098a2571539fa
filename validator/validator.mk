# SPDX-License-Identifier: Apache-2.0
# Validator, rules and `pyward check` / `pyward rules`.
libpyward_a_SOURCES += \
	validator/validator.h \
	validator/ctree.c validator/ctree.h \
	validator/blob.c validator/blob.h \
	validator/nodes.c validator/nodes.h \
	validator/match.c validator/match.h \
	validator/ruleset.c validator/ruleset.h \
	validator/runtime_ref.c validator/runtime_ref.h \
	validator/diag.c validator/diag.h \
	validator/validate.c \
	validator/script_meta.c validator/script_meta.h \
	validator/pep440.c validator/pep440.h \
	validator/gate.c validator/gate.h \
	validator/noqa.c validator/noqa.h \
	validator/select.c validator/select.h \
	validator/report.c validator/report.h \
	validator/glob.c validator/glob.h \
	validator/newsyntax.c validator/newsyntax.h \
	validator/lintconf.c validator/lintconf.h \
	validator/vproc.c validator/vproc.h \
	$(NULL)

# CPython's parser, from the interpreter's own static library (configure:
# PYTHON_STATIC_LIB): its objects, partly linked into one object of which
# only _PyParser_ASTFromString and the few node constructors blob.c uses
# stay global (the rest is made local, so nothing of it clashes with or
# stands in for the shared libpython, which it calls for everything
# else).  ctree.c and blob.c are its callers.
PW_PARSER_MEMBERS = token.o pegen.o pegen_errors.o action_helpers.o \
	parser.o string_parser.o peg_api.o tokenizer.o Python-ast.o asdl.o
libpyward_a_LIBADD = validator/cparser.$(OBJEXT)
validator/cparser.$(OBJEXT): $(PYTHON_STATIC_LIB)
	$(AM_V_GEN)rm -rf validator/cparser.d && \
	$(MKDIR_P) validator/cparser.d && \
	(cd validator/cparser.d && \
	 $(AR) x '$(PYTHON_STATIC_LIB)' $(PW_PARSER_MEMBERS)) && \
	objs= && for m in $(PW_PARSER_MEMBERS); do \
	  objs="$$objs validator/cparser.d/$$m"; done && \
	$(CC) -r -nostdlib -o validator/cparser.d/all.o $$objs && \
	$(OBJCOPY) --keep-global-symbol=_PyParser_ASTFromString \
	  --keep-global-symbol=_PyAST_Name --keep-global-symbol=_PyAST_Constant \
	  --keep-global-symbol=_Py_asdl_expr_seq_new \
	  validator/cparser.d/all.o $@ && \
	rm -rf validator/cparser.d
CLEANFILES += validator/cparser.$(OBJEXT)

dist_rules_DATA += \
	rules/meta.json \
	rules/imports.json \
	rules/calls.json \
	rules/attributes.json \
	rules/statements.json \
	rules/names.json \
	$(NULL)

# Lint fixtures: tests/cases/<CODE>[_x].py with .out (and optional .args).
TESTS += tests/cases/run.sh
EXTRA_DIST += tests/cases/run.sh tests/cases
TESTS += tests/cli/run.sh
EXTRA_DIST += tests/cli/run.sh
# `pyward check` configured: its files, excludes, ignore files, output.
TESTS += tests/cli/config.sh
EXTRA_DIST += tests/cli/config.sh
TESTS += tests/cases/compile-gate.sh
EXTRA_DIST += tests/cases/compile-gate.sh
# RestrictedPython parity: each rule set's verdict on tests/cases/parity/
# (shipped with tests/cases).
TESTS += tests/cases/parity/run.sh

# Benchmark: validation next to CPython's own compile().
noinst_PROGRAMS += tests/bench/bench-validate
tests_bench_bench_validate_SOURCES = tests/bench/bench-validate.c
tests_bench_bench_validate_LDADD = libpyward.a $(PW_LIBS)

if HAVE_CHECK
check_PROGRAMS += tests/unit/check_validator
TESTS += tests/unit/check_validator
tests_unit_check_validator_SOURCES = tests/unit/check_validator.c
tests_unit_check_validator_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_check_validator_LDADD = libpyward.a $(PW_LIBS) $(CHECK_LIBS)
endif
EXTRA_DIST += rules/README

TESTS += tests/unit/check_pep440
check_PROGRAMS += tests/unit/check_pep440
tests_unit_check_pep440_SOURCES = tests/unit/check_pep440.c
tests_unit_check_pep440_CFLAGS = $(AM_CFLAGS) $(CHECK_CFLAGS)
tests_unit_check_pep440_LDADD = libpyward.a $(PW_LIBS) $(CHECK_LIBS)
