/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * audit.c - the audit hook installed in each child.
 *
 * Who raised an event matters: the frame running when it fires is user
 * code (a "<...>" file name: the program, or a string it got compiled)
 * or a module file of the trusted library.  Escape primitives are refused
 * to everyone; introspection (sys._getframe, restricted attribute reads,
 * compile/exec) is refused to user code, a library frame may exec only
 * where its own code calls exec, eval or compile (not a C callback such
 * as map() reaching exec under it), and code a library execs must not
 * name the attributes a breakout walks.
 *
 * The import system's own steps (a .pyc unmarshalled, module code
 * compiled and executed, an extension's code objects made) pass only
 * while the import system runs for a real import: _find_and_load is
 * wrapped from C (pw_sbx_audit_wrap_import), which records the frame that
 * asked for the import in a C array no Python code can reach, and a step
 * passes only when every frame between it and that frame is the import
 * system's.  Calling importlib's functions yourself imitates nothing.
 *
 * What it refuses (events, modules, names) is data: rules/runtime.json's
 * "audit" object, given by the loader in guard.c before any child.
 *
 * This is defence in depth: the OS layers (namespaces, landlock, seccomp,
 * rlimits) are the boundary.
 */
#include "config.h"

#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "core/log.h"
#include "core/profiles.h"
#include "core/py.h"
#include "sandbox/interp/audit.h"
#include "sandbox/os/layers.h"
#include "core/util.h"

static unsigned caps;
static const char *scratch_dir = "";
static int result_fd = -1;
static int request_fd = -1; /* a session's request pipe, or -1 */
static bool reported;
static bool armed;
/* Borrowed: the globals of the import system's frozen modules. */
static PyObject *bootstrap_ns;
static PyObject *external_ns;

/* The imports under way (nested): for each, the frame that called
 * _find_and_load (borrowed: alive while the call runs, or NULL). */
#define IMPORT_NEST_MAX 64
static PyFrameObject *import_base[IMPORT_NEST_MAX];
static int import_depth;

/* The lists of rules/runtime.json's "audit" object: NULL-terminated,
 * owned for the process lifetime, filled in the zygote before any child,
 * then sealed (pw_sbx_audit_seal): every pointer array and string copied
 * into one mapping made read-only, which a plain write of the program's
 * faults on and which the server compares with the zygote's after a run
 * (pw_sbx_audit_image). */
const char *const pw_sbx_audit_keys[PW_SBX_AUDIT_NLISTS] = {
    "deny_events", "user_events", "deny_modules", "net_modules", "exec_names"};
static struct pw_sbx_audit_lists cfg;

static const char *const *
list(enum pw_sbx_audit_list which)
{
    static const char *const empty[] = {NULL};
    return cfg.lists[which] != NULL ? (const char *const *)cfg.lists[which]
                                    : empty;
}

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

static bool
is_import_frame(PyFrameObject *f)
{
    PyObject *g = PyFrame_GetGlobals(f); /* owned */
    bool r = g != NULL && (g == bootstrap_ns || g == external_ns);
    Py_XDECREF(g);
    return r;
}

/* True if every frame from F back to the caller of the innermost import
 * under way belongs to the import system. */
static bool
chain_reaches_base(PyFrameObject *f)
{
    PyFrameObject *base = import_base[import_depth - 1];
    Py_INCREF(f);
    PyFrameObject *cur = f; /* owned */
    while (cur != NULL && cur != base && is_import_frame(cur)) {
        PyFrameObject *back = PyFrame_GetBack(cur); /* owned or NULL */
        Py_DECREF(cur);
        cur = back;
    }
    bool ok = cur == base;
    Py_XDECREF(cur);
    return ok;
}

/* True if EVENT is a step of a real import under way: the running frame
 * is the import-system function that raises it (told by its code name
 * and its globals being the frozen module's own), and the frames between
 * it and the import's caller are all the import system's. */
static bool
import_system_step(const char *event)
{
    size_t i = 0;
    while (i < PW_N_ELEMENTS(import_steps) &&
           strcmp(event, import_steps[i].event) != 0) {
        i++;
    }
    /* borrowed */ PyFrameObject *f = PyEval_GetFrame();
    if (i == PW_N_ELEMENTS(import_steps) || f == NULL || import_depth == 0 ||
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
           strcmp(name, import_steps[i].function) == 0 &&
           chain_reaches_base(f);
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
    const char *const *sets = pw_sbx_trees(); /* the package sets' */
    for (size_t i = 0; !write && sets[i] != NULL; i++) {
        if (under(path, sets[i])) {
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

/* 1: user code, 0: library, 2: the guard. */
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
    int kind = importer                               ? 0
               : file == NULL                         ? 1
               : strcmp(file, PW_SBX_GUARD_FILE) == 0 ? 2
               : file[0] == '<'                       ? 1
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
    return strncmp(s, "__", 2) == 0 &&
           in_list(s, list(PW_SBX_AUDIT_EXEC_NAMES));
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
        if (n == NULL || in_list(n, list(PW_SBX_AUDIT_EXEC_NAMES))) {
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
 * io.FileIO(3, "w"); a session's request pipe: it would read the next
 * call's request. */
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
    return v == result_fd || (request_fd >= 0 && v == request_fd);
}

void
pw_sbx_audit_protect(int fd)
{
    request_fd = fd;
}

void
pw_sbx_audit_next_call(void)
{
    reported = false;
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
module_ok(const char *name)
{
    if (has_prefix(name, list(PW_SBX_AUDIT_DENY_MODULES))) {
        return false;
    }
    return (caps & PW_CAP_NETWORK) ||
           !has_prefix(name, list(PW_SBX_AUDIT_NET_MODULES));
}

static bool
import_ok(PyObject *args)
{
    const char *name = PyTuple_GET_SIZE(args) > 0 &&
                               PyUnicode_Check(PyTuple_GET_ITEM(args, 0))
                           ? PyUnicode_AsUTF8(PyTuple_GET_ITEM(args, 0))
                           : NULL;
    if (name == NULL) {
        PyErr_Clear();
        return false;
    }
    return module_ok(name);
}

/* True if the code of library frame F calls exec, eval or compile itself:
 * the event was not raised by a builtin a C callback reached under it
 * (Counter(map(exec, ...)) runs exec with Counter.update innermost). */
static bool
frame_calls_evaluator(PyFrameObject *f)
{
    static const char *const evaluators[] = {"exec", "eval", "compile", NULL};
    PyCodeObject *co = PyFrame_GetCode(f); /* owned */
    bool found = false;
    for (Py_ssize_t i = 0; !found && i < PyTuple_GET_SIZE(co->co_names); i++) {
        const char *n = PyUnicode_AsUTF8(PyTuple_GET_ITEM(co->co_names, i));
        found = n != NULL && in_list(n, evaluators);
    }
    PyErr_Clear();
    Py_DECREF(co);
    return found;
}

/* True if ARGS of a "compile" event name the guard's file: code under
 * that name would pass for the guard's own (caller_kind), so only the
 * guard may make it. */
static bool
compiles_as_guard(PyObject *args)
{
    if (PyTuple_GET_SIZE(args) < 2) {
        return false;
    }
    PyObject *tmp = NULL; /* owned */
    const char *file = arg_path(args, 1, &tmp);
    bool guard = file != NULL && strcmp(file, PW_SBX_GUARD_FILE) == 0;
    Py_XDECREF(tmp);
    PyErr_Clear();
    return guard;
}

static bool
event_ok(const char *event, PyObject *args)
{
    if (import_system_step(event)) {
        return true;
    }
    if (has_prefix(event, list(PW_SBX_AUDIT_DENY_EVENTS))) {
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
    if (!in_list(event, list(PW_SBX_AUDIT_USER_EVENTS))) {
        return true;
    }
    int who = caller_kind();
    if (who == 1) {
        return false;
    }
    if (who != 2 && strcmp(event, "compile") == 0 && compiles_as_guard(args)) {
        return false;
    }
    bool evaluates =
        strcmp(event, "exec") == 0 || strcmp(event, "compile") == 0;
    /* borrowed */ PyFrameObject *f = PyEval_GetFrame();
    if (who == 0 && evaluates && f != NULL && !frame_calls_evaluator(f)) {
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

/* Raise the PermissionError of a refused import of NAME: a network
 * module's says the network is off and what turns it on. */
static int
refuse_import(const char *name)
{
    report("import");
    bool net_off = !(caps & PW_CAP_NETWORK) &&
                   !has_prefix(name, list(PW_SBX_AUDIT_DENY_MODULES)) &&
                   has_prefix(name, list(PW_SBX_AUDIT_NET_MODULES));
    PyErr_Format(PyExc_PermissionError,
                 "'import' of '%.200s' is blocked by the sandbox%s", name,
                 net_off ? ": the network is off for this run (the 'network' "
                           "profile turns it on: pyward run --profile "
                           "network, or on a server pyward serve --profiles "
                           "basic,network or SANDBOX_ENABLE_NETWORK=1, then "
                           "a call's profile 'network')"
                         : "");
    return -1;
}

static int
hook(const char *event, PyObject *args, void *data)
{
    if (event_ok(event, args)) {
        return 0;
    }
    if (strcmp(event, "import") == 0 && PyTuple_GET_SIZE(args) > 0 &&
        PyUnicode_Check(PyTuple_GET_ITEM(args, 0))) {
        const char *name = PyUnicode_AsUTF8(PyTuple_GET_ITEM(args, 0));
        if (name != NULL) {
            return refuse_import(name);
        }
        PyErr_Clear();
    }
    report(event);
    PyErr_Format(PyExc_PermissionError, "'%s' is blocked by the sandbox",
                 event);
    return -1;
}

int
pw_sbx_audit_install(void)
{
    if (!cfg.given || cfg.block == NULL) {
        return -1; /* a hook without its lists would refuse nothing */
    }
    armed = true;
    return PySys_AddAuditHook(hook, NULL);
}

void
pw_sbx_audit_add(enum pw_sbx_audit_list which, const char *name)
{
    if (cfg.block != NULL) {
        pw_warn("the audit lists are sealed: '%s' is not added", name);
        return;
    }
    size_t n = cfg.list_len[which];
    cfg.lists[which] = pw_xrealloc(cfg.lists[which], (n + 2) * sizeof(char *));
    cfg.lists[which][n] = pw_xstrdup(name);
    cfg.lists[which][n + 1] = NULL;
    cfg.list_len[which] = n + 1;
    cfg.given = true;
}

int
pw_sbx_audit_seal(void)
{
    if (cfg.block != NULL) {
        return 0;
    }
    size_t ptrs = 0, chars = 0;
    for (size_t k = 0; k < PW_SBX_AUDIT_NLISTS; k++) {
        ptrs += cfg.list_len[k] + 1;
        for (size_t i = 0; i < cfg.list_len[k]; i++) {
            chars += strlen(cfg.lists[k][i]) + 1;
        }
    }
    long page = sysconf(_SC_PAGESIZE);
    size_t ps = page > 0 ? (size_t)page : 4096;
    size_t len = (ptrs * sizeof(char *) + chars + ps - 1) / ps * ps;
    int prot = PROT_READ | PROT_WRITE, flags = MAP_PRIVATE | MAP_ANONYMOUS;
    /* cppcheck-suppress invalidFunctionArg ; no file: the fd is -1 */
    void *block = mmap(NULL, len, prot, flags, -1, 0);
    if (block == MAP_FAILED) {
        return -1;
    }
    char **p = block;
    char *c = (char *)block + ptrs * sizeof(char *);
    for (size_t k = 0; k < PW_SBX_AUDIT_NLISTS; k++) {
        char **start = p;
        for (size_t i = 0; i < cfg.list_len[k]; i++) {
            size_t n = strlen(cfg.lists[k][i]) + 1;
            memcpy(c, cfg.lists[k][i], n);
            *p++ = c;
            c += n;
            free(cfg.lists[k][i]);
        }
        *p++ = NULL;
        free(cfg.lists[k]);
        cfg.lists[k] = start;
    }
    cfg.block = block;
    cfg.block_len = len;
    return mprotect(block, len, PROT_READ);
}

void
pw_sbx_audit_image(struct pw_sbx_audit_image *out)
{
    out->cfg = &cfg;
    out->armed = &armed;
    out->caps = &caps;
    out->hook = (uintptr_t)hook;
}

static int
refuse(const char *event)
{
    report(event);
    PyErr_Format(PyExc_PermissionError, "'%s' is blocked by the sandbox",
                 event);
    return -1;
}

/* _find_and_load(name, import_) in front of the import system's own: a
 * refused module is refused on every way in (importlib.import_module
 * raises no "import" event), and the caller's frame is recorded for
 * import_system_step.  SELF is the original function. */
static PyObject *
find_and_load(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    if (armed && nargs > 0 && PyUnicode_Check(args[0])) {
        const char *name = PyUnicode_AsUTF8(args[0]);
        if (name == NULL) {
            return NULL;
        }
        if (!module_ok(name)) {
            refuse_import(name);
            return NULL;
        }
    }
    if (import_depth == IMPORT_NEST_MAX) {
        PyErr_SetString(PyExc_ImportError, "imports nested too deeply");
        return NULL;
    }
    import_base[import_depth++] = PyEval_GetFrame();
    PyObject *r = PyObject_Vectorcall(self, args, (size_t)nargs, NULL);
    import_base[--import_depth] = NULL;
    return r;
}

static PyMethodDef find_and_load_def = {
    "_find_and_load", (PyCFunction)(void (*)(void))find_and_load,
    METH_FASTCALL, NULL};

int
pw_sbx_audit_wrap_import(void)
{
    PW_PYAUTO PyObject *boot = PyImport_ImportModule("_frozen_importlib");
    PW_PYAUTO PyObject *real =
        boot != NULL ? PyObject_GetAttrString(boot, "_find_and_load") : NULL;
    if (real == NULL) {
        return -1;
    }
    if (PyCFunction_Check(real)) {
        return 0; /* wrapped already (a second zygote) */
    }
    PW_PYAUTO PyObject *w = PyCFunction_New(&find_and_load_def, real);
    if (w == NULL || PyObject_SetAttrString(boot, "_find_and_load", w) < 0) {
        return -1;
    }
    return 0;
}

int
pw_sbx_audit_check_at(int dir_fd, const char *path, int flags)
{
    char link[64];
    char dir[PATH_MAX];
    if (path[0] == '/') {
        dir[0] = '\0';
    } else {
        (void)snprintf(link, sizeof(link), "/proc/self/fd/%d", dir_fd);
        ssize_t n = readlink(link, dir, sizeof(dir) - 1);
        if (n <= 0 || dir[0] != '/') {
            return refuse("open");
        }
        dir[n] = '\0';
    }
    /* No heap: this runs in the child under the request's RLIMIT_AS, where
     * a failed allocation would end the run (util.h). */
    char full[2 * PATH_MAX];
    int n =
        snprintf(full, sizeof(full), "%s%s%s", dir, dir[0] ? "/" : "", path);
    if (n < 0 || (size_t)n >= sizeof(full)) {
        return refuse("open");
    }
    bool write = (flags & O_ACCMODE) != O_RDONLY ||
                 (flags & (O_CREAT | O_TRUNC | O_APPEND)) != 0;
    if (!pw_sbx_path_ok(full, scratch_dir, write) ||
        (write && !pw_sbx_write_ok(full, scratch_dir, caps))) {
        return refuse("open");
    }
    return 0;
}
