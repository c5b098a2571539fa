/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_sessions.c - the session registry with two owners (what stdio,
 * with its one client, cannot show): another owner's handle is answered
 * exactly as an unknown one, cannot be closed, is not listed, and the
 * per-owner limit counts each owner apart; handles are new each time;
 * sessions made and ended are counted by reason.
 * Sessions are real ones, on a zygote of this test.
 */
#include "config.h"

#include <check.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/py.h"
#include "core/rules.h"
#include "core/util.h"
#include "sandbox/sandbox.h"
#include "sandbox/session/session.h"
#include "server/sessions.h"

static struct pw_profiles *profiles;
static struct pw_zygote *zygote;
static struct pw_importset imports;
static char tmp_root[] = "/tmp/pyward-check-sessions.XXXXXX";

static void
setup(void)
{
    struct pw_error err = {0};
    ck_assert_msg(pw_zygote_adopt(zygote, &err) == 0, "%s", err.message);
}

/* Step RUN to its end. */
static void
wait_run(struct pw_sbx_run *run)
{
    struct pollfd fds[8];
    for (;;) {
        int n = pw_sbx_pollfds(run, fds, 8);
        ck_assert_int_ge(poll(fds, (nfds_t)n, 100), 0);
        if (pw_sbx_step(run, fds, n)) {
            return;
        }
    }
}

/* A ready session (its empty first call done). */
static struct pw_sbx_session *
new_sbx(void)
{
    struct pw_error err = {0};
    struct pw_sbx_request req = {.code = "",
                                 .limits = {.timeout_s = 10},
                                 .imports = &imports,
                                 .caps = 0,
                                 .capture_output = true};
    struct pw_sbx_run *first = NULL;
    struct pw_sbx_session *s =
        pw_sbx_session_new(zygote, &req, 60, &first, &err);
    ck_assert_msg(s != NULL, "%s", err.message);
    wait_run(first);
    pw_sbx_free(first);
    ck_assert_ptr_null(pw_sbx_session_ended(s));
    return s;
}

static struct pw_sessions *
registry(int per_owner)
{
    struct pw_session_limits lim = {600, 3600, 8, per_owner};
    struct pw_error err = {0};
    struct pw_sessions *ss = pw_sessions_new(&lim, "unit", &err);
    ck_assert_msg(ss != NULL, "%s", err.message);
    return ss;
}

START_TEST(foreign_handle_is_unknown)
{
    struct pw_sessions *ss = registry(4);
    struct pw_session *mine = pw_sessions_add(ss, "alice", new_sbx());
    char id[PW_SESSION_ID_MAX];
    snprintf(id, sizeof(id), "%s", mine->id);
    struct pw_error foreign = {0}, unknown = {0}, err = {0};
    ck_assert_ptr_null(pw_sessions_get(ss, "bob", id, &foreign));
    char made_up[PW_SESSION_ID_MAX];
    snprintf(made_up, sizeof(made_up), "ps-unit-%032d", 0);
    ck_assert_ptr_null(pw_sessions_get(ss, "bob", made_up, &unknown));
    ck_assert_str_eq(foreign.message, unknown.message);
    /* Bob cannot close it either, and the error says nothing more. */
    struct pw_error close_err = {0};
    ck_assert_int_eq(pw_sessions_close(ss, "bob", id, &close_err), -1);
    ck_assert_str_eq(close_err.message, unknown.message);
    ck_assert_ptr_eq(pw_sessions_get(ss, "alice", id, &err), mine);
    pw_sessions_free(ss);
}
END_TEST

START_TEST(ended_reason_only_to_owner)
{
    struct pw_sessions *ss = registry(4);
    struct pw_session *s = pw_sessions_add(ss, "alice", new_sbx());
    char id[PW_SESSION_ID_MAX];
    snprintf(id, sizeof(id), "%s", s->id);
    struct pw_error err = {0}, bob = {0}, alice = {0};
    ck_assert_int_eq(pw_sessions_close(ss, "alice", id, &err), 0);
    ck_assert_ptr_null(pw_sessions_get(ss, "alice", id, &alice));
    ck_assert_msg(strstr(alice.message, "session ended: closed") != NULL, "%s",
                  alice.message);
    ck_assert_ptr_null(pw_sessions_get(ss, "bob", id, &bob));
    ck_assert_msg(strncmp(bob.message, "unknown session", 15) == 0, "%s",
                  bob.message);
    pw_sessions_free(ss);
}
END_TEST

START_TEST(list_and_limits_per_owner)
{
    struct pw_sessions *ss = registry(1);
    struct pw_error err = {0};
    ck_assert_int_eq(pw_sessions_room(ss, "alice", &err), 0);
    struct pw_session *a = pw_sessions_add(ss, "alice", new_sbx());
    ck_assert_int_eq(pw_sessions_room(ss, "alice", &err), -1);
    ck_assert_msg(strstr(err.message, "too many sessions") != NULL, "%s",
                  err.message);
    ck_assert_int_eq(pw_sessions_room(ss, "bob", &err), 0);
    struct pw_session *b = pw_sessions_add(ss, "bob", new_sbx());
    ck_assert_str_ne(a->id, b->id);
    ck_assert_int_eq(strlen(a->id), strlen("ps-unit-") + 32);
    json_t *la = pw_sessions_list(ss, "alice");
    ck_assert_int_eq(json_array_size(la), 1);
    ck_assert_str_eq(json_string_value(
                         json_object_get(json_array_get(la, 0), "session_id")),
                     a->id);
    json_decref(la);
    json_t *lc = pw_sessions_list(ss, "carol");
    ck_assert_int_eq(json_array_size(lc), 0);
    json_decref(lc);
    ck_assert_int_eq(pw_sessions_count(ss), 2);
    pw_sessions_free(ss);
}
END_TEST

/* The counts /metrics shows: made, and ended by reason. */
START_TEST(ends_counted_by_reason)
{
    struct pw_sessions *ss = registry(4);
    struct pw_error err = {0};
    struct pw_session *c = pw_sessions_add(ss, "alice", new_sbx());
    ck_assert_int_eq(pw_sessions_close(ss, "alice", c->id, &err), 0);
    struct pw_session *idle = pw_sessions_add(ss, "alice", new_sbx());
    idle->ttl_s = 1;
    (void)pw_sessions_add(ss, "alice", new_sbx());
    (void)pw_sessions_tick(ss, pw_now() + 2); /* the first idle past 1 s */
    const struct pw_sessions_stats *st = pw_sessions_stats(ss);
    ck_assert_int_eq(st->created, 3);
    ck_assert_int_eq(st->ended[PW_SESSION_CLOSED], 1);
    ck_assert_int_eq(st->ended[PW_SESSION_IDLE], 1);
    ck_assert_int_eq(pw_sessions_count(ss), 1);
    (void)pw_sessions_tick(ss, pw_now() + 4000); /* past its lifetime */
    ck_assert_int_eq(st->ended[PW_SESSION_LIFETIME], 1);
    ck_assert_int_eq(pw_sessions_count(ss), 0);
    ck_assert_str_eq(pw_session_end_name(PW_SESSION_IDLE), "idle");
    pw_sessions_free(ss);
}
END_TEST

static int
rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    (void)sb;
    (void)ftw;
    (void)(flag == FTW_DP ? rmdir(path) : unlink(path));
    return 0;
}

int
main(void)
{
    struct pw_error err = {0};
    PW_AUTOFREE char *rules = pw_rules_dir(NULL);
    profiles = pw_profiles_load(rules, &err);
    if (profiles == NULL || pw_py_init(&err) < 0) {
        fprintf(stderr, "setup: %s\n", err.message);
        return 1;
    }
    imports.profiles = profiles;
    imports.mask = pw_profiles_default_mask(profiles);
    Suite *s = suite_create("sessions");
    TCase *tc = tcase_create("registry");
    tcase_set_timeout(tc, 60);
    tcase_add_checked_fixture(tc, setup, NULL);
    tcase_add_test(tc, foreign_handle_is_unknown);
    tcase_add_test(tc, ended_reason_only_to_owner);
    tcase_add_test(tc, list_and_limits_per_owner);
    tcase_add_test(tc, ends_counted_by_reason);
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    const char *tap = getenv("CK_TAP_LOG_FILE_NAME");
    char *tap_name = tap != NULL ? strdup(tap) : NULL;
    if (tap_name != NULL) {
        srunner_set_tap(sr, tap_name);
    }
    if (mkdtemp(tmp_root) == NULL || chmod(tmp_root, 0755) < 0 ||
        setenv("TMPDIR", tmp_root, 1) < 0) {
        perror(tmp_root);
        return 1;
    }
    setenv("PYWARD_SPARES", "0", 1);
    zygote = pw_zygote_new(profiles, imports.mask, &err);
    if (zygote == NULL) {
        fprintf(stderr, "zygote: %s\n", err.message);
        return 1;
    }
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    free(tap_name);
    pw_zygote_free(zygote);
    (void)nftw(tmp_root, rm_entry, 8, FTW_DEPTH | FTW_PHYS);
    pw_profiles_free(profiles);
    return failed == 0 ? 0 : 1;
}
