/*
 * Unit tests: the star plan (star_plan.h) executed symbolically for every
 * 1 <= p < q <= 96.  Round 1 delivers what the senders send, round 2 what
 * the team members send on, each only from what a member already holds;
 * every receive the plan names must meet the send that feeds it, and every
 * receiver must end with each block exactly once.
 */
#include "star_plan.h"

#include "check_runner.h"

#include <check.h>
#include <string.h>

#define MAX_Q 96

static unsigned char held[MAX_Q][MAX_Q]; /* held[receiver][block] */

static void round_one(int p, int q)
{
    int s = ig_star_teams(p, q);
    for (int i = 0; i < p; i++)
        for (int n = 0; n < s; n++) {
            int to = ig_star_sender_target(p, q, i, n), from_sender = 0;
            REQUIRE(to >= 0 && to < s * p, "p=%d q=%d sender %d sends to %d", p, q, i, to);
            REQUIRE_EQ(ig_star_owned_block(p, q, to), i);
            REQUIRE_EQ(ig_star_block_source(p, q, to, i, &from_sender), i);
            REQUIRE(from_sender, "p=%d q=%d receiver %d takes block %d from a receiver", p, q, to, i);
            held[to][i]++;
        }
}

static void round_two(int p, int q)
{
    int s = ig_star_teams(p, q), r = q % p, most = p - 1 + (r + s - 1) / s;
    static unsigned char sent[MAX_Q][MAX_Q];
    memset(sent, 0, sizeof sent);
    for (int j = 0; j < q; j++) {
        int b = ig_star_owned_block(p, q, j), count = ig_star_forward_count(p, q, j);
        if (b < 0) {
            REQUIRE_EQ(count, 0);
            continue;
        }
        REQUIRE(held[j][b] == 1, "p=%d q=%d member %d forwards block %d it does not hold", p, q, j, b);
        REQUIRE(count >= p - 1 && count <= most, "p=%d q=%d member %d forwards %d", p, q, j, count);
        for (int n = 0; n < count; n++) {
            int to = ig_star_forward_target(p, q, j, n), from_sender = 1;
            REQUIRE(to >= 0 && to < q && to != j, "p=%d q=%d member %d forwards to %d", p, q, j, to);
            REQUIRE_EQ(ig_star_team_of(p, q, to), ig_star_team_of(p, q, j));
            REQUIRE_EQ(ig_star_block_source(p, q, to, b, &from_sender), j);
            REQUIRE(!from_sender, "p=%d q=%d receiver %d expects block %d from its sender", p, q, to, b);
            sent[to][b]++;
        }
    }
    for (int j = 0; j < q; j++)
        for (int b = 0; b < p; b++)
            held[j][b] += sent[j][b];
}

START_TEST(plan_delivers_every_block_once)
{
    for (int p = 1; p < MAX_Q; p++)
        for (int q = p + 1; q <= MAX_Q; q++) {
            memset(held, 0, sizeof held);
            round_one(p, q);
            round_two(p, q);
            for (int j = 0; j < q; j++)
                for (int b = 0; b < p; b++)
                    REQUIRE(held[j][b] == 1, "p=%d q=%d receiver %d holds block %d %d times", p, q, j, b, held[j][b]);
        }
}
END_TEST

/* p = 2, q = 5: two teams {0, 1} and {2, 3}, receiver 4 the extra of team
 * 0; sender 1 starts at team 1. */
START_TEST(plan_p2_q5)
{
    int from_sender = 0;
    ck_assert_int_eq(ig_star_teams(2, 5), 2);
    ck_assert_int_eq(ig_star_sender_target(2, 5, 0, 0), 0);
    ck_assert_int_eq(ig_star_sender_target(2, 5, 0, 1), 2);
    ck_assert_int_eq(ig_star_sender_target(2, 5, 1, 0), 3);
    ck_assert_int_eq(ig_star_sender_target(2, 5, 1, 1), 1);
    ck_assert_int_eq(ig_star_owned_block(2, 5, 4), -1);
    ck_assert_int_eq(ig_star_team_of(2, 5, 4), 0);
    ck_assert_int_eq(ig_star_block_source(2, 5, 4, 1, &from_sender), 1);
    ck_assert_int_eq(from_sender, 0);
    ck_assert_int_eq(ig_star_forward_count(2, 5, 0), 2);
    ck_assert_int_eq(ig_star_forward_target(2, 5, 0, 0), 1);
    ck_assert_int_eq(ig_star_forward_target(2, 5, 0, 1), 4);
    ck_assert_int_eq(ig_star_forward_count(2, 5, 2), 1);
    ck_assert_int_eq(ig_star_forward_target(2, 5, 3, 0), 2);
}
END_TEST

/* Extras spread over the teams: 3 senders, 3 teams, 2 extras (q = 11) go
 * to teams 0 and 1, one each, so no member forwards more than p. */
START_TEST(plan_extras_spread)
{
    ck_assert_int_eq(ig_star_team_of(3, 11, 9), 0);
    ck_assert_int_eq(ig_star_team_of(3, 11, 10), 1);
    ck_assert_int_eq(ig_star_forward_count(3, 11, 0), 3);
    ck_assert_int_eq(ig_star_forward_count(3, 11, 4), 3);
    ck_assert_int_eq(ig_star_forward_count(3, 11, 8), 2);
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("star_plan");
    TCase *tc = tcase_create("plan");
    tcase_add_test(tc, plan_delivers_every_block_once);
    tcase_add_test(tc, plan_p2_q5);
    tcase_add_test(tc, plan_extras_spread);
    suite_add_tcase(suite, tc);
    return ig_run_suite(suite);
}
