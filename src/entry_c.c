/*
 * C entry points (the exported symbols of MPI_Allgather(v) are in
 * entry_abi.c).  Each one classifies the call, serves it if it can, and
 * otherwise hands it unchanged to the PMPI layer so that behaviour, errors
 * included, are exactly native.  Internal MPI calls anywhere in intergather
 * go to PMPI_* only, so the shim never re-enters itself and a profiler below
 * it sees only the user's call.
 */
#include "classify.h"
#include "entry_abi.h"
#include "intergather.h"
#include "mpi_identity.h"
#include "runtime.h"

#include <mpi.h>

/* Assumes: nothing beyond the standard.  Guarantees: a result byte-identical
 * to PMPI_Allgather's, or the call is PMPI_Allgather's. */
int ig_c_allgather(const void *sendbuf, int sendcount, ig_handle stype, void *recvbuf, int recvcount,
                   ig_handle rtype, ig_handle handle)
{
    MPI_Datatype sendtype = (MPI_Datatype)stype, recvtype = (MPI_Datatype)rtype;
    MPI_Comm comm = (MPI_Comm)handle;
    ig_call call = { .op = IG_OP_ALLGATHER, .sbuf = sendbuf, .scount = sendcount, .stype = sendtype,
                     .rbuf = recvbuf, .rcount = recvcount, .rtype = recvtype, .comm = comm };
    int rc;
    if (!ig_call_classify(&call))
        goto fallback;
    if (!ig_call_dispatch(&call, &rc))
        goto fallback;
    return rc;
fallback:
    return PMPI_Allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm);
}

/* Assumes: nothing beyond the standard.  Guarantees: a result byte-identical
 * to PMPI_Allgatherv's, or the call is PMPI_Allgatherv's. */
int ig_c_allgatherv(const void *sendbuf, int sendcount, ig_handle stype, void *recvbuf, const int *recvcounts,
                    const int *displs, ig_handle rtype, ig_handle handle)
{
    MPI_Datatype sendtype = (MPI_Datatype)stype, recvtype = (MPI_Datatype)rtype;
    MPI_Comm comm = (MPI_Comm)handle;
    ig_call call = { .op = IG_OP_ALLGATHERV, .sbuf = sendbuf, .scount = sendcount, .stype = sendtype,
                     .rbuf = recvbuf, .rcounts = recvcounts, .rdispls = displs, .rtype = recvtype,
                     .comm = comm };
    int rc;
    if (!ig_call_classify(&call))
        goto fallback;
    if (!ig_call_dispatch(&call, &rc))
        goto fallback;
    return rc;
fallback:
    return PMPI_Allgatherv(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm);
}

/* Start-up hooks: so the finalize summary appears even in programs whose
 * first collective is not an allgather. */
INTERGATHER_API int MPI_Init(int *argc, char ***argv)
{
    int ours = ig_mpi_identity_matches(); /* before anything else: no handles otherwise */
    int rc = PMPI_Init(argc, argv);
    if (ours && rc == MPI_SUCCESS)
        ig_runtime_start();
    return rc;
}

INTERGATHER_API int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int ours = ig_mpi_identity_matches(); /* before anything else: no handles otherwise */
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (ours && rc == MPI_SUCCESS)
        ig_runtime_start();
    return rc;
}
