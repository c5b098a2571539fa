/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * main.c - pyward: run untrusted Python safely.  Subcommand dispatch.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>

#include "cli/cmd.h"
#include "core/json.h"

static const struct command {
    const char *name;
    int (*fn)(int argc, char **argv);
    const char *summary;
} commands[] = {
    {"serve", pw_cmd_serve, "MCP server over stdio (execute_code, ...)"},
    {"check", pw_cmd_check, "validate files without running them (lint)"},
    {"run", pw_cmd_run, "run one program in the sandbox"},
    {"judge", pw_cmd_judge, "grade a program on a suite of tests"},
    {"rules", pw_cmd_rules, "list the rules, or explain one"},
    {"doctor", pw_cmd_doctor, "report which isolation layers work here"},
    {"packages", pw_cmd_packages, "install, list, remove package sets"},
};

static void
usage(FILE *out)
{
    fprintf(out, "usage: pyward COMMAND [OPTIONS] [ARGS]\n\ncommands:\n");
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        fprintf(out, "  %-8s %s\n", commands[i].name, commands[i].summary);
    }
    fprintf(out, "\nRun 'pyward COMMAND --help' for a command's options.\n");
}

int
main(int argc, char **argv)
{
    pw_json_init();
    if (argc < 2) {
        usage(stderr);
        return 2;
    }
    const char *cmd = argv[1];
    if (strcmp(cmd, "--help") == 0 || strcmp(cmd, "-h") == 0 ||
        strcmp(cmd, "help") == 0) {
        usage(stdout);
        return 0;
    }
    if (strcmp(cmd, "--version") == 0 || strcmp(cmd, "-V") == 0) {
        printf("pyward %s\n", PACKAGE_VERSION);
        return 0;
    }
    for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
        if (strcmp(cmd, commands[i].name) == 0) {
            return commands[i].fn(argc - 1, argv + 1);
        }
    }
    fprintf(stderr, "pyward: unknown command '%s'\n\n", cmd);
    usage(stderr);
    return 2;
}
