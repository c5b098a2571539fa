/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * tool_def.c - a tool's tools/list entry from its definition.
 */
#include "config.h"

#include "server/tool_def.h"

json_t *
pw_tool_def_json(const struct pw_tool_def *d, json_t *in, json_t *out)
{
    if (in == NULL || out == NULL) {
        json_decref(in);
        json_decref(out);
        return NULL;
    }
    /* "o" steals IN and OUT, also when the pack fails. */
    return json_pack("{s:s,s:s,s:s,s:o,s:o}", "name", d->name, "title",
                     d->title, "description", d->description, "inputSchema",
                     in, "outputSchema", out);
}
