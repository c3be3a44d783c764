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
 * plain call, whose data would be wrong if an early message of the
 * scenario had been left in flight.
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

static int value(int sender, int i)
{
    return sender * 100003 + i * 7 + 1;
}

typedef struct {
    MPI_Comm inter;
    int is_left, rank, nremote;
    int *sbuf, *rbuf; /* sbuf: 2N ints; rbuf: nremote blocks of 2N */
} ctx;

static int call(ctx *c, const char *what, int scount, int rstride, int bottom)
{
    MPI_Datatype abs_type = MPI_DATATYPE_NULL;
    const void *sb = c->is_left ? c->sbuf : NULL;
    void *rb = c->is_left ? NULL : c->rbuf;
    MPI_Datatype st = MPI_INT, rt = MPI_INT;
    int sc = c->is_left ? scount : 0, rc_count = c->is_left ? 0 : rstride;
    memset(c->rbuf, 0xee, sizeof(int) * 2 * N * (size_t)c->nremote);
    if (bottom && c->is_left) {
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
    int rc = MPI_Allgather(sb, sc, st, rb, rc_count, rt, c->inter);
    if (abs_type != MPI_DATATYPE_NULL)
        MPI_Type_free(&abs_type);
    (void)what;
    return rc;
}

/* The right group's blocks: N ints of each sender at rstride spacing. */
static void check(const ctx *c, const char *what, int rstride, int skip_sender)
{
    if (c->is_left)
        return;
    for (int s = 0; s < c->nremote; s++) {
        if (s == skip_sender)
            continue;
        for (int i = 0; i < N; i++)
            if (c->rbuf[(size_t)s * rstride + i] != value(s, i))
                TEST_FAIL("%s: rank %d, block of sender %d, int %d: %d, expected %d", what, c->rank, s, i,
                          c->rbuf[(size_t)s * rstride + i], value(s, i));
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

static void plain(ctx *c, const char *after)
{
    char what[64];
    snprintf(what, sizeof what, "plain call after %s", after);
    expect_ok(call(c, what, N, N, 0), c, what);
    check(c, what, N, -1);
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
    int left = argc > 1 ? atoi(argv[1]) : 2, withdrawn = 0, lrank;
    /* 2N ints in a buffer whose byte count is an int (MPI counts). */
    if (argc > 2)
        N = int_arg(argv[2], 1, INT_MAX / 8, "INTS");
    if (argc > 3)
        no_mem_rank = int_arg(argv[3], 0, INT_MAX, "NO_MEM_RANK");
    c.inter = test_intercomm(left, &c.is_left);
    MPI_Comm_rank(MPI_COMM_WORLD, &c.rank);
    MPI_Comm_rank(c.inter, &lrank);
    MPI_Comm_remote_size(c.inter, &c.nremote);
    MPI_Comm_set_errhandler(c.inter, MPI_ERRORS_RETURN);
    c.sbuf = malloc(sizeof(int) * 2 * N);
    c.rbuf = malloc(sizeof(int) * 2 * N * (size_t)c.nremote);
    if (c.sbuf == NULL || c.rbuf == NULL)
        TEST_FAIL("early_post: no memory for blocks of %d ints", N);
    for (int i = 0; i < 2 * N; i++)
        c.sbuf[i] = c.is_left ? value(lrank, i) : -1;

    plain(&c, "nothing (builds the pair)");
    plain(&c, "a first call");

    /* One receiver (right rank 0) / one sender (left rank 0) at MPI_BOTTOM. */
    expect_ok(call(&c, "bottom-rx", N, N, !c.is_left && lrank == 0), &c, "bottom-rx");
    check(&c, "bottom-rx", N, -1);
    withdrawn += !(!c.is_left && lrank == 0);
    plain(&c, "bottom-rx");

    expect_ok(call(&c, "bottom-tx", N, N, c.is_left && lrank == 0), &c, "bottom-tx");
    check(&c, "bottom-tx", N, -1);
    withdrawn += !(c.is_left && lrank == 0);
    plain(&c, "bottom-tx");

    /* Receivers expect 2N ints from each sender, which sends N. */
    expect_class(call(&c, "more", N, 2 * N, 0), &c, "more", MPI_SUCCESS);
    check(&c, "more", 2 * N, -1);
    withdrawn++;
    plain(&c, "more");

    /* The last left rank sends 2N ints where N are expected: MPI_ERR_TRUNCATE on
     * the receivers, under MPICH too (its blocks are received whole,
     * algo_direct.c, where a truncated non-blocking receive would abort). */
    int last_left = left - 1; /* the left group is world ranks 0 .. left - 1 */
    expect_class(call(&c, "truncate", c.is_left && lrank == last_left ? 2 * N : N, N, 0), &c, "truncate",
                 c.is_left ? MPI_SUCCESS : MPI_ERR_TRUNCATE);
    check(&c, "truncate", N, last_left);
    withdrawn++;
    plain(&c, "truncate");

    printf("expect early-withdrawn=%d (world rank %d)\n", withdrawn, c.rank);
    if (c.rank == no_mem_rank)
        printf("no-mem calls=%d (world rank %d)\n", no_mem_calls, c.rank);
    finish(&c);
    return 0;
}
