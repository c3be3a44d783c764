/*
 * The exported C entry points MPI_Allgather and MPI_Allgatherv.  This file
 * deliberately does not include mpi.h (see entry_abi.h): handles arrive as
 * uintptr_t.  Under the MPI this library was built for, the call goes to
 * entry_c.c; under another MPI (mpi_identity.h) it is handed, with every
 * argument exactly as the caller passed it, to the next definition of the
 * same function: the program's own MPI library.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "entry_abi.h"
#include "mpi_identity.h"

#include <dlfcn.h>

#define IG_EXPORT __attribute__((visibility("default")))

typedef int (*allgather_fn)(const void *, int, ig_handle, void *, int, ig_handle, ig_handle);
typedef int (*allgatherv_fn)(const void *, int, ig_handle, void *, const int *, const int *, ig_handle, ig_handle);

IG_EXPORT int MPI_Allgather(const void *sendbuf, int sendcount, ig_handle sendtype, void *recvbuf, int recvcount,
                            ig_handle recvtype, ig_handle comm)
{
    if (ig_mpi_identity_matches())
        return ig_c_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
    allgather_fn next = (allgather_fn)dlsym(RTLD_NEXT, "MPI_Allgather");
    return next(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

IG_EXPORT int MPI_Allgatherv(const void *sendbuf, int sendcount, ig_handle sendtype, void *recvbuf,
                             const int *recvcounts, const int *displs, ig_handle recvtype, ig_handle comm)
{
    if (ig_mpi_identity_matches())
        return ig_c_allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
    allgatherv_fn next = (allgatherv_fn)dlsym(RTLD_NEXT, "MPI_Allgatherv");
    return next(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}
