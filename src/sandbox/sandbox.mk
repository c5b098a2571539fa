# Sandboxed executor, `pyward run` and `pyward doctor`.
libpyward_a_SOURCES += \
	src/sandbox/sandbox.c src/sandbox/sandbox.h \
	src/sandbox/internal.h \
	src/sandbox/scratch.c src/sandbox/scratch.h \
	src/sandbox/pipes.c src/sandbox/pipes.h \
	src/sandbox/step.c src/sandbox/step.h \
	src/sandbox/spare.c src/sandbox/spare.h \
	src/sandbox/zygote.c src/sandbox/zygote.h \
	src/sandbox/result.c \
	src/sandbox/output.c src/sandbox/output.h \
	src/sandbox/child.c \
	src/sandbox/checklist.c src/sandbox/checklist.h \
	src/sandbox/filter.c src/sandbox/filter.h \
	src/sandbox/limits.c src/sandbox/limits.h \
	src/sandbox/layers.c src/sandbox/layers.h \
	src/sandbox/mountns.c src/sandbox/mountns.h \
	src/sandbox/guard.c src/sandbox/guard.h \
	src/sandbox/audit.c src/sandbox/audit.h \
	$(NULL)
dist_rules_DATA += rules/seccomp.json rules/runtime.json
# The guard (trusted interpreter layers), in parts concatenated in this
# order into one module source, embedded as a C byte array: guard.c runs it
# in a private namespace (never in sys.modules).  tests/guard/ loads the
# same parts in the same order under plain python3.
GUARD_PY = \
	src/sandbox/guard/common.py \
	src/sandbox/guard/attrs.py \
	src/sandbox/guard/views.py \
	src/sandbox/guard/safe_builtins.py \
	src/sandbox/guard/rewrite.py \
	src/sandbox/guard/run.py \
	src/sandbox/guard/policy.py \
	src/sandbox/guard/warmup.py \
	$(NULL)
EXTRA_DIST += $(GUARD_PY)
AM_TESTS_ENVIRONMENT += GUARD_PY='$(GUARD_PY)'; export GUARD_PY;

BUILT_SOURCES = src/sandbox/guard-py.inc
# (BUILT_SOURCES covers `make`, `make check`; this covers `make pyward`.)
src/sandbox/guard.$(OBJEXT): src/sandbox/guard-py.inc
CLEANFILES += src/sandbox/guard-py.inc
src/sandbox/guard-py.inc: $(GUARD_PY)
	$(AM_V_GEN)$(MKDIR_P) src/sandbox && \
	(cd $(top_srcdir) && cat $(GUARD_PY)) | od -An -v -tx1 | \
	sed -e 's/ *\([0-9a-f][0-9a-f]\)/0x\1,/g' > $@.tmp && mv $@.tmp $@

# Sandbox attacks and programs (tests/exec/*.py, one TAP point each).
TESTS += tests/run-exec.sh tests/run-sandbox-corpus.sh
EXTRA_DIST += tests/run-exec.sh tests/run-sandbox-corpus.sh tests/exec-check.py \
	tests/exec/attrgetter_dunder.py \
	tests/exec/audit_addaudithook.py \
	tests/exec/audit_builtins_dict.py \
	tests/exec/bigint_power.py \
	tests/exec/compile_builtin.py \
	tests/exec/ctypes_import.py \
	tests/exec/deep_nesting_json.py \
	tests/exec/deep_recursion.py \
	tests/exec/ds_numpy_work.py \
	tests/exec/ds_pandas_groupby.py \
	tests/exec/ds_plot_formats.py \
	tests/exec/ds_plot_png.py \
	tests/exec/ds_scipy_lazy_submodule.py \
	tests/exec/ds_scipy_solve.py \
	tests/exec/env_os_environ.py \
	tests/exec/env_os_path_os.py \
	tests/exec/env_proc_environ.py \
	tests/exec/env_proc_parent.py \
	tests/exec/eval_annotation.py \
	tests/exec/exec_eval.py \
	tests/exec/flood_stderr.py \
	tests/exec/flood_stdout.py \
	tests/exec/format_attribute.py \
	tests/exec/format_formatter.py \
	tests/exec/format_fstring.py \
	tests/exec/format_map_attribute.py \
	tests/exec/format_unbound.py \
	tests/exec/frame_asyncgen.py \
	tests/exec/frame_coroutine.py \
	tests/exec/frame_generator.py \
	tests/exec/frame_generator_getattr.py \
	tests/exec/frame_traceback.py \
	tests/exec/frame_traceback_getattr.py \
	tests/exec/gc_get_objects.py \
	tests/exec/importlib_dunder_import.py \
	tests/exec/importlib_from_submodule.py \
	tests/exec/importlib_import_module.py \
	tests/exec/importlib_loader.py \
	tests/exec/importlib_relative.py \
	tests/exec/loop_forever.py \
	tests/exec/match_class_attribute.py \
	tests/exec/memory_bomb.py \
	tests/exec/memory_bytearray.py \
	tests/exec/net_http_client.py \
	tests/exec/net_loopback_network.py \
	tests/exec/net_socket.py \
	tests/exec/net_subclasses.py \
	tests/exec/net_urllib.py \
	tests/exec/ok_classes.py \
	tests/exec/ok_dataclass_namedtuple.py \
	tests/exec/ok_error_line.py \
	tests/exec/ok_final_expression.py \
	tests/exec/ok_hello.py \
	tests/exec/ok_numpy.py \
	tests/exec/ok_scratch_files.py \
	tests/exec/ok_star_import.py \
	tests/exec/ok_stdin_input.py \
	tests/exec/ok_stdlib_mix.py \
	tests/exec/ok_syntax_error.py \
	tests/exec/ok_system_exit.py \
	tests/exec/ok_variables.py \
	tests/exec/output_huge.py \
	tests/exec/output_many.py \
	tests/exec/output_sparse.py \
	tests/exec/read_passwd_open.py \
	tests/exec/read_passwd_pathlib.py \
	tests/exec/read_secret_io.py \
	tests/exec/read_secret_numpy.py \
	tests/exec/read_secret_pandas.py \
	tests/exec/read_secret_pathlib.py \
	tests/exec/read_secret_subclasses.py \
	tests/exec/reexport_collections_abc_sys.py \
	tests/exec/reexport_glob_os.py \
	tests/exec/reexport_json_codecs.py \
	tests/exec/reexport_numpy_ctypeslib.py \
	tests/exec/reexport_random_os.py \
	tests/exec/reexport_statistics_sys.py \
	tests/exec/reexport_tempfile_os.py \
	tests/exec/reexport_typing_sys.py \
	tests/exec/setattr_dunder.py \
	tests/exec/signal_module.py \
	tests/exec/signal_parent.py \
	tests/exec/sleep_forever.py \
	tests/exec/spawn_fork.py \
	tests/exec/spawn_fork_bomb.py \
	tests/exec/spawn_os_system.py \
	tests/exec/spawn_popen_subclasses.py \
	tests/exec/spawn_posix_spawn.py \
	tests/exec/spawn_subprocess.py \
	tests/exec/subclasses_builtin_importer.py \
	tests/exec/subclasses_warnings.py \
	tests/exec/syscall_named.py \
	tests/exec/threads_thread.py \
	tests/exec/threads_threading.py \
	tests/exec/type_of_type.py \
	tests/exec/type_three_args.py \
	tests/exec/uuid_uuid1.py \
	tests/exec/vars_globals.py \
	tests/exec/write_outside_dotdot.py \
	tests/exec/write_outside_io.py \
	tests/exec/write_outside_pathlib.py \
	tests/exec/write_outside_shutil.py \
	tests/exec/write_workspace_data_science.py \
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
