/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * rpc.h - JSON-RPC 2.0 over newline-delimited JSON: reading capped
 * lines, parsing messages, building envelopes, and a non-blocking output
 * queue on the private protocol fd.
 *
 * Ids are echoed exactly as the client wrote them: the raw JSON text of
 * the "id" member is kept (a large or fractional number is not
 * re-formatted) and spliced into the reply.
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "core/pyward.h"
#include "core/util.h"

enum pw_rpc_code {
    PW_RPC_PARSE_ERROR = -32700,
    PW_RPC_INVALID_REQUEST = -32600,
    PW_RPC_METHOD_NOT_FOUND = -32601,
    PW_RPC_INVALID_PARAMS = -32602,
    PW_RPC_INTERNAL_ERROR = -32603,
    PW_RPC_SERVER_BUSY = -32000,     /* implementation-defined server error */
    PW_RPC_HEADER_MISMATCH = -32020, /* MCP 2026-07-28: headers vs body */
};

/* Longest accepted message line, in bytes (without the newline). */
#define PW_RPC_MAX_LINE (16u * 1024 * 1024)

/* --- input ------------------------------------------------------------ */

/* The end of an oversized line kept to find its id there. */
#define PW_RPC_ID_TAIL 256

struct pw_rpc_in {
    struct pw_buf buf;
    bool discarding;           /* inside a line that went over the cap */
    char *big_id;              /* the id found at an oversized line's start */
    char tail[PW_RPC_ID_TAIL]; /* and its last bytes so far */
    size_t tail_len;
    size_t line_end; /* where what follows the line handed out starts */
    bool taken;      /* the line handed out took the buffer */
};

/* Called once per complete line (without "\n").  OVERSIZED is true for a
 * line that went over PW_RPC_MAX_LINE: LINE is then the raw JSON text of
 * its id when one could be read from its first PW_RPC_MAX_LINE bytes or
 * its last PW_RPC_ID_TAIL bytes ("id" the last member), else empty. */
typedef void (*pw_rpc_line_fn)(void *ctx, const char *line, size_t len,
                               bool oversized);

void pw_rpc_in_init(struct pw_rpc_in *in);
void pw_rpc_in_free(struct pw_rpc_in *in);
/* One read(2) from FD (call when poll says readable); FN for each complete
 * line.  Returns 1 at end of file, 0 otherwise, -1 on a read error. */
int pw_rpc_in_read(struct pw_rpc_in *in, int fd, pw_rpc_line_fn fn, void *ctx);
/* From FN only: take the buffer the line handed to FN lies in (owned, to
 * free, by any thread), instead of copying a long line; what follows the
 * line is moved to a buffer of its own before this returns. */
char *pw_rpc_in_take(struct pw_rpc_in *in);

/* --- parsing ---------------------------------------------------------- */

/* Parse one message.  Returns a new reference or NULL with ERR (message
 * with the position).  Integers too large for 64 bits are read as reals
 * rather than refused (the raw id keeps their exact text). */
json_t *pw_rpc_parse(const char *text, size_t len, struct pw_error *err);

/* The most messages a batch may hold. */
#define PW_RPC_MAX_BATCH 1024

/* One input line or body, parsed: what the MCP layer needs of its text
 * (made by pw_rpc_msg_parse, on the loop or in the parse worker). */
struct pw_rpc_msg {
    bool blank;          /* only white space: ignored */
    json_t *v;           /* owned: the message; NULL: blank, or ERR */
    struct pw_error err; /* why the text is not JSON */
    char *id;            /* owned: an object's "id" as written, or NULL */
    size_t n;            /* an array's elements */
    char **ids;          /* owned: for an array of 1 to PW_RPC_MAX_BATCH
                          * elements, each one's "id" as written (NULL) */
};

/* Parse TEXT[0..LEN) into M (pure: jansson and the C library only). */
void pw_rpc_msg_parse(struct pw_rpc_msg *m, const char *text, size_t len);
void pw_rpc_msg_clear(struct pw_rpc_msg *m);

/* True if ID (borrowed) may be a request's id: a string or a whole
 * number (an integer, or a real without a fractional part: an integer
 * past 64 bits as pw_rpc_parse reads it).  A fraction, an object, an
 * array, null or a boolean is not one (-32600 with a null id). */
bool pw_rpc_id_ok(const json_t *id);

/* The raw JSON text of the "id" member of the object TEXT[0..LEN) (owned),
 * or NULL when there is none.  TEXT must be valid JSON. */
char *pw_rpc_raw_id(const char *text, size_t len);

/* Split a JSON array TEXT (valid JSON) into its elements' byte ranges:
 * fills up to MAX (start, len) pairs and returns the element count. */
size_t pw_rpc_split_array(const char *text, size_t len, size_t *starts,
                          size_t *lens, size_t max);

/* --- building --------------------------------------------------------- */

/* The reply line texts (owned, without "\n").  ID_RAW is raw JSON text or
 * NULL for null.  RESULT / DATA are borrowed and may be NULL. */
char *pw_rpc_result_new(const char *id_raw, json_t *result);
/* The same as a reply of segments (core/reply.h: long strings and files'
 * blobs read as it is sent), owned; NULL if it cannot be built. */
struct pw_reply;
struct pw_reply *pw_rpc_result_reply(const char *id_raw, json_t *result);
char *pw_rpc_error_new(const char *id_raw, int code, const char *message,
                       json_t *data);
/* A notification line (owned).  PARAMS is borrowed, may be NULL. */
char *pw_rpc_notification_new(const char *method, json_t *params);

/* --- output ----------------------------------------------------------- */

struct pw_rpc_out {
    int fd;
    struct pw_reply *q; /* owned: everything not yet written */
    char *stage;        /* owned: bytes read from Q, from OFF to LEN */
    size_t len, off;
    bool broken; /* the peer went away: output is dropped */
};

void pw_rpc_out_init(struct pw_rpc_out *out, int fd);
void pw_rpc_out_free(struct pw_rpc_out *out);
/* Queue LINE and a newline. */
void pw_rpc_out_queue(struct pw_rpc_out *out, const char *line);
/* Queue the reply R (taken) and a newline. */
void pw_rpc_out_queue_reply(struct pw_rpc_out *out, struct pw_reply *r);
/* Write as much as the fd takes without blocking, and at most a few
 * chunks of 64 KiB (a large reply goes on at the loop's next turn). */
void pw_rpc_out_flush(struct pw_rpc_out *out);
/* Bytes queued in memory (a file of a reply is not in memory). */
size_t pw_rpc_out_pending(const struct pw_rpc_out *out);
/* True while anything is left to write. */
bool pw_rpc_out_busy(const struct pw_rpc_out *out);
