/*
 * Ring algorithm, execution: each step posts the (at most one, or two on a
 * host of the paper schedule's dummy) Irecv and Isend that the pure schedule
 * (ring_schedule.c) gives this process, and completes them before the next
 * step.  Peers are ring neighbours on the pair's communicator, whose rank
 * order (senders 0..p-1, receivers p..p+q-1) is the ring order.
 *
 * Senders relay other senders' messages through ig_ring_sender_slots()
 * scratch blocks; receivers receive straight into their receive buffer and
 * forward from there.
 */
#include "blocks.h"
#include "pair.h"
#include "ring_schedule.h"

#include <stdlib.h>

typedef struct {
    ig_pair *pair;
    ig_ring_sched sched;
    const ig_block *blk;
    const void *own;   /* sender: its own block */
    void *relay;       /* sender: relay slots */
    void *rbuf;        /* receiver: the user's receive buffer */
} ring_ctx;

/* Where message `msg` lives on this process. */
static void *ring_buffer(const ring_ctx *c, int msg)
{
    ig_pair *pair = c->pair;
    if (!ig_pair_is_sender(pair))
        return ig_block_slot(c->rbuf, c->blk, msg);
    if (msg == pair->rank)
        return (void *)c->own; /* only ever sent from, never received into */
    return ig_block_slot(c->relay, c->blk, ig_ring_slot(c->sched, pair->p, pair->q, pair->rank, msg));
}

static int ring_step(const ring_ctx *c, int step)
{
    ig_pair *pair = c->pair;
    ig_ring_op sends[IG_RING_MAX_OPS], recvs[IG_RING_MAX_OPS];
    MPI_Request reqs[2 * IG_RING_MAX_OPS];
    int nsends, nrecvs, n = 0, rc = MPI_SUCCESS;
    ig_ring_ops(c->sched, pair->p, pair->q, pair->rank, step, sends, &nsends, recvs, &nrecvs);
    for (int i = 0; i < nrecvs && rc == MPI_SUCCESS; i++)
        rc = PMPI_Irecv(ring_buffer(c, recvs[i].msg), 1, c->blk->type, recvs[i].peer, IG_TAG_RING, pair->comm,
                        &reqs[n++]);
    for (int i = 0; i < nsends && rc == MPI_SUCCESS; i++)
        rc = PMPI_Isend(ring_buffer(c, sends[i].msg), 1, c->blk->type, sends[i].peer, IG_TAG_RING, pair->comm,
                        &reqs[n++]);
    int wrc = PMPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    return rc != MPI_SUCCESS ? rc : wrc;
}

int ig_pair_allgather_ring(ig_pair *pair, ig_ring_kind kind, const void *sbuf, int scount, MPI_Datatype stype,
                           void *rbuf, int rcount, MPI_Datatype rtype)
{
    ig_block blk;
    int rc = ig_pair_block(pair, scount, stype, rcount, rtype, &blk);
    if (rc != MPI_SUCCESS)
        return rc;
    ring_ctx c = { pair, kind == IG_RING_PAPER ? IG_SCHED_PAPER : IG_SCHED_OPTIMAL, &blk, sbuf, NULL, rbuf };
    void *raw = NULL;
    if (ig_pair_is_sender(pair))
        rc = ig_block_scratch(&blk, ig_ring_sender_slots(c.sched, pair->p, pair->q), &c.relay, &raw);
    int steps = ig_ring_steps(c.sched, pair->p, pair->q);
    for (int step = 0; step < steps && rc == MPI_SUCCESS; step++)
        rc = ring_step(&c, step);
    ig_block_scratch_free(raw);
    ig_block_free(&blk);
    return rc;
}

/*
 * The intra-group ring allgather over all p + q processes (p + q - 1
 * neighbour-only steps, receivers contributing a dummy block): the paper's
 * baseline for the ring topology.  For benchmarks, not a production choice.
 * Receivers keep real blocks in their receive buffer and the q dummy blocks
 * in scratch space; senders keep everything in scratch space.
 */
static void *intra_ring_buffer(ig_pair *pair, void *rbuf, void *scratch, const ig_block *blk, int b)
{
    if (!ig_pair_is_sender(pair) && b < pair->p)
        return ig_block_slot(rbuf, blk, b);
    return ig_block_slot(scratch, blk, b);
}

int ig_pair_allgather_intra_ring(ig_pair *pair, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                                 int rcount, MPI_Datatype rtype)
{
    ig_block blk;
    int rc = ig_pair_block(pair, scount, stype, rcount, rtype, &blk);
    if (rc != MPI_SUCCESS)
        return rc;
    int n = pair->p + pair->q, me = pair->rank;
    int right = (me + 1) % n, left = (me + n - 1) % n;
    void *scratch, *raw;
    rc = ig_block_scratch(&blk, n, &scratch, &raw);
    if (rc == MPI_SUCCESS && ig_pair_is_sender(pair))
        rc = ig_block_copy(sbuf, ig_block_slot(scratch, &blk, me), &blk, pair->comm, me);
    for (int t = 0; t < n - 1 && rc == MPI_SUCCESS; t++) {
        int out = (me - t + n) % n, in = (me - t - 1 + n) % n;
        rc = PMPI_Sendrecv(intra_ring_buffer(pair, rbuf, scratch, &blk, out), 1, blk.type, right, IG_TAG_RING,
                           intra_ring_buffer(pair, rbuf, scratch, &blk, in), 1, blk.type, left, IG_TAG_RING,
                           pair->comm, MPI_STATUS_IGNORE);
    }
    if (raw != NULL)
        ig_block_scratch_free(raw);
    ig_block_free(&blk);
    return rc;
}
