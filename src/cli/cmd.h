/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * cmd.h - the subcommands dispatched by main.c.  Each returns the
 * process exit status: 0 success/clean, 1 findings or a failed program,
 * 2 usage or internal error.
 */
#pragma once

int pw_cmd_check(int argc, char **argv);
int pw_cmd_rules(int argc, char **argv);
int pw_cmd_run(int argc, char **argv);
int pw_cmd_doctor(int argc, char **argv);
int pw_cmd_serve(int argc, char **argv);
int pw_cmd_judge(int argc, char **argv);
int pw_cmd_packages(int argc, char **argv);
