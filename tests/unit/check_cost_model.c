/* Unit tests: the range partition and the cost model (no MPI). */
#include "cost_model.h"
#include "range_partition.h"

#include "check_runner.h"

#include <check.h>
#include <math.h>
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

/* Full duplex's turn (ig_range_turn): every second-group block still has
 * exactly one first-group owner, the one it is sent to, and that owner's
 * range (index (a - t) mod n_first) holds it; the pairs that trade blocks
 * both ways, counted here from the sends themselves, are as few as any
 * turn in [0, n_first) makes them; none with p = q >= 2, one with 2 + odd
 * (no turn avoids it). */
static int pairs_crossing(int n1, int n2, int turn)
{
    int crossing = 0;
    for (int a = 0; a < n1; a++) {
        int b = ig_range_owner(n1, n2, a); /* a sends its block to second-group process b */
        int back = (ig_range_owner(n2, n1, b) + turn) % n1; /* where b sends its block */
        crossing += back == a;
    }
    return crossing;
}

START_TEST(full_duplex_turn_avoids_crossing_pairs)
{
    for (int n1 = 1; n1 <= 80; n1++) {
        for (int n2 = 1; n2 <= 80; n2++) {
            int t = ig_range_turn(n1, n2), fewest = n1 + n2;
            REQUIRE(t >= 0 && t < n1, "n1=%d n2=%d turn %d", n1, n2, t);
            for (int b = 0; b < n2; b++) {
                int a = (ig_range_owner(n2, n1, b) + t) % n1, r = (a - t + n1) % n1;
                REQUIRE(ig_range_first(n2, n1, r) <= b && b < ig_range_first(n2, n1, r + 1),
                        "n1=%d n2=%d turn %d: block %d sent to %d, outside its range", n1, n2, t, b, a);
            }
            for (int u = 0; u < n1; u++) {
                int c = pairs_crossing(n1, n2, u);
                fewest = c < fewest ? c : fewest;
            }
            int mine = pairs_crossing(n1, n2, t);
            REQUIRE(mine == fewest, "n1=%d n2=%d: turn %d leaves %d pairs crossing, %d possible", n1, n2, t, mine,
                    fewest);
            REQUIRE_EQ(ig_range_crossings(n1, n2, t), mine);
            if (n1 == n2 && n1 >= 2)
                REQUIRE(mine == 0, "p = q = %d: %d pairs crossing", n1, mine);
            if (n1 == 2 && n2 % 2 == 1)
                REQUIRE(mine == 1, "2 + %d: %d pairs crossing", n2, mine);
        }
    }
    ck_assert_int_eq(ig_range_turn(4, 4), 1);
    ck_assert_int_eq(ig_range_turn(1, 4), 0);
}
END_TEST

START_TEST(cost_model_matches_hand_values)
{
    ig_cost_params c = { .ts = 1.0, .tw = 0.0, .to = 0.0 }; /* count start-ups only */
    ck_assert(ig_ceil_log2(1) == 0 && ig_ceil_log2(2) == 1 && ig_ceil_log2(5) == 3 && ig_ceil_log2(8) == 3);
    ck_assert_double_eq(ig_cost_fc_half(4, 4, 1, &c), 3);  /* 1 + log 4 */
    ck_assert_double_eq(ig_cost_fc_half(2, 6, 1, &c), 5);  /* log 2 + 2 log(3+1) */
    ck_assert_double_eq(ig_cost_fc_half(6, 10, 1, &c), 5); /* 6 + 4 leftovers: log 6 + 2 log(1+1), groups of 6 */
    c.ts = 0;
    c.tw = 1; /* bandwidth terms, k = 1 */
    ck_assert_double_eq(ig_cost_fc_half(4, 4, 1, &c), 4);          /* p k */
    ck_assert_double_eq(ig_cost_fc_half(6, 10, 1, &c), 7);         /* (p + 1) k; the leftovers' (2 + 4) k */
    c = (ig_cost_params){ .ts = 0, .tw = 0, .to = 1 };
    ck_assert_double_eq(ig_cost_fc_half(6, 10, 1, &c), 6);         /* the leftovers: 2 rounds, then 4 sends */
    c = (ig_cost_params){ .ts = 0, .tw = 1, .to = 0 };
    ck_assert_double_eq(ig_cost_root_gathering(4, 4, 1, &c), 15); /* (4p - 1) k */
    /* A round of dependent messages costs t_s + t_o. */
    c = (ig_cost_params){ .ts = 0, .tw = 0, .to = 1 };
    ck_assert_double_eq(ig_cost_fc_half(4, 4, 1, &c), 3);
    ck_assert_double_eq(ig_cost_root_gathering(4, 4, 1, &c), 3 + 2 * 3); /* log 4 + 1 + 2 log 5 */
}
END_TEST

/* The direct algorithm: one start-up, then every block as its own message
 * (t_o + k t_w) at the busiest endpoint: a sender sends q, a receiver
 * receives p. */
/* The fit of a ping-pong's timings (net_measure.c) gives back the
 * parameters the timings were made from, as the model counts them: a
 * one-way message of n bytes costs t_s + t_o + n t_w, and m messages
 * posted together t_s + m t_o + their bytes' t_w; noise that would make a
 * parameter negative gives zero, and a burst dearer than half a round trip
 * per extra message gives t_o = half the round trip. */
START_TEST(fit_recovers_parameters)
{
    const ig_cost_params truth[] = { { 2.3e-4, 8.4e-8, 7.6e-5, 0 }, { 5e-6, 1e-10, 1e-6, 0 }, { 1e-6, 2e-10, 0, 0 } };
    for (size_t i = 0; i < sizeof truth / sizeof truth[0]; i++) {
        const ig_cost_params *c = &truth[i];
        double one_way = c->ts + c->to, bytes = 262144, piece = 4096, reply = one_way + c->tw;
        double rtt = one_way + c->tw + reply, large = one_way + bytes * c->tw + reply;
        double single = one_way + 8 * piece * c->tw + reply;
        double burst = c->ts + 8 * c->to + 8 * piece * c->tw + reply;
        ig_cost_params f = ig_cost_fit(rtt, large, bytes, burst - single, 8);
        REQUIRE(fabs(f.to - c->to) <= 1e-12 && fabs(f.tw - c->tw) <= 1e-15 &&
                    fabs(f.ts - (c->ts + c->tw)) <= 1e-12,
                "case %zu: fit (%g,%g,%g)", i, f.ts, f.tw, f.to);
    }
    /* A burst no dearer than the single message (the transfer hides the
     * per-message cost, as on a slow link): t_o = 0, t_s = half the round trip. */
    ig_cost_params f = ig_cost_fit(1e-4, 0.5e-4, 262144, -1e-4, 8);
    ck_assert(f.tw == 0 && f.to == 0 && f.ts == 0.5e-4);
    /* Just at half the round trip per extra message: kept, t_s = 0. */
    f = ig_cost_fit(1e-4, 1e-3, 262144, 7 * 0.5e-4, 8);
    REQUIRE(fabs(f.to - 0.5e-4) <= 1e-15 && f.ts <= 1e-15, "at the bound: (%g,%g)", f.ts, f.to);
    /* The sixty-ninth session's outlier: a burst 6.6 ms dearer against a
     * round trip of 0.3 ms gives half the round trip, not 0.95 ms. */
    f = ig_cost_fit(3e-4, 2.2e-2, 262144, 6.6e-3, 8);
    REQUIRE(f.to == 1.5e-4 && f.ts == 0, "outlier: (%g,%g)", f.ts, f.to);
    f = ig_cost_fit(1e-4, 1e-3, 1, 0, 1); /* nothing to take a slope from */
    ck_assert(f.tw == 0 && f.to == 0 && f.ts == 0.5e-4);
}
END_TEST

START_TEST(direct_half_hand_values)
{
    const ig_cost_params latency = { .ts = 1, .tw = 0, .to = 0 }, message = { .ts = 0, .tw = 0, .to = 1 },
                         bytes = { .ts = 0, .tw = 1, .to = 0 };
    for (int p = 1; p <= 16; p++)
        for (int q = 1; q <= 16; q++) {
            int most = p > q ? p : q;
            REQUIRE(ig_cost_direct_half(p, q, 10, &latency) == 1, "p=%d q=%d", p, q);
            REQUIRE(ig_cost_direct_half(p, q, 10, &message) == most, "p=%d q=%d", p, q);
            REQUIRE(ig_cost_direct_half(p, q, 10, &bytes) == 10.0 * most, "p=%d q=%d", p, q);
        }
    ck_assert_double_eq(ig_cost_direct_half(3, 5, 10, &message), 5);
    ck_assert_double_eq(ig_cost_direct_half(6, 2, 10, &bytes), 60);
    /* All three, over a network: t_s + max(p, q) max(t_o, k t_w) + min(t_o,
     * k t_w): the messages are posted at once, one's t_o overlaps another's
     * k t_w. */
    const ig_cost_params all = { .ts = 1, .tw = 0.5, .to = 2 };
    ck_assert_double_eq(ig_cost_direct_half(3, 5, 4, &all), 1 + 2 + 2 + 4 * 2);  /* 13: t_o = k t_w */
    ck_assert_double_eq(ig_cost_direct_half(3, 5, 12, &all), 1 + 2 + 6 + 4 * 6); /* 33: the link paces */
    ck_assert_double_eq(ig_cost_direct_half(3, 5, 2, &all), 1 + 2 + 1 + 4 * 2);  /* 12: the host paces */
    ck_assert_double_eq_tol(ig_cost_direct_half(4, 4, 1 << 20, &ig_cost_default),
                            5e-6 + 1e-6 + 4 * 1048576 * 1e-10, 1e-15);
    /* Never more than both costs in full, never less than either alone. */
    for (int n = 1; n <= 16; n++)
        for (double k = 0.5; k < 64; k *= 2) {
            double both = ig_cost_direct_half(n, 1, k, &all), full = 1 + n * (2 + k * 0.5);
            REQUIRE(both <= full && both >= 1 + n * 2 && both >= 1 + n * k * 0.5, "n=%d k=%g: %g", n, k, both);
            REQUIRE((n == 1) == (both == full), "n=%d k=%g: %g", n, k, both);
        }
    /* Within a node one processor pays both: t_s + max(p, q) (t_o + k t_w). */
    const ig_cost_params host = { .ts = 1, .tw = 0.5, .to = 2, .copies_on_host = 1 };
    ck_assert_double_eq(ig_cost_direct_half(3, 5, 4, &host), 1 + 5 * (2 + 4 * 0.5)); /* 21 */
    ck_assert_double_eq(ig_cost_direct_half(3, 5, 12, &host), 1 + 5 * (2 + 12 * 0.5));
    ck_assert_double_eq_tol(ig_cost_direct_half(4, 4, 1 << 20, &ig_cost_shared_memory),
                            1e-6 + 4 * (3e-7 + 1048576 * 2e-10), 1e-15);
}
END_TEST

/* Blocks of different sizes, average k and largest k_max: over a network
 * the busier of the largest sender's link (q k_max) and a receiver's (p k)
 * paces the call; within a node max(p, q) k as for equal blocks; equal
 * blocks give ig_cost_direct_half. */
START_TEST(direct_half_blocks_hand_values)
{
    const ig_cost_params bytes = { .ts = 0, .tw = 1, .to = 0 };
    ck_assert_double_eq(ig_cost_direct_half_blocks(8, 8, 4.5, 8, &bytes), 64);  /* the sender: 8 x 8 */
    ck_assert_double_eq(ig_cost_direct_half_blocks(12, 4, 6.5, 12, &bytes), 78); /* the receivers: 12 x 6.5 */
    ck_assert_double_eq(ig_cost_direct_half_blocks(4, 12, 2.5, 4, &bytes), 48); /* the sender: 12 x 4 */
    const ig_cost_params all = { .ts = 1, .tw = 0.5, .to = 2 };
    /* t_s + max(8 t_o, 64 t_w) + min(t_o, k_max t_w) */
    ck_assert_double_eq(ig_cost_direct_half_blocks(8, 8, 4.5, 8, &all), 1 + 32 + 2);
    const ig_cost_params host = { .ts = 1, .tw = 0.5, .to = 2, .copies_on_host = 1 };
    ck_assert_double_eq(ig_cost_direct_half_blocks(8, 8, 4.5, 8, &host), 1 + 8 * 2 + 8 * 4.5 * 0.5);
    /* Equal blocks: the formulas of direct_half_hand_values, written out. */
    for (int p = 1; p <= 16; p++)
        for (int q = 1; q <= 16; q++)
            for (double k = 0.5; k < 64; k *= 2) {
                double most = p > q ? p : q, k_tw = k * 0.5;
                double net = 1 + (most * 2 > most * k_tw ? most * 2 : most * k_tw) + (2 < k_tw ? 2 : k_tw);
                REQUIRE(ig_cost_direct_half_blocks(p, q, k, k, &all) == net, "p=%d q=%d k=%g", p, q, k);
                REQUIRE(ig_cost_direct_half_blocks(p, q, k, k, &host) == 1 + most * (2 + k_tw), "p=%d q=%d k=%g",
                        p, q, k);
                /* A larger largest block never costs less, and costs more
                 * over a network once its sender's link is the busier. */
                double uneven = ig_cost_direct_half_blocks(p, q, k, 4 * k, &all);
                REQUIRE(uneven >= net, "p=%d q=%d k=%g", p, q, k);
                REQUIRE(q * 4 * k_tw <= p * k_tw || q * 4 * k_tw <= most * 2 || uneven > net, "p=%d q=%d k=%g", p,
                        q, k);
            }
}
END_TEST

/* Both ways at once: each process sends n_remote blocks and receives
 * n_remote (2 n_remote messages), links carry both directions, so the
 * bytes are n_remote times the larger block; the busier group decides. */
START_TEST(direct_full_hand_values)
{
    const ig_cost_params latency = { .ts = 1, .tw = 0, .to = 0 }, message = { .ts = 0, .tw = 0, .to = 1 },
                         bytes = { .ts = 0, .tw = 1, .to = 0 };
    ck_assert_double_eq(ig_cost_direct_full(3, 10, 5, 20, &latency), 1);
    ck_assert_double_eq(ig_cost_direct_full(3, 10, 5, 20, &message), 10); /* 2 * 5 */
    ck_assert_double_eq(ig_cost_direct_full(3, 10, 5, 20, &bytes), 100);  /* 5 * max(10, 20) */
    ck_assert_double_eq(ig_cost_direct_full(5, 30, 3, 20, &bytes), 150);  /* 5 * 30 */
    ck_assert_double_eq(ig_cost_direct_full(1, 1, 1, 1, &message), 2);
    const ig_cost_params all = { .ts = 1, .tw = 0.5, .to = 2 }, host = { .ts = 1, .tw = 0.5, .to = 2, .copies_on_host = 1 };
    /* Within a node everything adds up: max(1 + 2*4*2 + 4*8*0.5, 1 + 2*2*2
     * + 2*8*0.5) = max(33, 17).  Over a network the 2 n_b t_o and the n_b k
     * t_w overlap: max(1 + max(16, 16) + min(2, 4), 1 + max(8, 8) + 2). */
    ck_assert_double_eq(ig_cost_direct_full(2, 8, 4, 6, &host), 33);
    ck_assert_double_eq(ig_cost_direct_full(2, 8, 4, 6, &all), 19);
    ck_assert_double_eq(ig_cost_direct_full(2, 40, 4, 6, &all), 1 + 4 * 20 + 2); /* the link paces */
}
END_TEST

/* Spread: each receiver gets its range of ceil(p / q) blocks posted at once
 * (one start-up), then the receivers allgather: log q rounds, and the
 * p - floor(p / q) blocks a receiver lacks at most. */
START_TEST(spread_half_hand_values)
{
    const ig_cost_params latency = { .ts = 1, .tw = 0, .to = 0 }, message = { .ts = 0, .tw = 0, .to = 1 },
                         bytes = { .ts = 0, .tw = 1, .to = 0 };
    ck_assert_double_eq(ig_cost_spread_half(8, 3, 10, &latency), 1 + 2); /* 1 + log 3 */
    ck_assert_double_eq(ig_cost_spread_half(8, 3, 10, &message), 3 + 2); /* ceil(8/3) + log 3 */
    ck_assert_double_eq(ig_cost_spread_half(8, 3, 10, &bytes), 30 + 60); /* 3 k + (8 - 2) k */
    /* One receiver: no allgather. */
    ck_assert_double_eq(ig_cost_spread_half(5, 1, 10, &latency), 1);
    ck_assert_double_eq(ig_cost_spread_half(5, 1, 10, &message), 5);
    ck_assert_double_eq(ig_cost_spread_half(5, 1, 10, &bytes), 50);
    /* p a multiple of q. */
    ck_assert_double_eq(ig_cost_spread_half(8, 4, 1, &bytes), 2 + 6);
    ck_assert_double_eq(ig_cost_spread_half(8, 4, 1, &message), 2 + 2);
    const ig_cost_params all = { .ts = 1, .tw = 0.5, .to = 2 };
    /* Stage 1, two messages posted at once: 1 + 2 max(2, 2) + min(2, 2);
     * stage 2: log 2 (1 + 2) + (4 - 2) 4 0.5 = 3 + 4 */
    ck_assert_double_eq(ig_cost_spread_half(4, 2, 4, &all), 14);
    /* Within a node stage 1 adds up: 1 + 2 (2 + 2) + 3 + 4 */
    const ig_cost_params host = { .ts = 1, .tw = 0.5, .to = 2, .copies_on_host = 1 };
    ck_assert_double_eq(ig_cost_spread_half(4, 2, 4, &host), 16);
    /* 12 to 4 with large blocks: the same bytes as direct and two more
     * rounds, whatever t_o (direct's twelve messages' t_o hide behind its
     * link time as spread's three do). */
    const ig_cost_params cluster = { .ts = 3.44e-5, .tw = 7.83e-8, .to = 3.5e-5 };
    ck_assert(ig_cost_direct_half(12, 4, 4194304, &cluster) < ig_cost_spread_half(12, 4, 4194304, &cluster));
    ck_assert_double_eq_tol(ig_cost_spread_half(12, 4, 4194304, &cluster) - ig_cost_direct_half(12, 4, 4194304, &cluster),
                            2 * (3.44e-5 + 3.5e-5), 1e-9);
}
END_TEST

/* The relay: two dependent hops, the first piece (k / q), then p k at every
 * receiver's link; p q messages taken and p (q - 1) sent by a receiver.
 * In parts: the first part before anything is relayed, and as many
 * messages per piece as it has parts. */
START_TEST(relay_half_hand_values)
{
    const ig_cost_params latency = { .ts = 1, .tw = 0, .to = 0 }, message = { .ts = 0, .tw = 0, .to = 1 },
                         bytes = { .ts = 0, .tw = 1, .to = 0 };
    ck_assert_double_eq(ig_cost_relay_half(4, 8, 80, 0, &latency), 2);
    ck_assert_double_eq(ig_cost_relay_half(4, 8, 80, 0, &message), 2 + 2 * 32 - 4);
    ck_assert_double_eq(ig_cost_relay_half(4, 8, 80, 0, &bytes), 10 + 320); /* (4 + 1/8) 80 */
    /* Pieces of 10 bytes in parts of 4: 3 parts, the first 4 bytes ahead. */
    ck_assert_double_eq(ig_cost_relay_half(4, 8, 80, 4, &latency), 2);
    ck_assert_double_eq(ig_cost_relay_half(4, 8, 80, 4, &message), 2 + 3 * (2 * 32 - 4));
    ck_assert_double_eq(ig_cost_relay_half(4, 8, 80, 4, &bytes), 4 + 320);
    /* A part as large as the piece, or larger: whole pieces. */
    ck_assert_double_eq(ig_cost_relay_half(4, 8, 80, 10, &bytes), 10 + 320);
    ck_assert_double_eq(ig_cost_relay_half(4, 8, 80, 1000, &message), 2 + 2 * 32 - 4);
    /* Its bandwidth term lies between the bound p k and fc's (p + 1) k for
     * p < q, above direct's p k for p >= q (where the decision keeps
     * direct: the relay only adds a hop there). */
    for (int p = 1; p <= 32; p++)
        for (int q = 1; q <= 32; q++) {
            double relay = ig_cost_relay_half(p, q, 1, 0, &bytes);
            REQUIRE(relay > p && relay <= p + 1, "p=%d q=%d: relay's bytes %g", p, q, relay);
            if (p < q)
                REQUIRE(relay < ig_cost_fc_half(p, q, 1, &bytes), "p=%d q=%d", p, q);
            else
                REQUIRE(relay > ig_cost_direct_half(p, q, 1, &bytes), "p=%d q=%d", p, q);
        }
}
END_TEST

/* The default network model: at p = q the direct algorithm costs no more
 * than fc at every block size up to p = 30: where k t_w >= t_o, fc - direct
 * = log p (t_s + t_o) > 0; where k t_w < t_o, fc - direct = log p t_s + (1 +
 * log p - p) t_o + (p - 1) k t_w, > 0 for 2 <= p <= 30 whatever k.  From 32
 * fc's few rounds win for blocks whose link time is well under t_o (1 byte),
 * direct for large ones. */
START_TEST(direct_wins_at_p_equals_q)
{
    const ig_cost_params *c = &ig_cost_default;
    for (int p = 1; p <= 32; p++)
        for (double k = 1; k <= (double)(1ull << 34); k *= 1.9) {
            double direct = ig_cost_direct_half(p, p, k, c), fc = ig_cost_fc_half(p, p, k, c);
            if (p == 1)
                REQUIRE(direct <= fc * (1 + 1e-12), "p=q=%d k=%.0f: direct %g, fc %g", p, k, direct, fc);
            else if (p <= 30 || k >= 1e5)
                REQUIRE(direct < fc, "p=q=%d k=%.0f: direct %g, fc %g", p, k, direct, fc);
            else if (p >= 32 && k <= 1)
                REQUIRE(fc < direct, "p=q=%d k=%.0f: direct %g, fc %g", p, k, direct, fc);
        }
}
END_TEST

/* Fewer senders than receivers (q >= p + 2), large blocks: fc's (p + 1) k
 * beats direct's q k; e.g. 4 to 12 at 1 MiB. */
START_TEST(fc_family_wins_for_few_senders)
{
    const ig_cost_params *c = &ig_cost_default;
    double MiB = 1 << 20;
    ck_assert(ig_cost_fc_half(4, 12, MiB, c) < ig_cost_direct_half(4, 12, MiB, c));
    ck_assert(ig_cost_fc_half(4, 12, MiB, c) < 0.5 * ig_cost_direct_half(4, 12, MiB, c));
    for (int p = 1; p <= 32; p++)
        for (int q = p + 2; q <= 32; q++)
            for (double k = MiB; k <= 64 * MiB; k *= 4)
                REQUIRE(ig_cost_fc_half(p, q, k, c) < ig_cost_direct_half(p, q, k, c), "p=%d q=%d k=%.0f", p, q, k);
    /* Small blocks, the other way round: direct's one start-up wins. */
    ck_assert(ig_cost_direct_half(4, 12, 1024, c) < ig_cost_fc_half(4, 12, 1024, c));
}
END_TEST

/* Both groups compute each full-duplex cost with the groups in their own
 * order: every one is symmetric in (A, B), exactly. */
START_TEST(full_duplex_costs_are_symmetric)
{
    const ig_cost_params *models[] = { &ig_cost_default, &ig_cost_shared_memory };
    for (int m = 0; m < 2; m++)
        for (int na = 1; na <= 33; na++)
            for (int nb = 1; nb <= 33; nb++)
                for (double ka = 1; ka <= (double)(1 << 26); ka *= 11)
                    for (double kb = 1; kb <= (double)(1 << 26); kb *= 13) {
                        const ig_cost_params *c = models[m];
                        REQUIRE(ig_cost_direct_full(na, ka, nb, kb, c) == ig_cost_direct_full(nb, kb, na, ka, c),
                                "direct na=%d ka=%.0f nb=%d kb=%.0f", na, ka, nb, kb);
                        REQUIRE(ig_cost_fd(na, ka, nb, kb, c) == ig_cost_fd(nb, kb, na, ka, c),
                                "fd na=%d ka=%.0f nb=%d kb=%.0f", na, ka, nb, kb);
                        REQUIRE(ig_cost_root_gathering_full(na, ka, nb, kb, c) ==
                                    ig_cost_root_gathering_full(nb, kb, na, ka, c),
                                "root gathering na=%d ka=%.0f nb=%d kb=%.0f", na, ka, nb, kb);
                    }
    /* Direct both ways costs at least one way (as much, up to rounding,
     * where the link paces: it carries both directions at once), and with
     * equal groups and blocks no more than the two ways one after the
     * other. */
    for (int n = 1; n <= 32; n++)
        for (double k = 1; k <= (double)(1 << 26); k *= 7) {
            const ig_cost_params *c = &ig_cost_default;
            double full = ig_cost_direct_full(n, k, n, k, c), half = ig_cost_direct_half(n, n, k, c);
            REQUIRE(full >= half * (1 - 1e-12) && full <= 2 * half, "n=%d k=%.0f: full %g, half %g", n, k, full, half);
        }
}
END_TEST

/* Both groups must choose alike: every full-duplex cost the decision
 * compares is symmetric in (A, B), to the bit. */
START_TEST(choice_is_symmetric)
{
    const ig_cost_params *c = &ig_cost_default;
    for (int na = 1; na <= 32; na++)
        for (int nb = 1; nb <= 32; nb++)
            for (double ka = 8; ka <= 8 << 20; ka *= 16)
                for (double kb = 8; kb <= 8 << 20; kb *= 64) {
                    REQUIRE(ig_cost_fd(na, ka, nb, kb, c) == ig_cost_fd(nb, kb, na, ka, c), "fd %d %d", na, nb);
                    REQUIRE(ig_cost_direct_full(na, ka, nb, kb, c) == ig_cost_direct_full(nb, kb, na, ka, c),
                            "direct %d %d", na, nb);
                    REQUIRE(ig_cost_root_gathering_full(na, ka, nb, kb, c) ==
                                ig_cost_root_gathering_full(nb, kb, na, ka, c),
                            "root gathering %d %d", na, nb);
                }
}
END_TEST

/* For large equal blocks the one-exchange algorithm beats two fc passes
 * (one each way) and root gathering by a wide margin in the model. */
START_TEST(full_duplex_wins_for_large_blocks)
{
    const ig_cost_params *c = &ig_cost_default;
    double k = 4 << 20;
    ck_assert(ig_cost_fd(8, k, 8, k, c) < 0.6 * (ig_cost_fc_half(8, 8, k, c) + ig_cost_fc_half(8, 8, k, c)));
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
    tcase_add_test(tc, full_duplex_turn_avoids_crossing_pairs);
    tcase_add_test(tc, cost_model_matches_hand_values);
    tcase_add_test(tc, fit_recovers_parameters);
    tcase_add_test(tc, direct_half_hand_values);
    tcase_add_test(tc, direct_half_blocks_hand_values);
    tcase_add_test(tc, direct_full_hand_values);
    tcase_add_test(tc, spread_half_hand_values);
    tcase_add_test(tc, relay_half_hand_values);
    tcase_add_test(tc, direct_wins_at_p_equals_q);
    tcase_add_test(tc, fc_family_wins_for_few_senders);
    tcase_add_test(tc, full_duplex_costs_are_symmetric);
    tcase_add_test(tc, choice_is_symmetric);
    tcase_add_test(tc, full_duplex_wins_for_large_blocks);
    suite_add_tcase(s, tc);
    return ig_run_suite(s);
}
