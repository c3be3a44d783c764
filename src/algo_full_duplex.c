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
 * Deviation from the paper: where both groups send, the first group's
 * ownership of the second group's blocks is turned by ig_range_turn
 * (range_partition.h), so that no two processes trade blocks both ways in
 * the exchange (with p = q the paper's ranges pair process i of each group
 * with process i of the other, both ways, and over Open MPI's TCP transport
 * those two messages go one after the other).
 */
#include "algorithms.h"
#include "blocks.h"
#include "group_allgather.h"
#include "p2p.h"
#include "range_partition.h"
#include "tags.h"

#include <stdlib.h>

typedef struct {
    ig_pair_view pv;
    int local_sends, remote_sends;
    ig_group_stage stage; /* the stage this process's group runs */
    int stage_parts, window; /* its ring in parts (step->stage_parts), or 0 */
    /* The turn of this group's ownership of the remote blocks (a range
     * index is a process index less it, modulo the group) and of the
     * remote group's ownership of this group's blocks: ig_range_turn for
     * the first group's and the second group's, respectively; 0 in the
     * other direction and where one group sends. */
    int own_turn, remote_turn;
} range_view;

static range_view view_of(const ig_pair *pair, int first_sends, int second_sends, const ig_step *step)
{
    ig_pair_view pv = ig_pair_view_of(pair);
    int n_first = pv.first ? pv.n_local : pv.n_remote, n_second = pv.first ? pv.n_remote : pv.n_local;
    int turn = first_sends && second_sends ? ig_range_turn(n_first, n_second) : 0;
    int g = pv.first ? 0 : 1;
    return (range_view){ pv, pv.first ? first_sends : second_sends, pv.first ? second_sends : first_sends,
                         step->stage[g], step->stage_parts[g], step->window, pv.first ? turn : 0, pv.first ? 0 : turn };
}

/* The range of remote blocks process `index` of this group owns starts at
 * range index (index - own_turn) mod n_local. */
static int range_index(const range_view *v, int index)
{
    return (index - v->own_turn % v->pv.n_local + v->pv.n_local) % v->pv.n_local;
}

/* Stage 1: my block to its owner; the remote blocks I own, from their
 * senders; all posted at once.  A failed post leaves its request null, and
 * the others still complete. */
static int exchange(ig_pair *pair, const range_view *v, const ig_xfer *x)
{
    int lo = 0, hi = 0;
    if (v->remote_sends) {
        int r = range_index(v, v->pv.local_index);
        lo = ig_range_first(v->pv.n_remote, v->pv.n_local, r);
        hi = ig_range_first(v->pv.n_remote, v->pv.n_local, r + 1);
    }
    int capacity = (hi - lo) + 1; /* the receives, and my send */
    MPI_Request *reqs = ig_pair_requests(pair, capacity);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    int n = 0, rc = MPI_SUCCESS;
    for (int b = lo; b < hi; b++, n++)
        ig_err_keep(&rc, PMPI_Irecv(ig_xfer_rptr(x, b), ig_xfer_rcount(x, b), x->rtype, v->pv.remote_base + b,
                                    IG_TAG_DIRECT, pair->comm, &reqs[n]));
    if (v->local_sends) {
        int owner = v->pv.remote_base +
                    (ig_range_owner(v->pv.n_local, v->pv.n_remote, v->pv.local_index) + v->remote_turn) % v->pv.n_remote;
        ig_err_keep(&rc, PMPI_Isend(x->sbuf, x->scount, x->stype, owner, IG_TAG_DIRECT, pair->comm, &reqs[n++]));
    }
    ig_err_keep(&rc, ig_waitall(n, reqs));
    ig_pair_requests_done(pair, reqs);
    return rc;
}

/* Stage 2 of MPI_Allgather's blocks: the group's ring in parts where the
 * step says so (every block contiguous and of one size, decide.c), else
 * the stage whole. */
static int uniform_stage(ig_pair *pair, const range_view *v, const ig_xfer *x, const int *counts, const int *displs)
{
    if (v->stage != IG_GROUP_STAGE_RING || v->stage_parts < 2)
        return ig_group_allgatherv(x->rbuf, counts, displs, x->rtype, x->rextent, pair->side, v->stage);
    int n = v->pv.n_local, capacity = ig_group_ring_parts_requests(counts, n, v->pv.local_index, v->stage_parts,
                                                                   v->window);
    MPI_Request *reqs = ig_pair_requests(pair, capacity);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    ig_ring_parts rp = { v->stage_parts, v->window, reqs };
    int rc = ig_group_ring_in_parts(x->rbuf, counts, displs, x->rtype, x->rextent, pair->side, &rp);
    ig_pair_requests_done(pair, reqs);
    return rc;
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
        for (int d = 0; d < n; d++) {
            int r = range_index(v, d);
            displs[d] = ig_range_first(v->pv.n_remote, n, r);
            counts[d] = ig_range_first(v->pv.n_remote, n, r + 1) - displs[d];
        }
        rc = uniform_stage(pair, v, x, counts, displs);
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

int ig_range_exchange(ig_pair *pair, const ig_xfer *x, int first_sends, int second_sends, const ig_step *step)
{
    range_view v = view_of(pair, first_sends, second_sends, step);
    /* The side communicators are created collectively before any traffic. */
    int rc = ig_pair_side_prepare(pair);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = exchange(pair, &v, x);
    if (v.remote_sends)
        ig_err_keep(&rc, assemble(pair, &v, x));
    return rc;
}

int ig_alg_full_duplex(ig_pair *pair, const ig_xfer *x, const ig_step *step)
{
    return ig_range_exchange(pair, x, 1, 1, step);
}
