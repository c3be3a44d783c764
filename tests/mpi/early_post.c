/*
 * The direct algorithm posted before the agreement (src/speculate.h): the
 * early messages either stand or are withdrawn, and either way every call
 * gives the right data and leaves nothing behind for the next one.
 *
 * usage: early_post LEFT [INTS [NO_MEM_RANK]]
 * The left group sends N ints per process (half duplex; N = INTS, default
 * 64, small, where the model picks the direct algorithm; the script also
 * runs blocks larger than the room a withdrawn message is taken into,
 * src/comm_cache.h, which Open MPI moves by its rendezvous protocol, not
 * eagerly), the right group receives; each scenario is followed by a
 * plain call, whose data (salted apart from the scenario's) would be
 * wrong if an early message of the scenario had been left in flight.
 *   plain      every process posts early, the early step stands
 *   bottom-rx  one receiver describes its buffer by absolute addresses
 *              (MPI_BOTTOM): it cannot be served, every process goes native
 *   bottom-tx  the same for one sender
 *   more       the receivers expect twice what is sent (an erroneous
 *              program native MPI completes): served point to point
 *   truncate   one sender (the last) sends twice what is expected: its
 *              receivers report MPI_ERR_TRUNCATE (MPI_ERRORS_RETURN), the
 *              others succeed.  The last, because Open MPI may write a
 *              block it moves by RDMA whole into a shorter receive
 *              (README, Limitations): past its slot there is only room.
 *   full-bottom  both groups send (full duplex), with data of their own
 *              (a salt), and one receiver (left rank 0) describes its
 *              buffer by absolute addresses: every process goes native
 *              and the others withdraw what they posted both ways.  Left
 *              rank 0 posted nothing, so the right group's early messages
 *              wait there to be withdrawn; the full-duplex plain call
 *              after it would take them instead of its own (the salt tells).
 * It prints "expect early-withdrawn=N" for the script, the number of
 * calls in which this process must have withdrawn what it posted.
 * NO_MEM_RANK: the world rank in which the script makes the allocation a
 * withdrawn message is taken into fail (fail_malloc.c): the message is
 * then taken into the sink (src/speculate.c, discard_one), and the calls
 * served point to point ("more", "truncate") may report MPI_ERR_NO_MEM
 * there; the calls that go native report the MPI library's outcome, as
 * always; every call's data, and the plain call after it, stay right.  It
 * prints "no-mem calls=K" for that rank.
 */
#include "testlib.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int N = 64;            /* ints per block (INTS) */
static int no_mem_rank = -1;  /* NO_MEM_RANK */
static int no_mem_calls = 0;  /* calls that reported MPI_ERR_NO_MEM in that rank */

/* Int i of the block of process `sender` of its group: the left group's
 * blocks (salt 0 in half duplex) differ from the right group's, and each
 * salt's from every other. */
static int value(int left, int sender, int i, int salt)
{
    return (sender * 100003 + i * 7 + 1) * (left ? 1 : -1) + salt * 7919;
}

typedef struct {
    MPI_Comm inter;
    int is_left, rank, lrank, nremote;
    int *sbuf, *rbuf; /* sbuf: 2N ints; rbuf: nremote blocks of 2N */
} ctx;

/* Whether this process sends and receives: half duplex the left group
 * sends, the right receives; full duplex both do both. */
static int sends(const ctx *c, int full) { return c->is_left || full; }
static int receives(const ctx *c, int full) { return !c->is_left || full; }

/* bottom: a buffer of this process described by absolute addresses at
 * MPI_BOTTOM: in half duplex the left group's send buffer and the right
 * group's receive buffer, in full duplex the receive buffer. */
static int call(ctx *c, int scount, int rstride, int bottom, int full, int salt)
{
    MPI_Datatype abs_type = MPI_DATATYPE_NULL;
    const void *sb = sends(c, full) ? c->sbuf : NULL;
    void *rb = receives(c, full) ? c->rbuf : NULL;
    MPI_Datatype st = MPI_INT, rt = MPI_INT;
    int sc = sends(c, full) ? scount : 0, rc_count = receives(c, full) ? rstride : 0;
    for (int i = 0; i < 2 * N; i++)
        c->sbuf[i] = value(c->is_left, c->lrank, i, salt);
    memset(c->rbuf, 0xee, sizeof(int) * 2 * N * (size_t)c->nremote);
    if (bottom && c->is_left && !full) {
        abs_type = test_absolute_type(c->sbuf, sc, MPI_INT);
        sb = MPI_BOTTOM, st = abs_type, sc = 1;
    } else if (bottom) {
        /* One block of rstride ints starting at rbuf, as an absolute type:
         * the blocks of consecutive senders follow at its extent. */
        abs_type = test_absolute_type(c->rbuf, rstride, MPI_INT);
        MPI_Datatype r;
        MPI_Type_create_resized(abs_type, 0, (MPI_Aint)(rstride * sizeof(int)), &r);
        MPI_Type_free(&abs_type);
        abs_type = r;
        MPI_Type_commit(&abs_type);
        rb = MPI_BOTTOM, rt = abs_type, rc_count = 1;
    }
    /* Messages withdrawn wrongly, or left behind, would hold a call here
     * for good. */
    static int calls;
    test_watch_call("early_post world rank %d: MPI_Allgather #%d", c->rank, ++calls);
    int rc = MPI_Allgather(sb, sc, st, rb, rc_count, rt, c->inter);
    test_watch_done();
    if (abs_type != MPI_DATATYPE_NULL)
        MPI_Type_free(&abs_type);
    return rc;
}

/* The blocks this process received: N ints of each sender at rstride
 * spacing, with the call's salt. */
static void check(const ctx *c, const char *what, int rstride, int skip_sender, int full, int salt)
{
    if (!receives(c, full))
        return;
    for (int s = 0; s < c->nremote; s++) {
        if (s == skip_sender)
            continue;
        for (int i = 0; i < N; i++) {
            int want = value(!c->is_left, s, i, salt);
            if (c->rbuf[(size_t)s * rstride + i] != want)
                TEST_FAIL("%s: rank %d, block of sender %d, int %d: %d, expected %d", what, c->rank, s, i,
                          c->rbuf[(size_t)s * rstride + i], want);
        }
    }
}

static void expect_ok(int rc, const ctx *c, const char *what)
{
    if (rc != MPI_SUCCESS)
        TEST_FAIL("%s: rank %d: error %d", what, c->rank, rc);
}

/* A call served point to point after a withdrawal: in NO_MEM_RANK it may
 * report MPI_ERR_NO_MEM instead of `expected` (an error class), having
 * found no memory for a withdrawn message. */
static void expect_class(int rc, const ctx *c, const char *what, int expected)
{
    int cls = MPI_SUCCESS;
    MPI_Error_class(rc, &cls);
    if (c->rank == no_mem_rank && cls == MPI_ERR_NO_MEM) {
        no_mem_calls++;
        return;
    }
    if (cls != expected)
        TEST_FAIL("%s: rank %d: error class %d, expected %d", what, c->rank, cls, expected);
}

/* Half duplex with a salt of its own (the scenarios' is 0), so that an
 * early message a scenario left behind (a sender's block a receiver took
 * in this call instead of the one sent in it) gives the wrong data here. */
static void plain(ctx *c, const char *after)
{
    char what[64];
    snprintf(what, sizeof what, "plain call after %s", after);
    expect_ok(call(c, N, N, 0, 0, 3), c, what);
    check(c, what, N, -1, 0, 3);
}

/* Both groups send, with the salt of no other call. */
static void plain_full(ctx *c, const char *after)
{
    char what[64];
    snprintf(what, sizeof what, "full-duplex plain call after %s", after);
    expect_ok(call(c, N, N, 0, 1, 2), c, what);
    check(c, what, N, -1, 1, 2);
}

static void finish(ctx *c)
{
    MPI_Barrier(MPI_COMM_WORLD);
    if (c->rank == 0)
        printf("PASS early_post\n");
    free(c->sbuf);
    free(c->rbuf);
    MPI_Comm_free(&c->inter);
    MPI_Finalize();
}

/* A command-line integer from min to max, whole (argument `name`). */
static int int_arg(const char *text, long min, long max, const char *name)
{
    char *end;
    long v = strtol(text, &end, 10);
    if (end == text || *end != '\0' || v < min || v > max)
        TEST_FAIL("usage: early_post LEFT [INTS [NO_MEM_RANK]]: %s from %ld to %ld, not '%s'", name, min, max, text);
    return (int)v;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    ctx c;
    int left = argc > 1 ? atoi(argv[1]) : 2, withdrawn = 0;
    /* 2N ints in a buffer whose byte count is an int (MPI counts). */
    if (argc > 2)
        N = int_arg(argv[2], 1, INT_MAX / 8, "INTS");
    if (argc > 3)
        no_mem_rank = int_arg(argv[3], 0, INT_MAX, "NO_MEM_RANK");
    c.inter = test_intercomm(left, &c.is_left);
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    MPI_Comm_rank(c.inter, &c.lrank);
    int lrank = c.lrank;
    MPI_Comm_remote_size(c.inter, &c.nremote);
    MPI_Comm_set_errhandler(c.inter, MPI_ERRORS_RETURN);
    c.sbuf = malloc(sizeof(int) * 2 * N);
    c.rbuf = malloc(sizeof(int) * 2 * N * (size_t)c.nremote);
    if (c.sbuf == NULL || c.rbuf == NULL)
        TEST_FAIL("early_post: no memory for blocks of %d ints", N);

    plain(&c, "nothing (builds the pair)");
    plain(&c, "a first call");

    /* One receiver (right rank 0) / one sender (left rank 0) at MPI_BOTTOM. */
    expect_ok(call(&c, N, N, !c.is_left && lrank == 0, 0, 0), &c, "bottom-rx");
    check(&c, "bottom-rx", N, -1, 0, 0);
    withdrawn += !(!c.is_left && lrank == 0);
    plain(&c, "bottom-rx");

    expect_ok(call(&c, N, N, c.is_left && lrank == 0, 0, 0), &c, "bottom-tx");
    check(&c, "bottom-tx", N, -1, 0, 0);
    withdrawn += !(c.is_left && lrank == 0);
    plain(&c, "bottom-tx");

    /* Receivers expect 2N ints from each sender, which sends N. */
    expect_class(call(&c, N, 2 * N, 0, 0, 0), &c, "more", MPI_SUCCESS);
    check(&c, "more", 2 * N, -1, 0, 0);
    withdrawn++;
    plain(&c, "more");

    /* The last left rank sends 2N ints where N are expected: MPI_ERR_TRUNCATE on
     * the receivers, under MPICH too (its blocks are received whole,
     * algo_direct.c, where a truncated non-blocking receive would abort). */
    int last_left = left - 1; /* the left group is world ranks 0 .. left - 1 */
    expect_class(call(&c, c.is_left && lrank == last_left ? 2 * N : N, N, 0, 0, 0), &c, "truncate",
                 c.is_left ? MPI_SUCCESS : MPI_ERR_TRUNCATE);
    check(&c, "truncate", N, last_left, 0, 0);
    withdrawn++;
    plain(&c, "truncate");

    /* Full duplex, left rank 0 receiving at MPI_BOTTOM: every process goes
     * native; in NO_MEM_RANK a withdrawn message may have found no memory. */
    plain_full(&c, "the half-duplex scenarios");
    expect_class(call(&c, N, N, c.is_left && lrank == 0, 1, 1), &c, "full-bottom", MPI_SUCCESS);
    check(&c, "full-bottom", N, -1, 1, 1);
    withdrawn += !(c.is_left && lrank == 0);
    plain_full(&c, "full-bottom");
    plain(&c, "full-bottom");

    printf("expect early-withdrawn=%d (world rank %d)\n", withdrawn, c.rank);
    if (c.rank == no_mem_rank)
        printf("no-mem calls=%d (world rank %d)\n", no_mem_calls, c.rank);
    finish(&c);
    return 0;
}
