/*
 * Fully connected algorithm, execution: moves the bytes the plan
 * (fc_plan.c) describes.  The intra-group stages use the MPI library's own
 * tuned collectives on the pair's sub-communicators, as the paper does.
 */
#include "blocks.h"
#include "pair.h"

/* Gather stage: every member's own block is already in place in `buf`, so
 * all members use MPI_IN_PLACE (an intra-communicator collective requires
 * all or none of them to). */
static int fc_gather(ig_pair *pair, void *buf, const ig_block *blk)
{
    if (pair->fc_gather == MPI_COMM_NULL)
        return MPI_SUCCESS;
    if (pair->gather_counts == NULL)
        return PMPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 1, blk->type, pair->fc_gather);
    return PMPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, pair->gather_counts,
                           pair->gather_displs, blk->type, pair->fc_gather);
}

/* A sender beyond the q-th (p > q) joins the receivers' allgather, as in the
 * paper; it needs scratch space for the p blocks that stage delivers. */
static int fc_sender_gather(ig_pair *pair, const void *sbuf, const ig_block *blk)
{
    void *base, *raw;
    int rc = ig_block_scratch(blk, pair->p, &base, &raw);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = ig_block_copy(sbuf, ig_block_slot(base, blk, pair->fc.gather_key), blk, pair->comm, pair->rank);
    if (rc == MPI_SUCCESS)
        rc = fc_gather(pair, base, blk);
    ig_block_scratch_free(raw);
    return rc;
}

static int fc_sender(ig_pair *pair, const void *sbuf, const ig_block *blk)
{
    const ig_fc_role *role = &pair->fc;
    int rc = MPI_SUCCESS;
    if (role->direct_peer != IG_FC_NONE)
        rc = PMPI_Send(sbuf, 1, blk->type, role->direct_peer, IG_TAG_DIRECT, pair->comm);
    /* The root of a broadcast only reads its buffer; MPI's prototype is not const. */
    if (rc == MPI_SUCCESS && pair->fc_bcast != MPI_COMM_NULL)
        rc = PMPI_Bcast((void *)sbuf, 1, blk->type, 0, pair->fc_bcast);
    if (rc == MPI_SUCCESS && pair->fc_gather != MPI_COMM_NULL)
        rc = fc_sender_gather(pair, sbuf, blk);
    return rc;
}

static int fc_receiver(ig_pair *pair, void *rbuf, const ig_block *blk)
{
    const ig_fc_role *role = &pair->fc;
    int rc = MPI_SUCCESS;
    if (role->direct_peer != IG_FC_NONE)
        rc = PMPI_Recv(ig_block_slot(rbuf, blk, role->direct_block), 1, blk->type, role->direct_peer,
                       IG_TAG_DIRECT, pair->comm, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS && pair->fc_bcast != MPI_COMM_NULL)
        rc = PMPI_Bcast(ig_block_slot(rbuf, blk, role->bcast_block), 1, blk->type, 0, pair->fc_bcast);
    if (rc == MPI_SUCCESS)
        rc = fc_gather(pair, rbuf, blk);
    return rc;
}

int ig_pair_allgather_fc(ig_pair *pair, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                         int rcount, MPI_Datatype rtype)
{
    int rc = ig_pair_fc_prepare(pair);
    if (rc != MPI_SUCCESS)
        return rc;
    ig_block blk;
    rc = ig_pair_block(pair, scount, stype, rcount, rtype, &blk);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = ig_pair_is_sender(pair) ? fc_sender(pair, sbuf, &blk) : fc_receiver(pair, rbuf, &blk);
    ig_block_free(&blk);
    return rc;
}
