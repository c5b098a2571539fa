/*
 * SPDX-License-Identifier: Apache-2.0
 *
 * check_pep440.c - PEP 440 version specifiers (validator/pep440.c), the
 * PEP 723 checks' comparison: a table whose answers are those of the
 * "packaging" library (SpecifierSet.contains with pre-releases allowed,
 * as for an installed version), and the malformed clauses.  One TAP point
 * a case of the table.
 */
#include "config.h"

#include <check.h>
#include <stdlib.h>

#include "core/pyward.h"
#include "validator/pep440.h"

static const struct {
    const char *version;
    const char *spec;
    int want;
} cases[] = {
    {"0.9.0", ">=1", 0},
    {"0.9.0", ">=0.9", 1},
    {"0.9.0", "==0.9", 1},
    {"0.9.0", "==0.9.*", 1},
    {"0.9.0", "==0.*", 1},
    {"0.9.0", "!=0.9.*", 0},
    {"1.4.2", "~=1.4", 1},
    {"1.4.2", "~=1.4.3", 0},
    {"1.4.2", "~=1.3", 1},
    {"2.0.0", "~=1.4", 0},
    {"1.4.2", "~=1.4.0", 1},
    {"1.5.0", "~=1.4.0", 0},
    {"2.0", ">=2,<3", 1},
    {"3.0", ">=2,<3", 0},
    {"2.0rc1", ">=2", 0},
    {"2.0rc1", "<2", 0},
    {"2.0rc1", ">=2.0b1", 1},
    {"2.0.dev1", "<2.0a1", 1},
    {"2.0a1", ">2.0.dev5", 1},
    {"2.0.post1", ">2", 0},
    {"2.0.post1", ">=2", 1},
    {"2.0.post1", ">2.0.post0", 1},
    {"1.0+ubuntu1", "==1.0", 1},
    {"1.0+ubuntu1", "==1.0+ubuntu1", 1},
    {"1.0", "==1.0+ubuntu1", 0},
    {"1.0+local", "<=1.0", 1},
    {"1!1.0", ">=2.0", 1},
    {"1.0", "==1.0.0", 1},
    {"1.0.0.0", "==1", 1},
    {"1.10", ">1.9", 1},
    {"1.10", "<1.9", 0},
    {"1.0", "!=1.0", 0},
    {"1.0", "===1.0", 1},
    {"1.0", "===1.0.0", 0},
    {"2.1", ">2", 1},
    {"2.0.1", ">2", 1},
    {"1.0a1", "==1.0a1", 1},
    {"1.0alpha1", "==1.0a1", 1},
    {"1.0-1", "==1.0.post1", 1},
    {"1.0", "", 1},
    {"1.0", " >= 0.5 , < 2 ", 1},
    {"1.0", ">=x", -1},
    {"1.0", "~=1", -1},
    {"1.0", ">=1.*", -1},
    {"1.0", "=>1.0", -1},
    {"1.0", ">=1.0+local", -1},
    {"abc", ">=1", -1},
};

START_TEST(table)
{
    char why[200] = "";
    int got = pw_pep440_satisfies(cases[_i].version, cases[_i].spec, why,
                                  sizeof(why));
    ck_assert_msg(got == cases[_i].want, "'%s' against '%s': %d, want %d (%s)",
                  cases[_i].version, cases[_i].spec, got, cases[_i].want, why);
    if (got < 0) {
        ck_assert_msg(why[0] != '\0', "no reason given");
    }
}
END_TEST

int
main(void)
{
    Suite *s = suite_create("pep440");
    TCase *tc = tcase_create("specifiers");
    tcase_add_loop_test(tc, table, 0, (int)PW_N_ELEMENTS(cases));
    suite_add_tcase(s, tc);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
