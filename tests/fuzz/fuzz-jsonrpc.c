/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * fuzz-jsonrpc.c - the JSON-RPC reader and the MCP dispatcher.
 *
 * The input is the byte stream a client writes to `pyward serve`: it is
 * read through the line reader (from a memory file) and every line goes
 * to the method table of a fresh server with the real tools, rules and
 * profiles.  No zygote is started: execute_code calls are checked,
 * validated and queued, then dropped unrun when the server is freed, so
 * the fuzzer never forks.  Replies go to /dev/null.
 */
#include "config.h"

#include <fcntl.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

#include "fuzz.h"
#include "server/rpc.h"
#include "server/mcp.h"
#include "core/profiles.h"
#include "server/server.h"
#include "server/conf.h"
#include "server/tools.h"
#include "core/util.h"
#include "validator/validator.h"

static struct pw_conf cfg;
static struct pw_tools tools;
static int null_fd = -1;
static int mem_fd = -1;

/* The tools of a `pyward serve` with the default flags, minus the zygote. */
static void
tools_setup(void)
{
    struct pw_error err = {0};
    char *args[] = {"serve", NULL};
    if (pw_conf_load(&cfg, 1, args, &err) != 0) {
        pw_fuzz_die("config", err.message);
    }
    struct pw_profiles *profiles = pw_profiles_load(pw_fuzz_rules_dir(), &err);
    if (profiles == NULL ||
        pw_conf_profile_mask(&cfg, profiles, &tools.enabled, &err) < 0) {
        pw_fuzz_die("profiles", err.message);
    }
    tools.cfg = &cfg;
    tools.profiles = profiles;
    tools.rules_name = "default";
    tools.rules = pw_ruleset_load(pw_fuzz_rules_dir(), "default", &err);
    if (tools.rules == NULL) {
        pw_fuzz_die("rules", err.message);
    }
    (void)snprintf(tools.zygote_error, sizeof(tools.zygote_error),
                   "not started by the fuzzer");
    if (pw_tools_init(&tools, &err) < 0) {
        pw_fuzz_die("tools", err.message);
    }
}

int
LLVMFuzzerInitialize(int *argc, char ***argv)
{
    pw_fuzz_init_python();
    tools_setup();
    null_fd = open("/dev/null", O_WRONLY | O_CLOEXEC | O_NONBLOCK);
    mem_fd = memfd_create("fuzz-jsonrpc", MFD_CLOEXEC);
    if (null_fd < 0 || mem_fd < 0) {
        pw_fuzz_die("fds", "cannot open /dev/null or a memory file");
    }
    return 0;
}

/* Put DATA in the memory file and rewind it. */
static void
load_input(const uint8_t *data, size_t size)
{
    if (ftruncate(mem_fd, 0) < 0 || pw_write_all(mem_fd, data, size) < 0 ||
        lseek(mem_fd, 0, SEEK_SET) < 0) {
        pw_fuzz_die("memory file", "cannot write the input");
    }
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    load_input(data, size);
    struct pw_server *srv = pw_server_new(null_fd, &tools, 2);
    struct pw_mcp mcp;
    struct pw_rpc_in in;
    pw_mcp_init(&mcp, srv, &tools);
    pw_rpc_in_init(&in);
    while (pw_rpc_in_read(&in, mem_fd, pw_mcp_handle_line, &mcp) == 0) {
    }
    pw_rpc_in_free(&in);
    pw_server_free(srv);
    tools.runs = 0;
    return 0;
}
