/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * tools_schema.c - the tools/list entries: descriptions, inputSchema and
 * outputSchema of each tool, as JSON text.
 *
 * Defines pw_tools_exists and pw_tools_list_json (the other pw_tools_* are
 * in tools.c).
 */
#include "config.h"

#include <string.h>

#include "server/session_tool.h"
#include "server/tools.h"

#define S(...) #__VA_ARGS__

static const char execute_input[] = S({
    "type" : "object",
    "properties" : {
        "code" : {
            "type" : "string",
            "description" :
                "Python source; files under output/ and plt.show() come back"
        },
        "timeout" : {
            "type" : "number",
            "exclusiveMinimum" : 0,
            "description" : "seconds of wall clock, at most the server maximum"
        },
        "stdin" : {
            "type" : "string",
            "description" : "the program's stdin (a session's call too)"
        },
        "files" : {
            "type" : "array",
            "maxItems" : 64,
            "description" : "input files for a fresh run's workspace",
            "items" : {
                "type" : "object",
                "properties" : {
                    "path" : {
                        "type" : "string",
                        "description" : "a plain file name"
                    },
                    "content" : {"type" : "string"},
                    "content_base64" : {"type" : "string"}
                },
                "required" : ["path"],
                "additionalProperties" : false
            }
        },
        "profile" : {
            "description" : "capability profile name(s), e.g. basic",
            "anyOf" : [
                {"type" : "string"},
                {"type" : "array", "items" : {"type" : "string"}}
            ]
        },
        "allowed_imports" : {
            "type" : "array",
            "items" : {"type" : "string"},
            "description" : "narrow the importable modules to these"
        },
        "memory_limit" : {
            "type" : [ "string", "integer" ],
            "description" : "bytes, or a size such as \"256m\" or \"1g\""
        },
        "capture_output" : {
            "type" : "boolean",
            "default" : true,
            "description" : "false: stdout and stderr come back empty"
        },
        "session_id" : {
            "type" : "string",
            "description" : "a session (create_session) to run in",
            "x-mcp-header" : "Session-Id"
        },
        "dependencies" : {
            "type" : "array",
            "items" : {"type" : "string"},
            "description" : "PEP 508 requirements: each names a profile"
        },
        "use_container" : {
            "type" : "boolean",
            "default" : false,
            "description" :
                "require namespaces as a container has (doc/MCP.md)"
        }
    },
    "required" : ["code"],
    "additionalProperties" : false
});

static const char validate_input[] = S({
    "type" : "object",
    "properties" : {
        "code" : {"type" : "string", "description" : "Python source"},
        "profile" : {
            "anyOf" : [
                {"type" : "string"},
                {"type" : "array", "items" : {"type" : "string"}}
            ]
        },
        "allowed_imports" : {"type" : "array", "items" : {"type" : "string"}},
        "dependencies" : {"type" : "array", "items" : {"type" : "string"}}
    },
    "required" : ["code"],
    "additionalProperties" : false
});

static const char info_input[] =
    S({"type" : "object", "properties" : {}, "additionalProperties" : false});

/* A diagnostic list as validate_code and a rejected run report it. */
#define VALIDATION_SCHEMA                                                     \
    S({                                                                       \
        "type" : "object",                                                    \
        "properties" : {                                                      \
            "valid" : {"type" : "boolean"},                                   \
            "errors" : {                                                      \
                "type" : "array",                                             \
                "description" : "\"Line L: message (code)\" per finding",     \
                "items" : {"type" : "string"}                                 \
            },                                                                \
            "findings" : {                                                    \
                "type" : "array",                                             \
                "items" : {                                                   \
                    "type" : "object",                                        \
                    "properties" : {                                          \
                        "code" : {"type" : "string"},                         \
                        "rule" : {"type" : "string"},                         \
                        "line" : {"type" : "integer"},                        \
                        "column" : {"type" : "integer"},                      \
                        "end_line" : {"type" : "integer"},                    \
                        "end_column" : {"type" : "integer"},                  \
                        "message" : {"type" : "string"}                       \
                    },                                                        \
                    "required" : [ "code", "line", "column", "message" ]      \
                }                                                             \
            },                                                                \
            "message" : {"type" : "string"}                                   \
        },                                                                    \
        "required" : [ "valid", "errors", "findings", "message" ]             \
    })

static const char execute_output[] = S({
    "type" : "object",
    "properties" : {
        "success" : {"type" : "boolean"},
        "execution_id" : {"type" : "string"},
        "status" : {
            "type" : "string",
            "enum" : [
                "ok", "error", "timeout", "memory_limit", "output_limit",
                "rejected", "killed", "internal_error"
            ]
        },
        "result" :
            {"description" : "JSON value of 'result' or a final expression"},
        "result_repr" : {"type" : [ "string", "null" ]},
        "result_markdown" : {
            "type" : "string",
            "description" : "a final expression's table or _repr_markdown_"
        },
        "stdout" : {"type" : "string"},
        "stderr" : {"type" : "string"},
        "stdout_truncated" : {"type" : "boolean"},
        "stderr_truncated" : {"type" : "boolean"},
        "execution_time" : {"type" : "number"},
        "cpu_time" : {"type" : "number"},
        "max_rss_kb" : {"type" : "integer"},
        "exit_code" : {"type" : [ "integer", "null" ]},
        "signal" : {"type" : [ "integer", "string", "null" ]},
        "variables" : {"type" : "array", "items" : {"type" : "string"}},
        "variable_details" : {"type" : "object"},
        "error" : {
            "type" : [ "string", "null" ],
            "description" : "\"Type: message\" on failure"
        },
        "traceback" : {"type" : "string"},
        "error_details" : {
            "type" : "object",
            "properties" : {
                "type" : {"type" : "string"},
                "message" : {"type" : "string"},
                "line" : {"type" : [ "integer", "null" ]},
                "traceback" : {"type" : "string"}
            }
        },
        "isolation" : {
            "type" : "object",
            "properties" : {
                "use_container" : {"type" : "boolean"},
                "container_equivalent" : {"type" : "boolean"},
                "summary" : {"type" : "string"},
                "layers" : {"type" : "array", "items" : {"type" : "string"}}
            }
        },
        "blocked" : {
            "type" : "object",
            "description" : "what stopped the program, and who says so",
            "properties" : {
                "kind" : {"type" : "string", "enum" : [ "syscall", "audit" ]},
                "name" : {"type" : "string"},
                "source" :
                    {"type" : "string", "enum" : [ "observed", "program" ]}
            }
        },
        "program_reported" : {
            "type" : "array",
            "items" : {"type" : "string"},
            "description" : "fields the program reported (it can forge them)"
        },
        "validation" : "@VALIDATION@",
        "files" : {
            "type" : "array",
            "description" : "files written to output/, bytes as content",
            "items" : {
                "type" : "object",
                "properties" : {
                    "name" : {"type" : "string"},
                    "mime_type" : {"type" : "string"},
                    "size" : {"type" : "integer"},
                    "sent" : {"type" : "boolean"},
                    "reason" : {"type" : "string"}
                },
                "required" : [ "name", "mime_type", "size", "sent" ]
            }
        },
        "files_omitted" : {"type" : "integer"},
        "timeout_interrupt" : {
            "type" : "string",
            "enum" : [ "interrupted", "killed" ],
            "description" :
                "a session call at its limit: interrupted or killed"
        }
    },
    "required" : [
        "success", "execution_id", "status", "result", "stdout", "stderr",
        "execution_time", "variables"
    ]
});

static const char validate_output[] = S({
    "type" : "object",
    "properties" : {
        "validation" : "@VALIDATION@",
        "analysis" : {
            "type" : "object",
            "properties" : {
                "line_count" : {"type" : "integer"},
                "character_count" : {"type" : "integer"},
                "node_count" : {"type" : "integer"},
                "max_depth" : {"type" : "integer"},
                "estimated_complexity" :
                    {"type" : "string", "enum" : [ "low", "medium", "high" ]},
                "cyclomatic_complexity" : {"type" : "integer"}
            },
            "required" : [
                "line_count", "character_count", "node_count", "max_depth",
                "estimated_complexity", "cyclomatic_complexity"
            ]
        },
        "recommendations" : {"type" : "array", "items" : {"type" : "string"}}
    },
    "required" : [ "validation", "analysis", "recommendations" ]
});

static const char info_output[] = S({
    "type" : "object",
    "properties" : {
        "version" : {"type" : "string"},
        "python_version" : {"type" : "string"},
        "rules" : {"type" : "string"},
        "profiles" : {
            "type" : "array",
            "items" : {
                "type" : "object",
                "properties" : {
                    "name" : {"type" : "string"},
                    "summary" : {"type" : "string"},
                    "default" : {"type" : "boolean"},
                    "modules" :
                        {"type" : "array", "items" : {"type" : "string"}},
                    "allows" :
                        {"type" : "array", "items" : {"type" : "string"}}
                },
                "required" : [ "name", "modules" ]
            }
        },
        "limits" : {
            "type" : "object",
            "properties" : {
                "timeout" : {"type" : "object"},
                "memory_bytes" : {"type" : "object"},
                "max_output_bytes" : {"type" : "integer"},
                "max_code_bytes" : {"type" : "integer"},
                "max_concurrency" : {"type" : "integer"}
            }
        },
        "sandbox_available" : {"type" : "boolean"},
        "validator_available" : {"type" : "boolean"},
        "isolation" : {"type" : "object"},
        "success" : {"type" : "boolean"},
        "security_profiles" : {
            "type" : "object",
            "additionalProperties" : {
                "type" : "object",
                "properties" : {
                    "enabled" : {"type" : "boolean"},
                    "modules" :
                        {"type" : "array", "items" : {"type" : "string"}}
                },
                "required" : [ "enabled", "modules" ]
            }
        },
        "resource_limits" : {
            "type" : "object",
            "properties" : {
                "timeout" : {"type" : "number"},
                "max_output_size" : {"type" : "integer"},
                "memory_limit" : {"type" : "string"}
            },
            "required" : [ "timeout", "max_output_size", "memory_limit" ]
        },
        "container_mode" : {
            "type" : "object",
            "properties" : {
                "available" : {"type" : "boolean"},
                "enabled" : {"type" : "boolean"},
                "image" : {"type" : [ "string", "null" ]},
                "image_used" : {"type" : "boolean"}
            },
            "required" : [ "available", "enabled" ]
        },
        "allowed_imports" : {
            "type" : "object",
            "properties" : {
                "only" : {"type" : [ "array", "null" ]},
                "added" : {"type" : [ "array", "null" ]}
            }
        }
    },
    "required" : [
        "success", "security_profiles", "resource_limits", "container_mode",
        "version", "python_version", "profiles", "limits", "isolation"
    ]
});

static const char grade_input[] = S({
    "type" : "object",
    "properties" : {
        "code" : {"type" : "string", "description" : "the program to grade"},
        "tests" : {
            "type" : "object",
            "description" :
                "tests, defaults, checker_code, isolation (doc/MCP.md)",
            "properties" : {
                "tests" : {
                    "type" : "array",
                    "minItems" : 1,
                    "items" : {
                        "type" : "object",
                        "properties" : {
                            "name" : {"type" : "string"},
                            "stdin" : {"type" : "string"},
                            "expected_stdout" : {"type" : "string"},
                            "checker" : {
                                "enum" : [
                                    "exact", "whitespace", "tokens", "float",
                                    "program"
                                ]
                            },
                            "tolerance" : {"type" : "number"},
                            "timeout" : {"type" : "number"},
                            "memory" : {"type" : [ "string", "integer" ]},
                            "points" : {"type" : "number"}
                        },
                        "additionalProperties" : false
                    }
                },
                "defaults" : {"type" : "object"},
                "checker_code" : {"type" : "string"},
                "isolation" : {"enum" : [ "batch", "process" ]}
            },
            "required" : ["tests"],
            "additionalProperties" : false
        },
        "profile" : {
            "anyOf" : [
                {"type" : "string"},
                {"type" : "array", "items" : {"type" : "string"}}
            ]
        },
        "allowed_imports" : {"type" : "array", "items" : {"type" : "string"}}
    },
    "required" : [ "code", "tests" ],
    "additionalProperties" : false
});

static const char grade_output[] = S({
    "type" : "object",
    "properties" : {
        "verdict" :
            {"enum" : [ "AC", "WA", "TLE", "MLE", "OLE", "RE", "CE", "IE" ]},
        "passed" : {"type" : "integer"},
        "total" : {"type" : "integer"},
        "fraction" : {"type" : "number"},
        "points" : {"type" : "number"},
        "max_points" : {"type" : "number"},
        "compile_errors" : {"type" : "array", "items" : {"type" : "string"}},
        "compile_errors_plain" :
            {"type" : "array", "items" : {"type" : "string"}},
        "tests" : {
            "type" : "array",
            "items" : {
                "type" : "object",
                "properties" : {
                    "name" : {"type" : "string"},
                    "verdict" : {"type" : "string"},
                    "time" : {"type" : [ "number", "null" ]},
                    "cpu_time" : {"type" : [ "number", "null" ]},
                    "memory_kb" : {"type" : [ "integer", "null" ]},
                    "points" : {"type" : "number"},
                    "max_points" : {"type" : "number"},
                    "stdout" : {"type" : "string"},
                    "stdout_truncated" : {"type" : "boolean"},
                    "stderr" : {"type" : "string"},
                    "diff" : {"type" : [ "string", "null" ]},
                    "message" : {"type" : [ "string", "null" ]},
                    "line" : {"type" : [ "integer", "null" ]},
                    "feedback" : {"type" : [ "string", "null" ]},
                    "got" : {"type" : "string"}
                },
                "required" : [ "name", "verdict", "points", "max_points" ]
            }
        }
    },
    "required" :
        [ "verdict", "passed", "total", "fraction", "points", "tests" ]
});

static const struct pw_tool_def tool_defs[] = {
    {"execute_code", "Run Python in the sandbox",
     "Validate, then run Python code in an isolated sandbox (seccomp, "
     "rlimits, namespaces, restricted builtins and imports). Returns stdout, "
     "stderr, the value of a final expression, the variables defined, and "
     "the error with a trimmed traceback. Files the program writes under "
     "output/ (e.g. df.to_csv('output/data.csv')) come back with the "
     "result, images as image content; with matplotlib (data_science "
     "profile), plt.show() and the figures still open at the end come back "
     "as PNG images, and savefig() takes a path under output/.",
     execute_input, execute_output},
    {"validate_code", "Check Python without running it",
     "Check Python code against the sandbox rules without running it. "
     "Returns each problem with its rule code and position, figures about "
     "the code, and hints for a learner.",
     validate_input, validate_output},
    {"get_sandbox_info", "Describe the sandbox",
     "Report the sandbox: versions, enabled profiles and their modules, "
     "limits, and which isolation layers are active on this host.",
     info_input, info_output},
    {"grade_code", "Grade a program on tests",
     "Judge a program on a suite of tests, as an online judge or Moodle "
     "CodeRunner does: each test's stdin is given to the program in the "
     "sandbox and its output compared with the expected output. Returns a "
     "verdict per test (AC accepted, WA wrong answer with a diff, TLE, MLE, "
     "OLE output limit, RE runtime error, CE rejected or syntax error, IE "
     "sandbox failure), the overall verdict (the first failing test's), "
     "passed, total, fraction and points. The tests run before the call "
     "returns.",
     grade_input, grade_output},
};

bool
pw_tools_exists(const struct pw_tools *t, const char *name)
{
    if (t->compat != PW_COMPAT_NONE) {
        return pw_compat_exists(t->compat, name);
    }
    for (size_t i = 0; i < PW_N_ELEMENTS(tool_defs); i++) {
        if (strcmp(tool_defs[i].name, name) == 0) {
            return true;
        }
    }
    return pw_session_tool_exists(name);
}

/* New reference: TEXT parsed, with "@VALIDATION@" replaced. */
static json_t *
schema_load(const char *text)
{
    static const char mark[] = "\"@VALIDATION@\"";
    static const char validation[] = VALIDATION_SCHEMA;
    const char *at = strstr(text, mark);
    if (at == NULL) {
        return json_loads(text, 0, NULL);
    }
    size_t head = (size_t)(at - text);
    size_t len = strlen(text) + sizeof(validation);
    char *buf = pw_xmalloc(len);
    snprintf(buf, len, "%.*s%s%s", (int)head, text, validation,
             at + sizeof(mark) - 1);
    json_t *schema = json_loads(buf, 0, NULL);
    free(buf);
    return schema;
}

bool
pw_tools_runs_code(const struct pw_tools *t, const char *name)
{
    return t->compat != PW_COMPAT_NONE
               ? pw_compat_runs(t->compat, name)
               : strcmp(name, "execute_code") == 0 ||
                     strcmp(name, "grade_code") == 0 ||
                     strcmp(name, "create_session") == 0;
}

bool
pw_tools_answered_later(const struct pw_tools *t, const char *name)
{
    return pw_tools_runs_code(t, name) ||
           pw_compat_validates(t->compat, name) ||
           (t->compat == PW_COMPAT_NONE &&
            (strcmp(name, "validate_code") == 0 ||
             strcmp(name, "fork_session") == 0 ||
             strcmp(name, "read_file") == 0 ||
             strcmp(name, "write_file") == 0));
}

json_t *
pw_tools_list_json(const struct pw_tools *t)
{
    if (t->compat != PW_COMPAT_NONE) {
        return pw_compat_tools_json(t->compat);
    }
    json_auto_t *tools = json_array();
    for (size_t i = 0; i < PW_N_ELEMENTS(tool_defs); i++) {
        const struct pw_tool_def *d = &tool_defs[i];
        json_t *tool =
            pw_tool_def_json(d, schema_load(d->input), schema_load(d->output));
        if (tool == NULL || json_array_append_new(tools, tool) < 0) {
            return NULL;
        }
    }
    if (pw_session_tools_list(tools) < 0) {
        return NULL;
    }
    return pw_steal(&tools);
}
