/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * session_tool.c - create_session, close_session, list_sessions and
 * execute_code's session_id: arguments, schemas and results around the
 * registry (sessions.c) and the sandbox's sessions.
 *
 * create_session starts the session's process and runs an empty first
 * call before it answers: that first call is an entry of the run queue
 * (a few milliseconds on a prepared spare, longer while a profile's
 * preloads come in), answered from its callback, so the server serves
 * other requests meanwhile; the handle it returns names a session that
 * is ready.
 *
 * Defines pw_session_tool_* and pw_session_exec_*.
 */
#include "config.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/base64.h"
#include "core/blob.h"
#include "core/json.h"
#include "core/log.h"
#include "core/reply.h"
#include "sandbox/session/files.h"
#include "sandbox/session/fork.h"
#include "server/session_tool.h"
#include "server/sessions.h"

#define S(...) #__VA_ARGS__

/* The tool error of every session call on a server without sessions. */
#define SESSIONS_OFF                                                          \
    "sessions are disabled on this server (--max-sessions 0): run "           \
    "execute_code without session_id"

static const char create_input[] = S({
    "type" : "object",
    "properties" : {
        "profile" : {
            "description" : "capability profile name(s) for the whole session",
            "anyOf" : [
                {"type" : "string"},
                {"type" : "array", "items" : {"type" : "string"}}
            ]
        },
        "timeout" : {
            "type" : "number",
            "exclusiveMinimum" : 0,
            "description" : "default wall-clock limit of each call, seconds"
        },
        "memory_limit" : {
            "type" : [ "string", "integer" ],
            "description" : "address-space limit of the whole session"
        },
        "ttl" : {
            "type" : "number",
            "exclusiveMinimum" : 0,
            "description" : "idle seconds before the session expires"
        }
    },
    "additionalProperties" : false
});

static const char create_output[] = S({
    "type" : "object",
    "properties" : {
        "session_id" : {"type" : "string"},
        "ttl" : {"type" : "number"},
        "max_lifetime" : {"type" : "number"},
        "timeout" : {"type" : "number"},
        "memory_limit" : {"type" : "integer"}
    },
    "required" : ["session_id"]
});

/* x-mcp-header: a 2026-07-28 client mirrors session_id into the
 * Mcp-Param-Session-Id header, for a load balancer to route on. */
static const char id_input[] = S({
    "type" : "object",
    "properties" :
        {"session_id" : {"type" : "string", "x-mcp-header" : "Session-Id"}},
    "required" : ["session_id"],
    "additionalProperties" : false
});

static const char fork_output[] = S({
    "type" : "object",
    "properties" : {
        "session_id" : {"type" : "string"},
        "forked_from" : {"type" : "string"},
        "ttl" : {"type" : "number"},
        "max_lifetime" : {"type" : "number"},
        "timeout" : {"type" : "number"},
        "memory_limit" : {"type" : "integer"}
    },
    "required" : [ "session_id", "forked_from" ]
});

static const char close_output[] = S({
    "type" : "object",
    "properties" :
        {"session_id" : {"type" : "string"}, "closed" : {"type" : "boolean"}},
    "required" : [ "session_id", "closed" ]
});

static const char write_input[] = S({
    "type" : "object",
    "properties" : {
        "session_id" : {"type" : "string", "x-mcp-header" : "Session-Id"},
        "path" : {
            "type" : "string",
            "description" : "in the workspace; its directories must exist"
        },
        "content" : {"type" : "string", "description" : "the file's text"},
        "content_base64" :
            {"type" : "string", "description" : "the file's bytes, base64"}
    },
    "required" : [ "session_id", "path" ],
    "additionalProperties" : false
});

static const char read_input[] = S({
    "type" : "object",
    "properties" : {
        "session_id" : {"type" : "string", "x-mcp-header" : "Session-Id"},
        "path" : {
            "type" : "string",
            "description" : "relative to the session's workspace"
        }
    },
    "required" : [ "session_id", "path" ],
    "additionalProperties" : false
});

static const char listf_input[] = S({
    "type" : "object",
    "properties" : {
        "session_id" : {"type" : "string", "x-mcp-header" : "Session-Id"},
        "path" : {
            "type" : "string",
            "description" : "a directory of the workspace (default: its root)"
        }
    },
    "required" : ["session_id"],
    "additionalProperties" : false
});

static const char write_output[] = S({
    "type" : "object",
    "properties" : {
        "session_id" : {"type" : "string"},
        "path" : {"type" : "string"},
        "size" : {"type" : "integer"}
    },
    "required" : [ "session_id", "path", "size" ]
});

static const char read_output[] = S({
    "type" : "object",
    "properties" : {
        "session_id" : {"type" : "string"},
        "path" : {"type" : "string"},
        "size" : {"type" : "integer"},
        "content" : {"type" : "string", "description" : "UTF-8 text"},
        "content_base64" : {
            "type" : "string",
            "description" : "the bytes, when they are not UTF-8 text"
        }
    },
    "required" : [ "session_id", "path", "size" ]
});

static const char listf_output[] = S({
    "type" : "object",
    "properties" : {
        "session_id" : {"type" : "string"},
        "path" : {"type" : "string"},
        "entries" : {
            "type" : "array",
            "items" : {
                "type" : "object",
                "properties" : {
                    "name" : {"type" : "string"},
                    "type" : {
                        "type" : "string",
                        "enum" : [ "file", "directory", "symlink", "other" ]
                    },
                    "size" : {"type" : "integer"}
                },
                "required" : [ "name", "type", "size" ]
            }
        },
        "omitted" : {"type" : "integer"}
    },
    "required" : [ "session_id", "path", "entries" ]
});

static const char list_input[] =
    S({"type" : "object", "properties" : {}, "additionalProperties" : false});

static const char list_output[] = S({
    "type" : "object",
    "properties" : {
        "sessions" : {
            "type" : "array",
            "items" : {
                "type" : "object",
                "properties" : {
                    "session_id" : {"type" : "string"},
                    "age" : {"type" : "number"},
                    "idle" : {"type" : "number"},
                    "calls" : {"type" : "integer"},
                    "busy" : {"type" : "boolean"},
                    "memory_limit" : {"type" : "integer"},
                    "ttl" : {"type" : "number"},
                    "expires_in" : {"type" : "number"}
                },
                "required" : ["session_id"]
            }
        }
    },
    "required" : ["sessions"]
});

static const struct pw_tool_def tool_defs[] = {
    {"create_session", "Start a Python session",
     "Start a sandboxed Python session whose state persists across calls: "
     "pass its session_id to execute_code and the variables, functions, "
     "classes, imports and workspace files of earlier calls are there. "
     "A call that reaches its time limit gets a KeyboardInterrupt and the "
     "session keeps its state (unless the program does not stop within a "
     "second: then it is killed); a call that runs out of the session's "
     "memory or is killed ends the session. Sessions expire after ttl idle "
     "seconds; close them with close_session.",
     create_input, create_output},
    {"fork_session", "Copy a live Python session",
     "Copy a session as it is now, by forking its process: the new "
     "session_id starts with the same variables, functions, classes and "
     "imports (no recomputation), under the same profile and limits. From "
     "then on the two are independent: a change in one is not seen in the "
     "other, and each is closed on its own. Sessions whose profile writes "
     "files cannot be copied.",
     id_input, fork_output},
    {"close_session", "End a Python session",
     "End a session: its process and files are removed.", id_input,
     close_output},
    {"list_sessions", "List your Python sessions",
     "List your open sessions: age, idle time, calls, time left.", list_input,
     list_output},
    {"write_file", "Put a file in a session's workspace",
     "Write a file into a session's workspace (sessions whose profile writes "
     "files, such as filesystem), between calls: path relative to the "
     "workspace (no absolute path, no '..', no symbolic link; its "
     "directories must exist), content as text or content_base64 (neither: "
     "an empty file), at most 8 MiB, replacing a file of that name. The "
     "program reads it by that path.",
     write_input, write_output},
    {"read_file", "Read a file of a session's workspace",
     "Read a file a session's program wrote (path relative to its "
     "workspace, the same rules as write_file), between calls, at most "
     "8 MiB: content as text, or content_base64 when it is not UTF-8.",
     read_input, read_output},
    {"list_files", "List a session's workspace",
     "List a directory of a session's workspace (default: its root), "
     "between calls: name, type and size of each entry.",
     listf_input, listf_output},
};

bool
pw_session_tool_exists(const char *name)
{
    for (size_t i = 0; i < PW_N_ELEMENTS(tool_defs); i++) {
        if (strcmp(tool_defs[i].name, name) == 0) {
            return true;
        }
    }
    return false;
}

int
pw_session_tools_list(json_t *list)
{
    for (size_t i = 0; i < PW_N_ELEMENTS(tool_defs); i++) {
        const struct pw_tool_def *d = &tool_defs[i];
        json_t *tool = pw_tool_def_json(d, json_loads(d->input, 0, NULL),
                                        json_loads(d->output, 0, NULL));
        if (json_array_append_new(list, tool) < 0) {
            return -1;
        }
    }
    return 0;
}

json_t *
pw_session_tool_error(const char *message)
{
    return json_pack("{s:[{s:s,s:s}],s:b}", "content", "type", "text", "text",
                     message, "isError", true);
}

/* New reference: a result with STRUCT (stolen) and TEXT. */
static json_t *
tool_ok(json_t *structured, const char *text)
{
    if (structured == NULL) {
        return NULL;
    }
    return json_pack("{s:[{s:s,s:s}],s:o,s:b}", "content", "type", "text",
                     "text", text, "structuredContent", structured, "isError",
                     false);
}

/* --- create_session's arguments ------------------------------------- */

struct create_args {
    pw_profile_mask mask;
    double timeout;
    long long memory;
    double ttl;
};

static int
add_profile(const struct pw_session_ctx *t, json_t *v, pw_profile_mask *mask,
            struct pw_error *err)
{
    const char *name = json_string_value(v);
    int i = name != NULL ? pw_profiles_index(t->profiles, name) : -1;
    if (name == NULL) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'profile' must be a name or a list of names");
    }
    if (i < 0 || (t->enabled & ((pw_profile_mask)1 << i)) == 0) {
        return pw_fail(err, PW_ERR_USAGE,
                       "profile '%s' is unknown or not enabled on this server",
                       name);
    }
    *mask |= (pw_profile_mask)1 << i;
    return 0;
}

static int
arg_profile(const struct pw_session_ctx *t, json_t *v, struct create_args *a,
            struct pw_error *err)
{
    size_t i;
    json_t *item; /* borrowed */
    a->mask = 0;
    if (!json_is_array(v)) {
        return add_profile(t, v, &a->mask, err);
    }
    json_array_foreach(v, i, item) {
        if (add_profile(t, item, &a->mask, err) < 0) {
            return -1;
        }
    }
    return a->mask != 0
               ? 0
               : pw_fail(err, PW_ERR_USAGE, "'profile' is an empty list");
}

static int
arg_seconds(json_t *v, const char *name, double max, double *out,
            struct pw_error *err)
{
    double d = 0;
    if (pw_json_number_in(v, name, 0, max, &d, NULL) < 0 || d <= 0) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'%s' must be a number of seconds above 0 and at "
                       "most %g",
                       name, max);
    }
    *out = d;
    return 0;
}

static int
arg_memory(const struct pw_session_ctx *t, json_t *v, struct create_args *a,
           struct pw_error *err)
{
    long long n = -1;
    if (json_is_string(v)) {
        n = pw_parse_size(json_string_value(v));
    } else if (pw_json_integer_in(v, "memory_limit", 1, t->cfg->max_memory, &n,
                                  NULL) < 0) {
        n = -1;
    }
    if (n <= 0 || n > t->cfg->max_memory) {
        return pw_fail(err, PW_ERR_USAGE,
                       "'memory_limit' must be a size such as \"256m\" or "
                       "\"1g\", or a whole number of bytes, at most %lld",
                       t->cfg->max_memory);
    }
    a->memory = n;
    return 0;
}

static int
create_arg(const struct pw_session_ctx *t, const char *key, json_t *v,
           struct create_args *a, struct pw_error *err)
{
    const struct pw_session_limits *lim = pw_sessions_limits(t->sessions);
    if (strcmp(key, "profile") == 0) {
        return arg_profile(t, v, a, err);
    }
    if (strcmp(key, "timeout") == 0) {
        return arg_seconds(v, "timeout", t->cfg->max_timeout_s, &a->timeout,
                           err);
    }
    if (strcmp(key, "memory_limit") == 0) {
        return arg_memory(t, v, a, err);
    }
    if (strcmp(key, "ttl") == 0) {
        return arg_seconds(v, "ttl", lim->ttl_s, &a->ttl, err);
    }
    return pw_fail(err, PW_ERR_USAGE, "create_session: unknown argument '%s'",
                   key);
}

static int
create_args_parse(const struct pw_session_ctx *t, json_t *args,
                  struct create_args *a, struct pw_error *err)
{
    const char *key;
    json_t *v; /* borrowed */
    a->mask = t->enabled;
    a->timeout = t->cfg->timeout_s;
    a->memory = t->cfg->memory;
    a->ttl = pw_sessions_limits(t->sessions)->ttl_s;
    json_object_foreach(args, key, v) {
        if (create_arg(t, key, v, a, err) < 0) {
            return -1;
        }
    }
    return 0;
}

/* --- the tools ------------------------------------------------------- */

static json_t *
created_result(const struct pw_session_ctx *t, const struct pw_session *s)
{
    char text[256];
    snprintf(text, sizeof(text),
             "Session %s is ready: pass it as session_id to execute_code. "
             "It expires after %g s idle.",
             s->id, s->ttl_s);
    return tool_ok(json_pack("{s:s,s:f,s:f,s:f,s:I}", "session_id", s->id,
                             "ttl", s->ttl_s, "max_lifetime",
                             pw_sessions_limits(t->sessions)->lifetime_s,
                             "timeout", s->timeout_s, "memory_limit",
                             (json_int_t)s->memory),
                   text);
}

/* A create_session in flight: its first call is a queue entry. */
struct pw_session_start {
    struct pw_session_ctx t; /* its pointers borrowed (tools.h) */
    struct create_args a;
    struct pw_importset set;
    struct pw_sbx_session *sbx; /* owned until registered */
    pw_session_done_fn done;
    void *ctx;
};

struct pw_session_start *
pw_session_start_new(const struct pw_session_ctx *t, json_t *args,
                     json_t **result, struct pw_error *err)
{
    struct create_args a;
    *result = NULL;
    if (t->sessions == NULL) {
        *result = pw_session_tool_error(SESSIONS_OFF);
        return NULL;
    }
    if (create_args_parse(t, args, &a, err) < 0) {
        return NULL;
    }
    struct pw_error why = {0};
    if (pw_sessions_room(t->sessions, t->owner, &why) < 0) {
        *result = pw_session_tool_error(why.message);
        return NULL;
    }
    if (t->zygote == NULL) {
        snprintf(why.message, sizeof(why.message),
                 "the sandbox is unavailable: %.400s", t->zygote_error);
        *result = pw_session_tool_error(why.message);
        return NULL;
    }
    struct pw_session_start *ss = pw_xcalloc(1, sizeof(*ss));
    ss->t = *t;
    ss->a = a;
    ss->set = (struct pw_importset){
        t->profiles, a.mask, (const char *const *)t->cfg->allowed_imports,
        NULL};
    return ss;
}

/* The entry's start: the session's process, from a spare, with its
 * empty first call.  The room is looked at again: other sessions may
 * have come while this one waited. */
static struct pw_sbx_run *
first_start(void *ctx, const struct pw_run_spec *spec, struct pw_error *err)
{
    struct pw_session_start *ss = ctx;
    if (pw_sessions_room(ss->t.sessions, ss->t.owner, err) < 0) {
        return NULL;
    }
    struct pw_sbx_run *first = NULL;
    double cpu = pw_sessions_limits(ss->t.sessions)->lifetime_s;
    ss->sbx = pw_sbx_session_new(spec->zygote, &spec->req, cpu, &first, err);
    return ss->sbx != NULL ? first : NULL;
}

/* The first call's end (its run freed: the session keeps its process,
 * or ends): the session registered if there is still room, or why it
 * could not start. */
static void
first_done(void *ctx, size_t index, struct pw_sbx_result *res,
           const struct pw_error *err)
{
    struct pw_session_start *ss = ctx;
    const struct pw_session_ctx *t = &ss->t;
    struct pw_error why = {0};
    (void)index;
    if (res == NULL) {
        why = *err;
    } else if (res->status != PW_SBX_OK) {
        pw_fail(&why, PW_ERR_SANDBOX, "the session could not be started: %s",
                res->error_message != NULL ? res->error_message
                                           : pw_sbx_status_name(res->status));
    } else {
        /* Another create_session of the caller's may have been
         * registered while this one started. */
        (void)pw_sessions_room(t->sessions, t->owner, &why);
    }
    struct pw_session *s =
        why.message[0] == '\0' && ss->sbx != NULL
            ? pw_sessions_add(t->sessions, t->owner, ss->sbx)
            : NULL;
    json_t *result;
    if (s == NULL) {
        pw_log(PW_LOG_WARN, "create_session: %s", why.message);
        pw_sbx_session_free(ss->sbx);
        result = pw_session_tool_error(why.message[0] != '\0'
                                           ? why.message
                                           : "the session could not be made");
    } else {
        s->mask = ss->a.mask;
        s->timeout_s = ss->a.timeout;
        s->memory = ss->a.memory;
        s->ttl_s = ss->a.ttl;
        result = created_result(t, s);
    }
    ss->sbx = NULL;
    ss->done(ss->ctx, result); /* last: it may free SS */
}

void
pw_session_start_submit(struct pw_session_start *ss, struct pw_queue_group *g,
                        pw_session_done_fn done, void *ctx)
{
    ss->done = done;
    ss->ctx = ctx;
    struct pw_run_spec spec = {
        .req = {.code = "",
                .limits = {.timeout_s =
                               ss->a.timeout > 10 ? ss->a.timeout : 10,
                           .memory_bytes = ss->a.memory,
                           .max_output_bytes = ss->t.cfg->max_output},
                .imports = &ss->set,
                .caps = pw_profiles_caps(ss->t.profiles, ss->a.mask),
                .capture_output = true},
        .zygote = ss->t.zygote,
        .start = first_start,
        .spare = true,
    };
    pw_queue_add(g, &spec, first_done, ss, 0);
}

double
pw_session_start_timeout(const struct pw_session_start *ss)
{
    return ss->a.timeout > 10 ? ss->a.timeout : 10;
}

void
pw_session_start_free(struct pw_session_start *ss)
{
    if (ss != NULL) {
        pw_sbx_session_free(ss->sbx);
        free(ss);
    }
}

/* The session_id argument of ARGS, checked. */
static const char *
id_arg(const char *tool, json_t *args, struct pw_error *err)
{
    const char *key;
    json_t *v; /* borrowed */
    json_object_foreach(args, key, v) {
        if (strcmp(key, "session_id") != 0) {
            pw_fail(err, PW_ERR_USAGE, "%s: unknown argument '%s'", tool, key);
            return NULL;
        }
    }
    json_t *id = json_object_get(args, "session_id");
    if (!json_is_string(id)) {
        pw_fail(err, PW_ERR_USAGE,
                "%s: 'session_id' must be the string create_session "
                "returned",
                tool);
        return NULL;
    }
    return json_string_value(id);
}

static int
fork_session(const struct pw_session_ctx *t, json_t *args, json_t **result,
             struct pw_error *err)
{
    const char *id = id_arg("fork_session", args, err);
    if (id == NULL) {
        return -1;
    }
    struct pw_error why = {0};
    struct pw_session *s = pw_sessions_get(t->sessions, t->owner, id, &why);
    if (s == NULL || pw_sessions_room(t->sessions, t->owner, &why) < 0) {
        *result = pw_session_tool_error(why.message);
        return 0;
    }
    struct pw_sbx_session *sbx = pw_sbx_session_fork(s->sbx, &why);
    struct pw_session *c =
        sbx != NULL ? pw_sessions_add(t->sessions, t->owner, sbx) : NULL;
    if (c == NULL) {
        pw_log(PW_LOG_INFO, "fork_session: %s", why.message);
        *result = pw_session_tool_error(why.message[0] != '\0'
                                            ? why.message
                                            : "the copy could not be made");
        return 0;
    }
    s->last_used = pw_now();
    c->mask = s->mask;
    c->timeout_s = s->timeout_s;
    c->memory = s->memory;
    c->ttl_s = s->ttl_s;
    *result = created_result(t, c);
    json_t *st = json_object_get(*result, "structuredContent"); /* borrowed */
    if (json_object_set_new(st, "forked_from", json_string(id)) < 0) {
        json_decref(*result);
        *result = NULL;
    }
    return 0;
}

/* A fork_session under way: the session's copy being made, stepped by
 * the server's loop. */
struct pw_session_fork {
    struct pw_sessions *sessions; /* borrowed */
    char *owner;                  /* owned */
    char id[PW_SESSION_ID_MAX];   /* the session copied */
    struct pw_sbx_fork *f;        /* owned until its last step */
    pw_profile_mask mask;         /* the session's, for the copy */
    double timeout_s;
    long long memory;
    double ttl_s;
};

struct pw_session_fork *
pw_session_fork_start(const struct pw_session_ctx *t, json_t *args,
                      json_t **result, struct pw_error *err)
{
    *result = NULL;
    const char *id = id_arg("fork_session", args, err);
    if (id == NULL) {
        return NULL;
    }
    if (t->sessions == NULL) {
        *result = pw_session_tool_error("sessions are not available");
        return NULL;
    }
    struct pw_error why = {0};
    struct pw_session *s = pw_sessions_get(t->sessions, t->owner, id, &why);
    struct pw_sbx_fork *f =
        s != NULL && pw_sessions_room(t->sessions, t->owner, &why) == 0
            ? pw_sbx_fork_start(s->sbx, &why)
            : NULL;
    if (f == NULL) {
        pw_log(PW_LOG_INFO, "fork_session: %s", why.message);
        *result = pw_session_tool_error(why.message[0] != '\0'
                                            ? why.message
                                            : "the copy could not be made");
        return NULL;
    }
    struct pw_session_fork *sf = pw_xcalloc(1, sizeof(*sf));
    sf->sessions = t->sessions;
    sf->owner = pw_xstrdup(t->owner);
    snprintf(sf->id, sizeof(sf->id), "%s", s->id);
    sf->f = f;
    sf->mask = s->mask;
    sf->timeout_s = s->timeout_s;
    sf->memory = s->memory;
    sf->ttl_s = s->ttl_s;
    return sf;
}

int
pw_session_fork_pollfds(const struct pw_session_fork *sf, struct pollfd *fds)
{
    return pw_sbx_fork_pollfds(sf->f, fds);
}

double
pw_session_fork_deadline(const struct pw_session_fork *sf)
{
    return pw_sbx_fork_deadline(sf->f);
}

/* New reference: the fork_session result of the copy SBX (owned) of
 * SF's session, registered; or the refusal. */
static json_t *
forked(const struct pw_session_ctx *t, struct pw_session_fork *sf,
       struct pw_sbx_session *sbx, const struct pw_error *why)
{
    struct pw_error room = {0};
    if (sbx != NULL && pw_sessions_room(sf->sessions, sf->owner, &room) < 0) {
        pw_sbx_session_free(sbx);
        sbx = NULL;
        why = &room;
    }
    struct pw_session *c =
        sbx != NULL ? pw_sessions_add(sf->sessions, sf->owner, sbx) : NULL;
    if (c == NULL) {
        pw_log(PW_LOG_INFO, "fork_session: %s", why->message);
        return pw_session_tool_error(why->message[0] != '\0'
                                         ? why->message
                                         : "the copy could not be made");
    }
    struct pw_error gone = {0};
    struct pw_session *s =
        pw_sessions_get(sf->sessions, sf->owner, sf->id, &gone);
    if (s != NULL) {
        s->last_used = pw_now();
    }
    c->mask = sf->mask;
    c->timeout_s = sf->timeout_s;
    c->memory = sf->memory;
    c->ttl_s = sf->ttl_s;
    json_t *result = created_result(t, c);
    json_t *st = json_object_get(result, "structuredContent"); /* borrowed */
    if (json_object_set_new(st, "forked_from", json_string(sf->id)) < 0) {
        json_decref(result);
        result = NULL;
    }
    return result;
}

bool
pw_session_fork_step(struct pw_session_fork *sf, const struct pollfd *fds,
                     int n, bool wanted, json_t **result)
{
    struct pw_sbx_session *sbx = NULL;
    struct pw_error why = {0};
    if (!pw_sbx_fork_step(sf->f, fds, n, &sbx, &why)) {
        return false;
    }
    *result = NULL;
    if (!wanted) {
        pw_sbx_session_free(sbx); /* its caller is gone */
    } else {
        struct pw_session_ctx t = {.sessions = sf->sessions,
                                   .owner = sf->owner};
        *result = forked(&t, sf, sbx, &why);
    }
    free(sf->owner);
    free(sf);
    return true;
}

static int
close_session(const struct pw_session_ctx *t, json_t *args, json_t **result,
              struct pw_error *err)
{
    const char *id = id_arg("close_session", args, err);
    if (id == NULL) {
        return -1;
    }
    struct pw_error why = {0};
    if (pw_sessions_close(t->sessions, t->owner, id, &why) < 0) {
        *result = pw_session_tool_error(why.message);
        return 0;
    }
    *result = tool_ok(json_pack("{s:s,s:b}", "session_id", id, "closed", true),
                      "Session closed.");
    return 0;
}

static int
list_sessions(const struct pw_session_ctx *t, json_t *args, json_t **result,
              struct pw_error *err)
{
    if (json_object_size(args) > 0) {
        return pw_fail(err, PW_ERR_USAGE, "list_sessions takes no arguments");
    }
    json_t *list = pw_sessions_list(t->sessions, t->owner);
    char text[64];
    snprintf(text, sizeof(text), "%zu open session%s", json_array_size(list),
             json_array_size(list) == 1 ? "" : "s");
    *result = tool_ok(json_pack("{s:o}", "sessions", list), text);
    return 0;
}

/* --- write_file, read_file, list_files -------------------------------- */

/* ARGS of file tool TOOL, checked: only the keys of KEYS (NULL-ended),
 * session_id and path strings (PATH optional if !PATH_REQUIRED). */
static int
file_args(const char *tool, json_t *args, const char *const *keys,
          bool path_required, const char **id, const char **path,
          struct pw_error *err)
{
    const char *key;
    json_t *v; /* borrowed */
    json_object_foreach(args, key, v) {
        bool known = false;
        for (size_t i = 0; keys[i] != NULL; i++) {
            known = known || strcmp(keys[i], key) == 0;
        }
        if (!known) {
            return pw_fail(err, PW_ERR_USAGE, "%s: unknown argument '%s'",
                           tool, key);
        }
        if (!json_is_string(v)) {
            return pw_fail(err, PW_ERR_USAGE, "%s: '%s' must be a string",
                           tool, key);
        }
    }
    *id = json_string_value(json_object_get(args, "session_id"));
    *path = json_string_value(json_object_get(args, "path"));
    if (*id == NULL) {
        return pw_fail(err, PW_ERR_USAGE,
                       "%s: 'session_id' must be the string create_session "
                       "returned",
                       tool);
    }
    if (path_required && *path == NULL) {
        return pw_fail(err, PW_ERR_USAGE,
                       "%s: missing required argument "
                       "'path'",
                       tool);
    }
    return 0;
}

/* The caller's session ID for a file tool, or NULL with *RESULT. */
static struct pw_session *
file_session(const struct pw_session_ctx *t, const char *id, json_t **result)
{
    struct pw_error why = {0};
    struct pw_session *s = pw_sessions_get(t->sessions, t->owner, id, &why);
    if (s == NULL) {
        *result = pw_session_tool_error(why.message);
    } else {
        s->last_used = pw_now();
    }
    return s;
}

static int
write_file(const struct pw_session_ctx *t, json_t *args, json_t **result,
           struct pw_error *err)
{
    static const char *const keys[] = {"session_id", "path", "content",
                                       "content_base64", NULL};
    const char *id = NULL;
    const char *path = NULL;
    if (file_args("write_file", args, keys, true, &id, &path, err) < 0) {
        return -1;
    }
    json_t *text = json_object_get(args, "content");       /* borrowed */
    json_t *b64 = json_object_get(args, "content_base64"); /* borrowed */
    if (text != NULL && b64 != NULL) {
        return pw_fail(err, PW_ERR_USAGE,
                       "write_file: give 'content' or 'content_base64', not "
                       "both");
    }
    struct pw_buf b;
    pw_buf_init(&b);
    if (text != NULL) {
        pw_buf_append(&b, json_string_value(text), json_string_length(text));
    } else if (b64 != NULL &&
               pw_base64_decode(json_string_value(b64), &b) < 0) {
        pw_buf_free(&b);
        return pw_fail(err, PW_ERR_USAGE,
                       "write_file: 'content_base64' is not base64");
    }
    struct pw_session *s = file_session(t, id, result);
    struct pw_error why = {0};
    if (s != NULL &&
        pw_sbx_session_write_file(s->sbx, path, b.data != NULL ? b.data : "",
                                  b.len, &why) < 0) {
        *result = pw_session_tool_error(why.message);
    } else if (s != NULL) {
        char msg[128];
        snprintf(msg, sizeof(msg), "Wrote %zu bytes.", b.len);
        *result = tool_ok(json_pack("{s:s,s:s,s:I}", "session_id", id, "path",
                                    path, "size", (json_int_t)b.len),
                          msg);
    }
    pw_buf_free(&b);
    return 0;
}

static int
read_file(const struct pw_session_ctx *t, json_t *args, json_t **result,
          struct pw_error *err)
{
    static const char *const keys[] = {"session_id", "path", NULL};
    const char *id = NULL;
    const char *path = NULL;
    if (file_args("read_file", args, keys, true, &id, &path, err) < 0) {
        return -1;
    }
    struct pw_session *s = file_session(t, id, result);
    if (s == NULL) {
        return 0;
    }
    struct pw_error why = {0};
    size_t len = 0;
    PW_AUTOFREE char *data =
        pw_sbx_session_read_file(s->sbx, path, &len, &why);
    if (data == NULL) {
        *result = pw_session_tool_error(why.message);
        return 0;
    }
    json_t *text = json_stringn(data, len); /* NULL: not UTF-8 */
    json_t *st = json_pack("{s:s,s:s,s:I}", "session_id", id, "path", path,
                           "size", (json_int_t)len);
    if (st != NULL) {
        json_object_set_new(
            st, text != NULL ? "content" : "content_base64",
            text != NULL ? text
                         : pw_base64_json((const unsigned char *)data, len));
    } else {
        json_decref(text);
    }
    struct pw_buf b;
    pw_buf_init(&b);
    pw_buf_printf(&b, "%s: %zu bytes%s\n", path, len,
                  text != NULL ? "" : " (binary: content_base64)");
    if (text != NULL) {
        size_t show = pw_utf8_cut(data, len, 4000);
        pw_buf_append(&b, data, show);
    }
    *result = tool_ok(st, b.data);
    pw_buf_free(&b);
    return 0;
}

/* --- read_file and write_file in steps --------------------------------- */

struct pw_session_file {
    struct pw_sessions *sessions; /* borrowed */
    char *owner;                  /* owned */
    char id[PW_SESSION_ID_MAX];
    char *path;   /* owned */
    json_t *args; /* a reference: holds the content */
    bool write;
    unsigned char *buf; /* owned: a step's bytes */
    /* read_file */
    int fd;
    struct stat st;
    long long off;  /* bytes checked */
    size_t escaped; /* their length JSON-escaped */
    bool binary;
    struct pw_blob *blob; /* a reference: the answer's */
    /* write_file */
    const char *data; /* borrowed from ARGS */
    size_t len, pos;  /* DATA's bytes, those used */
    bool b64;
    struct pw_base64_dec dec;
    size_t size; /* the file's bytes */
    struct pw_sbx_wfile w;
    char *refusal; /* owned: said once the base64 is checked */
};

const char *
pw_session_file_tool(const struct pw_session_file *sf)
{
    return sf->write ? "write_file" : "read_file";
}

void
pw_session_file_free(struct pw_session_file *sf)
{
    if (sf == NULL) {
        return;
    }
    if (sf->fd >= 0) {
        close(sf->fd);
    }
    pw_sbx_session_write_drop(&sf->w);
    pw_blob_unref(sf->blob);
    json_decref(sf->args);
    free(sf->buf);
    free(sf->owner);
    free(sf->path);
    free(sf->refusal);
    free(sf);
}

static struct pw_session_file *
file_new(const struct pw_session_ctx *t, const char *id, const char *path,
         json_t *args, bool write)
{
    struct pw_session_file *sf = pw_xcalloc(1, sizeof(*sf));
    sf->sessions = t->sessions;
    sf->owner = pw_xstrdup(t->owner);
    snprintf(sf->id, sizeof(sf->id), "%s", id);
    sf->path = pw_xstrdup(path);
    sf->args = json_incref(args);
    sf->write = write;
    sf->buf = pw_xmalloc(PW_SESSION_FILE_STEP + 8); /* a quantum over */
    sf->fd = -1;
    sf->w.dir = sf->w.fd = -1;
    return sf;
}

/* SF's session, still there, or NULL with *WHY. */
static struct pw_session *
file_session_now(struct pw_session_file *sf, struct pw_error *why)
{
    return pw_sessions_get(sf->sessions, sf->owner, sf->id, why);
}

/* Bytes at the start of S (N) that are whole UTF-8 characters as jansson
 * accepts them (json_stringn: no overlong form, no surrogate, at most
 * U+10FFFF); at EOF a character cut short is invalid.  *BAD if an
 * invalid byte was met (the count is then up to it). */
static size_t
utf8_prefix(const unsigned char *s, size_t n, bool eof, bool *bad)
{
    size_t i = 0;
    *bad = false;
    while (i < n) {
        unsigned char c = s[i];
        size_t k = c <= 0x7F   ? 1
                   : c <= 0xC1 ? 0
                   : c <= 0xDF ? 2
                   : c <= 0xEF ? 3
                   : c <= 0xF4 ? 4
                               : 0;
        if (k == 0) {
            *bad = true;
            return i;
        }
        if (k == 1) {
            i++;
            continue;
        }
        if (i + k > n) {
            *bad = eof;
            return i;
        }
        unsigned v = c & (k == 2 ? 0x1Fu : k == 3 ? 0x0Fu : 0x07u);
        for (size_t j = 1; j < k; j++) {
            unsigned char u = s[i + j];
            if (u < 0x80 || u > 0xBF) {
                *bad = true;
                return i;
            }
            v = (v << 6) | (u & 0x3Fu);
        }
        if (v > 0x10FFFF || (v >= 0xD800 && v <= 0xDFFF) ||
            (k == 2 && v < 0x80) || (k == 3 && v < 0x800) ||
            (k == 4 && v < 0x10000)) {
            *bad = true;
            return i;
        }
        i += k;
    }
    return i;
}

/* The read_file answer of SF, its file checked: the file kept open as a
 * blob. */
static json_t *
read_answer(struct pw_session_file *sf)
{
    struct stat now;
    if (fstat(sf->fd, &now) < 0 || now.st_size != sf->st.st_size ||
        now.st_mtim.tv_sec != sf->st.st_mtim.tv_sec ||
        now.st_mtim.tv_nsec != sf->st.st_mtim.tv_nsec ||
        now.st_ctim.tv_sec != sf->st.st_ctim.tv_sec ||
        now.st_ctim.tv_nsec != sf->st.st_ctim.tv_nsec) {
        char msg[400];
        snprintf(msg, sizeof(msg), "'%.300s' changed while it was read",
                 sf->path);
        return pw_session_tool_error(msg);
    }
    if (!pw_blob_room()) {
        return pw_session_tool_error(
            "the server holds too many files for replies not yet written; "
            "try again in a moment");
    }
    size_t len = (size_t)sf->st.st_size;
    char head[4001];
    size_t hn = len < sizeof(head) ? len : sizeof(head);
    ssize_t k = PW_RETRY(pread(sf->fd, head, hn, 0));
    if (k != (ssize_t)hn) {
        char msg[400];
        snprintf(msg, sizeof(msg), "'%.300s' changed while it was read",
                 sf->path);
        return pw_session_tool_error(msg);
    }
    sf->blob = pw_blob_new(sf->fd, &now);
    sf->fd = -1;
    if (!sf->binary) {
        pw_blob_set_text(sf->blob, sf->escaped);
    }
    json_t *st = json_pack("{s:s,s:s,s:I}", "session_id", sf->id, "path",
                           sf->path, "size", (json_int_t)len);
    if (st != NULL) {
        json_object_set_new(st, sf->binary ? "content_base64" : "content",
                            pw_blob_token(sf->blob));
    }
    struct pw_buf b;
    pw_buf_init(&b);
    pw_buf_printf(&b, "%s: %zu bytes%s\n", sf->path, len,
                  sf->binary ? " (binary: content_base64)" : "");
    if (!sf->binary) {
        pw_buf_append(&b, head, pw_utf8_cut(head, hn, 4000));
    }
    json_t *r = tool_ok(st, b.data);
    pw_buf_free(&b);
    return r;
}

/* One step of read_file: the next bytes checked.  True when over. */
static bool
read_step(struct pw_session_file *sf, json_t **result)
{
    struct pw_error why = {0};
    if (file_session_now(sf, &why) == NULL) {
        *result = pw_session_tool_error(why.message);
        return true;
    }
    long long size = (long long)sf->st.st_size;
    size_t want = size - sf->off < (long long)PW_SESSION_FILE_STEP
                      ? (size_t)(size - sf->off)
                      : PW_SESSION_FILE_STEP;
    ssize_t n = PW_RETRY(pread(sf->fd, sf->buf, want, (off_t)sf->off));
    if (n < (ssize_t)want) {
        char msg[400];
        snprintf(msg, sizeof(msg), "'%.300s' changed while it was read",
                 sf->path);
        *result = pw_session_tool_error(msg);
        return true;
    }
    bool eof = sf->off + n == size;
    bool bad;
    size_t ok = utf8_prefix(sf->buf, (size_t)n, eof, &bad);
    sf->escaped += pw_reply_escaped(sf->buf, ok);
    sf->off += (long long)ok;
    sf->binary = bad;
    if (bad || sf->off == size) {
        *result = read_answer(sf);
        return true;
    }
    return false;
}

/* One step of write_file: the next bytes decoded and written.  True when
 * over. */
static bool
write_step(struct pw_session_file *sf, json_t **result, struct pw_error *err)
{
    struct pw_error why = {0};
    if (sf->refusal == NULL && file_session_now(sf, &why) == NULL) {
        sf->refusal = pw_xstrdup(why.message);
        pw_sbx_session_write_drop(&sf->w);
    }
    size_t n = 0;
    if (sf->b64) {
        size_t take = sf->len - sf->pos < PW_SESSION_FILE_STEP / 3 * 4
                          ? sf->len - sf->pos
                          : PW_SESSION_FILE_STEP / 3 * 4;
        long k =
            pw_base64_dec_some(&sf->dec, sf->data + sf->pos, take, sf->buf);
        sf->pos += take;
        if (k < 0 || (sf->pos == sf->len && pw_base64_dec_end(&sf->dec) < 0)) {
            pw_fail(err, PW_ERR_USAGE,
                    "write_file: 'content_base64' is not base64");
            return true;
        }
        n = (size_t)k;
    } else {
        n = sf->len - sf->pos < PW_SESSION_FILE_STEP ? sf->len - sf->pos
                                                     : PW_SESSION_FILE_STEP;
        memcpy(sf->buf, sf->data + sf->pos, n);
        sf->pos += n;
    }
    if (sf->refusal == NULL &&
        pw_sbx_session_write_some(&sf->w, sf->path, sf->buf, n, &why) < 0) {
        sf->refusal = pw_xstrdup(why.message);
        pw_sbx_session_write_drop(&sf->w);
    }
    if (sf->pos < sf->len) {
        return false;
    }
    struct pw_session *s =
        sf->refusal == NULL ? file_session_now(sf, &why) : NULL;
    if (s != NULL &&
        pw_sbx_session_write_end(s->sbx, sf->path, &sf->w, &why) == 0) {
        char msg[128];
        snprintf(msg, sizeof(msg), "Wrote %zu bytes.", sf->size);
        *result =
            tool_ok(json_pack("{s:s,s:s,s:I}", "session_id", sf->id, "path",
                              sf->path, "size", (json_int_t)sf->size),
                    msg);
        return true;
    }
    *result =
        pw_session_tool_error(sf->refusal != NULL ? sf->refusal : why.message);
    return true;
}

bool
pw_session_file_step(struct pw_session_file *sf, json_t **result,
                     struct pw_error *err)
{
    *result = NULL;
    bool over =
        sf->write ? write_step(sf, result, err) : read_step(sf, result);
    if (over && *result == NULL && err->message[0] == '\0') {
        pw_fail(err, PW_ERR_INTERNAL, "%s: building the result",
                pw_session_file_tool(sf));
    }
    return over;
}

/* read_file of a file over PW_SESSION_FILE_FAST bytes: started, or NULL
 * with *RESULT. */
static struct pw_session_file *
read_start(const struct pw_session_ctx *t, json_t *args, json_t **result,
           struct pw_error *err)
{
    static const char *const keys[] = {"session_id", "path", NULL};
    const char *id = NULL;
    const char *path = NULL;
    if (file_args("read_file", args, keys, true, &id, &path, err) < 0) {
        return NULL;
    }
    struct pw_session *s = file_session(t, id, result);
    if (s == NULL) {
        return NULL;
    }
    struct pw_error why = {0};
    struct stat st;
    int fd = pw_sbx_session_open_read(s->sbx, path, &st, &why);
    if (fd < 0) {
        *result = pw_session_tool_error(why.message);
        return NULL;
    }
    if (st.st_size <= (off_t)PW_SESSION_FILE_FAST) {
        close(fd);
        if (read_file(t, args, result, err) == 0 && *result == NULL) {
            pw_fail(err, PW_ERR_INTERNAL, "read_file: building the result");
        }
        return NULL;
    }
    struct pw_session_file *sf = file_new(t, id, path, args, false);
    sf->fd = fd;
    sf->st = st;
    return sf;
}

/* write_file of content over PW_SESSION_FILE_FAST bytes: started, or
 * NULL with *RESULT. */
static struct pw_session_file *
write_start(const struct pw_session_ctx *t, json_t *args, json_t **result,
            struct pw_error *err)
{
    static const char *const keys[] = {"session_id", "path", "content",
                                       "content_base64", NULL};
    const char *id = NULL;
    const char *path = NULL;
    if (file_args("write_file", args, keys, true, &id, &path, err) < 0) {
        return NULL;
    }
    json_t *text = json_object_get(args, "content");       /* borrowed */
    json_t *b64 = json_object_get(args, "content_base64"); /* borrowed */
    size_t len = text != NULL  ? json_string_length(text)
                 : b64 != NULL ? strlen(json_string_value(b64))
                               : 0;
    if ((text != NULL && b64 != NULL) || len <= PW_SESSION_FILE_FAST) {
        if (write_file(t, args, result, err) == 0 && *result == NULL) {
            pw_fail(err, PW_ERR_INTERNAL, "write_file: building the result");
        }
        return NULL;
    }
    struct pw_session_file *sf = file_new(t, id, path, args, true);
    sf->b64 = b64 != NULL;
    sf->data = json_string_value(text != NULL ? text : b64);
    sf->len = len;
    /* The decoded size if it is base64 (else the decoding says so). */
    size_t pad = sf->b64 && len % 4 == 0
                     ? (size_t)(sf->data[len - 1] == '=') +
                           (size_t)(sf->data[len - 2] == '=')
                     : 0;
    sf->size = sf->b64 ? len / 4 * 3 - pad : len;
    struct pw_error why = {0};
    struct pw_session *s = pw_sessions_get(t->sessions, t->owner, id, &why);
    if (s != NULL) {
        s->last_used = pw_now();
    }
    if (s == NULL ||
        pw_sbx_session_write_begin(s->sbx, path, sf->size, &sf->w, &why) < 0) {
        if (!sf->b64) {
            *result = pw_session_tool_error(why.message);
            pw_session_file_free(sf);
            return NULL;
        }
        sf->refusal = pw_xstrdup(why.message); /* once the base64 is read */
    }
    return sf;
}

struct pw_session_file *
pw_session_file_start(const struct pw_session_ctx *t, const char *name,
                      json_t *args, json_t **result, struct pw_error *err)
{
    *result = NULL;
    if (t->sessions == NULL) {
        (void)pw_session_tool_call(t, name, args, result, err);
        return NULL;
    }
    return strcmp(name, "write_file") == 0 ? write_start(t, args, result, err)
                                           : read_start(t, args, result, err);
}

static int
list_files(const struct pw_session_ctx *t, json_t *args, json_t **result,
           struct pw_error *err)
{
    static const char *const keys[] = {"session_id", "path", NULL};
    const char *id = NULL;
    const char *path = NULL;
    if (file_args("list_files", args, keys, false, &id, &path, err) < 0) {
        return -1;
    }
    struct pw_session *s = file_session(t, id, result);
    if (s == NULL) {
        return 0;
    }
    struct pw_error why = {0};
    size_t more = 0;
    json_t *list = pw_sbx_session_list_files(s->sbx, path, &more, &why);
    if (list == NULL) {
        *result = pw_session_tool_error(why.message);
        return 0;
    }
    struct pw_buf b;
    pw_buf_init(&b);
    size_t i;
    json_t *e; /* borrowed */
    json_array_foreach(list, i, e) {
        pw_buf_printf(
            &b, "%s%s %lld\n", json_string_value(json_object_get(e, "name")),
            strcmp(json_string_value(json_object_get(e, "type")),
                   "directory") == 0
                ? "/"
                : "",
            (long long)json_integer_value(json_object_get(e, "size")));
    }
    if (b.len == 0) {
        pw_buf_printf(&b, "(empty)\n");
    }
    *result = tool_ok(json_pack("{s:s,s:s,s:o,s:I}", "session_id", id, "path",
                                path != NULL ? path : "", "entries", list,
                                "omitted", (json_int_t)more),
                      b.data);
    pw_buf_free(&b);
    return 0;
}

int
pw_session_tool_call(const struct pw_session_ctx *t, const char *name,
                     json_t *args, json_t **result, struct pw_error *err)
{
    if (t->sessions == NULL) {
        *result = pw_session_tool_error(SESSIONS_OFF);
        return 0;
    }
    int rc =
        strcmp(name, "fork_session") == 0 ? fork_session(t, args, result, err)
        : strcmp(name, "close_session") == 0
            ? close_session(t, args, result, err)
        : strcmp(name, "write_file") == 0 ? write_file(t, args, result, err)
        : strcmp(name, "read_file") == 0  ? read_file(t, args, result, err)
        : strcmp(name, "list_files") == 0
            ? list_files(t, args, result, err)
            : list_sessions(t, args, result, err);
    if (rc == 0 && *result == NULL) {
        return pw_fail(err, PW_ERR_INTERNAL, "%s: building the result", name);
    }
    return rc;
}

/* --- execute_code with a session ------------------------------------ */

int
pw_session_exec_check(const struct pw_session_ctx *t, const char *id,
                      json_t *args, pw_profile_mask *mask, double *timeout,
                      json_t **result, struct pw_error *err)
{
    static const char *const fixed[] = {"profile", "allowed_imports",
                                        "memory_limit"};
    for (size_t i = 0; i < PW_N_ELEMENTS(fixed); i++) {
        if (json_object_get(args, fixed[i]) != NULL) {
            return pw_fail(err, PW_ERR_USAGE,
                           "'%s' cannot be given with 'session_id': a "
                           "session's profile and limits are set by "
                           "create_session",
                           fixed[i]);
        }
    }
    struct pw_error why = {0};
    struct pw_session *s =
        t->sessions != NULL ? pw_sessions_get(t->sessions, t->owner, id, &why)
                            : NULL;
    if (s == NULL) {
        *result = pw_session_tool_error(t->sessions != NULL ? why.message
                                                            : SESSIONS_OFF);
        return -1;
    }
    *mask = s->mask;
    if (json_object_get(args, "timeout") == NULL) {
        *timeout = s->timeout_s;
    }
    return 0;
}

struct pw_sbx_run *
pw_session_exec_start(const struct pw_session_ctx *t, const char *id,
                      const struct pw_sbx_request *req, struct pw_error *err)
{
    struct pw_session *s = pw_sessions_get(t->sessions, t->owner, id, err);
    struct pw_sbx_run *run =
        s != NULL ? pw_sbx_session_call(s->sbx, req, err) : NULL;
    if (run == NULL) {
        return NULL;
    }
    s->calls++;
    s->last_used = pw_now();
    return run;
}

void
pw_session_exec_note(json_t *r, const char *id, struct pw_buf *text)
{
    const char *status = json_string_value(json_object_get(r, "status"));
    const char *intr =
        json_string_value(json_object_get(r, "timeout_interrupt"));
    bool interrupted = intr != NULL && strcmp(intr, "interrupted") == 0;
    bool lives = status != NULL &&
                 (strcmp(status, "ok") == 0 || strcmp(status, "error") == 0 ||
                  (strcmp(status, "timeout") == 0 && interrupted));
    json_object_set_new(r, "session_id", json_string(id));
    json_object_set_new(r, "session_ended", json_boolean(!lives));
    if (interrupted) {
        pw_buf_printf(text,
                      "The call reached its time limit and was interrupted "
                      "(KeyboardInterrupt): the session lives, with every "
                      "name it had.\n");
    } else if (!lives) {
        pw_buf_printf(text,
                      "The session has ended (%s): its state is gone; "
                      "create_session starts a new one.\n",
                      status != NULL ? status : "?");
    }
}
