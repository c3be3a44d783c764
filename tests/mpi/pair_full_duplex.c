/*
 * The pair API (include/intergather.h) in full duplex with blocks of
 * different sizes each way, one of them possibly empty: every algorithm
 * by name, and ig_pair_allgather_fd, over every split of the world.  A
 * full-duplex call whose first group sends nothing once returned success
 * with nothing moved: the decision calls it half duplex from the second
 * group, which a pair (its first group always the sender) cannot run
 * (decide.c, ig_decide_on_one_pair).  Linked against the library, as
 * pair_nomem.c.
 *
 * And in half duplex, every algorithm by name once per split with the side
 * a process does not use given as count 7, buffer NULL and type
 * MPI_DATATYPE_NULL: the header says it is ignored; the library once
 * queried a sender's receive type when its count was positive.
 *
 * Usage: pair_full_duplex          (prints "PASS pair_full_duplex")
 *
 * pair_full_duplex wide   (6 processes, a pair of 3 + 3): the fully
 * connected algorithm, half and full duplex, one double per process
 * received with a type resized to a 256 MiB extent in a sparse mapping;
 * run under fail_malloc.c's IG_TEST_MEMORY_LIMIT below the span.  The
 * API's shape must call such a buffer sparse as the shim's agreement does
 * (src/api.c, src/shape.h), or the group stage runs in Open MPI's Bruck
 * allgather, which allocates by the span and fails in one process.
 */
#include "intergather.h"
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

static int pattern(int world_rank, int call, int i)
{
    return world_rank * 1000003 + call * 7919 + i;
}

/* A send buffer of `mine` ints of this call's pattern and a receive
 * buffer of rlen ints and one guard, all -1. */
static void make_buffers(int rank, int call, int mine, size_t rlen, int **sbuf, int **rbuf)
{
    *sbuf = malloc(sizeof(int) * ((size_t)mine + 1));
    *rbuf = malloc(sizeof(int) * (rlen + 1));
    if (*sbuf == NULL || *rbuf == NULL)
        TEST_FAIL("out of memory in the test program");
    for (int i = 0; i < mine; i++)
        (*sbuf)[i] = pattern(rank, call, i);
    for (size_t i = 0; i < rlen + 1; i++)
        (*rbuf)[i] = -1;
}

/* One call: this process sends `mine` ints and receives `theirs` ints
 * from each of the `remote` processes of the other group. */
static void one_call(ig_pair *pair, const char *algorithm, int p, int mine, int theirs, int call)
{
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int first = rank < p, remote = first ? size - p : p, base = first ? p : 0;
    size_t rlen = (size_t)theirs * (size_t)remote;
    int *sbuf, *rbuf;
    make_buffers(rank, call, mine, rlen, &sbuf, &rbuf);
    int rc = algorithm != NULL
                 ? ig_pair_allgather_algorithm(pair, algorithm, 1, sbuf, mine, MPI_INT, rbuf, theirs, MPI_INT)
                 : ig_pair_allgather_fd(pair, sbuf, mine, MPI_INT, rbuf, theirs, MPI_INT);
    const char *name = algorithm != NULL ? algorithm : "ig_pair_allgather_fd";
    if (rc != MPI_SUCCESS)
        TEST_FAIL("%s, p=%d, blocks %d/%d ints: rank %d got error %d", name, p, first ? mine : theirs,
                  first ? theirs : mine, rank, rc);
    for (int r = 0; r < remote; r++)
        for (int i = 0; i < theirs; i++)
            if (rbuf[(size_t)r * (size_t)theirs + (size_t)i] != pattern(base + r, call, i))
                TEST_FAIL("%s, p=%d, blocks %d/%d ints: rank %d, block of world rank %d, int %d: %d, want %d", name,
                          p, first ? mine : theirs, first ? theirs : mine, rank, base + r, i,
                          rbuf[(size_t)r * (size_t)theirs + (size_t)i], pattern(base + r, call, i));
    if (rbuf[rlen] != -1)
        TEST_FAIL("%s, p=%d: rank %d: written past its receive buffer", name, p, rank);
    free(sbuf);
    free(rbuf);
}

/* One half-duplex call (the first group sends `count` ints) in which
 * each process passes nonsense for the side it does not use. */
static void half_duplex_call(ig_pair *pair, const char *algorithm, int p, int count, int call)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int sender = rank < p;
    size_t rlen = (size_t)count * (size_t)p;
    int *sbuf, *rbuf;
    make_buffers(rank, call, count, rlen, &sbuf, &rbuf);
    int rc = sender ? ig_pair_allgather_algorithm(pair, algorithm, 0, sbuf, count, MPI_INT, NULL, 7,
                                                  MPI_DATATYPE_NULL)
                    : ig_pair_allgather_algorithm(pair, algorithm, 0, NULL, 7, MPI_DATATYPE_NULL, rbuf, count,
                                                  MPI_INT);
    if (rc != MPI_SUCCESS)
        TEST_FAIL("half duplex %s, p=%d: rank %d got error %d", algorithm, p, rank, rc);
    for (size_t i = 0; !sender && i < rlen; i++)
        if (rbuf[i] != pattern((int)(i / (size_t)count), call, (int)(i % (size_t)count)))
            TEST_FAIL("half duplex %s, p=%d: rank %d, int %zu: %d, want %d", algorithm, p, rank, i, rbuf[i],
                      pattern((int)(i / (size_t)count), call, (int)(i % (size_t)count)));
    if (rbuf[rlen] != -1)
        TEST_FAIL("half duplex %s, p=%d: rank %d: written past its receive buffer", algorithm, p, rank);
    free(sbuf);
    free(rbuf);
}

#define WIDE_EXTENT ((MPI_Aint)256 << 20)

/* One wide call on a pair of 3 + 3: the first group sends (both groups in
 * full duplex) world rank + 0.5 * call; blocks land WIDE_EXTENT apart. */
static void wide_call(ig_pair *pair, MPI_Datatype wide, int full, int call)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int first = rank < 3, receives = full || !first;
    size_t span = 2 * (size_t)WIDE_EXTENT + sizeof(double);
    char *rbuf = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (rbuf == MAP_FAILED)
        TEST_FAIL("cannot map %zu bytes", span);
    double mine = rank + 0.5 * call, got;
    int rc = full ? ig_pair_allgather_fd(pair, &mine, 1, MPI_DOUBLE, rbuf, 1, wide)
                  : ig_pair_allgather_fc(pair, first ? &mine : NULL, first, MPI_DOUBLE, first ? NULL : rbuf,
                                         receives, first ? MPI_DATATYPE_NULL : wide);
    if (rc != MPI_SUCCESS)
        TEST_FAIL("wide call %d (%s duplex): error %d in world rank %d", call, full ? "full" : "half", rc, rank);
    for (int i = 0; receives && i < 3; i++) {
        memcpy(&got, rbuf + (size_t)i * WIDE_EXTENT, sizeof got);
        double want = (first ? 3 + i : i) + 0.5 * call;
        if (got != want)
            TEST_FAIL("wide call %d: block %d is %g, want %g", call, i, got, want);
    }
    munmap(rbuf, span);
}

static int wide_calls(void)
{
    ig_pair *pair;
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (size != 6)
        TEST_FAIL("pair_full_duplex wide runs on 6 processes, not %d", size);
    if (ig_pair_create(MPI_COMM_WORLD, 3, &pair) != MPI_SUCCESS)
        TEST_FAIL("ig_pair_create(p=3) failed");
    MPI_Datatype wide;
    MPI_Type_create_resized(MPI_DOUBLE, 0, WIDE_EXTENT, &wide);
    MPI_Type_commit(&wide);
    wide_call(pair, wide, 0, 0);
    wide_call(pair, wide, 1, 1);
    MPI_Type_free(&wide);
    ig_pair_free(&pair);
    if (rank == 0)
        printf("PASS pair_full_duplex wide (fc half and full duplex, receive extent %lld bytes)\n",
               (long long)WIDE_EXTENT);
    MPI_Finalize();
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc > 1 && strcmp(argv[1], "wide") == 0)
        return wide_calls();
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    /* (first group's block, second group's block), in ints; 20000 ints
     * is cut into segments by the chain and into pieces by the relay. */
    static const int blocks[][2] = { { 0, 7 }, { 7, 0 }, { 0, 20000 }, { 3, 11 }, { 20000, 5 } };
    static const char *algorithms[] = { "direct", "fc", "spread", "chain", "relay", "full-duplex", "ring", NULL };
    int call = 0;
    for (int p = 1; p < size; p++) {
        ig_pair *pair;
        int rc = ig_pair_create(MPI_COMM_WORLD, p, &pair);
        if (rc != MPI_SUCCESS)
            TEST_FAIL("ig_pair_create(p=%d): error %d", p, rc);
        for (size_t b = 0; b < sizeof blocks / sizeof blocks[0]; b++)
            for (size_t a = 0; a < sizeof algorithms / sizeof algorithms[0]; a++) {
                int first = rank < p;
                int mine = blocks[b][first ? 0 : 1], theirs = blocks[b][first ? 1 : 0];
                one_call(pair, algorithms[a], p, mine, theirs, call++);
            }
        for (size_t a = 0; algorithms[a] != NULL; a++)
            half_duplex_call(pair, algorithms[a], p, 20000, call++);
        ig_pair_free(&pair);
    }
    MPI_Barrier(MPI_COMM_WORLD);
    if (rank == 0)
        printf("PASS pair_full_duplex (%d calls on each of %d processes)\n", call, size);
    MPI_Finalize();
    return 0;
}
