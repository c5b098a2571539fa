/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * compat.h - the tool sets of other Python sandbox MCP servers
 * (`pyward serve --compat NAME`), mapped onto pyward's tools.
 */
#pragma once

#include <jansson.h>
#include <stdbool.h>

#include "core/pyward.h"

enum pw_compat {
    PW_COMPAT_NONE,         /* pyward's own tools */
    PW_COMPAT_EXEC_SANDBOX, /* mcp-python-exec-sandbox */
    PW_COMPAT_CODE_SANDBOX, /* code-sandbox-mcp */
    PW_COMPAT_BENTORUN,     /* bentorun */
};

/* *MODE for NAME (NULL: none).  0, or -1 for an unknown name. */
int pw_compat_parse(const char *name, enum pw_compat *mode);
/* The names --compat takes, for messages. */
const char *pw_compat_names(void);

/* New reference: the tools/list "tools" of MODE. */
json_t *pw_compat_tools_json(enum pw_compat mode);
/* True if MODE has a tool NAME; true if that tool runs code. */
bool pw_compat_exists(enum pw_compat mode, const char *name);
bool pw_compat_runs(enum pw_compat mode, const char *name);
/* True if MODE's tool NAME validates code (as validate_code does). */
bool pw_compat_validates(enum pw_compat mode, const char *name);

/* New reference: ARGS (borrowed) of TOOL as execute_code's or
 * validate_code's arguments, or NULL with ERR (PW_ERR_USAGE). */
json_t *pw_compat_args(enum pw_compat mode, const char *tool, json_t *args,
                       double max_timeout, struct pw_error *err);
/* RESULT (an execute_code CallToolResult, stolen) in MODE's layout; a
 * result without structured content (an argument error) is kept. */
json_t *pw_compat_result(enum pw_compat mode, json_t *result);

/* mcp-python-exec-sandbox's check_environment from get_sandbox_info's
 * INFO (borrowed). */
json_t *pw_compat_environment(const json_t *info);
/* Its validate_script from validate_code's RESULT (stolen), the script's
 * META (pw_script_meta_read, borrowed, may be NULL) and the DEPS argument
 * (borrowed, may be NULL). */
json_t *pw_compat_validation(json_t *result, json_t *meta, json_t *deps);
