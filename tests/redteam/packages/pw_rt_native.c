/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * pw_rt_native.c - an extension module of the red team's package set:
 * no Python-level audit event sees what it does (plain libc calls), so
 * only the OS layers stand in its way.  go(params) tries, in this order,
 * to create each of params["TARGETS"], to read /proc/1/environ and each
 * of params["PIDS"]'s environ, to connect to 127.0.0.1 on params["PORT"],
 * and to fork; it returns one line per attempt, and prints
 * params["MARK"] for each that worked where it must not.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static void
note(PyObject *out, const char *what, const char *arg, int ok, int err)
{
    PyObject *s = PyUnicode_FromFormat("%s %s: %s", what, arg,
                                       ok ? "done" : strerror(err));
    if (s != NULL) {
        PyList_Append(out, s);
        Py_DECREF(s);
    }
}

static void
breach(PyObject *params)
{
    PyObject *mark = PyDict_GetItemString(params, "MARK");
    const char *m = mark != NULL ? PyUnicode_AsUTF8(mark) : NULL;
    printf("%s\n", m != NULL ? m : "BREACH");
    fflush(stdout);
}

static PyObject *
go(PyObject *self, PyObject *params)
{
    (void)self;
    if (!PyDict_Check(params)) {
        PyErr_SetString(PyExc_TypeError, "a dict");
        return NULL;
    }
    PyObject *out = PyList_New(0);
    PyObject *targets = PyDict_GetItemString(params, "TARGETS");
    for (Py_ssize_t i = 0; targets != NULL && i < PyList_Size(targets); i++) {
        const char *t = PyUnicode_AsUTF8(PyList_GetItem(targets, i));
        int fd = t != NULL ? open(t, O_WRONLY | O_CREAT | O_APPEND, 0644) : -1;
        note(out, "create", t != NULL ? t : "?", fd >= 0, errno);
        if (fd >= 0) {
            (void)write(fd, "native\n", 7);
            close(fd);
            breach(params);
        }
    }
    char path[64];
    PyObject *pids = PyDict_GetItemString(params, "PIDS");
    for (Py_ssize_t i = -1; pids != NULL && i < PyList_Size(pids); i++) {
        const char *pid =
            i < 0 ? "1" : PyUnicode_AsUTF8(PyList_GetItem(pids, i));
        snprintf(path, sizeof(path), "/proc/%s/environ", pid);
        char buf[4096];
        int fd = open(path, O_RDONLY);
        ssize_t n = fd >= 0 ? read(fd, buf, sizeof(buf) - 1) : -1;
        note(out, "read", path, n >= 0, errno);
        if (n > 0) {
            for (ssize_t k = 0; k < n; k++) {
                buf[k] = buf[k] == '\0' ? '\n' : buf[k];
            }
            buf[n] = '\0';
            printf("%s\n", buf);
        }
        if (fd >= 0) {
            close(fd);
        }
    }
    fflush(stdout);
    PyObject *port = PyDict_GetItemString(params, "PORT");
    const char *ps = port != NULL ? PyUnicode_AsUTF8(port) : NULL;
    int s = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = {.sin_family = AF_INET,
                            .sin_port = htons(ps != NULL ? atoi(ps) : 9)};
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    int c = s >= 0 ? connect(s, (struct sockaddr *)&a, sizeof(a)) : -1;
    note(out, "connect", ps != NULL ? ps : "?", c == 0, errno);
    if (c == 0) {
        breach(params);
    }
    if (s >= 0) {
        close(s);
    }
    pid_t child = fork();
    note(out, "fork", "", child >= 0, errno);
    if (child == 0) {
        _exit(0);
    }
    if (child > 0) {
        (void)waitpid(child, NULL, 0);
        breach(params);
    }
    PyErr_Clear();
    return out;
}

static PyMethodDef methods[] = {
    {"go", go, METH_O, "attack"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef def = {PyModuleDef_HEAD_INIT, "pw_rt_native", NULL,
                                 -1, methods};

PyMODINIT_FUNC
PyInit_pw_rt_native(void)
{
    return PyModule_Create(&def);
}
