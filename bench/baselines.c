#include "baselines.h"

#include <stdlib.h>
#include <string.h>

enum { TAG_ROOT = 3, TAG_RING = 4 };

static int block_type(int bytes, MPI_Datatype *type)
{
    int rc = MPI_Type_contiguous(bytes, MPI_BYTE, type);
    return rc == MPI_SUCCESS ? MPI_Type_commit(type) : rc;
}

int bench_root_gathering(MPI_Comm comm, MPI_Comm side, int p, const void *sbuf, void *rbuf, int bytes)
{
    int rank, rc;
    MPI_Datatype blk;
    MPI_Comm_rank(comm, &rank);
    if ((rc = block_type(bytes, &blk)) != MPI_SUCCESS)
        return rc;
    if (rank < p) {
        void *all = rank == 0 ? malloc((size_t)p * (size_t)bytes + 1) : NULL;
        rc = rank == 0 && all == NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
        if (rc == MPI_SUCCESS)
            rc = PMPI_Gather(sbuf, 1, blk, all, 1, blk, 0, side);
        if (rc == MPI_SUCCESS && rank == 0)
            rc = PMPI_Send(all, p, blk, p, TAG_ROOT, comm);
        free(all);
    } else {
        if (rank == p)
            rc = PMPI_Recv(rbuf, p, blk, 0, TAG_ROOT, comm, MPI_STATUS_IGNORE);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Bcast(rbuf, p, blk, 0, side);
    }
    MPI_Type_free(&blk);
    return rc;
}

/* Every process keeps all n blocks in scratch (receivers' dummies
 * included); receivers copy the p real ones out at the end. */
int bench_intra_ring(MPI_Comm comm, int p, const void *sbuf, void *rbuf, int bytes)
{
    int n, me, rc;
    MPI_Datatype blk;
    MPI_Comm_size(comm, &n);
    MPI_Comm_rank(comm, &me);
    char *all = malloc((size_t)n * (size_t)bytes + 1);
    if (all == NULL)
        return MPI_ERR_NO_MEM;
    if ((rc = block_type(bytes, &blk)) != MPI_SUCCESS) {
        free(all);
        return rc;
    }
    if (me < p)
        memcpy(all + (size_t)me * (size_t)bytes, sbuf, (size_t)bytes);
    int right = (me + 1) % n, left = (me + n - 1) % n;
    for (int t = 0; t < n - 1 && rc == MPI_SUCCESS; t++) {
        int out = (me - t + n) % n, in = (me - t - 1 + n) % n;
        rc = PMPI_Sendrecv(all + (size_t)out * (size_t)bytes, 1, blk, right, TAG_RING,
                           all + (size_t)in * (size_t)bytes, 1, blk, left, TAG_RING, comm, MPI_STATUS_IGNORE);
    }
    if (rc == MPI_SUCCESS && me >= p)
        memcpy(rbuf, all, (size_t)p * (size_t)bytes);
    MPI_Type_free(&blk);
    free(all);
    return rc;
}
