/*
 * Calls the shim must hand to native MPI unchanged: an intra-communicator, a
 * message below
 * INTERGATHER_MIN_BYTES, MPI_IN_PLACE on an inter-communicator (erroneous:
 * the error must be native's), plus one call that moves nothing.  Results are
 * compared with PMPI_Allgather; the script checks the summary's counters.
 * Run with INTERGATHER_MIN_BYTES=1024 and an even number of processes >= 4.
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void compare_calls(MPI_Comm comm, int scount, int rcount, int rblocks, const char *what)
{
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    size_t rbytes = (size_t)rcount * rblocks * sizeof(int) + 16;
    int *sbuf = malloc((size_t)scount * sizeof(int) + 4);
    unsigned char *ref = malloc(rbytes), *got = malloc(rbytes);
    for (int i = 0; i < scount; i++)
        sbuf[i] = wrank * 100 + i;
    memset(ref, 0x5a, rbytes);
    memset(got, 0x5a, rbytes);
    PMPI_Allgather(sbuf, scount, MPI_INT, ref, rcount, MPI_INT, comm);
    MPI_Allgather(sbuf, scount, MPI_INT, got, rcount, MPI_INT, comm);
    if (test_compare(ref, got, rbytes, what))
        TEST_FAIL("%s differs from native", what);
    free(sbuf);
    free(ref);
    free(got);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int wrank, wsize, is_left, rsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm inter = test_intercomm(wsize / 2, &is_left);
    MPI_Comm_remote_size(inter, &rsize);

    compare_calls(MPI_COMM_WORLD, 5000, 5000, wsize, "intra-communicator");
    compare_calls(inter, is_left ? 16 : 0, is_left ? 0 : 16, rsize, "small (64 bytes)");
    compare_calls(inter, 0, 0, rsize, "empty");

    /* MPI_IN_PLACE is not allowed on an inter-communicator: the shim must
     * return exactly what the native library returns. */
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    int buf[64] = { 0 };
    int native_rc = PMPI_Allgather(MPI_IN_PLACE, 4, MPI_INT, buf, 4, MPI_INT, inter);
    int shim_rc = MPI_Allgather(MPI_IN_PLACE, 4, MPI_INT, buf, 4, MPI_INT, inter);
    int native_class, shim_class;
    MPI_Error_class(native_rc, &native_class);
    MPI_Error_class(shim_rc, &shim_class);
    if (native_class != shim_class)
        TEST_FAIL("MPI_IN_PLACE: native error class %d, with the shim %d", native_class, shim_class);

    if (wrank == 0)
        printf("expect native intra-communicator=1 small=1 in-place=1 empty=1\n"
               "PASS fallbacks\n");
    MPI_Comm_free(&inter);
    MPI_Finalize();
    return 0;
}
