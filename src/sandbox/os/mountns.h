/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * mountns.h - a private mount namespace for each run: every top-level
 * directory except the system trees (/usr, /lib*, /bin, /sbin, /dev,
 * /proc, /sys) is hidden under an empty tmpfs, /etc keeps only the few
 * files the dynamic loader and the time functions read, the run's scratch
 * directory is bound back in place (or, with workspace caps, replaced by
 * a private size-capped tmpfs; or, without file caps, an empty directory
 * of the view that exists nowhere on the host), and everything but a
 * writable scratch directory is read-only.  Optional: probed once in the
 * zygote; a host that refuses it gets the layer reported inactive with the
 * reason.
 *
 * A run without files (PW_SBX_WS_EMPTY) under a server started as root
 * joins instead one shared view, built once when the zygote is made: the
 * same hidden trees, /etc files and empty read-only scratch directory,
 * with an empty /proc, the whole read-only and owned by the host's user
 * namespace, where no run has any privilege.  Nothing in it is per run,
 * so a run makes no mounts and leaves none to tear down.
 */
#pragma once

#include <stdbool.h>
#include <sys/types.h>

#define PW_SBX_HIDE_MAX 48

/* What a run's scratch directory is in its view. */
enum pw_sbx_ws {
    PW_SBX_WS_HOST,  /* the host directory, bound back, writable */
    PW_SBX_WS_TMPFS, /* a private tmpfs (WS_BYTES, WS_FILES), writable */
    PW_SBX_WS_EMPTY, /* an empty read-only directory of the view alone */
};

struct pw_sbx_mounts {
    bool active;
    bool early; /* root without user namespaces: made before the uid drop */
    char *tmp_root;
    /* TMP_ROOT (a real path, no symbolic link) lies under a hidden
     * directory: a scratch path there can exist in the view alone. */
    bool tmp_covered;
    char *hide[PW_SBX_HIDE_MAX]; /* directories covered by an empty tmpfs */
    size_t nhide;
    /* Both above 0: the scratch directory is a private tmpfs of at most
     * WS_BYTES bytes and WS_FILES inodes (set before the probe). */
    long long ws_bytes;
    long long ws_files;
    char why[320];
    /* The shared view for runs without files: SHARED_FD holds its mount
     * namespace (pw_sbx_mountns_share). */
    bool shared;
    int shared_fd;
};

/* The package sets' directories (absolute, at most PW_SBX_TREES_MAX):
 * read-only in every run's view at their own paths (bound back when a
 * hidden directory covers them), readable through landlock and the
 * audit hook's path rules.  Set once, before the zygote's probe. */
#define PW_SBX_TREES_MAX 8
void pw_sbx_trees_set(char *const *paths, size_t n);
/* NULL-terminated, borrowed. */
const char *const *pw_sbx_trees(void);

/* The probe's two halves around its child (checklist.c, which runs the
 * whole step once on a probe scratch directory under TMP_ROOT): PLAN
 * clears M (but its workspace caps), lists the directories to hide and
 * decides early or late; false if the view cannot be had at all (no
 * user namespaces, not root), with M->why saying so.  SETTLE records
 * whether the probe child WORKS.  M is then what runs get. */
bool pw_sbx_mountns_plan(struct pw_sbx_mounts *m, const char *tmp_root,
                         bool userns, bool root);
void pw_sbx_mountns_settle(struct pw_sbx_mounts *m, bool works);
void pw_sbx_mountns_clear(struct pw_sbx_mounts *m);
/* DST (cleared) becomes a copy of SRC with strings and the shared view's
 * fd of its own.  0, or -1 with errno (no fd left): DST then holds no
 * view, and pw_sbx_mountns_clear frees the rest. */
int pw_sbx_mountns_copy(struct pw_sbx_mounts *dst,
                        const struct pw_sbx_mounts *src);

/* After a successful probe, in a process running as root: build the
 * shared view (its empty scratch directory SCRATCH) in a helper process
 * and keep its namespace in M.  Without it, every run builds its own
 * view as before; M->why says which. */
void pw_sbx_mountns_share(struct pw_sbx_mounts *m, const char *scratch);

/* In the child, before its fds move: a copy of the shared view's fd, out
 * of the way of the fds the child puts in place. */
void pw_sbx_mountns_hold(const struct pw_sbx_mounts *m);

/* In the child, after pw_sbx_mountns_workspace and before it closes its
 * other fds: a run that joins the shared view keeps the namespace's fd
 * and one of the host's /proc (its id maps are written through it) on
 * SLOT and SLOT + 1.  Returns the first fd it may close from. */
int pw_sbx_mountns_keep(const struct pw_sbx_mounts *m, int slot);

/* In the child, before the steps below: the scratch directory's kind
 * (PW_SBX_WS_TMPFS, the default, falls back to the host directory when
 * WS_BYTES or WS_FILES is not set; PW_SBX_WS_TMPFS and PW_SBX_WS_EMPTY
 * need no host directory) and, for a tmpfs, its size in BYTES (0: the
 * cap WS_BYTES; a run's is what its memory limit leaves room for, see
 * pw_sbx_workspace_bytes; -1: none, the mount fails). */
void pw_sbx_mountns_workspace(enum pw_sbx_ws kind, long long bytes);

/* In the child: the byte cap of the workspace tmpfs it mounted, or 0
 * (no tmpfs).  Its pages are memory the address-space limit does not
 * see: the run's AS limit counts the cap (limits.c). */
long long pw_sbx_mountns_ws_bytes(void);

/* The workspace tmpfs of BYTES bytes (above 0 and at most M's cap) and
 * M's inode cap, owned by UID and GID, mounted on SCRATCH: a run's, or a
 * session copy's own (wscopy.c).  0 or -1 with errno. */
int pw_sbx_mountns_ws_mount(const struct pw_sbx_mounts *m, long long bytes,
                            const char *scratch, unsigned long uid,
                            unsigned long gid);

/* In the child, before the uid drop (does something only in the "early"
 * case).  0 or -1 with errno set and *WHAT naming the step. */
int pw_sbx_mountns_early(const struct pw_sbx_mounts *m, const char *scratch,
                         const char **what);
/* In the child, right after the user namespace is unshared; UID and GID
 * are the ids the child had before it (mapped to themselves). */
int pw_sbx_mountns_late(const struct pw_sbx_mounts *m, const char *scratch,
                        uid_t uid, gid_t gid, const char **what);
