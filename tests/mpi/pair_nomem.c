/*
 * The pair API (include/intergather.h) when one process cannot take part
 * (test_nomem.sh preloads fail_malloc.c, which fails every datatype
 * libintergather builds in one process, or one allocation size): every
 * process must return, each call either an error or exactly the blocks
 * sent.  Unlike the other MPI test programs this one is linked against the
 * library: it calls the library's own API, not MPI_Allgather.
 *
 * Usage: pair_nomem P COUNT ALGORITHM...
 *   P          senders (world ranks 0..P-1); the rest receive
 *   COUNT      ints per block
 *   ALGORITHM  names for ig_pair_allgather_algorithm (direct, fc, chain, ...)
 * Prints, from world rank 0, "calls-in-error=N" (over all processes) and
 * "PASS pair_nomem".  Last, every process must get an error from a ring
 * call with blocks of more than INT_MAX bytes, which the ring cannot
 * serve (it once returned MPI_SUCCESS with nothing moved); the buffers are
 * one byte, so a call that moved data would crash.
 */
#include "intergather.h"
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>

static int pattern(int sender, int call, int i)
{
    return sender * 1000003 + call * 7919 + i;
}

/* One call; 1 if it returned an error. */
static int one_call(ig_pair *pair, const char *algorithm, int p, int count, int call)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int sender = rank < p;
    int *sbuf = malloc(sizeof(int) * (size_t)count), *rbuf = malloc(sizeof(int) * (size_t)count * (size_t)p);
    if (sbuf == NULL || rbuf == NULL)
        TEST_FAIL("out of memory in the test program");
    for (int i = 0; i < count; i++)
        sbuf[i] = pattern(rank, call, i);
    for (int i = 0; i < count * p; i++)
        rbuf[i] = -1;
    /* A process that went on alone, as if the others' failure were not its
     * own, would wait here for good. */
    test_watch_call("pair_nomem world rank %d: call %d (%s)", rank, call, algorithm);
    int rc = ig_pair_allgather_algorithm(pair, algorithm, 0, sbuf, sender ? count : 0, MPI_INT, rbuf,
                                         sender ? 0 : count, MPI_INT);
    test_watch_done();
    int wrong = 0;
    for (int j = 0; rc == MPI_SUCCESS && !sender && j < p; j++)
        for (int i = 0; i < count; i++)
            wrong += rbuf[j * count + i] != pattern(j, call, i);
    if (wrong > 0)
        TEST_FAIL("call %d (%s): world rank %d returned MPI_SUCCESS with %d wrong ints", call, algorithm, rank,
                  wrong);
    free(sbuf);
    free(rbuf);
    return rc != MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_datatype_errors_return();
    if (argc < 4)
        TEST_FAIL("usage: pair_nomem P COUNT ALGORITHM...");
    int p = atoi(argv[1]), count = atoi(argv[2]), rank, in_error = 0, total = 0, call = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ig_pair *pair;
    int rc = ig_pair_create(MPI_COMM_WORLD, p, &pair);
    for (int a = 3; rc == MPI_SUCCESS && a < argc; a++)
        for (int twice = 0; twice < 2; twice++)
            in_error += one_call(pair, argv[a], p, count, call++);
    in_error += rc != MPI_SUCCESS;
    if (rc == MPI_SUCCESS) {
        MPI_Datatype gib, huge;
        char one_byte[1] = { 0 }, received[1] = { 0 };
        MPI_Type_contiguous(1 << 30, MPI_BYTE, &gib);
        MPI_Type_contiguous(2, gib, &huge);
        MPI_Type_commit(&huge);
        int sender = rank < p;
        if (ig_pair_allgather_ring(pair, IG_RING_OPTIMAL, one_byte, sender, huge, received, !sender, huge) ==
            MPI_SUCCESS)
            TEST_FAIL("world rank %d: a ring call of 2 GiB blocks returned MPI_SUCCESS", rank);
        MPI_Type_free(&huge);
        MPI_Type_free(&gib);
    }
    ig_pair_free(&pair);
    MPI_Reduce(&in_error, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    if (rank == 0)
        printf("calls-in-error=%d\nPASS pair_nomem\n", total);
    MPI_Finalize();
    return 0;
}
