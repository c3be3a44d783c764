/*
 * Between the exported C entry points (entry_abi.c, which must not see
 * mpi.h) and the code that knows this build's MPI types (entry_c.c).
 *
 * MPI handles differ in width between MPI libraries (MPICH: 32-bit int,
 * Open MPI: pointers).  The exported MPI_Allgather(v) take them as
 * uintptr_t, wide enough for either, so that a build preloaded into a
 * program of the other MPI can forward the caller's handles intact.
 */
#ifndef IG_ENTRY_ABI_H
#define IG_ENTRY_ABI_H

#include <stdint.h>

typedef uintptr_t ig_handle;

/* This build's own MPI: classify, serve or fall back to PMPI_*. */
int ig_c_allgather(const void *sendbuf, int sendcount, ig_handle sendtype, void *recvbuf, int recvcount,
                   ig_handle recvtype, ig_handle comm);
int ig_c_allgatherv(const void *sendbuf, int sendcount, ig_handle sendtype, void *recvbuf, const int *recvcounts,
                    const int *displs, ig_handle recvtype, ig_handle comm);

#endif
