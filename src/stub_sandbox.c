/* Placeholder until `pyward run` and `pyward doctor` land (executor). */
#include "config.h"

#include <stdio.h>

#include "commands.h"

int
pw_cmd_run(int argc, char **argv)
{
    fprintf(stderr, "pyward: run: not built yet\n");
    return 2;
}

int
pw_cmd_doctor(int argc, char **argv)
{
    fprintf(stderr, "pyward: doctor: not built yet\n");
    return 2;
}
