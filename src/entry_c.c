/*
 * C entry points.  Each one classifies the call, serves it if it can, and
 * otherwise hands it unchanged to the PMPI layer so that behaviour, errors
 * included, are exactly native.  Internal MPI calls anywhere in intergather
 * go to PMPI_* only, so the shim never re-enters itself and a profiler below
 * it sees only the user's call.
 */
#include "classify.h"
#include "intergather.h"
#include "mpi_identity.h"
#include "runtime.h"

#include <mpi.h>

/* Assumes: nothing beyond the standard.  Guarantees: a result byte-identical
 * to PMPI_Allgather's, or the call is PMPI_Allgather's. */
INTERGATHER_API int MPI_Allgather(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm)
{
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
INTERGATHER_API int MPI_Allgatherv(const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype, MPI_Comm comm)
{
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
