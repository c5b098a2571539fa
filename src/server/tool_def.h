/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * tool_def.h - a tool's tools/list entry (tool_def.c), for the server's
 * tools (tools_schema.c) and the session tools (session_tool.c).
 */
#pragma once

#include <jansson.h>

/* A tool as tools/list shows it; INPUT and OUTPUT are its schemas as
 * JSON text. */
struct pw_tool_def {
    const char *name;
    const char *title;
    const char *description;
    const char *input;
    const char *output;
};

/* New reference: D's tools/list entry with the schemas IN and OUT (both
 * stolen, also when it fails), or NULL if either is NULL. */
json_t *pw_tool_def_json(const struct pw_tool_def *d, json_t *in, json_t *out);
