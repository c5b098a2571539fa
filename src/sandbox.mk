# Sandboxed executor, `pyward run` and `pyward doctor`.
libpyward_a_SOURCES += \
	src/sandbox.c src/sandbox.h \
	src/sbx-internal.h \
	src/sbx-step.c \
	src/sbx-result.c \
	src/sbx-child.c \
	src/sbx-filter.c src/sbx-filter.h \
	src/sbx-limits.c src/sbx-limits.h \
	src/sbx-layers.c src/sbx-layers.h \
	src/sbx-guard.c src/sbx-guard.h \
	src/sbx-audit.c src/sbx-audit.h \
	src/cmd_run.c \
	src/cmd_doctor.c \
	src/validator-pending.c \
	$(NULL)
nodist_libpyward_a_SOURCES = src/guard-py.h
dist_rules_DATA += rules/seccomp.json
EXTRA_DIST += src/guard.py

# guard.py (trusted interpreter layers) embedded as a C byte array.
BUILT_SOURCES = src/guard-py.h
CLEANFILES += src/guard-py.h
src/guard-py.h: $(top_srcdir)/src/guard.py
	$(AM_V_GEN)$(MKDIR_P) src && \
	od -An -v -tx1 $(top_srcdir)/src/guard.py | \
	sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g' > $@.tmp && mv $@.tmp $@
