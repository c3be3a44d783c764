/*
 * A manager and its workers: the inter-communicator of MPI_Comm_spawn, whose
 * two groups are two jobs (two MPI_COMM_WORLDs), as workflows build it.
 * MPI_Allgather half duplex both ways and full duplex, and MPI_Allgatherv
 * with uneven counts, each compared byte for byte with the native call on
 * the same inter-communicator; then MPI_Comm_disconnect, which must not
 * wait on anything intergather keeps, and a second spawn, whose calls must
 * be served again.
 *
 * usage: spawn WORKERS [MAXCOUNT]   (run as the manager job; it spawns
 * WORKERS copies of itself, twice).  The manager's world rank 0 prints
 * "expect served moved=N" for its own job, and each job's summary
 * (INTERGATHER_VERBOSE=1) reports what that job's processes served.
 * Every step has a watchdog (testlib.h): a step that hangs ends the
 * process with "HANG <step>", which names it (MPI_Comm_spawn, a call,
 * MPI_Comm_disconnect) where the launcher's timeout would say nothing.
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ROUNDS 2

static const int counts[] = { 1, 1000, 20000 };
static const int types[] = { TEST_INT, TEST_VECTOR };

/* One MPI_Allgather against native; the manager's job is the left group. */
static void allgather_case(MPI_Comm inter, int is_manager, int type_id, int mcount, int wcount, long *moved)
{
    test_watch_call("spawn (%s): MPI_Allgather #%ld", is_manager ? "manager" : "worker", *moved + 1);
    test_allgather_against_native(inter, is_manager, type_id, mcount, wcount);
    test_watch_done();
    (*moved)++;
}

/* MPI_Allgatherv, the workers sending: worker i sends (i + 1) * count ints,
 * the manager's processes receive them in reverse order of ranks. */
static void allgatherv_case(MPI_Comm inter, int is_manager, int count, long *moved)
{
    int remote, local_rank;
    MPI_Comm_remote_size(inter, &remote);
    MPI_Comm_rank(inter, &local_rank);
    /* One entry per remote process on every process (the workers' stay 0:
     * they receive nothing, but MPI reads the arrays). */
    int n = is_manager ? remote : 0, *rcounts = calloc((size_t)remote, sizeof *rcounts),
        *displs = calloc((size_t)remote, sizeof *displs), total = 0;
    for (int i = n - 1; i >= 0; i--) { /* reverse placement */
        rcounts[i] = (i + 1) * count;
        displs[i] = total;
        total += rcounts[i];
    }
    int scount = is_manager ? 0 : (local_rank + 1) * count;
    test_buffers b;
    test_buffers_open(&b, (size_t)scount * sizeof(int), (size_t)total * sizeof(int) + 64,
                      (unsigned)(local_rank * 17 + count));
    test_watch_call("spawn (%s): MPI_Allgatherv #%ld", is_manager ? "manager" : "worker", *moved + 1);
    if (PMPI_Allgatherv(b.sbuf, scount, MPI_INT, b.expected, rcounts, displs, MPI_INT, inter) != MPI_SUCCESS ||
        MPI_Allgatherv(b.sbuf, scount, MPI_INT, b.got, rcounts, displs, MPI_INT, inter) != MPI_SUCCESS)
        TEST_FAIL("an allgatherv failed");
    test_watch_done();
    test_buffers_check(&b, "allgatherv, workers send uneven counts");
    test_buffers_close(&b);
    free(rcounts);
    free(displs);
    (*moved)++;
}

static long exercise(MPI_Comm inter, int is_manager, int maxcount)
{
    long moved = 0;
    for (size_t c = 0; c < sizeof counts / sizeof counts[0]; c++) {
        if (counts[c] > maxcount)
            continue;
        for (size_t t = 0; t < sizeof types / sizeof types[0]; t++) {
            allgather_case(inter, is_manager, types[t], counts[c], 0, &moved);
            allgather_case(inter, is_manager, types[t], 0, counts[c], &moved);
            allgather_case(inter, is_manager, types[t], counts[c], counts[c] / 2 + 1, &moved);
        }
        allgatherv_case(inter, is_manager, counts[c], &moved);
    }
    return moved;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    MPI_Comm parent, inter;
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_get_parent(&parent);
    int maxcount = argc > 2 ? atoi(argv[2]) : 20000;
    if (parent != MPI_COMM_NULL) { /* a worker: one job per spawn */
        long moved = exercise(parent, 0, maxcount);
        test_watch_call("spawn (worker): MPI_Comm_disconnect");
        MPI_Comm_disconnect(&parent);
        test_watch_done();
        if (wrank == 0)
            printf("worker job: %ld calls\n", moved);
        MPI_Finalize();
        return 0;
    }
    if (argc < 2)
        TEST_FAIL("usage: spawn WORKERS [MAXCOUNT]");
    int workers = atoi(argv[1]);
    long moved = 0;
    char maxcount_arg[16];
    snprintf(maxcount_arg, sizeof maxcount_arg, "%d", maxcount);
    char *child_argv[] = { "worker", maxcount_arg, NULL }; /* the workers read argv[2] too */
    for (int round = 0; round < ROUNDS; round++) {
        int *errcodes = calloc((size_t)workers, sizeof *errcodes);
        test_watch_call("spawn (manager): MPI_Comm_spawn, round %d", round + 1);
        if (MPI_Comm_spawn(argv[0], child_argv, workers, MPI_INFO_NULL, 0, MPI_COMM_WORLD, &inter, errcodes) !=
            MPI_SUCCESS)
            TEST_FAIL("MPI_Comm_spawn failed");
        test_watch_done();
        free(errcodes);
        moved += exercise(inter, 1, maxcount);
        test_watch_call("spawn (manager): MPI_Comm_disconnect, round %d", round + 1);
        MPI_Comm_disconnect(&inter);
        test_watch_done();
    }
    if (wrank == 0)
        printf("expect served moved=%ld\nPASS spawn (%d rounds of %d workers)\n", moved, ROUNDS, workers);
    MPI_Finalize();
    return 0;
}
