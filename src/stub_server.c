/* Placeholder until `pyward serve` lands (issue: MCP server). */
#include "config.h"

#include <stdio.h>

#include "commands.h"

int
pw_cmd_serve(int argc, char **argv)
{
    fprintf(stderr, "pyward: serve: not built yet\n");
    return 2;
}
