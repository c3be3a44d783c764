/*
 * Full duplex, fully connected (Kang, Traff et al., EuroMPI'18): both
 * groups send at once.  Each group's blocks are divided over the other
 * group's processes in contiguous ranges (range_partition.h); every process
 * sends its block to the remote process that owns it and receives the
 * remote blocks it owns, all posted at once; then each group assembles the
 * remote group's blocks with one in-place allgatherv on its own
 * communicator.  Splitting at block (not byte) granularity keeps every
 * block one derived-datatype element, so any datatype works.
 *
 * The same range exchange with one direction only is the spread algorithm
 * (algo_spread.c), hence ig_range_exchange here.
 *
 * Deviations from the paper, where both groups send:
 * - the first group's ownership of the second group's blocks is turned by
 *   ig_range_turn (range_partition.h), so that no two processes trade
 *   blocks both ways in the exchange (with p = q the paper's ranges pair
 *   process i of each group with process i of the other, both ways, and
 *   over Open MPI's TCP transport those two messages go one after the
 *   other);
 * - where the step cuts a group's blocks in parts (step->stage_parts: its
 *   stage is intergather's ring, MPI_Allgather's blocks contiguous and
 *   larger than one part, decide.c), the exchange moves those blocks in
 *   the same parts and the group's ring starts at once, forwarding each
 *   part of the blocks a member owns as soon as it has arrived
 *   (group_allgather.h): the two stages overlap instead of running one
 *   after the other;
 * - there the parts are paced: my block goes to its owner in synchronous
 *   sends with at most step->window unfinished, the next posted while the
 *   group's ring waits (ig_paced_start, p2p.h), so that no flow queues
 *   megabytes in the network (docs/performance.md, forty-ninth session).
 */
#include "algorithms.h"
#include "blocks.h"
#include "byte_pieces.h"
#include "group_allgather.h"
#include "p2p.h"
#include "range_partition.h"
#include "tags.h"

#include <stdlib.h>

typedef struct {
    ig_pair_view pv;
    int local_sends, remote_sends;
    ig_group_stage stage; /* the stage this process's group runs */
    /* The parts each remote block travels in, for this group's ring (0:
     * whole), and each of this group's blocks, for the remote group's
     * (step->stage_parts; never for MPI_Allgatherv's blocks). */
    int recv_parts, send_parts, window;
    /* The turn of this group's ownership of the remote blocks (a range
     * index is a process index less it, modulo the group) and of the
     * remote group's ownership of this group's blocks: ig_range_turn for
     * the first group's and the second group's, respectively; 0 in the
     * other direction and where one group sends. */
    int own_turn, remote_turn;
} range_view;

static int in_parts(int parts, const ig_xfer *x)
{
    return parts >= 2 && ig_xfer_uniform(x) ? parts : 0;
}

static range_view view_of(const ig_pair *pair, const ig_xfer *x, int first_sends, int second_sends,
                          const ig_step *step)
{
    ig_pair_view pv = ig_pair_view_of(pair);
    int n_first = pv.first ? pv.n_local : pv.n_remote, n_second = pv.first ? pv.n_remote : pv.n_local;
    int turn = first_sends && second_sends ? ig_range_turn(n_first, n_second) : 0;
    int g = pv.first ? 0 : 1;
    return (range_view){ pv, pv.first ? first_sends : second_sends, pv.first ? second_sends : first_sends,
                         step->stage[g], in_parts(step->stage_parts[g], x), in_parts(step->stage_parts[1 - g], x),
                         step->window, pv.first ? turn : 0, pv.first ? 0 : turn };
}

/* The range of remote blocks process `index` of this group owns starts at
 * range index (index - own_turn) mod n_local. */
static int range_index(const range_view *v, int index)
{
    return (index - v->own_turn % v->pv.n_local + v->pv.n_local) % v->pv.n_local;
}

/* The remote blocks this process owns: [*lo, *hi). */
static void owned_range(const range_view *v, int *lo, int *hi)
{
    *lo = *hi = 0;
    if (v->remote_sends) {
        int r = range_index(v, v->pv.local_index);
        *lo = ig_range_first(v->pv.n_remote, v->pv.n_local, r);
        *hi = ig_range_first(v->pv.n_remote, v->pv.n_local, r + 1);
    }
}

static int at_least_one(int parts) { return parts > 0 ? parts : 1; }

/* Where `count` elements of `type` start past the buffer, and their bytes
 * (one contiguous piece of memory where the step cuts them in parts). */
static int bytes_of(int count, MPI_Datatype type, MPI_Aint *true_lb, MPI_Count *bytes)
{
    int rc = ig_block_true_lb(count, type, true_lb);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_size_x(type, bytes);
    *bytes *= count;
    return rc;
}

/* Part i of a block of `bytes` cut into `parts`, as the ring cuts it
 * (group_allgather.h). */
static ig_piece part_of(MPI_Count bytes, int parts, int i)
{
    return ig_byte_piece((uint64_t)bytes, parts, i);
}

/* Post one block as a send to or a receive from `peer`, whole (count
 * elements of type at buf) or in `parts` byte ranges (part_of), into
 * reqs[0 .. at_least_one(parts)).  A refused post leaves its request null
 * and its error kept; it is not made up for (README, Limitations): the
 * peer's message finds no partner of its own (with parts, the later
 * parts, matched in order, land one part early). */
static int post_block(int send, void *buf, int count, MPI_Datatype type, int peer, int parts, MPI_Comm comm,
                      MPI_Request *reqs)
{
    int rc = MPI_SUCCESS;
    MPI_Aint lb = 0;
    MPI_Count bytes = 0;
    if (parts > 0)
        ig_err_keep(&rc, bytes_of(count, type, &lb, &bytes));
    for (int i = 0; i < at_least_one(parts); i++) {
        void *at = buf;
        int n = count;
        MPI_Datatype t = type;
        if (parts > 0) {
            ig_piece part = part_of(bytes, parts, i);
            at = (char *)buf + lb + (MPI_Aint)part.offset;
            n = (int)part.length;
            t = MPI_BYTE;
        }
        int err = send ? PMPI_Isend(at, n, t, peer, IG_TAG_DIRECT, comm, &reqs[i])
                       : PMPI_Irecv(at, n, t, peer, IG_TAG_DIRECT, comm, &reqs[i]);
        if (err != MPI_SUCCESS)
            reqs[i] = MPI_REQUEST_NULL;
        ig_err_keep(&rc, err);
    }
    return rc;
}

/* Post the receives of remote blocks [lo, hi) into reqs, whole or in
 * v->recv_parts parts each (block by block, part by part: the order the
 * group's ring forwards them in). */
static int post_receives(ig_pair *pair, const range_view *v, const ig_xfer *x, int lo, int hi, MPI_Request *reqs)
{
    int rc = MPI_SUCCESS, per_block = at_least_one(v->recv_parts);
    for (int b = lo; b < hi; b++)
        ig_err_keep(&rc, post_block(0, ig_xfer_rptr(x, b), ig_xfer_rcount(x, b), x->rtype, v->pv.remote_base + b,
                                    v->recv_parts, pair->comm, reqs + (b - lo) * per_block));
    return rc;
}

/* The remote process that owns my block. */
static int owner_of_mine(const range_view *v)
{
    return v->pv.remote_base +
           (ig_range_owner(v->pv.n_local, v->pv.n_remote, v->pv.local_index) + v->remote_turn) % v->pv.n_remote;
}

/* Post my block to the remote process that owns it, whole or in
 * v->send_parts parts (cut as its receives are), into reqs.  (MPI takes
 * a send buffer as const; the cast only shares post_block.) */
static int post_send(ig_pair *pair, const range_view *v, const ig_xfer *x, MPI_Request *reqs)
{
    return post_block(1, (void *)x->sbuf, x->scount, x->stype, owner_of_mine(v), v->send_parts, pair->comm, reqs);
}

/* My block to its owner in v->send_parts parts, at most v->window of them
 * unfinished (p2p.h), the rest posted while this group's ring waits. */
static int start_paced_send(ig_pair *pair, const range_view *v, const ig_xfer *x, ig_paced_send *ps)
{
    MPI_Aint lb = 0;
    MPI_Count bytes = 0;
    int rc = bytes_of(x->scount, x->stype, &lb, &bytes);
    ig_err_keep(&rc, ig_paced_start(ps, (const char *)x->sbuf + lb, bytes, v->send_parts, v->window,
                                    owner_of_mine(v), IG_TAG_DIRECT, pair->comm));
    return rc;
}

static int sends_of(const range_view *v)
{
    return v->local_sends ? at_least_one(v->send_parts) : 0;
}

/* Stage 1 alone: my block to its owner; the remote blocks I own, from
 * their senders; all posted at once. */
static int exchange(ig_pair *pair, const range_view *v, const ig_xfer *x)
{
    int lo, hi;
    owned_range(v, &lo, &hi);
    int nrecv = hi - lo, nsend = sends_of(v);
    MPI_Request *reqs = ig_pair_requests(pair, nrecv + nsend);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    int rc = post_receives(pair, v, x, lo, hi, reqs);
    if (v->local_sends)
        ig_err_keep(&rc, post_send(pair, v, x, reqs + nrecv));
    ig_err_keep(&rc, ig_waitall(nrecv + nsend, reqs));
    ig_pair_requests_done(pair, reqs);
    return rc;
}

/* MPI_Allgather's layout of the remote blocks over this group: member d
 * owns counts[d] blocks from displs[d] (its range, turned). */
static void uniform_layout(const range_view *v, int *counts, int *displs)
{
    int n = v->pv.n_local;
    for (int d = 0; d < n; d++) {
        int r = range_index(v, d);
        displs[d] = ig_range_first(v->pv.n_remote, n, r);
        counts[d] = ig_range_first(v->pv.n_remote, n, r + 1) - displs[d];
    }
}

/* Stage 2.  Uniform blocks: one allgatherv whose counts are in blocks and
 * displacements in block extents (nothing overflows an int).  Varying
 * blocks (MPI_Allgatherv) sit at the user's displacements, so a process's
 * range is not one contiguous piece: round r gathers each process's r-th
 * block, ceil(n_remote / n_local) rounds in all (the same bandwidth, a few
 * more start-ups). */
static int assemble(ig_pair *pair, const range_view *v, const ig_xfer *x)
{
    int n = v->pv.n_local;
    if (n == 1)
        return MPI_SUCCESS;
    int *arrays = ig_pair_ints(pair, 3 * n);
    if (arrays == NULL)
        return MPI_ERR_NO_MEM;
    int *blocks = arrays, *counts = arrays + n, *displs = arrays + 2 * n, rc = MPI_SUCCESS;
    if (ig_xfer_uniform(x)) {
        uniform_layout(v, counts, displs);
        rc = ig_group_allgatherv(x->rbuf, counts, displs, x->rtype, x->rextent, pair->side, v->stage);
    } else {
        int rounds = (v->pv.n_remote + n - 1) / n;
        for (int r = 0; r < rounds; r++) {
            for (int d = 0; d < n; d++) {
                int index = range_index(v, d), b = ig_range_first(v->pv.n_remote, n, index) + r;
                blocks[d] = b < ig_range_first(v->pv.n_remote, n, index + 1) ? b : -1;
            }
            ig_xfer_gather_layout(x, n, blocks, counts, displs);
            ig_err_keep(&rc, ig_group_allgatherv(x->rbuf, counts, displs, x->rtype, x->rextent, pair->side, v->stage));
        }
    }
    ig_pair_ints_done(pair, arrays);
    return rc;
}

/* Both stages at once, where the remote blocks come in parts: the receives
 * of the blocks I own are posted first, then my block's send, and the
 * group's ring in parts forwards each part of my blocks as soon as its
 * receive has completed (the ring's own arrivals).  Where my block goes
 * in parts too, they are paced by the ring's waits (p2p.h: a block posted
 * at once queued megabytes at its owner's link, and the ring's flow into
 * that link, started later, waited behind them). */
static int exchange_into_ring(ig_pair *pair, const range_view *v, const ig_xfer *x)
{
    int n = v->pv.n_local, lo, hi;
    owned_range(v, &lo, &hi);
    int *arrays = ig_pair_ints(pair, 2 * n);
    if (arrays == NULL)
        return MPI_ERR_NO_MEM;
    int *counts = arrays, *displs = arrays + n;
    uniform_layout(v, counts, displs);
    int paced = v->local_sends && v->send_parts > 0;
    int own = (hi - lo) * v->recv_parts, nsend = paced ? 0 : sends_of(v);
    int ring = ig_group_ring_parts_requests(counts, n, v->pv.local_index, v->recv_parts, v->window);
    MPI_Request *reqs = ig_pair_requests(pair, own + nsend + ring);
    if (reqs == NULL) {
        ig_pair_ints_done(pair, arrays);
        return MPI_ERR_NO_MEM;
    }
    int rc = post_receives(pair, v, x, lo, hi, reqs);
    ig_paced_send mine;
    if (paced)
        ig_err_keep(&rc, start_paced_send(pair, v, x, &mine));
    else if (v->local_sends)
        ig_err_keep(&rc, post_send(pair, v, x, reqs + own));
    ig_ring_parts rp = { v->recv_parts, v->window, reqs + own + nsend, reqs, paced ? &mine : NULL };
    ig_err_keep(&rc, ig_group_ring_in_parts(x->rbuf, counts, displs, x->rtype, x->rextent, pair->side, &rp));
    ig_err_keep(&rc, ig_waitall(nsend, reqs + own));
    ig_pair_requests_done(pair, reqs);
    ig_pair_ints_done(pair, arrays);
    return rc;
}

int ig_range_exchange(ig_pair *pair, const ig_xfer *x, int first_sends, int second_sends, const ig_step *step)
{
    range_view v = view_of(pair, x, first_sends, second_sends, step);
    /* The side communicators are created collectively before any traffic. */
    int rc = ig_pair_side_prepare(pair);
    if (rc != MPI_SUCCESS)
        return rc;
    if (v.remote_sends && v.recv_parts > 0)
        return exchange_into_ring(pair, &v, x);
    rc = exchange(pair, &v, x);
    if (v.remote_sends)
        ig_err_keep(&rc, assemble(pair, &v, x));
    return rc;
}

int ig_alg_full_duplex(ig_pair *pair, const ig_xfer *x, const ig_step *step)
{
    return ig_range_exchange(pair, x, 1, 1, step);
}
