/*
 * The opening round (src/opening_plan.h): calls that end after its first
 * round, calls finished pair by pair, calls that go on to the agreement,
 * each followed by a plain call whose every byte is checked, so that a
 * message left in flight by the scenario would show there.
 *
 * usage: opening LEFT [hard [dup-fails]] [after-large] [pieces [unfreed]] [alternate] [sink]
 *                [late-start] [tiny]
 * Both groups send N ints per process (full duplex) unless said otherwise;
 * MPI_ERRORS_RETURN on the inter-communicator.
 *   mixed-types  left rank 0 sends its N ints as one contiguous type, the
 *                others as N MPI_INT (a correct call): every process succeeds
 *   short-one    left rank 0 sends N/2 ints where N are expected
 *                (erroneous, nothing truncated): every process succeeds,
 *                the other senders' blocks arrive whole
 *   long-one     left rank 0 sends 2N ints where N are expected: the right
 *                group reports MPI_ERR_TRUNCATE, with the N ints that fit
 *                in place where a native receive keeps them (below), the
 *                left group succeeds
 *   expect-less  the right group expects N/2 from each sender (every pair
 *                truncates: no pair is done, all go on to the agreement):
 *                it reports MPI_ERR_TRUNCATE with the N/2 ints that fit
 *   large        the left group sends LARGE ints to the right group (half
 *                duplex; where the model does not choose the direct
 *                algorithm alone, the call goes on to the agreement)
 *   sink-zero    both groups send SUNK ints (above Open MPI's eager
 *                limits: 4 KiB in shared memory, 64 KiB over TCP), the
 *                right group expects nothing (erroneous): where it
 *                leaves early, its receives take the left group's
 *                blocks into the sink (src/p2p.h), not a placeholder
 *                Open MPI would write the whole block past (a crash
 *                before); it succeeds or reports MPI_ERR_TRUNCATE, the
 *                left group succeeds with every block
 * With "pieces" (run with INTERGATHER_OPENING=pieces and the direct
 * algorithm, so that the left group, which expects nothing, leaves early
 * and sends blocks above 60 KiB in eager pieces), half duplex:
 *   pieces-whole    LARGE ints (5 pieces), MPI_INT on both sides
 *   pieces-strided  PIECED ints (2 pieces) received into a strided vector
 *                   type (through the receiver's packed copy)
 *   pieces-long-strided  the same with left rank 0 sending 2 PIECED ints:
 *                   the right group reports MPI_ERR_TRUNCATE with the
 *                   PIECED ints that fit in place
 *   pieces-long     left rank 0 sends 2 PIECED ints (3 pieces) where
 *                   PIECED are expected: the right group reports
 *                   MPI_ERR_TRUNCATE with the PIECED ints that fit in place
 *                   (the first piece, and the second cut short)
 *   pieces-short    left rank 0 sends SHORTER ints (still 2 pieces):
 *                   every process succeeds, its ints arrive
 *   pieces-to-nothing  twice in a row (the second time with the left
 *                   group 0.2 s late), the left group sends PIECED ints,
 *                   the right group N, and every process expects
 *                   nothing: both groups leave early, and the right
 *                   group succeeds or reports MPI_ERR_TRUNCATE (it left
 *                   without waiting for the blocks); the pieces it did
 *                   not wait for must not reach the plain call after;
 *                   then once more followed at once by a barrier (within
 *                   a node the pieces are not eager: a sender waiting
 *                   for them to be taken would never reach it), once on
 *                   a duplicate freed at once, and with "unfreed" as the
 *                   last call before MPI_Finalize, on a communicator
 *                   never freed
 * With "sink", only the two sink-* scenarios (the second with "hard").
 * With "tiny" (instead of the scenarios), tiny-to-nothing: every process
 * sends one byte (MPI_BYTE) and expects nothing, so all leave early, and
 * each byte that comes fits the sink whole (no truncation); every process
 * returns MPI_SUCCESS or MPI_ERR_TRUNCATE (the call is erroneous: either
 * is an MPI library's answer; the script checks that every process
 * explains the bytes sent to it in vain), and the plain call after it is
 * checked.
 * With "late-start", the program starts MPI with PMPI_Init, which the
 * library does not see (as under a tool that initializes MPI itself), and
 * sets MPI_ERRORS_RETURN on MPI_COMM_WORLD: the library starts in the
 * first call, and where its start-up fails there (fail_malloc.c's
 * IG_TEST_FAIL_TYPE_STRUCT_RANK: no sink type) the process goes on
 * unserved, its sink receives into the fallback (src/p2p.c).
 * With "after-large", every scenario above (and the "hard" ones) comes
 * right after three large calls: where these go on to the agreement, the
 * next call on the communicator skips the opening round, predicted like
 * the last call (ig_decide_opening_predict_skip), so each scenario,
 * erroneous ones included, runs on the agreed path, and each plain call
 * after it (which the round would end) lets the round run again.  Three,
 * not one: two large calls are then followed by a large call as often as
 * by a scenario, so the prediction never learns "a scenario after large
 * calls" and never runs one in the round.
 * With "alternate" (instead of the scenarios): 20 times a plain call then
 * a large one, a program alternating small and large blocks; the
 * prediction learns it, so that from the ninth call of the alternation
 * on the plain calls run in the round and the large ones skip it.
 * With "hard" (where the opening round applies: the MPI library would
 * leave the other processes waiting on such calls):
 *   hard-count   left rank 0 passes a send count of -1: it reports
 *                MPI_ERR_COUNT, the right group (missing its block) an
 *                error, the other left processes succeed
 *   sink-in-place  right rank 0 passes MPI_IN_PLACE, every process
 *                sends SUNK ints: it reports MPI_ERR_ARG, having taken
 *                the left group's blocks into the sink (a crash before),
 *                the left group (missing its block) an error, the other
 *                right processes succeed with every block
 *   hard-order   left rank 0 passes a send count of -1 and a NULL receive
 *                type, right rank 0 MPI_IN_PLACE and a receive count of -1:
 *                they report MPI_ERR_TYPE and MPI_ERR_COUNT (Open MPI's
 *                order of checks); left rank 1, where there is one, a
 *                receive count of -1 and a NULL receive type: it reports
 *                MPI_ERR_TYPE (the receive type is checked first); every
 *                other process an error
 * And with "hard" too (Open MPI only: under MPICH the MPI library fails
 * the call on right rank 0 and leaves the others waiting):
 *   uncommitted-recv  right rank 0 receives with a type it never committed:
 *                every process succeeds with every block, as natively
 *                (Open MPI's collectives do not check a receive type's
 *                commit; the library receives with a committed duplicate)
 *                With "dup-fails" (run with fail_malloc.c's
 *                IG_TEST_FAIL_TYPE_DUP_RANK naming right rank 0, whose
 *                duplicate then cannot be made): right rank 0 reports
 *                MPI_ERR_NO_MEM and the left group, missing its block, an
 *                error; the other right processes succeed
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define N 256
#define LARGE 65536
#define PIECED 20000
#define SHORTER 16000
#define SUNK 20000

typedef struct {
    MPI_Comm inter;
    int is_left, lrank, rank, nremote;
    int dup_fails; /* the option of that name */
    int *sbuf, *rbuf; /* sbuf: LARGE ints; rbuf: nremote blocks of LARGE */
} ctx;

static int value(int is_left, int sender, int i)
{
    return (is_left ? 1 : -1) * (sender * 100003 + i * 7 + 1);
}

static void fill(ctx *c, int count)
{
    for (int i = 0; i < count; i++)
        c->sbuf[i] = value(c->is_left, c->lrank, i);
    memset(c->rbuf, 0xee, sizeof(int) * LARGE * (size_t)c->nremote);
}

/* The remote blocks this process holds: `count` ints of each sender at
 * `stride` spacing, except sender `skip` (-1: none). */
static void check(const ctx *c, const char *what, int count, int stride, int skip)
{
    for (int s = 0; s < c->nremote; s++) {
        if (s == skip)
            continue;
        for (int i = 0; i < count; i++) {
            int got = c->rbuf[(size_t)s * stride + i], want = value(!c->is_left, s, i);
            if (got != want)
                TEST_FAIL("%s: rank %d, block of remote %d, int %d: %d, expected %d", what, c->rank, s, i, got, want);
        }
    }
}

static void plain(ctx *c, const char *after)
{
    char what[64];
    snprintf(what, sizeof what, "plain call after %s", after);
    fill(c, N);
    test_expect_class(MPI_Allgather(c->sbuf, N, MPI_INT, c->rbuf, N, MPI_INT, c->inter), MPI_SUCCESS, what);
    check(c, what, N, N, -1);
}

static int left0(const ctx *c) { return c->is_left && c->lrank == 0; }
static int right0(const ctx *c) { return !c->is_left && c->lrank == 0; }
static int left1(const ctx *c) { return c->is_left && c->lrank == 1; }

static void mixed_types(ctx *c)
{
    MPI_Datatype block;
    MPI_Type_contiguous(N, MPI_INT, &block);
    MPI_Type_commit(&block);
    fill(c, N);
    int rc = left0(c) ? MPI_Allgather(c->sbuf, 1, block, c->rbuf, N, MPI_INT, c->inter)
                      : MPI_Allgather(c->sbuf, N, MPI_INT, c->rbuf, N, MPI_INT, c->inter);
    test_expect_class(rc, MPI_SUCCESS, "mixed-types");
    check(c, "mixed-types", N, N, -1);
    MPI_Type_free(&block);
}

static void short_one(ctx *c)
{
    fill(c, N);
    int rc = MPI_Allgather(c->sbuf, left0(c) ? N / 2 : N, MPI_INT, c->rbuf, N, MPI_INT, c->inter);
    test_expect_class(rc, MPI_SUCCESS, "short-one");
    check(c, "short-one", N, N, c->is_left ? -1 : 0);
    if (!c->is_left)
        check(c, "short-one (left rank 0's half block)", N / 2, N, -1);
}

/* Whether a receive of N ints cut short by a message of 2N keeps the N
 * that fit, here: MPI leaves that buffer undefined (Open MPI's ob1 layer
 * keeps them, its UCX layer does not).  Under Open MPI the opening's round
 * one receives such a block in place, as a native receive would, so the
 * right group checks it in long-one only where a native receive keeps it;
 * elsewhere (MPICH: no opening round) the agreed path takes the block
 * whole into scratch and keeps what fits.  Left rank 0 sends each right
 * process one such message. */
static int cut_receive_keeps_fit(ctx *c)
{
#ifdef OPEN_MPI
    fill(c, 2 * N);
    if (left0(c))
        for (int r = 0; r < c->nremote; r++)
            MPI_Send(c->sbuf, 2 * N, MPI_INT, r, 77, c->inter);
    if (c->is_left)
        return 1;
    int rc = MPI_Recv(c->rbuf, N, MPI_INT, 0, 77, c->inter, MPI_STATUS_IGNORE);
    test_expect_class(rc, MPI_ERR_TRUNCATE, "a receive cut short");
    for (int i = 0; i < N; i++)
        if (c->rbuf[i] != value(1, 0, i))
            return 0;
#else
    (void)c;
#endif
    return 1;
}

static void long_one(ctx *c)
{
    int keeps = cut_receive_keeps_fit(c);
    fill(c, 2 * N);
    int rc = MPI_Allgather(c->sbuf, left0(c) ? 2 * N : N, MPI_INT, c->rbuf, N, MPI_INT, c->inter);
    test_expect_class(rc, c->is_left ? MPI_SUCCESS : MPI_ERR_TRUNCATE, "long-one");
    check(c, "long-one", N, N, keeps ? -1 : 0); /* left rank 0's block as far as it fits, where kept */
}

static void expect_less(ctx *c)
{
    fill(c, N);
    int rc = MPI_Allgather(c->sbuf, N, MPI_INT, c->rbuf, c->is_left ? N : N / 2, MPI_INT, c->inter);
    test_expect_class(rc, c->is_left ? MPI_SUCCESS : MPI_ERR_TRUNCATE, "expect-less");
    check(c, "expect-less", c->is_left ? N : N / 2, c->is_left ? N : N / 2, -1); /* what fits, in place */
}

static void large(ctx *c)
{
    fill(c, LARGE);
    int rc = MPI_Allgather(c->sbuf, c->is_left ? LARGE : 0, MPI_INT, c->rbuf, c->is_left ? 0 : LARGE, MPI_INT,
                           c->inter);
    test_expect_class(rc, MPI_SUCCESS, "large");
    if (!c->is_left)
        check(c, "large", LARGE, LARGE, -1);
}

static void sink_zero(ctx *c)
{
    fill(c, SUNK);
    int rc = MPI_Allgather(c->sbuf, SUNK, MPI_INT, c->rbuf, c->is_left ? SUNK : 0, MPI_INT, c->inter);
    if (c->is_left || test_error_class(rc) != MPI_ERR_TRUNCATE)
        test_expect_class(rc, MPI_SUCCESS, "sink-zero");
    if (c->is_left)
        check(c, "sink-zero", SUNK, SUNK, -1);
}

static void sink_in_place(ctx *c)
{
    fill(c, SUNK);
    int rc = MPI_Allgather(right0(c) ? MPI_IN_PLACE : c->sbuf, SUNK, MPI_INT, c->rbuf, SUNK, MPI_INT, c->inter);
    if (right0(c))
        test_expect_class(rc, MPI_ERR_ARG, "sink-in-place");
    else if (c->is_left)
        test_expect_error(rc, "sink-in-place");
    else
        test_expect_class(rc, MPI_SUCCESS, "sink-in-place");
    if (!right0(c))
        check(c, "sink-in-place", SUNK, SUNK, c->is_left ? 0 : -1);
}

/* Half duplex from the left group: left rank 0 sends `first` ints, the
 * others `count`; the right group expects `count` into `rtype` blocks. */
static int half_from_left(ctx *c, int first, int count, int rcount, MPI_Datatype rtype)
{
    fill(c, first > count ? first : count);
    if (c->is_left)
        return MPI_Allgather(c->sbuf, left0(c) ? first : count, MPI_INT, c->rbuf, 0, MPI_INT, c->inter);
    return MPI_Allgather(c->sbuf, 0, MPI_INT, c->rbuf, rcount, rtype, c->inter);
}

/* Erroneous: the left group sends PIECED ints (2 pieces), the right
 * group N, every process expects nothing; both leave early.  With
 * `left_late`, the left group arrives 0.2 s after the right, so that the
 * right group leaves before any of the left's messages has come. */
static void pieces_to_nothing(ctx *c, MPI_Comm comm, int left_late)
{
    if (left_late) {
        MPI_Barrier(MPI_COMM_WORLD);
        if (c->is_left)
            usleep(200000);
    }
    fill(c, PIECED);
    int rc = MPI_Allgather(c->sbuf, c->is_left ? PIECED : N, MPI_INT, c->rbuf, 0, MPI_INT, comm);
    if (c->is_left || test_error_class(rc) != MPI_ERR_TRUNCATE)
        test_expect_class(rc, MPI_SUCCESS, "pieces-to-nothing");
}

/* Left rank 0 sends `first` ints, the others PIECED (2 pieces), received
 * into a strided vector type of PIECED ints (through the receiver's packed
 * copy of the slot): every receiver holds PIECED ints of every sender, and
 * reports `want` (MPI_ERR_TRUNCATE where `first` is more). */
static void pieces_strided(ctx *c, int first, int want, const char *what)
{
    MPI_Datatype strided;
    MPI_Type_vector(PIECED, 1, 2, MPI_INT, &strided);
    MPI_Type_commit(&strided);
    test_expect_class(half_from_left(c, first, PIECED, 1, strided), c->is_left ? MPI_SUCCESS : want, what);
    for (int s = 0; s < c->nremote && !c->is_left; s++)
        for (int i = 0; i < PIECED; i++) {
            int got = c->rbuf[(size_t)s * (2 * PIECED - 1) + 2 * (size_t)i], expected = value(1, s, i);
            if (got != expected)
                TEST_FAIL("%s: rank %d, block of remote %d, int %d: %d, expected %d", what, c->rank, s, i, got,
                          expected);
        }
    MPI_Type_free(&strided);
    plain(c, what);
}

static void pieces(ctx *c)
{
    test_expect_class(half_from_left(c, LARGE, LARGE, LARGE, MPI_INT), MPI_SUCCESS, "pieces-whole");
    if (!c->is_left)
        check(c, "pieces-whole", LARGE, LARGE, -1);
    plain(c, "pieces-whole");

    pieces_strided(c, PIECED, MPI_SUCCESS, "pieces-strided");
    pieces_strided(c, 2 * PIECED, MPI_ERR_TRUNCATE, "pieces-long-strided");

    test_expect_class(half_from_left(c, 2 * PIECED, PIECED, PIECED, MPI_INT),
                      c->is_left ? MPI_SUCCESS : MPI_ERR_TRUNCATE, "pieces-long");
    if (!c->is_left) /* left rank 0's 3 pieces as far as they fit: its first, its second cut short */
        check(c, "pieces-long", PIECED, PIECED, -1);
    plain(c, "pieces-long");

    test_expect_class(half_from_left(c, SHORTER, PIECED, PIECED, MPI_INT), MPI_SUCCESS, "pieces-short");
    if (!c->is_left) {
        check(c, "pieces-short", PIECED, PIECED, 0);
        check(c, "pieces-short (left rank 0's shorter block)", SHORTER, PIECED, -1);
    }
    plain(c, "pieces-short");

    pieces_to_nothing(c, c->inter, 0);
    pieces_to_nothing(c, c->inter, 1);
    plain(c, "pieces-to-nothing");

    /* The right group leaves before the left group comes and goes on to a
     * barrier: within a node the pieces are not eager, so a sender that
     * waited for them to be taken would never reach it. */
    pieces_to_nothing(c, c->inter, 1);
    MPI_Barrier(MPI_COMM_WORLD);
    plain(c, "pieces-to-nothing and a barrier");

    /* The same on a communicator freed right after (the receivers settle
     * the pieces there), and a barrier. */
    MPI_Comm dup;
    MPI_Comm_dup(c->inter, &dup);
    MPI_Comm_set_errhandler(dup, MPI_ERRORS_RETURN);
    pieces_to_nothing(c, dup, 1);
    MPI_Comm_free(&dup);
    MPI_Barrier(MPI_COMM_WORLD);
}

/* Erroneous: every process sends one byte and expects nothing; all leave
 * early.  A byte fits the sink whole (src/p2p.h: two bytes), so no
 * truncation tells the receiver that something came: the message's count
 * must (ig_sink_took_data), and every process explains the block. */
static void tiny_to_nothing(ctx *c)
{
    fill(c, 1);
    int rc = MPI_Allgather(c->sbuf, 1, MPI_BYTE, c->rbuf, 0, MPI_BYTE, c->inter);
    if (test_error_class(rc) != MPI_ERR_TRUNCATE)
        test_expect_class(rc, MPI_SUCCESS, "tiny-to-nothing");
}

static void hard_count(ctx *c)
{
    fill(c, N);
    int rc = MPI_Allgather(c->sbuf, left0(c) ? -1 : N, MPI_INT, c->rbuf, N, MPI_INT, c->inter);
    if (left0(c))
        test_expect_class(rc, MPI_ERR_COUNT, "hard-count");
    else if (c->is_left)
        test_expect_class(rc, MPI_SUCCESS, "hard-count");
    else
        test_expect_error(rc, "hard-count");
    if (!left0(c))
        check(c, "hard-count", N, N, c->is_left ? -1 : 0);
}

static void uncommitted_recv(ctx *c)
{
    MPI_Datatype never_committed;
    MPI_Type_contiguous(1, MPI_INT, &never_committed);
    fill(c, N);
    int rc = right0(c) ? MPI_Allgather(c->sbuf, N, MPI_INT, c->rbuf, N, never_committed, c->inter)
                       : MPI_Allgather(c->sbuf, N, MPI_INT, c->rbuf, N, MPI_INT, c->inter);
    if (c->dup_fails && right0(c)) {
        test_expect_class(rc, MPI_ERR_NO_MEM, "uncommitted-recv, no copy");
    } else if (c->dup_fails && c->is_left) {
        test_expect_error(rc, "uncommitted-recv, no copy");
        check(c, "uncommitted-recv, no copy", N, N, 0);
    } else {
        test_expect_class(rc, MPI_SUCCESS, "uncommitted-recv");
        check(c, "uncommitted-recv", N, N, -1);
    }
    MPI_Type_free(&never_committed);
}

/* Two mistakes in one process's arguments: the class is the first Open MPI
 * checks (ompi/mpi/c/allgather.c: receive type, receive count,
 * MPI_IN_PLACE, then the send side), as a native call would report it. */
static void hard_order(ctx *c)
{
    fill(c, N);
    int rc;
    if (left0(c)) /* a negative send count and a NULL receive type: MPI_ERR_TYPE */
        rc = MPI_Allgather(c->sbuf, -1, MPI_INT, c->rbuf, N, MPI_DATATYPE_NULL, c->inter);
    else if (right0(c)) /* MPI_IN_PLACE and a negative receive count: MPI_ERR_COUNT */
        rc = MPI_Allgather(MPI_IN_PLACE, N, MPI_INT, c->rbuf, -1, MPI_INT, c->inter);
    else if (left1(c)) /* a NULL receive type and a negative receive count: MPI_ERR_TYPE */
        rc = MPI_Allgather(c->sbuf, N, MPI_INT, c->rbuf, -1, MPI_DATATYPE_NULL, c->inter);
    else
        rc = MPI_Allgather(c->sbuf, N, MPI_INT, c->rbuf, N, MPI_INT, c->inter);
    if (left0(c) || left1(c))
        test_expect_class(rc, MPI_ERR_TYPE, "hard-order");
    else if (right0(c))
        test_expect_class(rc, MPI_ERR_COUNT, "hard-order");
    else
        test_expect_error(rc, "hard-order"); /* each misses a block of the other group's rank 0 */
}

/* The scenarios in order, each followed by a plain call; the "hard" ones
 * only with "hard". */
static const struct {
    void (*run)(ctx *);
    const char *name;
    int hard;
} scenarios[] = {
    { mixed_types, "mixed-types", 0 }, { short_one, "short-one", 0 }, { long_one, "long-one", 0 },
    { expect_less, "expect-less", 0 }, { large, "large", 0 },         { sink_zero, "sink-zero", 0 },
    { hard_count, "hard-count", 1 },   { sink_in_place, "sink-in-place", 1 },
    { uncommitted_recv, "uncommitted-recv", 1 }, { hard_order, "hard-order", 1 },
};

/* Whether argv names `option` after LEFT. */
static int has_option(int argc, char **argv, const char *option)
{
    for (int a = 2; a < argc; a++)
        if (strcmp(argv[a], option) == 0)
            return 1;
    return 0;
}

int main(int argc, char **argv)
{
    int late_start = has_option(argc, argv, "late-start");
    if (late_start)
        PMPI_Init(&argc, &argv);
    else
        MPI_Init(&argc, &argv);
    ctx c;
    int left = argc > 1 ? atoi(argv[1]) : 2, hard = has_option(argc, argv, "hard"),
        after_large = has_option(argc, argv, "after-large"), dup_fails = has_option(argc, argv, "dup-fails"),
        alternate = has_option(argc, argv, "alternate"), in_pieces = has_option(argc, argv, "pieces"),
        unfreed = has_option(argc, argv, "unfreed"), sink_only = has_option(argc, argv, "sink"),
        tiny = has_option(argc, argv, "tiny");
    c.dup_fails = dup_fails;
    if (dup_fails || late_start)
        test_datatype_errors_return();
    c.inter = test_intercomm(left, &c.is_left);
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    MPI_Comm_rank(c.inter, &c.lrank);
    MPI_Comm_remote_size(c.inter, &c.nremote);
    MPI_Comm_set_errhandler(c.inter, MPI_ERRORS_RETURN);
    c.sbuf = malloc(sizeof(int) * LARGE);
    c.rbuf = malloc(sizeof(int) * LARGE * (size_t)c.nremote);
    if (c.sbuf == NULL || c.rbuf == NULL)
        TEST_FAIL("out of memory");

    plain(&c, "nothing");
    for (int i = 0; alternate && i < 20; i++) {
        plain(&c, "a large call");
        large(&c);
    }
    if (alternate)
        goto done;
    if (in_pieces) {
        pieces(&c);
        goto done;
    }
    if (tiny) {
        tiny_to_nothing(&c);
        plain(&c, "tiny-to-nothing");
        goto done;
    }
    for (size_t i = 0; i < sizeof scenarios / sizeof scenarios[0]; i++) {
        if ((scenarios[i].hard && !hard) || (sink_only && strncmp(scenarios[i].name, "sink-", 5) != 0))
            continue;
        for (int l = 0; after_large && l < 3; l++)
            large(&c);
        scenarios[i].run(&c);
        plain(&c, scenarios[i].name);
    }

done:
    MPI_Barrier(MPI_COMM_WORLD);
    /* With "unfreed", the last call is erroneous and its communicator
     * never freed: its receivers settle the pieces at MPI_Finalize (the
     * summary counts what they found there).  Not under valgrind: Open
     * MPI loses the attributes of a communicator never freed. */
    if (unfreed)
        pieces_to_nothing(&c, c.inter, 1);
    else
        MPI_Comm_free(&c.inter);
    if (c.rank == 0)
        printf("PASS opening\n");
    free(c.sbuf);
    free(c.rbuf);
    MPI_Finalize();
    return 0;
}
