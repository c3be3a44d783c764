/*
 * The paper's ring algorithm (section IV), half duplex: each step posts the
 * (at most one, or two on a host of the paper schedule's dummy) Irecv and
 * Isend that the pure schedule (ring_schedule.h) gives this process, and
 * completes them before the next step.  Peers are ring neighbours on the
 * pair's communicator, whose rank order (senders 0..p-1, receivers
 * p..p+q-1) is the ring order.
 *
 * Receivers receive straight into their receive buffer and forward from
 * there.  Senders relay other senders' blocks through two slots of raw
 * space (ig_ring_sender_slots), received and forwarded as MPI_PACKED: any
 * message may be received as MPI_PACKED, packed data is received in the
 * receiver's own type, and a sender never has to receive into a type
 * derived from its send type -- which would be wrong for a legal send type
 * whose elements overlap, and impossible for MPI_Allgatherv, where the
 * senders have no type for the others' blocks.  The size of each relayed
 * block comes from its receive status.  (Packed data is the block's bytes
 * on the homogeneous systems the MPI libraries run on here.)
 */
#include "algorithms.h"
#include "p2p.h"
#include "ring_schedule.h"
#include "tags.h"

#include <stdlib.h>

typedef struct {
    ig_pair *pair;
    ig_ring_kind schedule;
    const ig_xfer *x;
    int slot_bytes;    /* room for the largest relayed block */
    char *slots;       /* senders: ig_ring_sender_slots() slots of slot_bytes */
    int used_bytes[2]; /* what each slot holds */
    /* Receivers: the blocks that arrived short (a sender without relay
     * space sends empty messages), forwarded empty in turn; or, without
     * room for the flags, every block forwarded after the first short one. */
    char *short_blocks;
    int any_short;
    MPI_Count rtype_size; /* receivers: of the receive type, 0 if it has no bytes */
} ring_ctx;

typedef struct {
    void *buf;
    int count;
    MPI_Datatype type;
    int slot; /* relay slot, or -1 */
} ring_buffer;

static int block_short(const ring_ctx *c, int msg)
{
    return c->short_blocks != NULL ? c->short_blocks[msg] : c->any_short;
}

/* A receiver's block `msg` arrived with fewer elements than it expects:
 * the relay space of some sender on its way was missing.  Its data is not
 * there, so it is passed on empty, and every receiver it reaches reports
 * an error instead of returning wrong data (MPICH's errflag). */
static int check_arrival(ring_ctx *c, int msg, const MPI_Status *status, int completed)
{
    int elements = 0, expected = ig_xfer_rcount(c->x, msg);
    /* A block of no bytes (a type of size 0 counts 0 elements) cannot be short. */
    int arrived = completed && (c->rtype_size == 0 || expected == 0 ||
                                (PMPI_Get_count(status, c->x->rtype, &elements) == MPI_SUCCESS && elements == expected));
    if (arrived)
        return MPI_SUCCESS;
    c->any_short = 1;
    if (c->short_blocks != NULL)
        c->short_blocks[msg] = 1;
    return MPI_ERR_OTHER;
}

/* Where message `msg` lives on this process, as an MPI (buf, count, type). */
static ring_buffer ring_buffer_of(const ring_ctx *c, int msg, int receiving)
{
    ig_pair *pair = c->pair;
    const ig_xfer *x = c->x;
    if (!ig_pair_is_sender(pair)) {
        int empty = !receiving && block_short(c, msg);
        return (ring_buffer){ ig_xfer_rptr(x, msg), empty ? 0 : ig_xfer_rcount(x, msg), x->rtype, -1 };
    }
    if (msg == pair->rank) /* only ever sent from, never received into */
        return (ring_buffer){ (void *)x->sbuf, x->scount, x->stype, -1 };
    int slot = ig_ring_slot(c->schedule, pair->p, pair->q, pair->rank, msg);
    if (c->slots == NULL) /* no relay space: take part with empty messages (see ig_alg_ring) */
        return (ring_buffer){ NULL, 0, MPI_PACKED, slot };
    return (ring_buffer){ c->slots + (size_t)slot * (size_t)c->slot_bytes,
                          receiving ? c->slot_bytes : c->used_bytes[slot], MPI_PACKED, slot };
}

/* A sender without relay space takes its messages into the sink (p2p.h)
 * with blocking receives, after posting its sends: they fail as
 * truncated, which a blocking receive returns (under MPICH 4.0.2 a
 * truncated non-blocking one aborts the job). */
static void take_without_space(ig_pair *pair, const ig_ring_op *recvs, int nrecvs)
{
    for (int i = 0; i < nrecvs; i++)
        ig_recv_sink(recvs[i].peer, IG_TAG_RING, pair->comm, MPI_STATUS_IGNORE);
}

/* What a relay slot now holds: the arrival's size (0 if it failed). */
static void note_relay_size(ring_ctx *c, int slot, const MPI_Status *status, int completed)
{
    if (!completed || PMPI_Get_count(status, MPI_PACKED, &c->used_bytes[slot]) != MPI_SUCCESS)
        c->used_bytes[slot] = 0;
}

/* One step.  A failed post leaves its request null; the step still
 * completes what was posted, and later steps still run. */
static int ring_step(ring_ctx *c, int step)
{
    ig_pair *pair = c->pair;
    ig_ring_op sends[IG_RING_MAX_OPS], recvs[IG_RING_MAX_OPS];
    MPI_Request reqs[2 * IG_RING_MAX_OPS];
    MPI_Status stats[2 * IG_RING_MAX_OPS];
    int slots[IG_RING_MAX_OPS];
    int nsends, nrecvs, rc = MPI_SUCCESS;
    for (int i = 0; i < 2 * IG_RING_MAX_OPS; i++)
        reqs[i] = MPI_REQUEST_NULL;
    ig_ring_ops(c->schedule, pair->p, pair->q, pair->rank, step, sends, &nsends, recvs, &nrecvs);
    int no_space = ig_pair_is_sender(pair) && c->slots == NULL;
    for (int i = 0; i < nrecvs; i++) {
        ring_buffer b = ring_buffer_of(c, recvs[i].msg, 1);
        slots[i] = b.slot;
        if (!no_space)
            ig_err_keep(&rc, PMPI_Irecv(b.buf, b.count, b.type, recvs[i].peer, IG_TAG_RING, pair->comm, &reqs[i]));
    }
    for (int i = 0; i < nsends; i++) {
        ring_buffer b = ring_buffer_of(c, sends[i].msg, 0);
        ig_err_keep(&rc, PMPI_Isend(b.buf, b.count, b.type, sends[i].peer, IG_TAG_RING, pair->comm,
                                    &reqs[nrecvs + i]));
    }
    if (no_space)
        take_without_space(pair, recvs, nrecvs);
    int wrc = ig_waitall_status(nrecvs + nsends, reqs, stats);
    /* The step's own error first: it says more than a short arrival. */
    ig_err_keep(&rc, wrc);
    for (int i = 0; i < nrecvs; i++) {
        if (!ig_pair_is_sender(pair))
            ig_err_keep(&rc, check_arrival(c, recvs[i].msg, &stats[i], wrc == MPI_SUCCESS));
        else if (slots[i] >= 0)
            note_relay_size(c, slots[i], &stats[i], wrc == MPI_SUCCESS);
    }
    return rc;
}

int ig_alg_ring(ig_pair *pair, const ig_xfer *x, const ig_step *step)
{
    ring_ctx c = { .pair = pair, .schedule = step->ring_schedule, .x = x,
                   .slot_bytes = (int)step->max_block_bytes }; /* the decision keeps it <= INT_MAX */
    int rc = MPI_SUCCESS;
    if (ig_pair_is_sender(pair)) {
        size_t slots = (size_t)ig_ring_sender_slots(c.schedule, pair->p, pair->q);
        c.slots = malloc(slots * (size_t)(c.slot_bytes > 0 ? c.slot_bytes : 1));
        /* Without relay space the sender still runs every step, with empty
         * messages (ring_step), so that no neighbour
         * waits forever; the error is reported at the end, here and by
         * every receiver the empty messages reach (check_arrival). */
        if (c.slots == NULL)
            rc = MPI_ERR_NO_MEM;
    } else {
        c.short_blocks = calloc((size_t)pair->p, 1);
        if (PMPI_Type_size_x(x->rtype, &c.rtype_size) != MPI_SUCCESS)
            c.rtype_size = 1; /* then every arrival's count is checked */
    }
    int steps = ig_ring_steps(c.schedule, pair->p, pair->q);
    for (int s = 0; s < steps; s++)
        ig_err_keep(&rc, ring_step(&c, s));
    free(c.slots);
    free(c.short_blocks);
    return rc;
}
