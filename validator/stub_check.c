/* Placeholder until `pyward check` and `pyward rules` land (validator). */
#include "config.h"

#include <stdio.h>

#include "commands.h"

int
pw_cmd_check(int argc, char **argv)
{
    fprintf(stderr, "pyward: check: not built yet\n");
    return 2;
}

int
pw_cmd_rules(int argc, char **argv)
{
    fprintf(stderr, "pyward: rules: not built yet\n");
    return 2;
}
