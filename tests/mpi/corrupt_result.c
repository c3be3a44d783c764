/*
 * Test support, preloaded in front of a program that calls MPI_Allgather
 * (test_bench.sh: intergather-bench, whose "intergather" row calls it): an
 * MPI_Allgather that forwards every call to the next one (the library's,
 * or MPI's), then spoils the first byte this process received on one call,
 * so that a test can check that the program notices a wrong result.
 *   IG_TEST_CORRUPT_CALL  which of this process's MPI_Allgather calls to
 *                         spoil, counting from 1 (unset or 0: none)
 * A call that received nothing (a sending group's, in half duplex) is
 * counted but left alone.  Every byte it spoils is reported on standard
 * error as "corrupt_result: call N spoiled", so that a test can check that
 * its corruption really happened.  For contiguous receive types only.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <dlfcn.h>
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

typedef int (*allgather_fn)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);

int MPI_Allgather(const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype,
                  MPI_Comm comm)
{
    static allgather_fn next;
    static long calls;
    if (next == NULL)
        next = (allgather_fn)dlsym(RTLD_NEXT, "MPI_Allgather");
    if (next == NULL) {
        fprintf(stderr, "corrupt_result: no MPI_Allgather after this library\n");
        abort();
    }
    int rc = next(sbuf, scount, stype, rbuf, rcount, rtype, comm);
    const char *which = getenv("IG_TEST_CORRUPT_CALL");
    if (++calls == (which != NULL ? atol(which) : 0) && rc == MPI_SUCCESS && rcount > 0 && rbuf != NULL) {
        *(unsigned char *)rbuf ^= 0x5a;
        fprintf(stderr, "corrupt_result: call %ld spoiled\n", calls);
    }
    return rc;
}
