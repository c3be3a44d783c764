/*
 * The paper's fully connected algorithm (section III), half duplex: moves
 * the bytes the plan (fc_plan.c) describes.  The broadcast stage uses the
 * MPI library's tuned MPI_Bcast on the pair's sub-communicators, as the
 * paper does, where the call's blocks move as bytes
 * (step->bcast_in_bytes); otherwise (every MPI_Allgatherv, blocks not in
 * order) intergather's own binomial tree, each member with its own types
 * (fc_bcast).  The allgather stage is run as step->stage[1] says
 * (group_allgather.c).  With p > q this is the paper's plan, in which the
 * p - q extra senders join the receivers' allgather (INTERGATHER_MANY_SENDERS
 * =join); the default for p > q is algo_spread.c.
 */
#include "algorithms.h"
#include "blocks.h"
#include "group_allgather.h"
#include "p2p.h"
#include "tags.h"

#include <limits.h>
#include <stdlib.h>

/* Gather stage: every member's own block is already in place in the
 * receive buffer (group_allgather.h); member k contributes block k. */
static int fc_gather(ig_pair *pair, const ig_xfer *x, ig_group_stage stage)
{
    int n = pair->fc.gather_size;
    if (pair->fc_gather == MPI_COMM_NULL)
        return MPI_SUCCESS;
    if (ig_xfer_uniform(x))
        return ig_group_allgatherv(x->rbuf, NULL, NULL, x->rtype, x->rextent, pair->fc_gather, stage);
    int *blocks = ig_pair_ints(pair, 3 * n);
    if (blocks == NULL)
        return MPI_ERR_NO_MEM;
    for (int key = 0; key < n; key++)
        blocks[key] = key;
    ig_xfer_gather_layout(x, n, blocks, blocks + n, blocks + 2 * n);
    int rc = ig_group_allgatherv(x->rbuf, blocks + n, blocks + 2 * n, x->rtype, x->rextent, pair->fc_gather, stage);
    ig_pair_ints_done(pair, blocks);
    return rc;
}

/* The leftover stage (p < q, r > 0; fc_plan.h): a sender's block straight
 * to each leftover receiver, which takes every sender's.  A sender runs it
 * after its broadcast, so that its gather group starts first and these
 * sends share its link with that group's allgather, not with the
 * broadcast.  Every message is posted even when one fails, so that no
 * peer is left waiting for it. */
static int fc_leftovers(ig_pair *pair, const ig_xfer *x)
{
    const ig_fc_role *role = &pair->fc;
    int sender = ig_pair_is_sender(pair);
    int n = sender ? role->leftover_count : role->from_every_sender ? pair->p : 0;
    if (n == 0)
        return MPI_SUCCESS;
    MPI_Request *reqs = ig_pair_requests(pair, n);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    for (int m = 0; m < n; m++) {
        if (sender)
            ig_err_keep(&rc, PMPI_Isend(x->sbuf, x->scount, x->stype, role->leftover_first + m, IG_TAG_DIRECT,
                                        pair->comm, &reqs[m]));
        else
            ig_err_keep(&rc, PMPI_Irecv(ig_xfer_rptr(x, m), ig_xfer_rcount(x, m), x->rtype, m, IG_TAG_DIRECT,
                                        pair->comm, &reqs[m]));
    }
    ig_err_keep(&rc, ig_waitall(n, reqs));
    ig_pair_requests_done(pair, reqs);
    return rc;
}

/* The gather stage, once every member can take part.  In the paper's p > q
 * plan (the only one whose gather group has senders in it) the extra
 * senders need scratch for the p blocks the stage delivers, allocated per
 * call; a sender without it cannot take part, and its group would wait for
 * it in the allgather.  So that group first learns whether all its
 * members are ready (MPICH's errflag: one small allreduce per call, on
 * this non-default plan only) and, if one is not, every member returns
 * MPI_ERR_NO_MEM instead.  Every member knows whether p > q (the pair). */
static int fc_gather_when_ready(ig_pair *pair, const ig_xfer *x, ig_group_stage stage, int ready)
{
    if (pair->fc_gather == MPI_COMM_NULL)
        return MPI_SUCCESS;
    if (pair->p > pair->q) {
        int all_ready = 0, rc = PMPI_Allreduce(&ready, &all_ready, 1, MPI_INT, MPI_MIN, pair->fc_gather);
        if (rc != MPI_SUCCESS)
            return rc;
        if (!all_ready)
            return MPI_ERR_NO_MEM;
    }
    return fc_gather(pair, x, stage);
}

/* A sender beyond the q-th (p > q, the paper's plan) joins the receivers'
 * allgather; it needs scratch space for the p blocks that stage delivers,
 * which it describes with its own block type (the decision takes this plan
 * only when every sender's type can be received into). */
static int fc_sender_gather(ig_pair *pair, const ig_xfer *x, ig_group_stage stage)
{
    ig_block blk = { .type = MPI_DATATYPE_NULL };
    void *base = NULL, *raw = NULL;
    int rc = ig_block_make(x->scount, x->stype, &blk);
    if (rc == MPI_SUCCESS)
        rc = ig_block_scratch(&blk, pair->p, &base, &raw);
    if (rc == MPI_SUCCESS)
        rc = ig_block_copy(x->sbuf, ig_block_slot(base, &blk, pair->fc.gather_key), &blk, pair->comm, pair->rank);
    ig_xfer own = { NULL, 0, MPI_DATATYPE_NULL, base, blk.type, blk.extent, 1, NULL, NULL };
    ig_err_keep(&rc, fc_gather_when_ready(pair, &own, stage, rc == MPI_SUCCESS));
    ig_block_scratch_free(raw);
    ig_block_free(&blk);
    return rc;
}

/* The broadcast stage (p < q), from the sender at rank 0 of fc_bcast to
 * its receivers: count elements of type at buf on every member, the root's
 * its send block, a receiver's the slot of that block.  The members' byte
 * counts match but their counts and types need not (a sender's N doubles,
 * a receiver's one block type; MPI only asks that the type signatures
 * match), and Open MPI's tuned MPI_Bcast chooses, and cuts, by each
 * member's own count: its scatter-allgather falls back to the linear
 * algorithm on members whose count is below the group's size, its split
 * binary tree halves the count, so members passing different counts ran
 * different protocols and hung or returned other bytes (groups of 16 to
 * 31 members with blocks of 1 MiB chose scatter-allgather by default;
 * tests/mpi/test_fc_bcast.sh forces each algorithm).  So where every
 * block is bytes in order (in_bytes, from the agreed shape) every member
 * passes the bytes as MPI_BYTE, which keeps the MPI library's tuned,
 * segmented algorithms; otherwise the stage is intergather's own binomial
 * tree, point to point, where only signatures must match (p2p.h), which
 * allocates nothing and so cannot fail on one member alone. */
static int fc_bcast(ig_pair *pair, void *buf, int count, MPI_Datatype type, int in_bytes)
{
    MPI_Count size = 0;
    MPI_Aint true_lb = 0;
    if (!in_bytes)
        return ig_bcast_binomial(buf, count, type, IG_TAG_BCAST, pair->fc_bcast);
    int rc = PMPI_Type_size_x(type, &size);
    if (rc == MPI_SUCCESS)
        rc = ig_block_true_lb(count, type, &true_lb);
    if (rc == MPI_SUCCESS && (MPI_Count)count * size > INT_MAX)
        rc = MPI_ERR_COUNT; /* the decision keeps such blocks off this path */
    if (rc != MPI_SUCCESS)
        return rc;
    return PMPI_Bcast((char *)buf + true_lb, (int)(count * size), MPI_BYTE, 0, pair->fc_bcast);
}

static int fc_sender(ig_pair *pair, const ig_xfer *x, const ig_step *step)
{
    const ig_fc_role *role = &pair->fc;
    int rc = MPI_SUCCESS;
    if (role->direct_peer != IG_FC_NONE)
        rc = PMPI_Send(x->sbuf, x->scount, x->stype, role->direct_peer, IG_TAG_DIRECT, pair->comm);
    /* The root of a broadcast only reads its buffer; MPI's prototype is not const. */
    if (pair->fc_bcast != MPI_COMM_NULL)
        ig_err_keep(&rc, fc_bcast(pair, (void *)x->sbuf, x->scount, x->stype, step->bcast_in_bytes));
    if (pair->fc_gather != MPI_COMM_NULL)
        ig_err_keep(&rc, fc_sender_gather(pair, x, step->stage[1]));
    ig_err_keep(&rc, fc_leftovers(pair, x));
    return rc;
}

static int fc_receiver(ig_pair *pair, const ig_xfer *x, const ig_step *step)
{
    const ig_fc_role *role = &pair->fc;
    int rc = MPI_SUCCESS;
    if (role->direct_peer != IG_FC_NONE)
        rc = PMPI_Recv(ig_xfer_rptr(x, role->direct_block), ig_xfer_rcount(x, role->direct_block), x->rtype,
                       role->direct_peer, IG_TAG_DIRECT, pair->comm, MPI_STATUS_IGNORE);
    if (pair->fc_bcast != MPI_COMM_NULL)
        ig_err_keep(&rc, fc_bcast(pair, ig_xfer_rptr(x, role->bcast_block), ig_xfer_rcount(x, role->bcast_block),
                                  x->rtype, step->bcast_in_bytes));
    ig_err_keep(&rc, fc_gather_when_ready(pair, x, step->stage[1], 1));
    ig_err_keep(&rc, fc_leftovers(pair, x));
    return rc;
}

/* Everyone in a gather group runs the receivers' stage, step->stage[1]. */
int ig_alg_fc(ig_pair *pair, const ig_xfer *x, const ig_step *step)
{
    int rc = ig_pair_fc_prepare(pair);
    if (rc != MPI_SUCCESS)
        return rc;
    return ig_pair_is_sender(pair) ? fc_sender(pair, x, step) : fc_receiver(pair, x, step);
}
