/*
 * C entry points (the exported symbols of MPI_Allgather(v) are in
 * entry_abi.c; MPI_Init(_thread) in lifecycle.c).  Each one classifies the
 * call (call.h), serves it through the collective path (serve.h), and
 * otherwise hands it unchanged to the PMPI layer so that behaviour, errors
 * included, are exactly native.  Internal MPI calls anywhere in intergather
 * go to PMPI_* only, so the shim never re-enters itself and a profiler below
 * it sees only the user's call.
 */
#include "call.h"
#include "entry_abi.h"
#include "serve.h"

#include <mpi.h>

/* Assumes: nothing beyond the standard.  Guarantees: for a correct call, a
 * result byte-identical to PMPI_Allgather's, or the call is
 * PMPI_Allgather's; an erroneous one fails as README, Limitations says. */
int ig_c_allgather(const void *sendbuf, int sendcount, ig_handle stype, void *recvbuf, int recvcount,
                   ig_handle rtype, ig_handle handle)
{
    MPI_Datatype sendtype = (MPI_Datatype)stype, recvtype = (MPI_Datatype)rtype;
    MPI_Comm comm = (MPI_Comm)handle;
    ig_call call = { .op = IG_OP_ALLGATHER, .sbuf = sendbuf, .scount = sendcount, .stype = sendtype,
                     .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype, .comm = comm };
    int rc;
    if (!ig_serve_entry(&call, &rc))
        goto fallback;
    return rc;
fallback:
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

/* Assumes: nothing beyond the standard.  Guarantees: for a correct call, a
 * result byte-identical to PMPI_Allgatherv's, or the call is
 * PMPI_Allgatherv's; an erroneous one fails as README, Limitations says. */
int ig_c_allgatherv(const void *sendbuf, int sendcount, ig_handle stype, void *recvbuf, const int *recvcounts,
                    const int *displs, ig_handle rtype, ig_handle handle)
{
    MPI_Datatype sendtype = (MPI_Datatype)stype, recvtype = (MPI_Datatype)rtype;
    MPI_Comm comm = (MPI_Comm)handle;
    ig_call call = { .op = IG_OP_ALLGATHERV, .sbuf = sendbuf, .scount = sendcount, .stype = sendtype,
                     .rbuf = recvbuf, .rcounts = recvcounts, .rdispls = displs, .rtype = recvtype,
                     .comm = comm };
    int rc;
    if (!ig_serve_entry(&call, &rc))
        goto fallback;
    return rc;
fallback:
    return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}
