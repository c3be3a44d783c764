/*
 * Relay (half duplex; not in the paper): every block is cut into q byte
 * pieces; each sender sends piece j of its block to receiver j, one piece
 * after another, and receiver j relays each piece it gets to the other
 * q - 1 receivers at once (relay_plan.h has the plan and its orders).
 * Every receiver's link takes the p k bytes it must receive, each sender's
 * only its k, in two hops whose stages overlap piece by piece: about
 * (p + 1/q) k t_w.  The paper's fully connected algorithm runs a broadcast
 * and an allgather one after the other (for p < q its tree also leaves
 * links idle): at 4+12 on the emulated cluster it reached about half the
 * receiver-link bound at 4 MiB (docs/performance.md).  The chain overlaps
 * the stages too, but through q - 1 hops, each a process that must be
 * scheduled before a segment moves on: with 16 processes on 2 cores it was
 * slower than fc.  Relay's data depend on one process between sender and
 * receiver.
 *
 * Parts (step->segment_bytes, decide.c): a piece larger than that travels,
 * on both hops, in parts of at most that many bytes, one message each
 * (relay_plan.h), and an owner relays each part as soon as it has come.
 * Not in the first version: with whole pieces an owner relayed nothing
 * until a whole piece (350 KiB at 4+12 with 4 MiB blocks) had come through
 * a link shared with the other owners' relays; with parts of 60 KiB the
 * relay measured about 10 % faster at 4+12 from 1 MiB on the emulated
 * cluster (docs/performance.md, fortieth session).
 *
 * Pieces are byte ranges, so every block must be one contiguous piece of
 * memory on every process (agreed, shape.h: the decision runs the fully
 * connected family otherwise).  Each block is cut by its own size, which
 * its sender knows from its send arguments and every receiver from its
 * receive count for it: blocks may differ (MPI_Allgatherv), and the
 * agreement has checked that the two sides' sizes match (shape.h), so
 * both cut a block at the same offsets, and its pieces into the same parts.
 * Messages: each receiver takes p q pieces, each in its parts: at most p q
 * times the most parts of a piece, which the decision bounds (decide.c);
 * senders keep step->piece_window parts in flight, receivers step->window
 * relays.
 */
#include "algorithms.h"
#include "blocks.h"
#include "p2p.h"
#include "relay_plan.h"
#include "tags.h"

#include <stdlib.h>

typedef struct {
    ig_pair *pair;
    const ig_xfer *x;
    int p, q;
    uint64_t part_bytes;  /* the most bytes of a piece in one message (0: the whole piece) */
    MPI_Count rtype_size; /* receivers: bytes of one element of x->rtype */
    MPI_Aint rtrue_lb;    /* receivers: where a block's bytes start, from its slot */
} relay_ctx;

/* Bytes of block b, as a receiver counts them. */
static uint64_t received_bytes(const relay_ctx *c, int b)
{
    return (uint64_t)ig_xfer_rcount(c->x, b) * (uint64_t)c->rtype_size;
}

/* A piece of block b in this receiver's buffer. */
static char *piece_at(const relay_ctx *c, int b, ig_piece pc)
{
    return (char *)ig_xfer_rptr(c->x, b) + c->rtrue_lb + (MPI_Aint)pc.offset;
}

/* Sends with at most `window` in flight (senders' pieces, two at a time,
 * and receivers' relays, direct's window): p2p.h's ig_window_slot. */
typedef struct {
    MPI_Request *slots;
    int window, posted;
} windowed_sends;

static int send_windowed(const relay_ctx *c, windowed_sends *ws, const void *buf, ig_piece pc, int dest, int tag)
{
    int slot, rc = ig_window_slot(ws->slots, ws->window, ws->posted++, &slot);
    ig_err_keep(&rc, PMPI_Isend(buf, (int)pc.length, MPI_BYTE, dest, tag, c->pair->comm, &ws->slots[slot]));
    return rc;
}

/* The sender's pieces go out one after another (at most `window` at once),
 * so that the first owners can relay while the last pieces still travel. */
static int relay_sender(const relay_ctx *c, const ig_step *step)
{
    const ig_xfer *x = c->x;
    int me = c->pair->rank, window = step->piece_window > 0 ? step->piece_window : 1;
    MPI_Aint true_lb;
    MPI_Count type_size = 0;
    int rc = ig_block_true_lb(x->scount, x->stype, &true_lb);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_size_x(x->stype, &type_size);
    if (rc != MPI_SUCCESS)
        return rc;
    uint64_t block_bytes = (uint64_t)x->scount * (uint64_t)type_size;
    MPI_Request *reqs = ig_pair_requests(c->pair, window);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    const char *base = (const char *)x->sbuf + true_lb;
    windowed_sends ws = { .slots = reqs, .window = window };
    for (int t = 0; t < c->q; t++) {
        int owner = ig_relay_owner_at(c->p, c->q, me, t);
        ig_piece pc = ig_relay_piece(block_bytes, c->q, owner);
        for (int u = 0, parts = ig_relay_part_count(pc.length, c->part_bytes); u < parts; u++) {
            ig_piece part = ig_relay_part(pc, c->part_bytes, u);
            ig_err_keep(&rc, send_windowed(c, &ws, base + part.offset, part, c->p + owner, IG_TAG_DIRECT));
        }
    }
    ig_err_keep(&rc, ig_waitall(window, reqs));
    ig_pair_requests_done(c->pair, reqs);
    return rc;
}

/* Piece j of block b. */
static ig_piece piece_of(const relay_ctx *c, int b, int j)
{
    return ig_relay_piece(received_bytes(c, b), c->q, j);
}

/* Parts of owner o's piece of block b. */
static int parts_of(const relay_ctx *c, int b, int o)
{
    return ig_relay_part_count(piece_of(c, b, o).length, c->part_bytes);
}

/* Receives of the parts of the pieces owner `o` brings this receiver: from
 * the senders when o is this receiver, else relayed by o; in o's relay
 * order, each piece's parts in order.  Returns how many were posted. */
static int post_pieces_of(const relay_ctx *c, int o, int *order, MPI_Request *reqs, int *rc)
{
    int own = o == c->pair->rank - c->p, n = 0;
    ig_relay_arrival_order(c->p, c->q, o, order);
    for (int k = 0; k < c->p; k++) {
        ig_piece pc = piece_of(c, order[k], o);
        for (int u = 0, parts = parts_of(c, order[k], o); u < parts; u++, n++) {
            ig_piece part = ig_relay_part(pc, c->part_bytes, u);
            ig_err_keep(rc, PMPI_Irecv(piece_at(c, order[k], part), (int)part.length, MPI_BYTE,
                                       own ? order[k] : c->p + o, own ? IG_TAG_DIRECT : IG_TAG_RING, c->pair->comm,
                                       &reqs[n]));
        }
    }
    return n;
}

static int relay_receiver(const relay_ctx *c, const ig_step *step)
{
    int p = c->p, q = c->q, j = c->pair->rank - p, rc = MPI_SUCCESS;
    int window = step->window > 0 ? step->window : 1, n_recv = 0;
    for (int o = 0; o < q; o++)
        for (int b = 0; b < p; b++)
            n_recv += parts_of(c, b, o);
    int *orders = ig_pair_ints(c->pair, 2 * p);
    MPI_Request *reqs = ig_pair_requests(c->pair, n_recv + window);
    if (orders == NULL || reqs == NULL) {
        ig_pair_ints_done(c->pair, orders);
        ig_pair_requests_done(c->pair, reqs);
        return MPI_ERR_NO_MEM;
    }
    int *own_order = orders, *scratch = orders + p;
    /* Every receive first: this receiver's own parts (first in reqs), then
     * each other owner's, in the order that owner relays them. */
    int posted = post_pieces_of(c, j, own_order, reqs, &rc);
    for (int d = 1; d < q; d++)
        posted += post_pieces_of(c, (j + d) % q, scratch, reqs + posted, &rc);
    /* Relay each own part to every other receiver once it is here, to
     * j + 1, j + 2, ... round the group: like direct's senders, the owners
     * reach any one receiver a few at a time. */
    windowed_sends ws = { .slots = reqs + n_recv, .window = window };
    for (int k = 0, r = 0; k < p; k++) {
        ig_piece pc = piece_of(c, own_order[k], j);
        for (int u = 0, parts = parts_of(c, own_order[k], j); u < parts; u++, r++) {
            ig_piece part = ig_relay_part(pc, c->part_bytes, u);
            ig_err_keep(&rc, PMPI_Wait(&reqs[r], MPI_STATUS_IGNORE));
            for (int d = 1; d < q; d++)
                ig_err_keep(&rc, send_windowed(c, &ws, piece_at(c, own_order[k], part), part, p + (j + d) % q,
                                               IG_TAG_RING));
        }
    }
    ig_err_keep(&rc, ig_waitall(n_recv + window, reqs));
    ig_pair_requests_done(c->pair, reqs);
    ig_pair_ints_done(c->pair, orders);
    return rc;
}

int ig_alg_relay(ig_pair *pair, const ig_xfer *x, const ig_step *step)
{
    relay_ctx c = { .pair = pair, .x = x, .p = pair->p, .q = pair->q, .part_bytes = step->segment_bytes };
    if (ig_pair_is_sender(pair))
        return relay_sender(&c, step);
    MPI_Aint true_extent;
    int rc = PMPI_Type_get_true_extent(x->rtype, &c.rtrue_lb, &true_extent);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_size_x(x->rtype, &c.rtype_size);
    return rc != MPI_SUCCESS ? rc : relay_receiver(&c, step);
}
