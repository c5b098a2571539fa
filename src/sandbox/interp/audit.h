/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * audit.h - the audit hook of a run (PEP 578, PySys_AddAuditHook):
 * refuses the events an escape needs and names the first one in the
 * result ("A<event>" line on the result fd).
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The file name the guard's code carries: the hook tells the guard's
 * frames (trusted) by it. */
#define PW_SBX_GUARD_FILE "<pyward-guard>"

/* Child: what the hook allows (CAPS: enum pw_cap) and where it reports. */
void pw_sbx_audit_configure(unsigned caps, const char *scratch, int result_fd);
/* Child: install the hook.  0, or -1 (also when no lists were given). */
int pw_sbx_audit_install(void);
/* A session's request pipe FD: refused to the program like the result
 * pipe. */
void pw_sbx_audit_protect(int fd);
/* A session's next call: its first refused event is reported too. */
void pw_sbx_audit_next_call(void);
int pw_sbx_audit_result_fd(void);
/* The hook's lists, from rules/runtime.json's "audit" object (the keys
 * in pw_sbx_audit_keys, in this order). */
enum pw_sbx_audit_list {
    PW_SBX_AUDIT_DENY_EVENTS,  /* events refused to everyone (prefixes) */
    PW_SBX_AUDIT_USER_EVENTS,  /* events refused to user code */
    PW_SBX_AUDIT_DENY_MODULES, /* modules never loaded (prefixes) */
    PW_SBX_AUDIT_NET_MODULES,  /* modules loaded only with "network" */
    PW_SBX_AUDIT_EXEC_NAMES,   /* names code a library execs may not use */
    PW_SBX_AUDIT_NLISTS
};
extern const char *const pw_sbx_audit_keys[PW_SBX_AUDIT_NLISTS];
/* Zygote: one more entry of LIST (copied).  The hook refuses to arm until
 * the lists are given and sealed. */
void pw_sbx_audit_add(enum pw_sbx_audit_list list, const char *name);
/* Zygote: the lists given, copied into one mapping made read-only (no
 * entry is added after).  0, or -1 with errno. */
int pw_sbx_audit_seal(void);

/* The lists as the hook reads them (audit.c's static cfg). */
struct pw_sbx_audit_lists {
    char **lists[PW_SBX_AUDIT_NLISTS]; /* into block, once sealed */
    size_t list_len[PW_SBX_AUDIT_NLISTS];
    void *block; /* the sealed mapping, or NULL */
    size_t block_len;
    bool given;
};
/* Where the hook's state lives, the same in the server, the zygote and
 * every run (forks of one image): what hookcheck.c reads in a run's
 * process after the run. */
struct pw_sbx_audit_image {
    const struct pw_sbx_audit_lists *cfg;
    const bool *armed;    /* installed in this process */
    const unsigned *caps; /* what it allows (enum pw_cap) */
    uintptr_t hook;       /* the function PySys_AddAuditHook got */
};
void pw_sbx_audit_image(struct pw_sbx_audit_image *out);
/* Zygote: put the C wrapper in front of the import system's
 * _find_and_load (see audit.c).  0 or -1 with a Python error. */
int pw_sbx_audit_wrap_import(void);
/* Child: may the run open PATH relative to the directory DIR_FD with
 * FLAGS (the full path against the path rules)?  0, or -1 with
 * PermissionError set and the event reported. */
int pw_sbx_audit_check_at(int dir_fd, const char *path, int flags);

/* The path policy, exposed for tests: may a run open PATH (relative to
 * its scratch dir SCRATCH) for reading, or for writing? */
bool pw_sbx_path_ok(const char *path, const char *scratch, bool write);
/* May a run whose profiles allow ALLOWED (enum pw_cap) write PATH, a path
 * pw_sbx_path_ok accepts for writing?  Anywhere in the workspace with
 * "workspace-files", only under its output/ with "output-files", else
 * nowhere but /dev/null. */
bool pw_sbx_write_ok(const char *path, const char *scratch, unsigned allowed);
