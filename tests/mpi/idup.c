/*
 * MPI_Comm_idup of an inter-communicator while intergather serves calls on
 * it: every call compared byte for byte with native.
 *
 * usage: idup LEFT MODE [MAXCOUNT]   (MAXCOUNT: the large count, 20000)
 *   MODE used    the first call on the inter-communicator (which builds
 *                intergather's private communicator) comes before the
 *                idup; calls in every direction while the idup is pending,
 *                then on the new communicator
 *   MODE first   the first call comes while the idup is pending (Open MPI
 *                4.1 hangs on it: README Limitations; MPICH runs it)
 * World rank 0 prints "expect served moved=N".
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int maxcount = 20000;

/* Half duplex both ways and full duplex, a small and a large count. */
static long calls(MPI_Comm inter, int is_left)
{
    const int counts[] = { 5, maxcount };
    long moved = 0;
    for (int c = 0; c < 2; c++) {
        test_allgather_against_native(inter, is_left, TEST_VECTOR, counts[c], 0);
        test_allgather_against_native(inter, is_left, TEST_INT, 0, counts[c]);
        test_allgather_against_native(inter, is_left, TEST_STRUCT_LB, counts[c], counts[c] / 3 + 1);
        moved += 3;
    }
    return moved;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 3 || (strcmp(argv[2], "used") != 0 && strcmp(argv[2], "first") != 0))
        TEST_FAIL("usage: idup LEFT used|first");
    int is_left, wrank, used = strcmp(argv[2], "used") == 0;
    if (argc > 3)
        maxcount = atoi(argv[3]);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm inter = test_intercomm(atoi(argv[1]), &is_left), dup;
    MPI_Request req;
    long moved = 0;
    if (used)
        moved += calls(inter, is_left);
    MPI_Comm_idup(inter, &dup, &req);
    moved += calls(inter, is_left); /* the idup pending */
    MPI_Wait(&req, MPI_STATUS_IGNORE);
    moved += calls(dup, is_left);
    moved += calls(inter, is_left);
    MPI_Comm_free(&dup);
    MPI_Comm_free(&inter);
    if (wrank == 0)
        printf("expect served moved=%ld\nPASS idup (%s)\n", moved, argv[2]);
    MPI_Finalize();
    return 0;
}
