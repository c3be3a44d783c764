/*
 * The opening round for MPI_Allgatherv (src/opening_plan.h): each process
 * expects its own size from each peer and names it in that peer's tag, and
 * a sender that expects nothing stays until it has learnt that its
 * receivers are small with its block.  Each scenario is followed by a plain MPI_Allgatherv
 * (uneven blocks, full duplex) whose every byte is checked, so that a
 * message left in flight by the scenario would show there.
 *
 * usage: opening_v LEFT [hard|correct|learned|large]
 * Blocks: process r of a group sends size_of(r) ints (uneven, every third
 * one empty); receivers place the blocks in reverse order with gaps of
 * GAP ints, which must stay untouched.  MPI_ERRORS_RETURN on the
 * inter-communicator.
 *   uneven-left    the left group sends, the right group receives
 *   uneven-right   the other way
 *   uneven-full    both ways
 *   one-large      as uneven-full, with left rank 0 sending LARGE ints: a
 *                  block the model may not serve with the direct algorithm
 *                  alone, which the others' small blocks must not strand
 *   learned        uneven-left three times (after two, the left group's
 *                  senders, whose receivers were all small, have learnt
 *                  to leave early), then twice the same with left rank 0
 *                  sending HUGE ints: the first time the others leave
 *                  early, and where the huge block makes the receivers not
 *                  small (always over UCX, whose tags do not name 2 MiB)
 *                  the call ends pair by pair, left rank 0, which stayed
 *                  (a size it never sent), sending its block late; the
 *                  second time the others, told by their receivers'
 *                  messages of the first, stay, and every process goes on
 *                  to the agreement.  Every block checked.  Not in
 *                  "correct" (it may end pair by pair); alone with
 *                  "learned".
 *   less-from-one  right rank 0
 *   less-from-one  right rank 0 expects one int less from left rank 0
 *                  than it sends (erroneous): right rank 0 reports
 *                  MPI_ERR_TRUNCATE and keeps every other block; every
 *                  other process succeeds with every block
 *   more-from-one  right rank 0 expects 5 ints more from left rank 0
 *                  (erroneous, nothing truncated): every process succeeds,
 *                  right rank 0 with the ints that were sent
 *   large-left     the left group sends LARGE ints each, the right group
 *                  receives: half duplex, blocks the model does not serve
 *                  with the direct algorithm alone at 1+3, so every
 *                  process goes on to the agreement (test_opening.sh
 *                  counts it): only a process that neither sends nor
 *                  expects data is small whatever the sizes
 *                  (src/opening.c).  Alone with "large".
 * With "correct", only the correct scenarios (uneven-*, one-large).
 * With "hard" (where the opening applies: Open MPI), also:
 *   null-displs    left rank 0 passes NULL displacements: it reports
 *                  MPI_ERR_BUFFER, as Open MPI 4.1 does (whose peers then
 *                  wait for it forever), the right group, missing its
 *                  block, an error; the other left processes succeed
 *   null-counts    left rank 0 passes NULL receive counts: it reports
 *                  MPI_ERR_ARG, the library's class (Open MPI 4.1 crashes),
 *                  the others as in null-displs
 *   negative-count left rank 0 expects -1 ints from right rank 0: it
 *                  reports MPI_ERR_COUNT, the others as in null-displs
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GAP 3
#define LARGE 65536
#define HUGE (8 * LARGE)
#define MAX_REMOTE 16
/* At least size_of(r) for every r < MAX_REMOTE, and more-from-one's 5. */
#define MAX_BLOCK (16 * (MAX_REMOTE + 1) + MAX_REMOTE + 5)
#define GUARD (-7)

typedef struct {
    MPI_Comm inter;
    int is_left, lrank, rank, nlocal, nremote;
    int *sbuf, *rbuf;
    int counts[MAX_REMOTE], displs[MAX_REMOTE];
    size_t span; /* ints of rbuf in use */
} ctx;

static int size_of(int rank) { return rank % 3 == 1 ? 0 : 16 * (rank + 1) + rank; }

static int value(int from_left, int sender, int i) { return (from_left ? 1 : -1) * (sender * 100003 + i * 7 + 1); }

/* This process's send block of `count` ints, and receive layout for remote
 * blocks of counts[s] (reverse order, gaps), rbuf filled with the guard. */
static void prepare(ctx *c, int count, const int *counts)
{
    size_t cursor = GAP;
    for (int i = 0; i < count; i++)
        c->sbuf[i] = value(c->is_left, c->lrank, i);
    for (int s = c->nremote - 1; s >= 0; s--) {
        c->counts[s] = counts[s];
        c->displs[s] = (int)cursor;
        cursor += (size_t)(counts[s] > 0 ? counts[s] : 0) + GAP;
    }
    c->span = cursor;
    for (size_t i = 0; i < cursor; i++)
        c->rbuf[i] = GUARD;
}

/* Every remote block but `skip`'s (-1: none) in place, `have[s]` ints of
 * it, and every gap untouched. */
static void check(const ctx *c, const char *what, const int *have, int skip)
{
    char *touched = calloc(c->span, 1);
    for (int s = 0; s < c->nremote; s++) {
        for (int i = 0; i < c->counts[s]; i++)
            touched[c->displs[s] + i] = 1;
        if (s == skip)
            continue;
        for (int i = 0; i < have[s]; i++) {
            int got = c->rbuf[c->displs[s] + i], want = value(!c->is_left, s, i);
            if (got != want)
                TEST_FAIL("%s: rank %d, block of remote %d, int %d: %d, expected %d", what, c->rank, s, i, got, want);
        }
    }
    for (size_t i = 0; i < c->span; i++)
        if (!touched[i] && c->rbuf[i] != GUARD)
            TEST_FAIL("%s: rank %d: gap int %zu written (%d)", what, c->rank, i, c->rbuf[i]);
    free(touched);
}

/* The remote group's sizes when `sends` (0: it sends nothing). */
static void remote_sizes(const ctx *c, int sends, int *counts)
{
    for (int s = 0; s < c->nremote; s++)
        counts[s] = sends ? size_of(s) : 0;
}

/* A correct call: the left group sends if left_sends, the right if right_sends. */
static void uneven(ctx *c, const char *what, int left_sends, int right_sends, int left0_sends)
{
    int counts[MAX_REMOTE], mine = c->is_left ? left_sends : right_sends;
    remote_sizes(c, c->is_left ? right_sends : left_sends, counts);
    int count = mine ? size_of(c->lrank) : 0;
    if (left0_sends > 0 && c->is_left && c->lrank == 0)
        count = left0_sends;
    if (left0_sends > 0 && !c->is_left)
        counts[0] = left0_sends;
    prepare(c, count, counts);
    int rc = MPI_Allgatherv(c->sbuf, count, MPI_INT, c->rbuf, c->counts, c->displs, MPI_INT, c->inter);
    test_expect_class(rc, MPI_SUCCESS, what);
    check(c, what, c->counts, -1);
}

static void plain(ctx *c, const char *after)
{
    char what[96];
    snprintf(what, sizeof what, "plain call after %s", after);
    uneven(c, what, 1, 1, 0);
}

static void uneven_left(ctx *c) { uneven(c, "uneven-left", 1, 0, 0); }
static void uneven_right(ctx *c) { uneven(c, "uneven-right", 0, 1, 0); }
static void uneven_full(ctx *c) { uneven(c, "uneven-full", 1, 1, 0); }
static void one_large(ctx *c) { uneven(c, "one-large", 1, 1, LARGE); }

static void large_left(ctx *c)
{
    int counts[MAX_REMOTE];
    for (int s = 0; s < c->nremote; s++)
        counts[s] = c->is_left ? 0 : LARGE;
    int count = c->is_left ? LARGE : 0;
    prepare(c, count, counts);
    int rc = MPI_Allgatherv(c->sbuf, count, MPI_INT, c->rbuf, c->counts, c->displs, MPI_INT, c->inter);
    test_expect_class(rc, MPI_SUCCESS, "large-left");
    check(c, "large-left", c->counts, -1);
}

static void learned(ctx *c)
{
    for (int i = 0; i < 3; i++)
        uneven(c, "learned (small calls)", 1, 0, 0);
    for (int i = 0; i < 2; i++)
        uneven(c, "learned (one huge block)", 1, 0, HUGE);
}

/* Right rank 0 expects `delta` ints more (or less) from left rank 0. */
static void off_by(ctx *c, const char *what, int delta)
{
    int counts[MAX_REMOTE], have[MAX_REMOTE];
    remote_sizes(c, 1, counts);
    memcpy(have, counts, sizeof counts);
    int right0 = !c->is_left && c->lrank == 0;
    if (right0)
        counts[0] += delta; /* left rank 0 sends size_of(0) > 0 ints */
    prepare(c, size_of(c->lrank), counts);
    int rc = MPI_Allgatherv(c->sbuf, size_of(c->lrank), MPI_INT, c->rbuf, c->counts, c->displs, MPI_INT, c->inter);
    test_expect_class(rc, right0 && delta < 0 ? MPI_ERR_TRUNCATE : MPI_SUCCESS, what);
    /* What a truncated receive keeps is undefined (MPI): not checked. */
    check(c, what, have, right0 && delta < 0 ? 0 : -1);
}

static void less_from_one(ctx *c) { off_by(c, "less-from-one", -1); }
static void more_from_one(ctx *c) { off_by(c, "more-from-one", 5); }

/* Left rank 0's arguments cannot be used: NULL displacements, NULL
 * counts, or a negative count. */
enum unusable_kind { NULL_DISPLS, NULL_COUNTS, NEGATIVE_COUNT };

static void unusable(ctx *c, const char *what, enum unusable_kind kind)
{
    static const int class_of[] = { [NULL_DISPLS] = MPI_ERR_BUFFER, [NULL_COUNTS] = MPI_ERR_ARG,
                                    [NEGATIVE_COUNT] = MPI_ERR_COUNT };
    int counts[MAX_REMOTE];
    remote_sizes(c, 1, counts);
    int left0 = c->is_left && c->lrank == 0;
    if (left0 && kind == NEGATIVE_COUNT)
        counts[0] = -1;
    prepare(c, size_of(c->lrank), counts);
    int rc = MPI_Allgatherv(c->sbuf, size_of(c->lrank), MPI_INT, c->rbuf,
                            left0 && kind == NULL_COUNTS ? NULL : c->counts,
                            left0 && kind == NULL_DISPLS ? NULL : c->displs, MPI_INT, c->inter);
    if (left0) {
        test_expect_class(rc, class_of[kind], what);
    } else if (!c->is_left) {
        test_expect_error(rc, what); /* without left rank 0's block */
        check(c, what, c->counts, 0);
    } else {
        test_expect_class(rc, MPI_SUCCESS, what);
        check(c, what, c->counts, -1);
    }
}

static void null_displs(ctx *c) { unusable(c, "null-displs", NULL_DISPLS); }
static void null_counts(ctx *c) { unusable(c, "null-counts", NULL_COUNTS); }
static void negative_count(ctx *c) { unusable(c, "negative-count", NEGATIVE_COUNT); }

int main(int argc, char **argv)
{
    ctx c = { 0 };
    MPI_Init(&argc, &argv);
    int left = argc > 1 ? atoi(argv[1]) : 2, hard = argc > 2 && strcmp(argv[2], "hard") == 0,
        correct_only = argc > 2 && strcmp(argv[2], "correct") == 0,
        learned_only = argc > 2 && strcmp(argv[2], "learned") == 0,
        large_only = argc > 2 && strcmp(argv[2], "large") == 0;
    c.inter = test_intercomm(left, &c.is_left);
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    MPI_Comm_set_errhandler(c.inter, MPI_ERRORS_RETURN);
    MPI_Comm_rank(c.inter, &c.lrank);
    MPI_Comm_size(c.inter, &c.nlocal);
    MPI_Comm_remote_size(c.inter, &c.nremote);
    if (c.nremote > MAX_REMOTE || (large_only && c.nremote > HUGE / LARGE))
        TEST_FAIL("at most %d processes a group", large_only ? HUGE / LARGE : MAX_REMOTE);
    c.sbuf = malloc(sizeof(int) * HUGE);
    c.rbuf = malloc(sizeof(int) * ((size_t)HUGE + (size_t)(MAX_BLOCK + GAP) * (MAX_REMOTE + 1)));
    if (c.sbuf == NULL || c.rbuf == NULL)
        TEST_FAIL("out of memory");
    enum { CORRECT, LEARNED, LARGE_ONLY, ERRONEOUS, HARD };
    struct {
        void (*run)(ctx *);
        const char *name;
        int kind;
    } scenarios[] = { { uneven_left, "uneven-left", CORRECT },       { uneven_right, "uneven-right", CORRECT },
                      { uneven_full, "uneven-full", CORRECT },       { one_large, "one-large", CORRECT },
                      { learned, "learned", LEARNED },               { large_left, "large-left", LARGE_ONLY },
                      { less_from_one, "less-from-one", ERRONEOUS }, { more_from_one, "more-from-one", ERRONEOUS },
                      { null_displs, "null-displs", HARD },          { null_counts, "null-counts", HARD },
                      { negative_count, "negative-count", HARD } };
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
        if ((scenarios[i].kind == HARD && !hard) || (scenarios[i].kind != CORRECT && correct_only) ||
            (scenarios[i].kind != LEARNED && learned_only) || (scenarios[i].kind == LARGE_ONLY) != large_only)
            continue;
        scenarios[i].run(&c);
        plain(&c, scenarios[i].name);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    MPI_Comm_free(&c.inter);
    if (c.rank == 0)
        printf("PASS opening_v\n");
    free(c.sbuf);
    free(c.rbuf);
    MPI_Finalize();
    return 0;
}
