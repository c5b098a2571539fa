# SPDX-License-Identifier: Apache-2.0
# Command line: `pyward check`, `rules`, `run`, `judge`, `doctor`, `serve`.
libpyward_a_SOURCES += \
	src/cli/cmd.h \
	src/cli/opts.c src/cli/opts.h \
	src/cli/check.c \
	src/cli/rules.c \
	src/cli/run.c \
	src/cli/judge.c \
	src/cli/doctor.c \
	src/cli/packages.c \
	src/cli/serve.c \
	$(NULL)
pyward_SOURCES = src/cli/main.c
