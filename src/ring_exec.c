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
#include "algorithms.h"

#include <limits.h>
#include <stdlib.h>

/* Relay slots of a sender.  MPI_Allgather: slots of the sender's own block
 * type (every block has the same signature).  MPI_Allgatherv: blocks differ
 * in size and the sender has no datatype for the others' blocks, so slots
 * are raw space received and forwarded as MPI_PACKED (any message may be
 * received as MPI_PACKED, and packed data matches the receiver's type); the
 * size of each relayed message is taken from its receive status. */
typedef struct {
    ig_block blk;     /* uniform: the sender's block type */
    int packed_bytes; /* varying: the size of one slot */
    void *base, *raw;
    int used_bytes[2]; /* varying: what each slot holds */
} ring_relay;

typedef struct {
    ig_pair *pair;
    ig_ring_sched sched;
    const ig_xfer *x;
    ring_relay relay;
} ring_ctx;

typedef struct {
    void *buf;
    int count;
    MPI_Datatype type;
    int slot; /* relay slot, or -1 */
} ring_buffer;

/* Where message `msg` lives on this process, as an MPI (buf, count, type). */
static ring_buffer ring_buffer_of(const ring_ctx *c, int msg, int receiving)
{
    ig_pair *pair = c->pair;
    const ig_xfer *x = c->x;
    ring_buffer b = { NULL, 0, MPI_DATATYPE_NULL, -1 };
    if (!ig_pair_is_sender(pair)) {
        b.buf = ig_xfer_rptr(x, msg);
        b.count = ig_xfer_rcount(x, msg);
        b.type = x->rtype;
        return b;
    }
    if (msg == pair->rank) { /* only ever sent from, never received into */
        b.buf = (void *)x->sbuf;
        b.count = x->scount;
        b.type = x->stype;
        return b;
    }
    b.slot = ig_ring_slot(c->sched, pair->p, pair->q, pair->rank, msg);
    if (ig_xfer_uniform(x)) {
        b.buf = ig_block_slot(c->relay.base, &c->relay.blk, b.slot);
        b.count = 1;
        b.type = c->relay.blk.type;
    } else {
        b.buf = (char *)c->relay.base + (MPI_Aint)b.slot * c->relay.packed_bytes;
        b.count = receiving ? c->relay.packed_bytes : c->relay.used_bytes[b.slot];
        b.type = MPI_PACKED;
    }
    return b;
}

static int ring_step(ring_ctx *c, int step)
{
    ig_pair *pair = c->pair;
    ig_ring_op sends[IG_RING_MAX_OPS], recvs[IG_RING_MAX_OPS];
    MPI_Request reqs[2 * IG_RING_MAX_OPS];
    MPI_Status stats[2 * IG_RING_MAX_OPS];
    int slots[IG_RING_MAX_OPS];
    int nsends, nrecvs, n = 0, rc = MPI_SUCCESS;
    ig_ring_ops(c->sched, pair->p, pair->q, pair->rank, step, sends, &nsends, recvs, &nrecvs);
    for (int i = 0; i < nrecvs && rc == MPI_SUCCESS; i++) {
        ring_buffer b = ring_buffer_of(c, recvs[i].msg, 1);
        slots[i] = b.slot;
        rc = PMPI_Irecv(b.buf, b.count, b.type, recvs[i].peer, IG_TAG_RING, pair->comm, &reqs[n++]);
    }
    for (int i = 0; i < nsends && rc == MPI_SUCCESS; i++) {
        ring_buffer b = ring_buffer_of(c, sends[i].msg, 0);
        rc = PMPI_Isend(b.buf, b.count, b.type, sends[i].peer, IG_TAG_RING, pair->comm, &reqs[n++]);
    }
    int wrc = PMPI_Waitall(n, reqs, stats);
    for (int i = 0; i < nrecvs && wrc == MPI_SUCCESS; i++)
        if (slots[i] >= 0 && !ig_xfer_uniform(c->x))
            PMPI_Get_count(&stats[i], MPI_PACKED, &c->relay.used_bytes[slots[i]]);
    return rc != MPI_SUCCESS ? rc : wrc;
}

static int relay_open(ring_ctx *c)
{
    ring_relay *r = &c->relay;
    const ig_xfer *x = c->x;
    int slots = ig_ring_sender_slots(c->sched, c->pair->p, c->pair->q);
    r->blk.type = MPI_DATATYPE_NULL;
    r->raw = NULL;
    if (!ig_pair_is_sender(c->pair))
        return MPI_SUCCESS;
    if (ig_xfer_uniform(x)) {
        int rc = ig_block_make(x->scount, x->stype, &r->blk);
        return rc != MPI_SUCCESS ? rc : ig_block_scratch(&r->blk, slots, &r->base, &r->raw);
    }
    MPI_Count largest = 0;
    for (int i = 0; i < c->pair->p; i++)
        largest = x->group_bytes[i] > largest ? x->group_bytes[i] : largest;
    if (largest > INT_MAX)
        return MPI_ERR_COUNT; /* classification keeps such calls native */
    r->packed_bytes = (int)largest;
    r->raw = r->base = malloc((size_t)slots * (size_t)(largest > 0 ? largest : 1));
    return r->raw == NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

static void relay_close(ring_ctx *c)
{
    free(c->relay.raw);
    ig_block_free(&c->relay.blk);
}

int ig_ring_run(ig_pair *pair, ig_ring_kind kind, const ig_xfer *x)
{
    ring_ctx c = { .pair = pair, .sched = kind == IG_RING_PAPER ? IG_SCHED_PAPER : IG_SCHED_OPTIMAL, .x = x };
    int rc = relay_open(&c);
    int steps = ig_ring_steps(c.sched, pair->p, pair->q);
    for (int step = 0; step < steps && rc == MPI_SUCCESS; step++)
        rc = ring_step(&c, step);
    relay_close(&c);
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
