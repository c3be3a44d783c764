/*
 * Inter-communicators created, used (both directions) and freed in a loop
 * (usage: comm_churn [ITERATIONS], default 200).  intergather's internal
 * communicators must be freed with each of them: the test script checks the
 * verbose summary reports none alive and a small peak, independent of the
 * number of iterations.
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define COUNT 4096

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int wrank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    int iterations = argc > 1 ? atoi(argv[1]) : 200;
    long moved = 0;
    for (int it = 0; it < iterations; it++) {
        int is_left, rsize;
        MPI_Comm inter = test_intercomm(1 + it % (size - 1), &is_left);
        MPI_Comm_remote_size(inter, &rsize);
        double *sbuf = malloc(COUNT * sizeof(double));
        double *rbuf = calloc((size_t)COUNT * rsize, sizeof(double));
        double *ref = calloc((size_t)COUNT * rsize, sizeof(double));
        for (int i = 0; i < COUNT; i++)
            sbuf[i] = wrank + i * 0.5 + it;
        for (int dir = 0; dir < 2; dir++) {
            int sending = is_left == (dir == 0);
            /* A stale cache entry (an old inter-communicator's state taken
             * for a new one of the same handle) would hold the call. */
            test_watch_call("comm_churn world rank %d: iteration %d, %s group sending", wrank, it,
                            dir == 0 ? "left" : "right");
            MPI_Allgather(sbuf, sending ? COUNT : 0, MPI_DOUBLE, rbuf, sending ? 0 : COUNT, MPI_DOUBLE, inter);
            PMPI_Allgather(sbuf, sending ? COUNT : 0, MPI_DOUBLE, ref, sending ? 0 : COUNT, MPI_DOUBLE, inter);
            test_watch_done();
            if (!sending && memcmp(rbuf, ref, (size_t)COUNT * rsize * sizeof(double)) != 0)
                TEST_FAIL("iteration %d: result differs from native", it);
            moved++;
        }
        free(sbuf);
        free(rbuf);
        free(ref);
        MPI_Comm_free(&inter);
    }
    if (wrank == 0)
        printf("expect served moved=%ld\nPASS comm_churn\n", moved);
    MPI_Finalize();
    return 0;
}
