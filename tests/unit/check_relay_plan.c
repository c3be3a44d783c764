/*
 * Unit tests: the relay plan (src/relay_plan.h) and the byte pieces it cuts
 * blocks into (src/byte_pieces.h), for every 1 <= p, q <= 48.
 * Pieces cover each block exactly, every sender's walk meets every owner
 * once; with members, every receiver gets every piece of every block
 * exactly once (whole from the sender, or from the piece's owner, itself
 * a member), the most memberships are ceil(p d / q) by count, and the
 * number of members is the one that lightens the busiest link most,
 * checked against loads counted by brute force.
 */
#include "relay_plan.h"

#include "check_runner.h"

#include <check.h>
#include <inttypes.h>
#include <string.h>

#define MAX_PQ 48

START_TEST(pieces_cover_each_block_exactly)
{
    const uint64_t sizes[] = { 0, 1, 5, 47, 48, 49, 4096, 65537, 4194304 + 7, (uint64_t)1 << 33 };
    for (size_t s = 0; s < sizeof sizes / sizeof *sizes; s++)
        for (int q = 1; q <= MAX_PQ; q++) {
            uint64_t next = 0, lo = UINT64_MAX, hi = 0;
            for (int j = 0; j < q; j++) {
                ig_piece pc = ig_byte_piece(sizes[s], q, j);
                REQUIRE(pc.offset == next, "K=%" PRIu64 " q=%d piece %d at %" PRIu64 ", want %" PRIu64, sizes[s], q,
                        j, pc.offset, next);
                next += pc.length;
                lo = pc.length < lo ? pc.length : lo;
                hi = pc.length > hi ? pc.length : hi;
            }
            REQUIRE(next == sizes[s], "K=%" PRIu64 " q=%d: pieces end at %" PRIu64, sizes[s], q, next);
            REQUIRE(hi - lo <= 1, "K=%" PRIu64 " q=%d: pieces of %" PRIu64 " to %" PRIu64 " bytes", sizes[s], q, lo, hi);
        }
}
END_TEST

/* A piece's parts cover it exactly, in order, each but the last exactly
 * part_bytes long; part_bytes 0, or at least the piece, keeps it whole. */
START_TEST(parts_cover_each_piece_exactly)
{
    const uint64_t lengths[] = { 0, 1, 7, 61439, 61440, 61441, 122880, 349526, (uint64_t)1 << 33 };
    const uint64_t part_sizes[] = { 0, 1, 3, 61440, 61441, 349526, (uint64_t)1 << 33 };
    for (size_t l = 0; l < sizeof lengths / sizeof *lengths; l++)
        for (size_t z = 0; z < sizeof part_sizes / sizeof *part_sizes; z++) {
            uint64_t part_bytes = part_sizes[z], len = lengths[l];
            if (part_bytes > 0 && len / part_bytes > 1000000)
                continue; /* too many parts to walk; no plan asks for them */
            ig_piece piece = { .offset = 12345, .length = len };
            int parts = ig_byte_part_count(len, part_bytes);
            uint64_t want = part_bytes == 0 || len <= part_bytes ? 1 : (len + part_bytes - 1) / part_bytes;
            REQUIRE((uint64_t)parts == want, "piece %" PRIu64 " parts of %" PRIu64 ": %d parts, want %" PRIu64, len,
                    part_bytes, parts, want);
            uint64_t next = piece.offset;
            for (int u = 0; u < parts; u++) {
                ig_piece part = ig_byte_part(piece, part_bytes, u);
                REQUIRE(part.offset == next, "piece %" PRIu64 " part %d at %" PRIu64 ", want %" PRIu64, len, u,
                        part.offset, next);
                REQUIRE(u == parts - 1 || part.length == part_bytes, "piece %" PRIu64 " part %d: %" PRIu64 " bytes",
                        len, u, part.length);
                REQUIRE(part_bytes == 0 || part.length <= part_bytes || parts == 1, "part %d too long", u);
                next += part.length;
            }
            REQUIRE(next == piece.offset + len, "piece %" PRIu64 " parts of %" PRIu64 " end at %" PRIu64, len,
                    part_bytes, next);
        }
}
END_TEST

START_TEST(every_walk_meets_every_owner_once)
{
    for (int p = 1; p <= MAX_PQ; p++)
        for (int q = 1; q <= MAX_PQ; q++)
            for (int i = 0; i < p; i++) {
                unsigned char met[MAX_PQ] = { 0 };
                for (int t = 0; t < q; t++) {
                    int o = ig_relay_owner_at(p, q, i, t);
                    REQUIRE(o >= 0 && o < q && !met[o], "p=%d q=%d sender %d step %d: owner %d", p, q, i, t, o);
                    met[o] = 1;
                }
            }
}
END_TEST

/* Members: place t of sender i's walk is member t for t < d, nobody else
 * is one; each receiver takes each piece of each block exactly once: from
 * the sender where it is a member, else from the piece's owner, a member
 * (so the relays come from someone who has the whole block). */
START_TEST(members_deliver_every_piece_once)
{
    for (int q = 2; q <= MAX_PQ; q++)
        for (int p = 1; p < q; p++)
            for (int d = 1; d <= p && d < q; d++)
                for (int i = 0; i < p; i++) {
                    int members = 0;
                    for (int r = 0; r < q; r++) {
                        int t = ig_relay_member_place(p, q, d, i, r);
                        REQUIRE(t >= -1 && t < d, "p=%d q=%d d=%d sender %d receiver %d: place %d", p, q, d, i, r, t);
                        if (t >= 0) {
                            REQUIRE_EQ(ig_relay_owner_at(p, q, i, t), r);
                            members++;
                        }
                    }
                    REQUIRE_EQ(members, d);
                    for (int r = 0; r < q; r++)
                        for (int j = 0; j < d; j++) {
                            int owner = ig_relay_owner_at(p, q, i, j);
                            int from_sender = ig_relay_member_place(p, q, d, i, r) >= 0;
                            int relayed = !from_sender && ig_relay_member_place(p, q, d, i, owner) == j;
                            REQUIRE(from_sender + relayed == 1, "p=%d q=%d d=%d: block %d piece %d to %d", p, q, d,
                                    i, j, r);
                        }
                }
}
END_TEST

/* The most blocks any receiver is a member of, counted. */
static int most_memberships_counted(int p, int q, int d)
{
    int most = 0;
    for (int r = 0; r < q; r++) {
        int n = 0;
        for (int i = 0; i < p; i++)
            n += ig_relay_member_place(p, q, d, i, r) >= 0;
        most = n > most ? n : most;
    }
    return most;
}

START_TEST(most_memberships_are_the_ceiling)
{
    for (int q = 2; q <= MAX_PQ; q++)
        for (int p = 1; p < q; p++)
            for (int d = 1; d <= p && d < q; d++)
                REQUIRE(ig_relay_most_memberships(p, q, d) == most_memberships_counted(p, q, d),
                        "p=%d q=%d d=%d: %d, counted %d", p, q, d, ig_relay_most_memberships(p, q, d),
                        most_memberships_counted(p, q, d));
}
END_TEST

/* The busiest link's bytes, in blocks, by counting every message of the
 * plan: d members (0: the plain relay, pieces to every receiver). */
static double busiest_counted(int p, int q, int d)
{
    double busiest = 0, sends[2 * MAX_PQ] = { 0 }; /* senders 0..p-1, receivers p.. */
    for (int i = 0; i < p; i++) {
        int pieces = d > 0 ? d : q;
        for (int j = 0; j < pieces; j++) {
            int owner = ig_relay_owner_at(p, q, i, j), relays = 0;
            owner = d > 0 ? owner : j;
            sends[i] += d > 0 ? 1.0 : 1.0 / pieces; /* members take the whole block each */
            for (int r = 0; r < q; r++)
                relays += r != owner && (d == 0 || ig_relay_member_place(p, q, d, i, r) < 0);
            sends[p + owner] += (double)relays / pieces;
        }
    }
    for (int x = 0; x < p + q; x++)
        busiest = sends[x] > busiest ? sends[x] : busiest;
    return busiest;
}

START_TEST(members_lighten_the_busiest_link)
{
    for (int q = 1; q <= MAX_PQ; q++)
        for (int p = 1; p <= MAX_PQ; p++) {
            int d = ig_relay_members_for(p, q);
            if (p >= q) {
                REQUIRE(d == 0, "p=%d q=%d: %d members where p >= q", p, q, d);
                continue;
            }
            double plain = busiest_counted(p, q, 0), chosen = d > 0 ? busiest_counted(p, q, d) : plain;
            REQUIRE(d == 0 || chosen < plain - 1e-9, "p=%d q=%d: %d members load %g, plain %g", p, q, d, chosen,
                    plain);
            for (int e = 1; e <= p && e < q; e++)
                REQUIRE(busiest_counted(p, q, e) >= chosen - 1e-9, "p=%d q=%d: %d members load %g < chosen %d: %g",
                        p, q, e, busiest_counted(p, q, e), d, chosen);
        }
    /* The splits measured (docs/performance.md, forty-first session). */
    REQUIRE_EQ(ig_relay_members_for(4, 12), 3);
    REQUIRE_EQ(ig_relay_members_for(3, 6), 2);
    REQUIRE_EQ(ig_relay_members_for(3, 4), 2); /* test_fc_variants: receivers members of two blocks */
    REQUIRE_EQ(ig_relay_most_memberships(3, 4, 2), 2);
    REQUIRE_EQ(ig_relay_members_for(8, 8), 0);
    REQUIRE_EQ(ig_relay_members_for(12, 4), 0);
    REQUIRE_EQ(ig_relay_members_for(3, 9), 0);
}
END_TEST

/* The point of the walks: with p <= q, no two senders start at the same
 * owner, so the first pieces land on p different links at once. */
START_TEST(walks_start_apart)
{
    for (int q = 1; q <= MAX_PQ; q++)
        for (int p = 1; p <= q; p++) {
            unsigned char first[MAX_PQ] = { 0 };
            for (int i = 0; i < p; i++) {
                int o = ig_relay_owner_at(p, q, i, 0);
                REQUIRE(!first[o], "p=%d q=%d: two senders start at owner %d", p, q, o);
                first[o] = 1;
            }
        }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("relay_plan");
    TCase *tc = tcase_create("plan");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, pieces_cover_each_block_exactly);
    tcase_add_test(tc, parts_cover_each_piece_exactly);
    tcase_add_test(tc, every_walk_meets_every_owner_once);
    tcase_add_test(tc, members_deliver_every_piece_once);
    tcase_add_test(tc, most_memberships_are_the_ceiling);
    tcase_add_test(tc, members_lighten_the_busiest_link);
    tcase_add_test(tc, walks_start_apart);
    suite_add_tcase(s, tc);
    return ig_run_suite(s);
}
