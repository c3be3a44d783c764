/*
 * Chain (half duplex; not in the paper): a pipelined form of the fully
 * connected algorithm that overlaps its two stages.  The p blocks are
 * divided over the q receivers in ranges (range_partition.h); each sender
 * sends its block to the receiver that owns it, cut into segments; every
 * segment then travels round the receivers' ring from its owner, each
 * receiver forwarding it to the next as soon as it has arrived, until the
 * receiver before the owner has it.  Every receiver's link takes exactly the
 * p k bytes it must receive (k from a sender for each block it owns, the
 * rest from its left neighbour), senders send k each, and the stages
 * overlap segment by segment: about p k t_w plus the (q - 1) segments it
 * takes to fill the pipeline.  The paper's fully connected algorithm runs
 * its broadcast and allgather stages one after the other (for p < q its
 * broadcast tree also leaves links idle); the chain is meant to close that
 * gap at large blocks.  Measured so far it does not: in SimGrid (the
 * paper's 256-process panels) it was 2.3-6.9x slower than fc once blocks
 * were segmented (docs/simulation.md), and on the emulated cluster 1.5-1.8x
 * slower than fc at 1 and 4 MiB with 4+12 (docs/performance.md); the
 * decision runs it only when forced (decide.c).
 *
 * Order: on every link both ends walk the same list -- for each segment
 * index, the blocks by their distance from their owner -- so messages match
 * in MPI's non-overtaking order with one tag.  A receiver posts every
 * receive first, then sends each element of its list as soon as the
 * receive that brought it has completed, with at most step->window sends
 * in flight.
 *
 * Segments are byte ranges, which needs every block to be one contiguous
 * piece of memory on every process (agreed, shape.h); otherwise
 * step->chain_segment_bytes is 0 and each block moves whole, in its datatype.
 */
#include "algorithms.h"
#include "blocks.h"
#include "p2p.h"
#include "range_partition.h"
#include "tags.h"

#include <stdlib.h>

typedef struct {
    ig_pair *pair;
    const ig_xfer *x;
    int p, q, m;          /* senders, receivers, segments per block */
    MPI_Aint block_bytes; /* bytes of one block (segmented mode) */
    MPI_Aint seg_bytes;
    MPI_Aint rtrue_lb;    /* receivers: where a block's bytes start, from its slot */
} chain_ctx;

static int owner_of(const chain_ctx *c, int block)
{
    return ig_range_owner(c->p, c->q, block);
}

/* The blocks receiver j forwards to j + 1, in link order: owners j, j - 1,
 * ..., j - (q - 2), each owner's blocks in index order.  Returns the count. */
static int out_list(const chain_ctx *c, int j, int *list)
{
    int n = 0;
    for (int d = 0; d < c->q - 1; d++) {
        int o = ((j - d) % c->q + c->q) % c->q;
        for (int b = ig_range_first(c->p, c->q, o); b < ig_range_first(c->p, c->q, o + 1); b++)
            list[n++] = b;
    }
    return n;
}

static MPI_Aint seg_len(const chain_ctx *c, int s)
{
    MPI_Aint rest = c->block_bytes - (MPI_Aint)s * c->seg_bytes;
    return rest < c->seg_bytes ? rest : c->seg_bytes;
}

/* Segment s of block b in the receive buffer, as an MPI (buf, count,
 * type): the whole block in its datatype, or a byte range of it. */
typedef struct {
    void *buf;
    int count;
    MPI_Datatype type;
} chain_segment;

static chain_segment segment_of(const chain_ctx *c, int b, int s)
{
    const ig_xfer *x = c->x;
    if (c->seg_bytes == 0)
        return (chain_segment){ ig_xfer_rptr(x, b), ig_xfer_rcount(x, b), x->rtype };
    char *base = (char *)ig_xfer_rptr(x, b) + c->rtrue_lb + (MPI_Aint)s * c->seg_bytes;
    return (chain_segment){ base, (int)seg_len(c, s), MPI_BYTE };
}

static int post_recv(const chain_ctx *c, int b, int s, int peer, int tag, MPI_Request *req)
{
    chain_segment g = segment_of(c, b, s);
    return PMPI_Irecv(g.buf, g.count, g.type, peer, tag, c->pair->comm, req);
}

static int post_forward(const chain_ctx *c, int b, int s, int peer, MPI_Request *req)
{
    chain_segment g = segment_of(c, b, s);
    return PMPI_Isend(g.buf, g.count, g.type, peer, IG_TAG_RING, c->pair->comm, req);
}

static int chain_sender(chain_ctx *c)
{
    const ig_xfer *x = c->x;
    int owner = c->p + owner_of(c, c->pair->rank), rc = MPI_SUCCESS;
    if (c->seg_bytes == 0)
        return PMPI_Send(x->sbuf, x->scount, x->stype, owner, IG_TAG_DIRECT, c->pair->comm);
    MPI_Aint true_lb;
    rc = ig_block_true_lb(x->scount, x->stype, &true_lb);
    if (rc != MPI_SUCCESS)
        return rc;
    MPI_Request *reqs = ig_pair_requests(c->pair, c->m);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    const char *base = (const char *)x->sbuf + true_lb;
    for (int s = 0; s < c->m; s++)
        ig_err_keep(&rc, PMPI_Isend(base + (MPI_Aint)s * c->seg_bytes, (int)seg_len(c, s), MPI_BYTE, owner,
                                    IG_TAG_DIRECT, c->pair->comm, &reqs[s]));
    ig_err_keep(&rc, ig_waitall(c->m, reqs));
    ig_pair_requests_done(c->pair, reqs);
    return rc;
}

/* Index of block b in list[0..n). */
static int index_in(const int *list, int n, int b)
{
    for (int i = 0; i < n; i++)
        if (list[i] == b)
            return i;
    return -1;
}

static int chain_receiver(chain_ctx *c, const ig_step *step)
{
    int j = c->pair->rank - c->p, q = c->q, m = c->m;
    int left = c->p + (j + q - 1) % q, right = c->p + (j + 1) % q;
    int own_lo = ig_range_first(c->p, q, j), own_hi = ig_range_first(c->p, q, j + 1), owned = own_hi - own_lo;
    int *lists = ig_pair_ints(c->pair, 2 * (c->p + 1));
    if (lists == NULL)
        return MPI_ERR_NO_MEM;
    int *in = lists, *out = lists + c->p + 1;
    int n_in = q > 1 ? out_list(c, (j + q - 1) % q, in) : 0, n_out = q > 1 ? out_list(c, j, out) : 0;
    int n_recv = (owned + n_in) * m, window = step->window > 0 ? step->window : 1;
    MPI_Request *reqs = ig_pair_requests(c->pair, n_recv + window);
    if (reqs == NULL) {
        ig_pair_ints_done(c->pair, lists);
        return MPI_ERR_NO_MEM;
    }
    MPI_Request *sends = reqs + n_recv;
    int rc = MPI_SUCCESS;
    /* Every receive first: own blocks from their senders, then the left
     * link's list, segment-major (the order the left neighbour sends in). */
    for (int b = own_lo; b < own_hi; b++)
        for (int s = 0; s < m; s++)
            ig_err_keep(&rc, post_recv(c, b, s, b, IG_TAG_DIRECT, &reqs[(b - own_lo) * m + s]));
    for (int s = 0; s < m; s++)
        for (int i = 0; i < n_in; i++)
            ig_err_keep(&rc, post_recv(c, in[i], s, left, IG_TAG_RING, &reqs[owned * m + s * n_in + i]));
    /* Forward in the right link's order, each element once it is here. */
    int posted = 0;
    for (int s = 0; s < m; s++) {
        for (int i = 0; i < n_out; i++, posted++) {
            int b = out[i], slot;
            int from = b >= own_lo && b < own_hi ? (b - own_lo) * m + s : owned * m + s * n_in + index_in(in, n_in, b);
            ig_err_keep(&rc, PMPI_Wait(&reqs[from], MPI_STATUS_IGNORE));
            ig_err_keep(&rc, ig_window_slot(sends, window, posted, &slot));
            ig_err_keep(&rc, post_forward(c, b, s, right, &sends[slot]));
        }
    }
    ig_err_keep(&rc, ig_waitall(n_recv + window, reqs));
    ig_pair_requests_done(c->pair, reqs);
    ig_pair_ints_done(c->pair, lists);
    return rc;
}

int ig_alg_chain(ig_pair *pair, const ig_xfer *x, const ig_step *step)
{
    /* ig_algorithm_run fitted the pair's room to p m + window requests, so
     * m fits an int. */
    chain_ctx c = { .pair = pair, .x = x, .p = pair->p, .q = pair->q, .m = (int)ig_step_chain_segments(step),
                    .block_bytes = (MPI_Aint)step->max_block_bytes, .seg_bytes = (MPI_Aint)step->chain_segment_bytes };
    if (c.block_bytes == 0)
        c.seg_bytes = 0;
    if (!ig_pair_is_sender(pair)) {
        MPI_Aint true_extent;
        int rc = c.seg_bytes > 0 ? PMPI_Type_get_true_extent(x->rtype, &c.rtrue_lb, &true_extent) : MPI_SUCCESS;
        if (rc != MPI_SUCCESS)
            return rc;
        return chain_receiver(&c, step);
    }
    return chain_sender(&c);
}
