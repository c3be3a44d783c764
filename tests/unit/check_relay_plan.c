/*
 * Unit tests: the relay plan (src/relay_plan.h) for every 1 <= p, q <= 48.
 * Pieces cover each block exactly, every sender's walk meets every owner
 * once, and the order an owner relays in is its pieces' arrival order --
 * checked against a brute-force sort by the definition -- and a
 * permutation of the senders, so every receiver posts one receive for each
 * message relayed to it.
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
                ig_piece pc = ig_relay_piece(sizes[s], q, j);
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
            int parts = ig_relay_part_count(len, part_bytes);
            uint64_t want = part_bytes == 0 || len <= part_bytes ? 1 : (len + part_bytes - 1) / part_bytes;
            REQUIRE((uint64_t)parts == want, "piece %" PRIu64 " parts of %" PRIu64 ": %d parts, want %" PRIu64, len,
                    part_bytes, parts, want);
            uint64_t next = piece.offset;
            for (int u = 0; u < parts; u++) {
                ig_piece part = ig_relay_part(piece, part_bytes, u);
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

/* Where sender i's walk reaches `owner`, by the walk itself. */
static int place_by_walk(int p, int q, int i, int owner)
{
    for (int t = 0; t < q; t++)
        if (ig_relay_owner_at(p, q, i, t) == owner)
            return t;
    return -1;
}

START_TEST(relay_order_is_arrival_order)
{
    for (int p = 1; p <= MAX_PQ; p++)
        for (int q = 1; q <= MAX_PQ; q++)
            for (int owner = 0; owner < q; owner++) {
                int order[MAX_PQ], want[MAX_PQ], n = 0;
                unsigned char seen[MAX_PQ] = { 0 };
                ig_relay_arrival_order(p, q, owner, order);
                for (int t = 0; t < q; t++) /* by place, then by sender */
                    for (int i = 0; i < p; i++)
                        if (place_by_walk(p, q, i, owner) == t)
                            want[n++] = i;
                REQUIRE_EQ(n, p);
                for (int k = 0; k < p; k++) {
                    REQUIRE(order[k] >= 0 && order[k] < p && !seen[order[k]], "p=%d q=%d owner %d: order[%d] = %d", p, q,
                            owner, k, order[k]);
                    seen[order[k]] = 1;
                    REQUIRE(order[k] == want[k], "p=%d q=%d owner %d: order[%d] = %d, want %d", p, q, owner, k,
                            order[k], want[k]);
                }
            }
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
    tcase_add_test(tc, relay_order_is_arrival_order);
    tcase_add_test(tc, walks_start_apart);
    suite_add_tcase(s, tc);
    return ig_run_suite(s);
}
