/*
 * Fully connected algorithm, execution: moves the bytes the plan
 * (fc_plan.c) describes.  The broadcast stage uses the MPI library's tuned
 * MPI_Bcast on the pair's sub-communicators, as the paper does; the allgather
 * stage goes through group_allgather.c, which by default hands large blocks
 * to intergather's own ring (a documented departure from the paper).
 */
#include "blocks.h"
#include "pair.h"
#include "algorithms.h"
#include "group_allgather.h"
#include "settings.h"
#include "xfer.h"

#include <stdlib.h>

/* Gather stage: every member's own block is already in place in the
 * receive buffer (group_allgather.h). */
static int fc_gather(ig_pair *pair, const ig_xfer *x)
{
    int n = pair->fc.gather_size;
    if (pair->fc_gather == MPI_COMM_NULL)
        return MPI_SUCCESS;
    if (ig_xfer_uniform(x) && n == pair->p)
        return ig_group_allgatherv(x->rbuf, NULL, NULL, x->rtype, x->rextent, pair->fc_gather);
    int *blocks = malloc(3 * (size_t)n * sizeof(int));
    if (blocks == NULL)
        return MPI_ERR_NO_MEM;
    for (int key = 0; key < n; key++)
        blocks[key] = ig_fc_gather_block(pair->p, key);
    ig_xfer_gather_layout(x, n, blocks, blocks + n, blocks + 2 * n);
    int rc = ig_group_allgatherv(x->rbuf, blocks + n, blocks + 2 * n, x->rtype, x->rextent, pair->fc_gather);
    free(blocks);
    return rc;
}

/* A sender beyond the q-th (p > q) joins the receivers' allgather, as in the
 * paper; it needs scratch space for the p blocks that stage delivers, which
 * it describes with its own block type. */
static int fc_sender_gather(ig_pair *pair, const ig_xfer *x)
{
    ig_block blk;
    void *base, *raw;
    int rc = ig_block_make(x->scount, x->stype, &blk);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = ig_block_scratch(&blk, pair->p, &base, &raw);
    if (rc == MPI_SUCCESS) {
        rc = ig_block_copy(x->sbuf, ig_block_slot(base, &blk, pair->fc.gather_key), &blk, pair->comm, pair->rank);
        ig_xfer own = { NULL, 0, MPI_DATATYPE_NULL, base, blk.type, blk.extent, NULL, NULL, NULL };
        if (rc == MPI_SUCCESS)
            rc = fc_gather(pair, &own);
        ig_block_scratch_free(raw);
    }
    ig_block_free(&blk);
    return rc;
}

static int fc_sender(ig_pair *pair, const ig_xfer *x)
{
    const ig_fc_role *role = &pair->fc;
    int rc = MPI_SUCCESS;
    if (role->direct_peer != IG_FC_NONE)
        rc = PMPI_Send(x->sbuf, x->scount, x->stype, role->direct_peer, IG_TAG_DIRECT, pair->comm);
    /* The root of a broadcast only reads its buffer; MPI's prototype is not const. */
    if (rc == MPI_SUCCESS && pair->fc_bcast != MPI_COMM_NULL)
        rc = PMPI_Bcast((void *)x->sbuf, x->scount, x->stype, 0, pair->fc_bcast);
    if (rc == MPI_SUCCESS && pair->fc_gather != MPI_COMM_NULL)
        rc = fc_sender_gather(pair, x);
    return rc;
}

static int fc_receiver(ig_pair *pair, const ig_xfer *x)
{
    const ig_fc_role *role = &pair->fc;
    int rc = MPI_SUCCESS;
    if (role->direct_peer != IG_FC_NONE)
        rc = PMPI_Recv(ig_xfer_rptr(x, role->direct_block), ig_xfer_rcount(x, role->direct_block), x->rtype,
                       role->direct_peer, IG_TAG_DIRECT, pair->comm, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS && pair->fc_bcast != MPI_COMM_NULL)
        rc = PMPI_Bcast(ig_xfer_rptr(x, role->bcast_block), ig_xfer_rcount(x, role->bcast_block), x->rtype, 0,
                        pair->fc_bcast);
    if (rc == MPI_SUCCESS)
        rc = fc_gather(pair, x);
    return rc;
}

/* p > q: by default the p blocks are spread over the q receivers in ranges
 * (spread.h) instead of the paper's extra senders joining the receivers'
 * allgather.  Same p k t_w at each receiver, but senders receive nothing:
 * the paper's plan copies p (p - 1) + q blocks where spreading copies about
 * p q, which made it slower than native on shared memory
 * (docs/performance.md).  INTERGATHER_MANY_SENDERS=join selects the
 * paper's plan for MPI_Allgather.  MPI_Allgatherv always spreads: senders
 * would have to receive blocks whose sizes they do not know, described in a
 * type they do not have. */
int ig_fc_run(ig_pair *pair, const ig_xfer *x)
{
    int join = ig_settings_get()->many_senders == IG_MANY_SENDERS_JOIN && ig_xfer_uniform(x);
    if (pair->p > pair->q && !join)
        return ig_spread_run(pair, x);
    int rc = ig_pair_fc_prepare(pair);
    if (rc != MPI_SUCCESS)
        return rc;
    return ig_pair_is_sender(pair) ? fc_sender(pair, x) : fc_receiver(pair, x);
}
