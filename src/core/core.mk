# SPDX-License-Identifier: Apache-2.0
# Core.  The rules directories are compiled into rules.o from the
# Makefile (PW_RULES_DIR, PW_SRC_RULES_DIR and PW_BUILD_DIR in
# AM_CPPFLAGS): rebuild it when configure changes the prefix or the
# trees.
libpyward_a_SOURCES += \
	src/core/pyward.h \
	src/core/log.c src/core/log.h \
	src/core/util.c src/core/util.h \
	src/core/rules.c src/core/rules.h \
	src/core/py.c src/core/py.h \
	src/core/profiles.c src/core/profiles.h \
	src/core/pkgset.c src/core/pkgset.h \
	src/core/json.c src/core/json.h \
	src/core/base64.c src/core/base64.h \
	src/core/token.c src/core/token.h \
	src/core/blob.c src/core/blob.h \
	src/core/reply.c src/core/reply.h \
	src/core/joined.c src/core/joined.h \
	src/core/sha256.c src/core/sha256.h \
	$(NULL)
src/core/rules.$(OBJEXT): Makefile
