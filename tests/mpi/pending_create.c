/*
 * Calls on an inter-communicator while a communicator creation on an
 * older communicator is pending in some processes only: world rank 0
 * starts an MPI_Comm_idup of MPI_COMM_WORLD before the calls, the others
 * after them.  Natively correct (an MPI_Allgather creates no
 * communicator).  Open MPI gives new communicators their ids one creation
 * at a time, the oldest parent's first, so a private communicator that
 * intergather created on first use inside one of these calls waited for
 * the idup, which the other processes start only after the calls: a
 * hang.  The first call on the inter-communicator, made before the idup,
 * now builds every private communicator (src/comm_cache.c); the calls
 * here then use the other direction, full duplex and another datatype,
 * each checked against native (run with each algorithm forced).
 * usage: pending_create LEFT
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>

#define N 20000 /* ints per block: past the opening round's small sizes */

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 2)
        TEST_FAIL("usage: pending_create LEFT");
    int wrank, wsize, left = atoi(argv[1]);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    if (left < 1 || left >= wsize)
        TEST_FAIL("LEFT must be between 1 and %d", wsize - 1);
    int is_left = wrank < left;
    MPI_Comm local, inter, copy;
    MPI_Request idup = MPI_REQUEST_NULL;
    MPI_Comm_split(MPI_COMM_WORLD, is_left, wrank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, is_left ? left : 0, 5, &inter);
    /* The first call: the left group sends (it builds intergather's state). */
    test_allgather_against_native(inter, is_left, 0, N, 0);
    if (wrank == 0)
        MPI_Comm_idup(MPI_COMM_WORLD, &copy, &idup);
    test_allgather_against_native(inter, is_left, 0, 0, N);      /* the other direction */
    test_allgather_against_native(inter, is_left, 0, N, N / 2);  /* full duplex */
    test_allgather_against_native(inter, is_left, 1, 0, N / 4);  /* another type */
    if (wrank != 0)
        MPI_Comm_idup(MPI_COMM_WORLD, &copy, &idup);
    MPI_Wait(&idup, MPI_STATUS_IGNORE);
    MPI_Comm_free(&copy);
    MPI_Comm_free(&inter);
    MPI_Comm_free(&local);
    if (wrank == 0)
        printf("PASS pending_create\n");
    MPI_Finalize();
    return 0;
}
