/*
 * Root gathering: what Open MPI's coll/inter and MPICH do for an
 * inter-communicator allgather (paper, section III-A), rebuilt on a pair so
 * benchmarks and simulations can compare against it where no native
 * inter-communicator exists (SimGrid) and with the same buffers elsewhere.
 */
#include "blocks.h"
#include "pair.h"

static int root_gathering_sender(ig_pair *pair, const void *sbuf, const ig_block *blk)
{
    void *base = NULL, *raw = NULL;
    int rc = MPI_SUCCESS;
    if (pair->rank == 0)
        rc = ig_block_scratch(blk, pair->p, &base, &raw);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Gather(sbuf, 1, blk->type, base, 1, blk->type, 0, pair->side);
    if (rc == MPI_SUCCESS && pair->rank == 0)
        rc = PMPI_Send(base, pair->p, blk->type, pair->p, IG_TAG_ROOT, pair->comm);
    ig_block_scratch_free(raw);
    return rc;
}

static int root_gathering_receiver(ig_pair *pair, void *rbuf, const ig_block *blk)
{
    int rc = MPI_SUCCESS;
    if (pair->rank == pair->p)
        rc = PMPI_Recv(rbuf, pair->p, blk->type, 0, IG_TAG_ROOT, pair->comm, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Bcast(rbuf, pair->p, blk->type, 0, pair->side);
    return rc;
}

int ig_pair_allgather_root_gathering(ig_pair *pair, const void *sbuf, int scount, MPI_Datatype stype,
                                     void *rbuf, int rcount, MPI_Datatype rtype)
{
    int rc = ig_pair_side_prepare(pair);
    if (rc != MPI_SUCCESS)
        return rc;
    ig_block blk;
    rc = ig_pair_block(pair, scount, stype, rcount, rtype, &blk);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = ig_pair_is_sender(pair) ? root_gathering_sender(pair, sbuf, &blk) : root_gathering_receiver(pair, rbuf, &blk);
    ig_block_free(&blk);
    return rc;
}
