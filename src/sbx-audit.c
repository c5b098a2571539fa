/*
 * sbx-audit.c - the audit hook installed in each child.
 *
 * Who raised an event matters: the frame running when it fires is user
 * code (a "<...>" file name: the program, or a string it got compiled)
 * or a module file of the trusted library.  Escape primitives are refused
 * to everyone; introspection (sys._getframe, restricted attribute reads,
 * compile/exec) is refused to user code, and code a library execs must
 * not name the attributes a breakout walks.
 */
#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "profiles.h"
#include "pyembed.h"
#include "sbx-audit.h"
#include "sbx-layers.h"

#define GUARD_FILE "<pyward-guard>"

static unsigned caps;
static const char *scratch_dir = "";
static int result_fd = -1;
static bool reported;
/* Borrowed: the globals of the import system's frozen modules. */
static PyObject *bootstrap_ns;
static PyObject *external_ns;

/* Events the import system itself raises while loading a module from its
 * file: the function that raises it and the module it belongs to. */
static const struct {
    const char *event;
    const char *function;
    PyObject **ns;
} import_steps[] = {
    {"marshal.loads", "_compile_bytecode", &external_ns},
    {"exec", "_call_with_frames_removed", &bootstrap_ns},
    {"compile", "_call_with_frames_removed", &bootstrap_ns},
    /* Cython extension modules make their functions' code objects while
     * the import system runs their init. */
    {"code.__new__", "_call_with_frames_removed", &bootstrap_ns},
};

static const char *const deny_always[] = {
    "os.system",
    "os.exec",
    "os.posix_spawn",
    "os.spawn",
    "os.fork",
    "os.forkpty",
    "os.kill",
    "os.killpg",
    "os.chroot",
    "os.chdir",
    "os.fchdir",
    "os.symlink",
    "os.link",
    "os.chmod",
    "os.chown",
    "os.lchown",
    "os.chflags",
    "os.mkfifo",
    "os.mknod",
    "os.setxattr",
    "os.removexattr",
    "os.putenv",
    "os.unsetenv",
    "os.startfile",
    "subprocess.",
    "ctypes.",
    "pty.",
    "signal.",
    "sys.addaudithook",
    "sys.settrace",
    "sys.setprofile",
    "sys._current_frames",
    "sys._current_exceptions",
    "gc.get_objects",
    "gc.get_referrers",
    "gc.get_referents",
    "code.__new__",
    "function.__new__",
    "marshal.",
    "pickle.find_class",
    "cpython.",
    "mmap.",
    "resource.setrlimit",
    "resource.prlimit",
    "syslog.",
    "sqlite3.",
    "webbrowser.",
    "shutil.chown",
    "sys.unraisablehook",
    "sys.excepthook",
    "os.setpgid",
    "os.setsid",
    NULL,
};

static const char *const deny_user[] = {
    "sys._getframe",
    "object.__getattr__",
    "object.__setattr__",
    "object.__delattr__",
    "compile",
    "exec",
    NULL,
};

static const char *const deny_modules[] = {
    "ctypes",
    "_ctypes",
    "subprocess",
    "_posixsubprocess",
    "pty",
    "multiprocessing",
    "_multiprocessing",
    "mmap",
    "_testcapi",
    "_testinternalcapi",
    "_testbuffer",
    "_xxsubinterpreters",
    "pdb",
    "bdb",
    "code",
    "codeop",
    "cProfile",
    "_lsprof",
    "profile",
    "trace",
    "faulthandler",
    "tracemalloc",
    "_tracemalloc",
    "readline",
    "webbrowser",
    "pydoc",
    "timeit",
    "sqlite3",
    "_sqlite3",
    "gc",
    "inspect",
    "_posixshmem",
    "resource",
    "termios",
    "tty",
    "fcntl",
    "crypt",
    "_crypt",
    "nis",
    "grp",
    "pwd",
    "spwd",
    "syslog",
    NULL,
};

static const char *const net_modules[] = {"socket", "_socket",   "ssl", "_ssl",
                                          "select", "selectors", NULL};

/* Names a breakout walks: code a library execs may not use them. */
static const char *const deny_names[] = {
    "__subclasses__",
    "__globals__",
    "__builtins__",
    "__base__",
    "__bases__",
    "__mro__",
    "__code__",
    "__import__",
    "__loader__",
    "__spec__",
    "__closure__",
    "__func__",
    "__self__",
    "__reduce__",
    "__reduce_ex__",
    "__traceback__",
    "__getattribute__",
    "__dict__",
    "__get__",
    "__defaults__",
    "__kwdefaults__",
    "mro",
    "f_back",
    "f_globals",
    "f_locals",
    "f_builtins",
    "f_code",
    "tb_frame",
    "tb_next",
    "gi_frame",
    "gi_code",
    "cr_frame",
    "cr_code",
    "ag_frame",
    "ag_code",
    "co_code",
    "system",
    "popen",
    "modules",
    "_getframe",
    "exec",
    "eval",
    "compile",
    "open",
    "getattr",
    "vars",
    "globals",
    "locals",
    NULL,
};

static bool
has_prefix(const char *s, const char *const *list)
{
    for (size_t i = 0; list[i] != NULL; i++) {
        size_t n = strlen(list[i]);
        if (strncmp(s, list[i], n) == 0 &&
            (list[i][n - 1] == '.' || s[n] == '\0' || s[n] == '.')) {
            return true;
        }
    }
    return false;
}

static bool
in_list(const char *s, const char *const *list)
{
    for (size_t i = 0; list[i] != NULL; i++) {
        if (strcmp(s, list[i]) == 0) {
            return true;
        }
    }
    return false;
}

static PyObject *
module_ns(const char *name)
{
    /* borrowed */ PyObject *m =
        PyDict_GetItemString(PyImport_GetModuleDict(), name);
    return m != NULL && PyModule_Check(m) ? PyModule_GetDict(m) : NULL;
}

void
pw_sbx_audit_configure(unsigned c, const char *scratch, int fd)
{
    caps = c;
    scratch_dir = scratch;
    result_fd = fd;
    bootstrap_ns = module_ns("_frozen_importlib");
    external_ns = module_ns("_frozen_importlib_external");
}

/* True if EVENT comes from the import system loading a module's code from
 * its file (a .pyc unmarshalled, module code compiled or executed, an
 * extension module initialised): the
 * running frame is that import-system function itself, told by its code
 * name and by its globals being the frozen module's own.  A program never
 * runs with those globals, so it cannot build code objects this way. */
static bool
import_system_step(const char *event)
{
    size_t i = 0;
    while (i < PW_N_ELEMENTS(import_steps) &&
           strcmp(event, import_steps[i].event) != 0) {
        i++;
    }
    /* borrowed */ PyFrameObject *f = PyEval_GetFrame();
    if (i == PW_N_ELEMENTS(import_steps) || f == NULL ||
        *import_steps[i].ns == NULL) {
        return false;
    }
    PW_PYAUTO PyObject *code = (PyObject *)PyFrame_GetCode(f);
    PW_PYAUTO PyObject *globals = PyFrame_GetGlobals(f);
    const char *name = PyUnicode_AsUTF8(((PyCodeObject *)code)->co_qualname);
    if (name == NULL) {
        PyErr_Clear();
        return false;
    }
    return globals == *import_steps[i].ns &&
           strcmp(name, import_steps[i].function) == 0;
}

int
pw_sbx_audit_result_fd(void)
{
    return result_fd;
}

static bool
under(const char *path, const char *dir)
{
    size_t n = strlen(dir);
    return strncmp(path, dir, n) == 0 && (path[n] == '/' || path[n] == '\0');
}

bool
pw_sbx_path_ok(const char *path, const char *scratch, bool write)
{
    size_t n = strlen(path);
    if (n == 0 || strstr(path, "/../") != NULL ||
        strncmp(path, "../", 3) == 0 || strcmp(path, "..") == 0 ||
        (n >= 3 && strcmp(path + n - 3, "/..") == 0)) {
        return false;
    }
    if (path[0] != '/' || under(path, scratch)) {
        return true;
    }
    if (strcmp(path, "/dev/null") == 0) {
        return true;
    }
    for (size_t i = 0; !write && pw_sbx_read_trees[i] != NULL; i++) {
        if (under(path, pw_sbx_read_trees[i])) {
            return true;
        }
    }
    return false;
}

bool
pw_sbx_write_ok(const char *path, const char *scratch, unsigned allowed)
{
    if ((allowed & PW_CAP_WORKSPACE_FILES) || strcmp(path, "/dev/null") == 0) {
        return true;
    }
    if ((allowed & PW_CAP_OUTPUT_FILES) == 0) {
        return false;
    }
    if (path[0] == '/') {
        size_t n = strlen(scratch);
        if (strncmp(path, scratch, n) != 0 || path[n] != '/') {
            return false;
        }
        path += n + 1;
    }
    while (strncmp(path, "./", 2) == 0 || path[0] == '/') {
        path += path[0] == '/' ? 1 : 2;
    }
    return under(path, "output");
}

/* 1: user code, 0: library, 2: guard.py. */
static int
caller_kind(void)
{
    /* borrowed */ PyFrameObject *f = PyEval_GetFrame();
    if (f == NULL) {
        return 0;
    }
    PyCodeObject *code = PyFrame_GetCode(f);   /* owned */
    PyObject *globals = PyFrame_GetGlobals(f); /* owned */
    const char *file = PyUnicode_AsUTF8(code->co_filename);
    /* The frozen import system is library code despite its "<frozen>"
     * file names (an extension module's init runs under its frames). */
    bool importer =
        globals != NULL && (globals == bootstrap_ns || globals == external_ns);
    int kind = importer                        ? 0
               : file == NULL                  ? 1
               : strcmp(file, GUARD_FILE) == 0 ? 2
               : file[0] == '<'                ? 1
                                               : 0;
    Py_XDECREF(globals);
    Py_DECREF(code);
    PyErr_Clear();
    return kind;
}

/* A string constant naming a denied dunder ('__subclasses__' as a key or
 * a getattr argument) counts as using it. */
static bool
const_names_bad(PyObject *obj)
{
    if (!PyUnicode_Check(obj)) {
        return false;
    }
    const char *s = PyUnicode_AsUTF8(obj);
    if (s == NULL) {
        PyErr_Clear();
        return true;
    }
    return strncmp(s, "__", 2) == 0 && in_list(s, deny_names);
}

static bool
code_names_bad(PyObject *obj, int depth)
{
    if (!PyCode_Check(obj) || depth > 20) {
        return false;
    }
    PyCodeObject *co = (PyCodeObject *)obj; /* borrowed */
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(co->co_names); i++) {
        const char *n = PyUnicode_AsUTF8(PyTuple_GET_ITEM(co->co_names, i));
        if (n == NULL || in_list(n, deny_names)) {
            PyErr_Clear();
            return true;
        }
    }
    for (Py_ssize_t i = 0; i < PyTuple_GET_SIZE(co->co_consts); i++) {
        /* borrowed */ PyObject *c = PyTuple_GET_ITEM(co->co_consts, i);
        if (const_names_bad(c) || code_names_bad(c, depth + 1)) {
            return true;
        }
    }
    return false;
}

static const char *
arg_path(PyObject *args, Py_ssize_t i, PyObject **tmp)
{
    if (PyTuple_GET_SIZE(args) <= i) {
        return NULL;
    }
    /* borrowed */ PyObject *a = PyTuple_GET_ITEM(args, i);
    if (PyUnicode_Check(a)) {
        return PyUnicode_AsUTF8(a);
    }
    if (PyBytes_Check(a)) {
        return PyBytes_AS_STRING(a);
    }
    if (a == Py_None || PyLong_Check(a)) {
        return NULL;
    }
    *tmp = PyOS_FSPath(a);
    if (*tmp == NULL) {
        PyErr_Clear();
        return "";
    }
    return PyUnicode_Check(*tmp) ? PyUnicode_AsUTF8(*tmp)
                                 : PyBytes_AsString(*tmp);
}

/* The result pipe: the program would write its own result line with
 * io.FileIO(3, "w"). */
static bool
is_result_fd(PyObject *args)
{
    if (PyTuple_GET_SIZE(args) == 0 || result_fd < 0) {
        return false;
    }
    /* borrowed */ PyObject *fd = PyTuple_GET_ITEM(args, 0);
    if (!PyLong_Check(fd)) {
        return false;
    }
    long v = PyLong_AsLong(fd);
    if (v == -1 && PyErr_Occurred() != NULL) {
        PyErr_Clear();
        return true;
    }
    return v == result_fd;
}

static bool
open_ok(PyObject *args)
{
    PW_PYAUTO PyObject *tmp = NULL;
    const char *path = arg_path(args, 0, &tmp);
    if (path == NULL) {
        return PyErr_Occurred() == NULL && !is_result_fd(args); /* an fd */
    }
    long flags = 0;
    if (PyTuple_GET_SIZE(args) > 2 &&
        PyLong_Check(PyTuple_GET_ITEM(args, 2))) {
        flags = PyLong_AsLong(PyTuple_GET_ITEM(args, 2));
    }
    bool write = (flags & O_ACCMODE) != O_RDONLY ||
                 (flags & (O_CREAT | O_TRUNC | O_APPEND)) != 0;
    return pw_sbx_path_ok(path, scratch_dir, write) &&
           (!write || pw_sbx_write_ok(path, scratch_dir, caps));
}

static bool
fs_event_ok(const char *event, PyObject *args)
{
    bool read =
        strcmp(event, "os.listdir") == 0 || strcmp(event, "os.scandir") == 0;
    for (Py_ssize_t i = 0; i < 2 && i < PyTuple_GET_SIZE(args); i++) {
        PW_PYAUTO PyObject *tmp = NULL;
        const char *path = arg_path(args, i, &tmp);
        if (path != NULL &&
            (!pw_sbx_path_ok(path, scratch_dir, !read) ||
             (!read && !pw_sbx_write_ok(path, scratch_dir, caps)))) {
            return false;
        }
    }
    return true;
}

static bool
import_ok(PyObject *args)
{
    const char *name = PyTuple_GET_SIZE(args) > 0 &&
                               PyUnicode_Check(PyTuple_GET_ITEM(args, 0))
                           ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(args, 0))
                           : NULL;
    if (name == NULL) {
        return false;
    }
    if (has_prefix(name, deny_modules)) {
        return false;
    }
    return (caps & PW_CAP_NETWORK) || !has_prefix(name, net_modules);
}

static bool
event_ok(const char *event, PyObject *args)
{
    if (import_system_step(event)) {
        return true;
    }
    if (has_prefix(event, deny_always)) {
        return false;
    }
    if (strncmp(event, "socket.", 7) == 0) {
        return (caps & PW_CAP_NETWORK) != 0;
    }
    if (strcmp(event, "import") == 0) {
        return import_ok(args);
    }
    if (strcmp(event, "open") == 0) {
        return open_ok(args);
    }
    if (strncmp(event, "os.", 3) == 0 || strncmp(event, "shutil.", 7) == 0) {
        return fs_event_ok(event, args);
    }
    if (!in_list(event, deny_user)) {
        return true;
    }
    int who = caller_kind();
    if (who == 1) {
        return false;
    }
    if (who == 0 && strcmp(event, "exec") == 0 && PyTuple_GET_SIZE(args) > 0) {
        return !code_names_bad(PyTuple_GET_ITEM(args, 0), 0);
    }
    return true;
}

static void
report(const char *event)
{
    if (reported || result_fd < 0) {
        return;
    }
    reported = true;
    char line[256];
    int n = snprintf(line, sizeof(line), "A%.200s\n", event);
    if (n > 0) {
        ssize_t w = write(result_fd, line, (size_t)n);
        (void)w;
    }
}

static int
hook(const char *event, PyObject *args, void *data)
{
    if (event_ok(event, args)) {
        return 0;
    }
    report(event);
    PyErr_Format(PyExc_PermissionError, "'%s' is blocked by the sandbox",
                 event);
    return -1;
}

int
pw_sbx_audit_install(void)
{
    return PySys_AddAuditHook(hook, NULL);
}
