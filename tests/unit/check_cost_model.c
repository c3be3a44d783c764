/* Unit tests: the range partition and the cost model (no MPI). */
#include "cost_model.h"
#include "range_partition.h"

#include "check_runner.h"

#include <check.h>
#include <stdlib.h>

/* Every source block has exactly one owner, ranges are contiguous and cover
 * all blocks, owner() inverts first(), and no destination owns more than
 * ceil(n_src / n_dst) blocks. */
START_TEST(ranges_partition_blocks)
{
    for (int n_src = 1; n_src <= 64; n_src++) {
        for (int n_dst = 1; n_dst <= 64; n_dst++) {
            REQUIRE_EQ(ig_range_first(n_src, n_dst, 0), 0);
            REQUIRE_EQ(ig_range_first(n_src, n_dst, n_dst), n_src);
            int most = (n_src + n_dst - 1) / n_dst;
            for (int d = 0; d < n_dst; d++) {
                int lo = ig_range_first(n_src, n_dst, d), hi = ig_range_first(n_src, n_dst, d + 1);
                REQUIRE(lo <= hi && hi - lo <= most, "n_src=%d n_dst=%d d=%d [%d,%d)", n_src, n_dst, d, lo, hi);
                for (int b = lo; b < hi; b++)
                    REQUIRE(ig_range_owner(n_src, n_dst, b) == d, "n_src=%d n_dst=%d block %d", n_src, n_dst, b);
            }
        }
    }
}
END_TEST

START_TEST(large_sizes_do_not_overflow)
{
    ck_assert_int_eq(ig_range_first(1 << 20, 1 << 20, (1 << 20) - 1), (1 << 20) - 1);
    ck_assert_int_eq(ig_range_owner(1 << 20, 3, (1 << 20) - 1), 2);
}
END_TEST

START_TEST(cost_model_matches_hand_values)
{
    ig_cost_params c = { 1.0, 0.0 }; /* count start-ups only */
    ck_assert(ig_ceil_log2(1) == 0 && ig_ceil_log2(2) == 1 && ig_ceil_log2(5) == 3 && ig_ceil_log2(8) == 3);
    ck_assert_double_eq(ig_cost_fc_half(4, 4, 1, &c), 3);  /* 1 + log 4 */
    ck_assert_double_eq(ig_cost_fc_half(2, 6, 1, &c), 5);  /* log 2 + 2 log(3+1) */
    c.ts = 0;
    c.tw = 1; /* bandwidth terms, k = 1 */
    ck_assert_double_eq(ig_cost_fc_half(4, 4, 1, &c), 4);          /* p k */
    ck_assert_double_eq(ig_cost_root_gathering(4, 4, 1, &c), 15); /* (4p - 1) k */
}
END_TEST

/* Both groups must choose alike: the decision is symmetric in (A, B). */
START_TEST(choice_is_symmetric)
{
    for (int na = 1; na <= 32; na++)
        for (int nb = 1; nb <= 32; nb++)
            for (double ka = 8; ka <= 8 << 20; ka *= 16)
                for (double kb = 8; kb <= 8 << 20; kb *= 64)
                    REQUIRE_EQ(ig_fd_preferred(na, ka, nb, kb, &ig_cost_default),
                                     ig_fd_preferred(nb, kb, na, ka, &ig_cost_default));
}
END_TEST

/* For large equal blocks the one-exchange algorithm beats two passes and
 * root gathering by a wide margin in the model. */
START_TEST(full_duplex_wins_for_large_blocks)
{
    const ig_cost_params *c = &ig_cost_default;
    double k = 4 << 20;
    ck_assert(ig_fd_preferred(8, k, 8, k, c));
    ck_assert(ig_cost_fd(8, k, 8, k, c) < 0.6 * ig_cost_two_halves(8, k, 8, k, c));
    ck_assert(ig_cost_fd(8, k, 8, k, c) < 0.5 * ig_cost_root_gathering_full(8, k, 8, k, c));
}
END_TEST

int main(void)
{
    Suite *s = suite_create("cost_model");
    TCase *tc = tcase_create("fd");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, ranges_partition_blocks);
    tcase_add_test(tc, large_sizes_do_not_overflow);
    tcase_add_test(tc, cost_model_matches_hand_values);
    tcase_add_test(tc, choice_is_symmetric);
    tcase_add_test(tc, full_duplex_wins_for_large_blocks);
    suite_add_tcase(s, tc);
    return ig_run_suite(s);
}
