/*
 * The opening round (src/opening_plan.h), simulated without MPI for every
 * layout of small groups: each process's sizes, whether it is small, and
 * whether its arguments are unusable, chosen freely (so also in every
 * erroneous way); and processes of an MPI_Allgatherv, which expect their
 * own size from each peer and never leave early ("stays"), alone and mixed
 * with the others.  The round is safe when:
 *   - both ends of a pair judge it alike (done or not), so the verdicts
 *     and the late blocks each have exactly one sender and one receiver;
 *   - every process that does not leave after round one makes the same
 *     choice (go on to the agreement, or finish pair by pair), and when it
 *     is "go on" nobody left (the agreement needs everyone);
 *   - pair by pair, every block between usable processes is delivered
 *     exactly once, whole where it fits, flagged truncated where not;
 *   - a correct call ends after round one everywhere (small sizes) or goes
 *     on everywhere.
 * And the decision's "small" answers alike from both groups in a correct
 * call, and only where the agreed decision is the direct algorithm.
 */
#include "check_runner.h"

#include "decide.h"
#include "opening_plan.h"

#include <stdio.h>
#include <stdlib.h>

#define MAXP 6
#define BIG (IG_OPENING_MAX_BYTES + 5)

/* MPI_TAG_UB of Open MPI's ob1 layer, of its UCX layer, and the least MPI
 * allows (opening_plan.h: ig_opening_max_bytes). */
static const int64_t tag_ubs[] = { 2147483647, 8388607, 32767 };

typedef struct {
    int n[2], np;
    int64_t max_bytes; /* what the communicator's tags name exactly */
    ig_opening_self self[MAXP];
    /* For a process that stays (an MPI_Allgatherv): what it expects from
     * each peer, in place of self[x].expect. */
    int64_t expect_from[MAXP][MAXP];
} layout;

static int group_of(const layout *l, int i) { return i < l->n[0] ? 0 : 1; }

/* Process x as peer y sees it: what it expects from y (opening.c's
 * self_toward). */
static ig_opening_self toward(const layout *l, int x, int y)
{
    ig_opening_self view = l->self[x];
    if (view.stays && !view.hard)
        view.expect = l->expect_from[x][y];
    return view;
}

/* What the receiver sees of the sender's round-one message: a sender in
 * pieces sends only its first piece there (the tag then names the whole). */
static ig_opening_heard heard_by(const layout *l, int receiver, int sender)
{
    ig_opening_self s = toward(l, sender, receiver), r = toward(l, receiver, sender);
    int64_t bytes = s.small ? s.send : 0, room = r.hard ? 0 : r.expect;
    if (s.pieces && bytes > IG_OPENING_PIECE_BYTES)
        bytes = IG_OPENING_PIECE_BYTES;
    int truncated = bytes > room;
    return ig_opening_heard_from(ig_opening_tag(&s, l->max_bytes), truncated ? room : bytes, truncated, room);
}

enum { ENDED, GO_ON, PAIR_BY_PAIR };

/* Process x's verdict from what it heard (its peers, in rank order). */
static int verdict_of(const layout *l, int x, int n_done, const ig_opening_heard *heard_by_x)
{
    ig_opening_heard peers[MAXP];
    int n = 0;
    for (int y = 0; y < l->np; y++)
        if (group_of(l, x) != group_of(l, y))
            peers[n++] = heard_by_x[y];
    return ig_opening_verdict(&l->self[x], n_done, n, peers);
}

/* One simulated call; fails the test on any broken property. */
static void simulate(const layout *l)
{
    int done[MAXP][MAXP] = { { 0 } }, n_done[MAXP] = { 0 }, peers[MAXP] = { 0 }, state[MAXP];
    ig_opening_heard heard[MAXP][MAXP];
    for (int x = 0; x < l->np; x++)
        for (int y = 0; y < l->np; y++) {
            if (group_of(l, x) == group_of(l, y))
                continue;
            heard[x][y] = heard_by(l, x, y);
            ig_opening_self view = toward(l, x, y);
            done[x][y] = ig_opening_pair_done(&view, &heard[x][y]);
            n_done[x] += done[x][y];
            peers[x]++;
        }
    for (int x = 0; x < l->np; x++)
        for (int y = 0; y < l->np; y++)
            REQUIRE(done[x][y] == done[y][x], "pair %d-%d judged differently", x, y);
    /* The verdicts, between undone pairs. */
    int went_on = -1;
    for (int x = 0; x < l->np; x++) {
        if (n_done[x] == peers[x] || ig_opening_self_leaves_early(&l->self[x])) {
            state[x] = ENDED;
            continue;
        }
        int64_t verdicts[MAXP];
        int n = 0;
        for (int y = 0; y < l->np; y++)
            if (group_of(l, x) != group_of(l, y) && ig_opening_talks_on(done[x][y], &heard[x][y])) {
                REQUIRE(!ig_opening_self_leaves_early(&l->self[y]) && n_done[y] < peers[y],
                        "verdict from %d, which has left", y);
                REQUIRE(ig_opening_talks_on(done[y][x], &heard[y][x]), "verdict %d -> %d not expected", y, x);
                verdicts[n++] = verdict_of(l, y, n_done[y], heard[y]);
            }
        int go = ig_opening_all_go_on(verdict_of(l, x, n_done[x], heard[x]), n, verdicts);
        REQUIRE(went_on < 0 || went_on == go, "process %d chooses differently", x);
        went_on = go;
        state[x] = go ? GO_ON : PAIR_BY_PAIR;
    }
    for (int x = 0; x < l->np && went_on == 1; x++) {
        REQUIRE(state[x] == GO_ON, "process %d left while the others go on to the agreement", x);
        REQUIRE(l->self[x].hard == l->self[0].hard, "going on with processes of unlike hardness");
    }
    /* Pair by pair: late blocks matched, every usable block delivered once. */
    for (int x = 0; x < l->np; x++)
        for (int y = 0; y < l->np; y++) {
            if (group_of(l, x) == group_of(l, y))
                continue;
            ig_opening_self sv = toward(l, x, y), rv = toward(l, y, x);
            const ig_opening_self *s = &sv, *r = &rv;
            int sends = state[x] == PAIR_BY_PAIR && ig_opening_sends_late(s, &heard[x][y]);
            int receives = state[y] == PAIR_BY_PAIR && ig_opening_receives_late(&heard[y][x]);
            REQUIRE(sends == receives, "late block %d -> %d: sent %d, received %d", x, y, sends, receives);
            REQUIRE(!sends || state[y] == PAIR_BY_PAIR, "late block %d -> %d to a process that left", x, y);
            /* A process that left early expects nothing (a block sent to
             * it is taken truncated to nothing). */
            if (state[y] == GO_ON || s->hard || r->hard || ig_opening_self_leaves_early(r))
                continue;
            int in_round_one = s->small, late = sends;
            REQUIRE(in_round_one + late == 1, "block %d -> %d delivered %d times", x, y, in_round_one + late);
            if (state[y] == ENDED)
                REQUIRE(s->send == r->expect, "process %d left with a block of the wrong size", y);
        }
    /* A correct call: one outcome for all. */
    int correct = 1;
    for (int x = 0; x < l->np; x++)
        for (int y = 0; y < l->np; y++)
            if (group_of(l, x) != group_of(l, y)) {
                ig_opening_self a = toward(l, x, y), b = toward(l, y, x);
                correct &= !a.hard && !b.hard && a.send == b.expect && a.small == b.small;
            }
    for (int x = 1; x < l->np && correct; x++)
        REQUIRE(state[x] == state[0] && state[0] != PAIR_BY_PAIR, "a correct call split (%d, %d)", state[0],
                state[x]);
}

/* Views a process may bring: sizes 0, 8, 16, beyond the tag's cap; small
 * or not where it may be; or unusable arguments; or a sender that leaves
 * early with 8 or 16 bytes in pieces (the pieces' size plays no part in
 * the judgement: the tag carries the whole block's). */
static int view_count(void) { return 4 * 4 * 2 + 3; }

static ig_opening_self view(int v, int64_t max_bytes)
{
    static const int64_t sizes[4] = { 0, 8, 16, BIG };
    if (v == 4 * 4 * 2)
        return (ig_opening_self){ .hard = 1 };
    if (v > 4 * 4 * 2)
        return (ig_opening_self){ .send = sizes[v - 4 * 4 * 2], .small = 1, .pieces = 1 };
    ig_opening_self s = { .send = sizes[v % 4], .expect = sizes[(v / 4) % 4], .small = v / 16 };
    if (s.send >= max_bytes || s.expect >= max_bytes)
        s.small = 0; /* never small beyond the cap (ig_decide_opening_sends) */
    return s;
}

/* In the trees every process of the larger group stays (it passes the
 * roots' messages on) and a root never cuts its block into pieces; the relay passes on what a direct message would have
 * carried, so each pair hears what heard_by says (tree_layouts). */
static void make_tree(layout *l)
{
    int roots = l->n[0] <= l->n[1] ? 0 : 1;
    for (int x = 0; x < l->np; x++) {
        l->self[x].pieces = 0;
        if (group_of(l, x) == roots || l->self[x].hard)
            continue;
        l->self[x].stays = 1;
        l->self[x].expects_any = l->self[x].expect > 0;
        for (int y = 0; y < l->np; y++)
            l->expect_from[x][y] = l->self[x].expect;
    }
}

/* Every layout of views on groups of n0 and n1 processes; in the tree
 * (make_tree) where `tree` says so. */
static void enumerate(int n0, int n1, int64_t max_bytes, int tree)
{
    layout l = { .n = { n0, n1 }, .np = n0 + n1, .max_bytes = max_bytes };
    long total = 1;
    for (int i = 0; i < l.np; i++)
        total *= view_count();
    for (long k = 0; k < total; k++) {
        long rest = k;
        for (int i = 0; i < l.np; i++, rest /= view_count())
            l.self[i] = view((int)(rest % view_count()), max_bytes);
        if (tree)
            make_tree(&l);
        simulate(&l);
    }
}

/* Every layout of up to four processes (in the trees where `tree` says
 * so), with tags that name every size here, and with tags that stop
 * between 8 and 16 (where a 16-byte call is "16 or more" in its tags,
 * never small). */
static void every_layout_up_to_four(int tree)
{
    const int64_t caps[] = { IG_OPENING_MAX_BYTES, 12 };
    for (int c = 0; c < 2; c++)
        for (int n0 = 1; n0 <= 3; n0++)
            for (int n1 = 1; n0 + n1 <= 4; n1++)
                enumerate(n0, n1, caps[c], tree);
}

START_TEST(every_layout_up_to_four_processes)
{
    every_layout_up_to_four(0);
}
END_TEST

START_TEST(random_layouts_of_six)
{
    srand(12345);
    for (int k = 0; k < 300000; k++) {
        layout l = { .n = { 1 + rand() % 5, 0 }, .max_bytes = k % 2 ? 12 : IG_OPENING_MAX_BYTES };
        l.n[1] = 6 - l.n[0];
        l.np = 6;
        for (int i = 0; i < l.np; i++)
            l.self[i] = view(rand() % view_count(), l.max_bytes);
        simulate(&l);
    }
}
END_TEST

/* An MPI_Allgatherv process: it stays, and expects from each peer one of
 * the sizes (a small process never beyond the cap). */
static void make_staying(layout *l, int x, int64_t send, int small, const int64_t *expect_from)
{
    l->self[x] = (ig_opening_self){ .send = send, .small = small, .stays = 1 };
    for (int y = 0; y < l->np; y++) {
        l->expect_from[x][y] = expect_from[y];
        l->self[x].expects_any |= group_of(l, x) != group_of(l, y) && expect_from[y] > 0;
        if (expect_from[y] >= l->max_bytes && group_of(l, x) != group_of(l, y))
            l->self[x].small = 0;
    }
    if (send >= l->max_bytes)
        l->self[x].small = 0;
}

/* Every MPI_Allgatherv layout of up to three processes (each process's
 * block, smallness, and what it expects from each peer), plus a hard
 * process in its place; and random ones of six, alone and mixed with
 * MPI_Allgather processes (an erroneous program). */
START_TEST(allgatherv_layouts)
{
    static const int64_t sizes[4] = { 0, 8, 16, BIG };
    const int64_t caps[] = { IG_OPENING_MAX_BYTES, 12 };
    for (int c = 0; c < 2; c++)
        for (int n0 = 1; n0 <= 2; n0++)
            for (int n1 = 1; n0 + n1 <= 3; n1++) {
                layout l = { .n = { n0, n1 }, .np = n0 + n1, .max_bytes = caps[c] };
                /* Per process: 4 blocks x 2 smallness x 4^(peers) expectations, or hard. */
                int peers_max = n0 > n1 ? n0 : n1, per = 8;
                for (int i = 0; i < peers_max; i++)
                    per *= 4;
                per += 1;
                long total = 1;
                for (int i = 0; i < l.np; i++)
                    total *= per;
                for (long k = 0; k < total; k++) {
                    long rest = k;
                    for (int x = 0; x < l.np; x++, rest /= per) {
                        int v = (int)(rest % per);
                        if (v == per - 1) {
                            l.self[x] = (ig_opening_self){ .hard = 1, .stays = 1 };
                            continue;
                        }
                        int64_t from[MAXP] = { 0 };
                        int e = v / 8;
                        for (int y = 0; y < l.np; y++)
                            if (group_of(&l, x) != group_of(&l, y)) {
                                from[y] = sizes[e % 4];
                                e /= 4;
                            }
                        make_staying(&l, x, sizes[v % 4], (v / 4) % 2, from);
                    }
                    simulate(&l);
                }
            }
    srand(54321);
    for (int k = 0; k < 200000; k++) {
        layout l = { .n = { 1 + rand() % 5, 0 }, .max_bytes = k % 2 ? 12 : IG_OPENING_MAX_BYTES };
        l.n[1] = 6 - l.n[0];
        l.np = 6;
        int mixed = k % 3 == 0;
        for (int x = 0; x < l.np; x++) {
            if (mixed && rand() % 2) {
                l.self[x] = view(rand() % view_count(), l.max_bytes);
                continue;
            }
            int64_t from[MAXP];
            for (int y = 0; y < l.np; y++)
                from[y] = sizes[rand() % 4];
            make_staying(&l, x, sizes[rand() % 4], rand() % 2, from);
            if (rand() % 16 == 0)
                l.self[x] = (ig_opening_self){ .hard = 1, .stays = 1 };
        }
        simulate(&l);
    }
}
END_TEST

/* A correct MPI_Allgatherv with blocks of different sizes, every process
 * small: every pair is done after round one, on every process (the
 * staying senders too); with one sender not small, no process ends in the
 * round (the pairs with the others' small blocks are done, the large one's
 * not: they finish pair by pair, never half gone on). */
START_TEST(allgatherv_correct_calls)
{
    for (int large = 0; large < 2; large++) {
        layout l = { .n = { 3, 2 }, .np = 5, .max_bytes = IG_OPENING_MAX_BYTES };
        const int64_t blocks[3] = { 8, 0, 16 };
        for (int x = 0; x < 3; x++) {
            int64_t from[MAXP] = { 0 };
            make_staying(&l, x, blocks[x], !(large && x == 2), from);
        }
        for (int x = 3; x < 5; x++) {
            int64_t from[MAXP] = { blocks[0], blocks[1], blocks[2] };
            make_staying(&l, x, 0, 1, from);
        }
        simulate(&l);
        for (int x = 0; x < 3; x++)
            for (int y = 3; y < 5; y++) {
                ig_opening_self sx = toward(&l, x, y), sy = toward(&l, y, x);
                ig_opening_heard hx = heard_by(&l, x, y), hy = heard_by(&l, y, x);
                REQUIRE(!ig_opening_self_leaves_early(&sx) && !ig_opening_peer_leaves_early(&hy),
                        "an MPI_Allgatherv sender leaves early");
                int done = ig_opening_pair_done(&sx, &hx);
                REQUIRE(done == ig_opening_pair_done(&sy, &hy), "pair %d-%d judged differently", x, y);
                REQUIRE(done == !(large && x == 2), "pair %d-%d: done %d with large %d", x, y, done, large);
            }
    }
}
END_TEST

START_TEST(tags_carry_what_a_pair_compares)
{
    for (size_t u = 0; u < sizeof tag_ubs / sizeof tag_ubs[0]; u++) {
        int64_t max = ig_opening_max_bytes(tag_ubs[u]);
        REQUIRE(max > 4000 && max <= IG_OPENING_MAX_BYTES, "tags up to %lld name sizes below %lld",
                (long long)tag_ubs[u], (long long)max);
        int64_t expects[] = { 0, 1, max / 2, max - 1 };
        for (int e = 0; e < 4; e++)
            for (int small = 0; small < 2; small++) {
                ig_opening_self s = { .send = 3, .expect = expects[e], .small = small };
                int tag = ig_opening_tag(&s, max);
                REQUIRE(tag >= IG_OPENING_TAG_FIRST && tag <= tag_ubs[u], "tag %d out of range", tag);
                ig_opening_heard h = ig_opening_heard_from(tag, 3, 0, 3);
                REQUIRE(h.expect == expects[e] && h.small == small && !h.hard && !h.pieces && !h.stays,
                        "tag %d decoded wrongly", tag);
                REQUIRE(h.expects_any == (expects[e] > 0), "tag %d: expects from the group", tag);
                REQUIRE(ig_opening_tag_small(tag) == small, "tag %d: small", tag);
                /* A staying process (MPI_Allgatherv) names what it expects
                 * from this receiver, which may be nothing while it expects
                 * data from the receiver's group (any): said apart. */
                for (int any = expects[e] > 0; any < 2; any++) {
                    s.stays = 1;
                    s.expects_any = any;
                    tag = ig_opening_tag(&s, max);
                    h = ig_opening_heard_from(tag, 3, 0, 3);
                    REQUIRE(tag <= tag_ubs[u] && h.expect == expects[e] && h.small == small && !h.hard &&
                                !h.pieces && h.stays == small && h.expects_any == any &&
                                ig_opening_tag_small(tag) == small,
                            "staying tag %d decoded wrongly", tag);
                }
            }
        /* Every flag at once, and sizes beyond what the tags name: still legal tags,
         * which say "the cap or more". */
        ig_opening_self hard = { .hard = 1 }, huge = { .expect = BIG }, all = { .expect = max, .small = 1, .hard = 1 },
                        pieces = { .send = max - 1, .small = 1, .pieces = 1 };
        REQUIRE(ig_opening_heard_from(ig_opening_tag(&hard, max), 0, 0, 0).hard, "hard lost");
        REQUIRE(ig_opening_tag(&huge, max) <= tag_ubs[u] && ig_opening_tag(&all, max) <= tag_ubs[u] &&
                    ig_opening_tag(&pieces, max) <= tag_ubs[u],
                "a tag beyond MPI_TAG_UB %lld", (long long)tag_ubs[u]);
        REQUIRE(ig_opening_heard_from(ig_opening_tag(&huge, max), 0, 0, 0).expect == max,
                "a size beyond the cap is not named as the cap");
        REQUIRE(ig_opening_named(max + 1, max) == max && ig_opening_named(max - 1, max) == max - 1,
                "sizes named as a peer's tag names them");
    }
    /* The largest tag that fits, exactly: one more would not. */
    REQUIRE(IG_OPENING_TAG_FIRST + (ig_opening_max_bytes(8388607) << 3 | 7) <= 8388607 &&
                IG_OPENING_TAG_FIRST + ((ig_opening_max_bytes(8388607) + 1) << 3 | 7) > 8388607,
            "the UCX cap is not the largest that fits");
    REQUIRE(ig_opening_max_bytes(0) == 0 && ig_opening_max_bytes(2147483647) == IG_OPENING_MAX_BYTES,
            "caps at the ends");
}
END_TEST

/* A sender in pieces: its tag carries its block's size, which the receiver
 * compares with what it expects, whatever the first piece brought. */
START_TEST(pieces_carry_the_block_size)
{
    int64_t sends[] = { IG_OPENING_PIECE_BYTES + 1, 4 << 20, IG_OPENING_MAX_BYTES - 1 };
    for (int i = 0; i < 3; i++) {
        ig_opening_self s = { .send = sends[i], .small = 1, .pieces = 1 };
        int tag = ig_opening_tag(&s, IG_OPENING_MAX_BYTES);
        REQUIRE(tag >= IG_OPENING_TAG_FIRST && tag <= IG_OPENING_TAG_FIRST + (IG_OPENING_MAX_BYTES << 3 | 7), "tag %d out of range", tag);
        ig_opening_heard fits = ig_opening_heard_from(tag, IG_OPENING_PIECE_BYTES, 0, sends[i]);
        REQUIRE(fits.pieces && fits.small && fits.expect == 0 && fits.got == sends[i] && !fits.truncated,
                "a block of %lld in pieces decoded wrongly", (long long)sends[i]);
        ig_opening_self receiver = { .expect = sends[i], .small = 1 };
        REQUIRE(ig_opening_pair_done(&receiver, &fits), "a correct pair in pieces is not done");
        ig_opening_heard longer = ig_opening_heard_from(tag, IG_OPENING_PIECE_BYTES, 0, sends[i] - 1);
        REQUIRE(longer.truncated, "a block in pieces larger than expected is not flagged truncated");
        receiver.expect = sends[i] + 1;
        ig_opening_heard shorter = ig_opening_heard_from(tag, IG_OPENING_PIECE_BYTES, 0, sends[i] + 1);
        REQUIRE(!shorter.truncated && !ig_opening_pair_done(&receiver, &shorter),
                "a shorter block in pieces makes a done pair");
    }
    /* Only a sender that leaves early (it expects nothing) may say pieces. */
    ig_opening_self receives_too = { .send = 1 << 20, .expect = 8, .small = 1, .pieces = 1 };
    REQUIRE(!ig_opening_heard_from(ig_opening_tag(&receives_too, IG_OPENING_MAX_BYTES), 8, 0, 1 << 20).pieces,
            "a process that expects blocks sent a pieces tag");
    REQUIRE(ig_opening_piece_count(1) == 1 && ig_opening_piece_count(IG_OPENING_PIECE_BYTES) == 1 &&
                ig_opening_piece_count(IG_OPENING_PIECE_BYTES + 1) == 2 &&
                ig_opening_piece_count(262144) == 5,
            "piece counts");
}
END_TEST

/* The pieces after a round-one message: as many as the sender sends after
 * its first (ig_opening_piece_count - 1), read from the tag alone, as a
 * process that left early settles them (opening_left.h) -- and the same
 * number a receiver that stayed takes (from the size the tag names). */
START_TEST(pieces_after_follow_the_tag)
{
    const int64_t sends[] = { IG_OPENING_PIECE_BYTES + 1, 2 * IG_OPENING_PIECE_BYTES, 262144, 80000,
                              IG_OPENING_MAX_BYTES - 1 };
    for (size_t i = 0; i < sizeof sends / sizeof sends[0]; i++) {
        ig_opening_self s = { .send = sends[i], .small = 1, .pieces = 1 };
        int tag = ig_opening_tag(&s, IG_OPENING_MAX_BYTES);
        int64_t after = ig_opening_pieces_after(tag);
        REQUIRE(after == ig_opening_piece_count(sends[i]) - 1 && after >= 1,
                "a block of %lld in pieces: %lld pieces after the first", (long long)sends[i], (long long)after);
        for (int64_t room = 0; room <= sends[i]; room += sends[i]) {
            ig_opening_heard h = ig_opening_heard_from(tag, room < IG_OPENING_PIECE_BYTES ? room : IG_OPENING_PIECE_BYTES,
                                                       room == 0, room);
            REQUIRE(h.pieces && ig_opening_piece_count(h.got) - 1 == after,
                    "a receiver with room %lld takes another number of pieces", (long long)room);
        }
    }
    /* No pieces follow any other round-one message, nor the later ones. */
    const ig_opening_self others[] = { { .send = 8, .expect = 8, .small = 1 }, { .send = 1 << 20, .expect = 0 },
                                       { .hard = 1 }, { .send = 0, .expect = 0, .small = 1 },
                                       { .send = 1 << 20, .expect = 8, .small = 1, .pieces = 1 } };
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        REQUIRE(ig_opening_pieces_after(ig_opening_tag(&others[i], IG_OPENING_MAX_BYTES)) == 0, "pieces after round-one message %zu", i);
    REQUIRE(ig_opening_pieces_after(IG_OPENING_TAG_VERDICT) == 0 && ig_opening_pieces_after(IG_OPENING_TAG_LATE) == 0 &&
                ig_opening_pieces_after(IG_OPENING_TAG_PIECE) == 0,
            "pieces after a message that is not of round one");
}
END_TEST

/* Whether a sender in pieces stops waiting for a peer: exactly when the
 * peer's round-one tag says that it leaves early, or when nothing is known
 * of it (no round-one tag). */
START_TEST(tag_says_who_leaves_early)
{
    const ig_opening_self selves[] = { { .send = 8, .expect = 0, .small = 1 },
                                       { .send = 0, .expect = 0, .small = 1 },
                                       { .send = 8, .expect = 0, .small = 1, .stays = 1 },
                                       { .send = 0, .expect = 0, .small = 1, .stays = 1 },
                                       { .send = 8, .expect = 8, .small = 1, .stays = 1 },
                                       { .send = 8, .expect = 0, .stays = 1 },
                                       { .send = 1 << 20, .expect = 0, .small = 1, .pieces = 1 },
                                       { .send = 8, .expect = 8, .small = 1 },
                                       { .send = 0, .expect = 1 << 20, .small = 1 },
                                       { .send = 1 << 20, .expect = 0 },
                                       { .send = 8, .expect = 8 },
                                       { .hard = 1 } };
    for (size_t i = 0; i < sizeof selves / sizeof selves[0]; i++)
        REQUIRE(ig_opening_tag_leaves_early(ig_opening_tag(&selves[i], IG_OPENING_MAX_BYTES)) == ig_opening_self_leaves_early(&selves[i]),
                "self %zu: its tag says otherwise about leaving early", i);
    REQUIRE(ig_opening_tag_leaves_early(-1) && ig_opening_tag_leaves_early(IG_OPENING_TAG_PIECE),
            "a peer of which nothing is known is waited for");
    /* ig_opening_tag_small: what a sender that left early reads from its
     * receivers' settled messages; nothing known is not small. */
    REQUIRE(!ig_opening_tag_small(-1) && !ig_opening_tag_small(IG_OPENING_TAG_VERDICT),
            "a message of which nothing is known counts small");
    for (size_t i = 0; i < sizeof selves / sizeof selves[0]; i++)
        REQUIRE(ig_opening_tag_small(ig_opening_tag(&selves[i], IG_OPENING_MAX_BYTES)) == selves[i].small,
                "self %zu: its tag says otherwise about small", i);
}
END_TEST

/* ig_decide_opening_sends: the same answer from both groups of a correct
 * call, and "small" only where the agreed shape is served by direct alone.
 * ig_decide_opening_call_is_large: an agreed correct call is large (the
 * calls after it, by ig_decide_opening_predict_skip, skip the round) exactly
 * where it is not small (and not empty), and never an erroneous call or one
 * some process cannot take part in. */
/* Whether an agreed call of these sizes (group 0 sends a, group 1 sends b)
 * is large (a program that calls with them again skips the round from its
 * second call on); *skips counts the large ones. */
static void check_skip_next(int64_t a, int64_t b, int n0, int n1, int nodes, int over, int64_t max,
                            const ig_settings *s, int small, int *skips)
{
    ig_shape sh;
    ig_shape_guess_uniform(0, a, b, 0, 0, n0, n1, nodes, over, &sh);
    int skip = ig_decide_opening_call_is_large(&sh, 0, max, s);
    REQUIRE(skip == (!(a == 0 && b == 0) && !small), "%d+%d %lld/%lld: skip %d, small %d", n0, n1, (long long)a,
            (long long)b, skip, small);
    *skips += skip;
    if (!skip)
        return;
    ig_shape odd = sh;
    odd.sizes = IG_SIZES_TRUNCATE;
    REQUIRE(!ig_decide_opening_call_is_large(&odd, 0, max, s), "skips after an erroneous call");
    odd = sh;
    odd.reason = IG_FALLBACK_ARGUMENTS;
    REQUIRE(!ig_decide_opening_call_is_large(&odd, 0, max, s), "skips after unusable arguments");
}

/* Whether the agreed choice ch for shape sh is what the opening's trees
 * carry (decide.h, ig_decide_opening_tree): fc or the star from the
 * smaller group, the roots, whose blocks fit one eager message. */
static int tree_carries(const ig_shape *sh, const ig_choice *ch, const ig_settings *s)
{
    int roots = sh->n[0] < sh->n[1] ? 0 : 1;
    uint64_t most = sh->n[roots] == 1 ? (uint64_t)IG_OPENING_PIECE_BYTES : (uint64_t)IG_OPENING_TREE_MULTI_BYTES;
    return ig_decide_opening_tree(0, sh->n[0], sh->n[1], sh->nodes, s) && sh->max_block[1 - roots] == 0 &&
           sh->max_block[roots] > 0 && sh->max_block[roots] <= most &&
           ch->kind == IG_DECISION_SERVE && ch->nsteps == 1 &&
           (ch->steps[0].algorithm == IG_ALG_FC || ch->steps[0].algorithm == IG_ALG_STAR);
}

/* The opening's trees (opening_plan.h, "The tree"): for every number of
 * nodes a tree can have, every node but the root (node 0) has exactly one
 * parent, which lists it among its children; children come largest
 * subtree first; no node has more than ceil(log2 n) children (opening_round.h's
 * room) or lies deeper than that.  And in every tree of up to three roots
 * the nodes are the other group's ranks, each once, and a rank's node
 * maps back to it. */
START_TEST(tree_spans_every_node)
{
    for (int p = 1; p <= IG_OPENING_TREE_MAX_ROOTS; p++)
        for (int q = 1; p + q <= IG_OPENING_MAX_PROCS; q++)
            for (int t = 0; t < p; t++) {
                int seen[IG_OPENING_MAX_PROCS] = { 0 };
                for (int v = 1; v <= q; v++) {
                    int rank = ig_opening_tree_rank_of_node(v, t, p, q);
                    REQUIRE(rank >= 0 && rank < q, "tree %d of %d+%d: node %d is rank %d", t, p, q, v, rank);
                    REQUIRE(ig_opening_tree_node_of_rank(rank, t, p, q) == v, "tree %d of %d+%d: node %d", t, p, q, v);
                    seen[rank]++;
                }
                for (int m = 0; m < q; m++)
                    REQUIRE(seen[m] == 1, "tree %d of %d+%d: rank %d seen %d times", t, p, q, m, seen[m]);
            }
    /* The order in which a process takes the trees' messages: by its depth
     * in each, then by root; and where a process is another's parent in
     * two trees, both take those two trees in the same order (so that the
     * parent's messages come in the order the child takes them). */
    int shared_parents = 0;
    for (int p = 1; p <= IG_OPENING_TREE_MAX_ROOTS; p++)
        for (int q = 1; p + q <= IG_OPENING_MAX_PROCS; q++)
            for (int m = 0; m < q; m++) {
                int order[IG_OPENING_TREE_MAX_ROOTS], place[IG_OPENING_TREE_MAX_ROOTS];
                REQUIRE(ig_opening_tree_order(m, p, q, order) == p, "order of %d trees", p);
                for (int i = 0; i < p; i++) {
                    place[order[i]] = i;
                    int node = ig_opening_tree_node_of_rank(m, order[i], p, q);
                    if (i > 0) {
                        int before = ig_opening_tree_node_of_rank(m, order[i - 1], p, q);
                        REQUIRE(ig_opening_tree_depth(before) < ig_opening_tree_depth(node) ||
                                    (ig_opening_tree_depth(before) == ig_opening_tree_depth(node) &&
                                     order[i - 1] < order[i]),
                                "%d+%d rank %d: trees out of order", p, q, m);
                    }
                }
                for (int t1 = 0; t1 < p; t1++)
                    for (int t2 = t1 + 1; t2 < p; t2++) {
                        int up1 = ig_opening_tree_parent(ig_opening_tree_node_of_rank(m, t1, p, q));
                        int up2 = ig_opening_tree_parent(ig_opening_tree_node_of_rank(m, t2, p, q));
                        if (up1 == 0 || up2 == 0 || ig_opening_tree_rank_of_node(up1, t1, p, q) !=
                                                        ig_opening_tree_rank_of_node(up2, t2, p, q))
                            continue;
                        int parent = ig_opening_tree_rank_of_node(up1, t1, p, q), theirs[IG_OPENING_TREE_MAX_ROOTS];
                        int their_place[IG_OPENING_TREE_MAX_ROOTS];
                        ig_opening_tree_order(parent, p, q, theirs);
                        for (int i = 0; i < p; i++)
                            their_place[theirs[i]] = i;
                        REQUIRE((place[t1] < place[t2]) == (their_place[t1] < their_place[t2]),
                                "%d+%d: rank %d and its parent %d in trees %d and %d take them in other orders", p, q,
                                m, parent, t1, t2);
                        shared_parents++;
                    }
            }
    REQUIRE(shared_parents > 0, "no process has the same parent in two trees: the order is never tested");
    for (int n = 1; n <= IG_OPENING_MAX_PROCS; n++) {
        int heard[IG_OPENING_MAX_PROCS] = { 0 }, log2n = 0;
        while ((1 << log2n) < n)
            log2n++;
        for (int v = 0; v < n; v++) {
            int children[8], count = ig_opening_tree_children(n, v, children);
            REQUIRE(count <= log2n, "node %d of %d has %d children", v, n, count);
            for (int i = 0; i < count; i++) {
                REQUIRE(children[i] > v && children[i] < n, "node %d of %d: child %d", v, n, children[i]);
                REQUIRE(ig_opening_tree_parent(children[i]) == v, "node %d of %d: child %d has another parent", v,
                        n, children[i]);
                REQUIRE(i == 0 || children[i] < children[i - 1], "node %d of %d: children not largest first", v, n);
                heard[children[i]]++;
            }
            int depth = 0;
            for (int u = v; u != 0; u = ig_opening_tree_parent(u))
                depth++;
            REQUIRE(depth <= log2n, "node %d of %d at depth %d", v, n, depth);
        }
        REQUIRE(heard[0] == 0, "the single process hears from the tree");
        for (int v = 1; v < n; v++)
            REQUIRE(heard[v] == 1, "node %d of %d hears %d times", v, n, heard[v]);
    }
}
END_TEST

/* Every layout in the trees of up to four processes (one or two roots),
 * and random ones of six (one to three roots, either group), erroneous
 * ones included, keeps every property of simulate(). */
START_TEST(tree_layouts)
{
    every_layout_up_to_four(1);
    srand(777);
    for (int k = 0; k < 300000; k++) {
        int roots = 1 + k % 3, low = (k / 3) % 2;
        layout l = { .n = { low ? roots : 6 - roots, low ? 6 - roots : roots }, .np = 6,
                     .max_bytes = k % 4 < 2 ? 12 : IG_OPENING_MAX_BYTES };
        for (int i = 0; i < l.np; i++)
            l.self[i] = view(rand() % view_count(), l.max_bytes);
        make_tree(&l);
        simulate(&l);
    }
}
END_TEST

/* Where the trees apply: from the operation, the group sizes, the nodes
 * and the settings alone.  And on the emulated cluster's model (t_s 78
 * us, t_w 78 ns/byte, sixteen nodes), 4 KiB blocks from one, two or three
 * roots to the other 15, 14 or 13 processes are small from both groups
 * (fc alone serves them, down the trees), so a correct call ends in the
 * round; blocks above one eager message are small for neither, though fc
 * serves them too, and 16 KiB blocks only from one root
 * (IG_OPENING_TREE_MULTI_BYTES). */
START_TEST(tree_applies_and_serves_small_blocks)
{
    ig_settings s;
    ig_settings_defaults(&s);
    REQUIRE(ig_decide_opening_tree(0, 1, 4, 2, &s) && ig_decide_opening_tree(0, 4, 1, 2, &s), "1+4 between nodes");
    REQUIRE(!ig_decide_opening_tree(0, 1, 3, 4, &s), "1+3: three direct messages");
    REQUIRE(!ig_decide_opening_tree(1, 1, 8, 9, &s), "MPI_Allgatherv: tags per peer");
    REQUIRE(ig_decide_opening_tree(0, 2, 8, 10, &s) && ig_decide_opening_tree(0, 12, 3, 15, &s), "2+8, 12+3");
    REQUIRE(!ig_decide_opening_tree(0, 2, 7, 9, &s), "2+7: fewer than four others a root");
    REQUIRE(!ig_decide_opening_tree(0, 4, 16, 20, &s), "4+16: more roots than the trees take");
    /* Every split: the roots' group is the smaller one, so that no
     * process is a root and a member. */
    for (int n0 = 1; n0 < IG_OPENING_MAX_PROCS; n0++)
        for (int n1 = 1; n0 + n1 <= IG_OPENING_MAX_PROCS; n1++)
            if (ig_decide_opening_tree(0, n0, n1, n0 + n1, &s))
                REQUIRE(n0 != n1 && (n0 < n1 ? n0 : n1) <= IG_OPENING_TREE_MAX_ROOTS, "trees at %d+%d", n0, n1);
    REQUIRE(!ig_decide_opening_tree(0, 1, 8, 1, &s), "within a node by default");
    s.opening = IG_OPENING_TREE;
    REQUIRE(ig_decide_opening_tree(0, 1, 8, 1, &s), "within a node where the settings say tree");
    ig_settings_defaults(&s);
    s.net_model = (ig_cost_params){ 7.8e-5, 7.8e-8, 0 };
    const int64_t max = ig_opening_max_bytes(tag_ubs[0]);
    for (int p = 1; p <= IG_OPENING_TREE_MAX_ROOTS; p++)
        for (int g = 0; g < 2; g++) {
            int n0 = g == 0 ? p : 16 - p, n1 = 16 - n0, roots = g, other = 1 - g;
            REQUIRE(ig_decide_opening_sends(roots, 4096, 0, n0, n1, 16, 0, max, &s), "a root, 4 KiB at %d+%d", n0, n1);
            REQUIRE(ig_decide_opening_sends(other, 0, 4096, n0, n1, 16, 0, max, &s), "the others, 4 KiB at %d+%d", n0,
                    n1);
            REQUIRE(!ig_decide_opening_sends(roots, 128 * 1024, 0, n0, n1, 16, 0, max, &s), "128 KiB is small");
            /* 16 KiB: fc serves it, down one tree, but not down two or three. */
            REQUIRE(ig_decide_opening_sends(roots, 16384, 0, n0, n1, 16, 0, max, &s) == (p == 1),
                    "16 KiB from %d roots", p);
            REQUIRE(!ig_decide_opening_sends(other, 0, 128 * 1024, n0, n1, 16, 0, max, &s), "128 KiB is small");
            ig_shape sh;
            ig_choice ch;
            ig_shape_guess_uniform(roots, 4096, 0, 0, 0, n0, n1, 16, 0, &sh);
            ig_decide(&sh, 0, &s, &ch);
            REQUIRE(tree_carries(&sh, &ch, &s), "4 KiB from the roots at %d+%d is not the trees'", n0, n1);
            sh.reason = IG_FALLBACK_NONE;
            sh.sizes = IG_SIZES_AGREE;
            REQUIRE(!ig_decide_opening_call_is_large(&sh, 0, max, &s), "an agreed 4 KiB call counts as large");
        }
}
END_TEST

START_TEST(small_is_joint_and_direct)
{
    ig_settings s;
    ig_settings_defaults(&s);
    const int64_t sizes[] = { 0, 1, 1024, 4096, 16384, 65536, 262144, 1 << 20, 4 << 20, 64 << 20 };
    const int n = (int)(sizeof sizes / sizeof sizes[0]);
    int smalls = 0, skips = 0;
    /* Groups up to the opening's 32 processes in all, the larger one
     * beyond direct's window of 16 too; tags of ob1, UCX and the least;
     * several nodes, one, and one oversubscribed. */
    for (size_t u = 0; u < sizeof tag_ubs / sizeof tag_ubs[0]; u++)
        for (int place = 0; place < 3; place++)
            for (int n0 = 1, nodes = place == 0 ? 2 : 1, over = place == 2; n0 < IG_OPENING_MAX_PROCS; n0 += 3)
                for (int n1 = 1; n0 + n1 <= IG_OPENING_MAX_PROCS; n1 += 5)
                    for (int a = 0; a < n; a++)
                        for (int b = 0; b < n; b++) {
                            int64_t max = ig_opening_max_bytes(tag_ubs[u]);
                            int low = ig_decide_opening_sends(0, sizes[a], sizes[b], n0, n1, nodes, over, max, &s);
                            int high = ig_decide_opening_sends(1, sizes[b], sizes[a], n0, n1, nodes, over, max, &s);
                            REQUIRE(low == high, "groups disagree at %d+%d %lld/%lld", n0, n1, (long long)sizes[a],
                                    (long long)sizes[b]);
                            check_skip_next(sizes[a], sizes[b], n0, n1, nodes, over, max, &s, low, &skips);
                            if (!low)
                                continue;
                            smalls++;
                            REQUIRE(sizes[a] < max && sizes[b] < max, "small at sizes its tags cannot name");
                            ig_shape sh;
                            ig_choice ch;
                            ig_shape_guess_uniform(0, sizes[a], sizes[b], 1, 1, n0, n1, nodes, over, &sh);
                            ig_decide(&sh, 0, &s, &ch);
                            REQUIRE(ch.kind == IG_DECISION_SERVE && ch.nsteps == 1 &&
                                        (ch.steps[0].algorithm == IG_ALG_DIRECT || tree_carries(&sh, &ch, &s)),
                                    "small at %d+%d but the agreed choice is neither direct nor the tree's fc", n0,
                                    n1);
                        }
    REQUIRE(smalls > 0, "nothing is ever small");
    REQUIRE(skips > 0, "no call is ever skipped after");
    s.opening = 0;
    REQUIRE(!ig_decide_opening_applies(&s, 2, 2, 1), "applies while off");
    s.opening = 1;
    REQUIRE(ig_decide_opening_applies(&s, 2, 2, 1), "does not apply by default");
    REQUIRE(!ig_decide_opening_applies(&s, 2, 2, 0), "applies where a truncated receive aborts");
    REQUIRE(!ig_decide_opening_applies(&s, 20, 13, 1), "applies beyond its room");
    s.topology = IG_TOPOLOGY_RING;
    REQUIRE(!ig_decide_opening_applies(&s, 2, 2, 1), "applies where direct cannot be chosen");
}
END_TEST

/* The converse of small_is_joint_and_direct, where groups meet the direct
 * step's window: sizes the tags name, served by the direct algorithm
 * alone, and the larger group within that step's window (every send posted
 * at once, as the opening posts them) are small; one process more, not.
 * Groups of 14 to 18 processes against 1 to the opening's room. */
START_TEST(small_up_to_the_direct_window)
{
    ig_settings s;
    ig_settings_defaults(&s);
    const int64_t sizes[] = { 1, 1024, 16384 };
    const int64_t max = ig_opening_max_bytes(tag_ubs[0]);
    int at_window = 0, beyond = 0;
    for (int place = 0; place < 2; place++)
        for (int n0 = 14, nodes = place == 0 ? 2 : 1; n0 <= 18; n0++)
            for (int n1 = 1; n0 + n1 <= IG_OPENING_MAX_PROCS; n1++)
                for (int a = 0; a < 3; a++)
                    for (int b = 0; b < 3; b++)
                        for (int g = 0; g < 2; g++) {
                            int lo = g == 0 ? n0 : n1, hi = g == 0 ? n1 : n0;
                            ig_shape sh;
                            ig_choice ch;
                            ig_shape_guess_uniform(0, sizes[a], sizes[b], 0, 0, lo, hi, nodes, 0, &sh);
                            ig_decide(&sh, 0, &s, &ch);
                            int direct = ch.kind == IG_DECISION_SERVE && ch.nsteps == 1 &&
                                         ch.steps[0].algorithm == IG_ALG_DIRECT;
                            int larger = lo > hi ? lo : hi;
                            int want = (direct && larger <= ch.steps[0].window) || tree_carries(&sh, &ch, &s);
                            int got = ig_decide_opening_sends(0, sizes[a], sizes[b], lo, hi, nodes, 0, max, &s);
                            REQUIRE(got == want, "%d+%d, %d node(s), %lld/%lld bytes: small %d, want %d", lo, hi,
                                    nodes, (long long)sizes[a], (long long)sizes[b], got, want);
                            at_window += want && larger == ch.steps[0].window;
                            beyond += direct && larger > ch.steps[0].window;
                        }
    REQUIRE(at_window > 0, "no small call with the larger group at the direct window");
    REQUIRE(beyond > 0, "no direct call with the larger group beyond the direct window");
}
END_TEST

/* MPI_Allgatherv (ig_decide_opening_sends_v): a receiver judges the other
 * group's blocks as they are.  8+8 between nodes on the emulated cluster's
 * model, blocks of 1/8 to 8/8 of 64 KiB: uniform blocks of 64 KiB would be
 * the direct algorithm's, these are the relay's (docs/performance.md,
 * thirty-seventh session), so the receivers are not small and the call
 * goes on to the agreement, where the relay serves it; and after it the
 * next call skips the round.  Blocks all equal: small from both groups,
 * as ig_decide_opening_sends says. */
START_TEST(allgatherv_small_from_the_blocks)
{
    ig_settings s;
    ig_settings_defaults(&s);
    s.net_model = (ig_cost_params){ 1.2e-4, 7.9e-8, 0, 0 };
    const int64_t k = 65536, total = 36 * k / 8, max = IG_OPENING_MAX_BYTES;
    REQUIRE(ig_decide_opening_sends(1, 0, k, 8, 8, 2, 0, max, &s), "uniform 64 KiB blocks are not direct's");
    REQUIRE(!ig_decide_opening_sends_v(1, 0, k, total, 8, 8, 2, 0, max, &s),
            "a receiver of blocks of 1/8 to 8/8 of 64 KiB is small");
    REQUIRE(ig_decide_opening_sends_v(1, 0, k, 8 * k, 8, 8, 2, 0, max, &s) &&
                ig_decide_opening_sends_v(0, k, 0, 0, 8, 8, 2, 0, max, &s),
            "equal MPI_Allgatherv blocks are not small where MPI_Allgather's are");
    REQUIRE(!ig_decide_opening_sends_v(1, 0, k, k - 1, 8, 8, 2, 0, max, &s), "a total below the largest block");
    ig_shape sh;
    ig_shape_guess_uniform(1, 0, k, 0, 0, 8, 8, 2, 0, &sh);
    sh.total[0] = (uint64_t)total;
    REQUIRE(ig_decide_opening_call_is_large(&sh, 1, max, &s), "the round not skipped after blocks the relay serves");
    sh.total[0] = (uint64_t)(8 * k);
    REQUIRE(!ig_decide_opening_call_is_large(&sh, 1, max, &s), "the round skipped after equal small blocks");
    /* Scattered blocks take the relay away in the agreed decision, not in
     * the round's judgement (sizes alone): the skip is judged alike. */
    sh.total[0] = (uint64_t)total;
    sh.scattered = 1;
    REQUIRE(ig_decide_opening_call_is_large(&sh, 1, max, &s), "layout flags changed the skip");
}
END_TEST

/* ig_decide_opening_predict_skip against its definition, computed here
 * from the whole history: unlike the last call only where the call after
 * the last two classes was unlike the last of them each of the last three
 * times they came, else like the last call (the history starts as if
 * after two small calls).  Then the patterns it is for: repeated sizes as
 * before, alternation and period three learnt. */
static int predicted_by_definition(const int *seq, int n)
{
    int seen = 0;
    for (int i = n - 2; i >= 1 && seen < 3; i--) {
        if (seq[i - 1] != seq[n - 2] || seq[i] != seq[n - 1])
            continue;
        if (seq[i + 1] == seq[i])
            return seq[n - 1];
        seen++;
    }
    return seen == 3 ? !seq[n - 1] : seq[n - 1];
}

/* Observes `calls` classes repeating `pattern` (of `period`); returns how
 * many were mispredicted after the first `warmup`. */
static int mispredicted_after(const int *pattern, int period, int calls, int warmup)
{
    ig_opening_history h = { 0 };
    int wrong = 0;
    for (int i = 0; i < calls; i++) {
        int large = pattern[i % period];
        wrong += i >= warmup && ig_decide_opening_predict_skip(&h) != large;
        ig_decide_opening_observe(&h, large);
    }
    return wrong;
}

START_TEST(skip_predicted_from_history)
{
    enum { CALLS = 300 };
    unsigned seed = 12345;
    for (int run = 0; run < 200; run++) {
        int seq[CALLS + 2] = { 0, 0 };
        ig_opening_history h = { 0 };
        for (int n = 2; n < CALLS + 2; n++) {
            int want = predicted_by_definition(seq, n);
            REQUIRE(ig_decide_opening_predict_skip(&h) == want, "run %d call %d: predicted %d, want %d", run, n - 2,
                    ig_decide_opening_predict_skip(&h), want);
            seed = seed * 1103515245u + 12345u;
            /* Runs of one class of random length, and random classes. */
            seq[n] = run % 2 ? (int)((seed >> 16) & 1u) : (seed >> 16) % 5 == 0 ? !seq[n - 1] : seq[n - 1];
            ig_decide_opening_observe(&h, seq[n]);
        }
    }
    ig_opening_history fresh = { 0 };
    REQUIRE(!ig_decide_opening_predict_skip(&fresh), "the first call skips the round");
    /* Repeated sizes: like the last call, so large calls skip from the
     * second on, small ones never (the rule of earlier sessions). */
    REQUIRE(mispredicted_after((const int[]){ 1 }, 1, 50, 1) == 0, "repeated large calls do not all skip");
    REQUIRE(mispredicted_after((const int[]){ 0 }, 1, 50, 0) == 0, "repeated small calls skip");
    /* A header and its data, and period three: learnt after a few calls,
     * where "like the last call" missed every call. */
    REQUIRE(mispredicted_after((const int[]){ 0, 1 }, 2, 50, 8) == 0, "small/large alternation not learnt");
    REQUIRE(mispredicted_after((const int[]){ 1, 0 }, 2, 50, 8) == 0, "large/small alternation not learnt");
    REQUIRE(mispredicted_after((const int[]){ 0, 1, 1 }, 3, 60, 12) == 0, "small, large, large not learnt");
    REQUIRE(mispredicted_after((const int[]){ 0, 0, 1 }, 3, 60, 12) == 0, "small, small, large not learnt");
    /* Where the two classes before do not tell what comes next, like the
     * last call: at most what that rule mispredicts. */
    REQUIRE(mispredicted_after((const int[]){ 0, 0, 0, 1, 1, 1 }, 6, 60, 0) <= 20, "runs of three");
}
END_TEST

/* The two choices a process makes alone before the round (decide.h):
 * pieces only for a block larger than one piece, between nodes unless the
 * settings ask for them everywhere; an MPI_Allgatherv sender that expects
 * nothing leaves early only after two calls in a row, with its block's
 * size, in which every receiver was small. */
START_TEST(pieces_and_learnt_early)
{
    ig_settings s;
    ig_settings_defaults(&s);
    const int64_t E = IG_OPENING_PIECE_BYTES;
    REQUIRE(ig_decide_opening_pieces(E + 1, 2, &s), "a block over one piece between nodes not in pieces");
    REQUIRE(!ig_decide_opening_pieces(E, 2, &s), "a block of one piece cut into pieces");
    REQUIRE(!ig_decide_opening_pieces(E + 1, 1, &s), "pieces within a node by default");
    s.opening = IG_OPENING_PIECES;
    REQUIRE(ig_decide_opening_pieces(E + 1, 1, &s), "pieces within a node not taken where the settings ask");
    REQUIRE(!ig_decide_opening_pieces(E, 1, &s), "a block of one piece cut where the settings ask for pieces");

    const int64_t max = 1 << 20, k = 4096;
    ig_opening_self sender = { .small = 1, .send = k, .expect = 0, .stays = 1 };
    ig_opening_receivers_seen seen = { .send = -1 };
    REQUIRE(!ig_decide_opening_learnt_early(&seen, &sender, max), "learnt before any call");
    ig_decide_opening_observe_receivers(&seen, k, 1);
    REQUIRE(!ig_decide_opening_learnt_early(&seen, &sender, max), "learnt after one call");
    ig_decide_opening_observe_receivers(&seen, k, 1);
    REQUIRE(ig_decide_opening_learnt_early(&seen, &sender, max), "not learnt after two small calls in a row");
    ig_decide_opening_observe_receivers(&seen, k, 1);
    REQUIRE(ig_decide_opening_learnt_early(&seen, &sender, max), "forgotten after a third small call");
    ig_opening_self other = sender;
    other.send = 2 * k;
    REQUIRE(!ig_decide_opening_learnt_early(&seen, &other, max), "learnt for another block size");
    other = sender;
    other.expect = 1;
    REQUIRE(!ig_decide_opening_learnt_early(&seen, &other, max), "learnt by a process that expects data");
    other = sender;
    other.stays = 0;
    REQUIRE(!ig_decide_opening_learnt_early(&seen, &other, max), "learnt by a process that does not stay");
    REQUIRE(!ig_decide_opening_learnt_early(&seen, &sender, k), "learnt for a block not below max_bytes");
    ig_opening_receivers_seen empty = { .send = 0, .streak = 2 };
    other = sender;
    other.send = 0;
    REQUIRE(!ig_decide_opening_learnt_early(&empty, &other, max), "learnt for an empty block");
    /* A call in which a receiver was not small starts over; so does
     * another size. */
    ig_decide_opening_observe_receivers(&seen, k, 0);
    REQUIRE(!ig_decide_opening_learnt_early(&seen, &sender, max), "still learnt after a receiver was not small");
    ig_decide_opening_observe_receivers(&seen, k, 1);
    REQUIRE(!ig_decide_opening_learnt_early(&seen, &sender, max), "learnt again after one call");
    ig_decide_opening_observe_receivers(&seen, 2 * k, 1);
    ig_decide_opening_observe_receivers(&seen, k, 1);
    REQUIRE(!ig_decide_opening_learnt_early(&seen, &sender, max), "a call of another size did not start over");
}
END_TEST

int main(void)
{
    Suite *suite = suite_create("opening");
    TCase *tc = tcase_create("opening");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, every_layout_up_to_four_processes);
    tcase_add_test(tc, random_layouts_of_six);
    tcase_add_test(tc, allgatherv_layouts);
    tcase_add_test(tc, allgatherv_correct_calls);
    tcase_add_test(tc, allgatherv_small_from_the_blocks);
    tcase_add_test(tc, tags_carry_what_a_pair_compares);
    tcase_add_test(tc, pieces_carry_the_block_size);
    tcase_add_test(tc, pieces_after_follow_the_tag);
    tcase_add_test(tc, tag_says_who_leaves_early);
    tcase_add_test(tc, small_is_joint_and_direct);
    tcase_add_test(tc, small_up_to_the_direct_window);
    tcase_add_test(tc, skip_predicted_from_history);
    tcase_add_test(tc, pieces_and_learnt_early);
    tcase_add_test(tc, tree_spans_every_node);
    tcase_add_test(tc, tree_layouts);
    tcase_add_test(tc, tree_applies_and_serves_small_blocks);
    suite_add_tcase(suite, tc);
    return ig_run_suite(suite);
}
