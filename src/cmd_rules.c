#include "config.h"
#include "commands.h"
int
pw_cmd_rules(int argc, char **argv)
{
    (void)argc;
    (void)argv;
    return 2;
}
