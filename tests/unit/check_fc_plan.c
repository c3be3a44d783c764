/*
 * Unit tests: the fully connected plan executed symbolically for every
 * 1 <= p, q <= 64.  Each process's holdings are tracked block by block
 * through the four stages, using only the per-process roles (as the real
 * executor does), and every receiver must end with each block exactly once,
 * in its own slot.
 */
#include "fc_plan.h"

#include "check_runner.h"

#include <check.h>
#include <stdlib.h>
#include <string.h>

#define MAX_PQ 64

typedef struct {
    int p, q, n;
    ig_fc_role role[2 * MAX_PQ];
    unsigned char held[2 * MAX_PQ][MAX_PQ]; /* held[rank][block]: how many copies arrived */
} sim;

static void sim_init(sim *s, int p, int q)
{
    memset(s, 0, sizeof *s);
    s->p = p;
    s->q = q;
    s->n = p + q;
    for (int r = 0; r < s->n; r++)
        ig_fc_plan(p, q, r, &s->role[r]);
    for (int i = 0; i < p; i++)
        s->held[i][i] = 1;
}

static void deliver(sim *s, int rank, int block)
{
    REQUIRE(block >= 0 && block < s->p, "p=%d q=%d rank %d gets bad block %d", s->p, s->q, rank, block);
    s->held[rank][block]++;
}

/* Stage 1: every sender's direct send meets exactly the receive that names it. */
static void stage_direct(sim *s)
{
    for (int a = 0; a < s->p; a++) {
        const ig_fc_role *ra = &s->role[a];
        if (ra->direct_peer == IG_FC_NONE)
            continue;
        int b = ra->direct_peer;
        REQUIRE(b >= s->p && b < s->n, "p=%d q=%d sender %d sends to %d", s->p, s->q, a, b);
        REQUIRE_EQ(s->role[b].direct_peer, a);
        REQUIRE_EQ(s->role[b].direct_block, ra->direct_block);
        REQUIRE_EQ(ra->direct_block, a);
        deliver(s, b, ra->direct_block);
    }
    for (int b = s->p; b < s->n; b++) {
        int a = s->role[b].direct_peer;
        if (a != IG_FC_NONE)
            REQUIRE_EQ(s->role[a].direct_peer, b);
    }
}

/* Members of (color) in one kind of group, indexed by key, as MPI_Comm_split
 * would order them; checks keys are 0..size-1 without gaps or repeats. */
static int group_members(const sim *s, int gather, int color, int *members)
{
    int size = 0;
    for (int r = 0; r < s->n; r++) {
        const ig_fc_role *ro = &s->role[r];
        int c = gather ? ro->gather_color : ro->bcast_color;
        if (c == color)
            size++;
    }
    for (int k = 0; k < size; k++)
        members[k] = -1;
    for (int r = 0; r < s->n; r++) {
        const ig_fc_role *ro = &s->role[r];
        int c = gather ? ro->gather_color : ro->bcast_color;
        int key = gather ? ro->gather_key : ro->bcast_key;
        if (c != color)
            continue;
        REQUIRE(key >= 0 && key < size && members[key] == -1, "p=%d q=%d bad key %d", s->p, s->q, key);
        members[key] = r;
    }
    return size;
}

static void stage_bcast(sim *s)
{
    int members[2 * MAX_PQ];
    for (int color = 0; color < s->n; color++) {
        int size = group_members(s, 0, color, members);
        if (size == 0)
            continue;
        int root = members[0];
        int block = s->role[root].bcast_block;
        REQUIRE(root < s->p && s->held[root][block], "p=%d q=%d bcast root %d lacks block", s->p, s->q, root);
        for (int k = 1; k < size; k++) {
            REQUIRE_EQ(s->role[members[k]].bcast_block, block);
            REQUIRE(members[k] >= s->p, "bcast to a sender");
            deliver(s, members[k], block);
        }
    }
}

static void stage_gather(sim *s)
{
    int members[2 * MAX_PQ];
    for (int color = 0; color < s->n; color++) {
        int size = group_members(s, 1, color, members);
        if (size == 0)
            continue;
        REQUIRE(size >= 2, "p=%d q=%d gather group of one", s->p, s->q);
        /* Member k contributes block k (algo_fc.c), so a group is exactly
         * p members, each holding its own block already. */
        REQUIRE(size == s->p, "p=%d q=%d gather %d has %d members", s->p, s->q, color, size);
        for (int k = 0; k < size; k++) {
            REQUIRE_EQ(s->role[members[k]].gather_size, size);
            REQUIRE(s->held[members[k]][k], "p=%d q=%d rank %d contributes block %d it lacks", s->p, s->q,
                    members[k], k);
        }
        /* Every member receives every block it did not contribute itself. */
        for (int k = 0; k < size; k++)
            for (int b = 0; b < s->p; b++)
                if (b != k)
                    deliver(s, members[k], b);
    }
}

/* The leftover stage: each sender's range of receivers is the set of
 * receivers that take every sender's block, and each sender sends only its
 * own block. */
static void stage_leftovers(sim *s)
{
    int sent_to[2 * MAX_PQ] = { 0 };
    for (int a = 0; a < s->p; a++) {
        const ig_fc_role *ra = &s->role[a];
        REQUIRE(ra->leftover_count >= 0 && ra->leftover_count < s->p, "p=%d q=%d sender %d: %d leftovers", s->p,
                s->q, a, ra->leftover_count);
        if (ra->leftover_count == 0) {
            REQUIRE_EQ(ra->leftover_first, IG_FC_NONE);
            continue;
        }
        REQUIRE(s->held[a][a], "p=%d q=%d sender %d lacks its block", s->p, s->q, a);
        for (int u = 0; u < ra->leftover_count; u++) {
            int b = ra->leftover_first + u;
            REQUIRE(b >= s->p && b < s->n && s->role[b].from_every_sender, "p=%d q=%d sender %d to %d", s->p, s->q,
                    a, b);
            deliver(s, b, a);
            sent_to[b]++;
        }
    }
    for (int b = s->p; b < s->n; b++) {
        REQUIRE_EQ(s->role[b].leftover_count, 0);
        REQUIRE_EQ(sent_to[b], s->role[b].from_every_sender ? s->p : 0);
    }
}

static void check_complete(const sim *s)
{
    for (int b = s->p; b < s->n; b++)
        for (int m = 0; m < s->p; m++)
            REQUIRE(s->held[b][m] == 1, "p=%d q=%d receiver %d holds block %d %d times", s->p, s->q,
                          b - s->p, m, s->held[b][m]);
}

START_TEST(plan_delivers_every_block_once)
{
    static sim s;
    for (int p = 1; p <= MAX_PQ; p++) {
        for (int q = 1; q <= MAX_PQ; q++) {
            sim_init(&s, p, q);
            stage_direct(&s);
            stage_bcast(&s);
            stage_gather(&s);
            stage_leftovers(&s);
            check_complete(&s);
        }
    }
}
END_TEST

/* The paper's Figure 1c/1d example, p = 2, q = 6, written out by hand. */
START_TEST(plan_matches_paper_figure_p2_q6)
{
    ig_fc_role r;
    ig_fc_plan(2, 6, 0, &r);
    ck_assert_int_eq(r.bcast_color, 0);
    ck_assert_int_eq(r.bcast_key, 0);
    ig_fc_plan(2, 6, 1, &r);
    ck_assert_int_eq(r.bcast_color, 1);
    ig_fc_plan(2, 6, 2 + 4, &r); /* b_4 = b_{0 + 2*2}: broadcast group of a_0, gather group 2 */
    ck_assert_int_eq(r.bcast_color, 0);
    ck_assert_int_eq(r.bcast_key, 3);
    ck_assert_int_eq(r.gather_color, 2);
    ck_assert_int_eq(r.gather_key, 0);
    ck_assert_int_eq(r.direct_peer, IG_FC_NONE);
}
END_TEST

/* p > q: the extra senders join the receivers' allgather (section III). */
START_TEST(plan_p_greater_q)
{
    ig_fc_role r;
    ig_fc_plan(5, 2, 1, &r);
    ck_assert_int_eq(r.direct_peer, 6);
    ck_assert_int_eq(r.gather_color, IG_FC_NONE);
    ig_fc_plan(5, 2, 3, &r);
    ck_assert_int_eq(r.direct_peer, IG_FC_NONE);
    ck_assert_int_eq(r.gather_key, 3);
    ck_assert_int_eq(r.gather_size, 5);
}
END_TEST

/* Leftover receivers when p does not divide q: q = 7, p = 3 -> s = 2,
 * r = 1: b_6 takes every sender's block, the gather groups stay at p. */
START_TEST(plan_leftover_receivers)
{
    ig_fc_role r;
    ig_fc_plan(3, 7, 3 + 6, &r);
    ck_assert_int_eq(r.bcast_color, IG_FC_NONE);
    ck_assert_int_eq(r.gather_color, IG_FC_NONE);
    ck_assert_int_eq(r.from_every_sender, 1);
    ig_fc_plan(3, 7, 3 + 4, &r); /* regular member of group 1 */
    ck_assert_int_eq(r.gather_size, 3);
    ck_assert_int_eq(r.from_every_sender, 0);
    ig_fc_plan(3, 7, 2, &r);
    ck_assert_int_eq(r.leftover_first, 3 + 6);
    ck_assert_int_eq(r.leftover_count, 1);
    ig_fc_plan(6, 10, 5, &r); /* s = 1: four leftovers, one group of six */
    ck_assert_int_eq(r.leftover_first, 6 + 6);
    ck_assert_int_eq(r.leftover_count, 4);
    ig_fc_plan(6, 10, 6 + 5, &r);
    ck_assert_int_eq(r.gather_size, 6);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("fc_plan");
    TCase *tc = tcase_create("plan");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, plan_delivers_every_block_once);
    tcase_add_test(tc, plan_matches_paper_figure_p2_q6);
    tcase_add_test(tc, plan_p_greater_q);
    tcase_add_test(tc, plan_leftover_receivers);
    suite_add_tcase(s, tc);
    return ig_run_suite(s);
}
