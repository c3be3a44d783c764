/*
 * MPI_Allgather and MPI_Allgatherv on MPI_COMM_NULL, a common mistake: the
 * shim must neither touch the handle nor change the outcome, so the error
 * is the MPI library's own (raised on MPI_COMM_WORLD's handler, which this
 * sets to MPI_ERRORS_RETURN).  "native" calls PMPI_*, "library" MPI_*; each
 * process prints the two error classes, and test_comm_null.sh compares the
 * runs.  (Debian's Open MPI 4.1.4 crashes in both; MPICH 4.0.2 returns
 * MPI_ERR_COMM.)
 */
#include "testlib.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int native = argc > 1 && strcmp(argv[1], "native") == 0, wrank, sbuf[4] = { 1, 2, 3, 4 }, rbuf[64];
    int counts[16] = { 0 }, displs[16] = { 0 }, rc_gather, rc_gatherv;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (native) {
        rc_gather = PMPI_Allgather(sbuf, 4, MPI_INT, rbuf, 4, MPI_INT, MPI_COMM_NULL);
        rc_gatherv = PMPI_Allgatherv(sbuf, 4, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_NULL);
    } else {
        rc_gather = MPI_Allgather(sbuf, 4, MPI_INT, rbuf, 4, MPI_INT, MPI_COMM_NULL);
        rc_gatherv = MPI_Allgatherv(sbuf, 4, MPI_INT, rbuf, counts, displs, MPI_INT, MPI_COMM_NULL);
    }
    printf("rank %d classes %d %d\n", wrank, test_error_class(rc_gather), test_error_class(rc_gatherv));
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_ARE_FATAL);
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0)
        printf("PASS comm_null\n");
    MPI_Finalize();
    return 0;
}
