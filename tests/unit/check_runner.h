/* The one main() body every unit-test program shares: run the suite, exit
 * non-zero if anything failed. */
#ifndef IG_CHECK_RUNNER_H
#define IG_CHECK_RUNNER_H

#include <check.h>
#include <stdlib.h>

/* check's ck_assert macros report every passing assertion to the parent
 * process; loops over thousands of cases assert only on failure. */
#define REQUIRE(cond, ...)                \
    do {                                  \
        if (!(cond))                      \
            ck_abort_msg(__VA_ARGS__);    \
    } while (0)
#define REQUIRE_EQ(a, b) REQUIRE((a) == (b), "%s == %s: %d != %d", #a, #b, (int)(a), (int)(b))

static inline int ig_run_suite(Suite *suite)
{
    SRunner *sr = srunner_create(suite);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}

#endif
