#include "spread.h"

#include "blocks.h"
#include "fd_plan.h"
#include "group_allgather.h"

#include <stdlib.h>

typedef struct {
    int local_index, n_local, n_remote, remote_base;
    int local_sends, remote_sends;
} spread_view;

static spread_view view_of(const ig_pair *pair, int first_sends, int second_sends)
{
    spread_view v;
    int first = pair->rank < pair->p;
    v.local_index = first ? pair->rank : pair->rank - pair->p;
    v.n_local = first ? pair->p : pair->q;
    v.n_remote = first ? pair->q : pair->p;
    v.remote_base = first ? pair->p : 0;
    v.local_sends = first ? first_sends : second_sends;
    v.remote_sends = first ? second_sends : first_sends;
    return v;
}

/* Stage 1: my block to its owner; the remote blocks I own, from their
 * senders; all posted at once. */
static int exchange(ig_pair *pair, const spread_view *v, const ig_xfer *x)
{
    int lo = 0, hi = 0;
    if (v->remote_sends) {
        lo = ig_fd_first(v->n_remote, v->n_local, v->local_index);
        hi = ig_fd_first(v->n_remote, v->n_local, v->local_index + 1);
    }
    size_t capacity = (size_t)(hi > lo ? hi - lo : 0) + 1; /* the receives, and my send */
    MPI_Request *reqs = malloc(capacity * sizeof(MPI_Request));
    /* Real statuses rather than MPI_STATUSES_IGNORE: with MPICH's mpi.h, gcc
     * takes the sentinel for a zero-sized array and warns. */
    MPI_Status *stats = malloc(capacity * sizeof(MPI_Status));
    if (reqs == NULL || stats == NULL) {
        free(reqs);
        free(stats);
        return MPI_ERR_NO_MEM;
    }
    int n = 0, rc = MPI_SUCCESS;
    for (int b = lo; b < hi && rc == MPI_SUCCESS; b++)
        rc = PMPI_Irecv(ig_xfer_rptr(x, b), ig_xfer_rcount(x, b), x->rtype, v->remote_base + b, IG_TAG_DIRECT,
                        pair->comm, &reqs[n++]);
    if (rc == MPI_SUCCESS && v->local_sends) {
        int owner = v->remote_base + ig_fd_owner(v->n_local, v->n_remote, v->local_index);
        rc = PMPI_Isend(x->sbuf, x->scount, x->stype, owner, IG_TAG_DIRECT, pair->comm, &reqs[n++]);
    }
    int wrc = PMPI_Waitall(n, reqs, stats);
    free(reqs);
    free(stats);
    return rc != MPI_SUCCESS ? rc : wrc;
}

/* Stage 2.  Uniform blocks: one allgatherv whose counts are in blocks and
 * displacements in block extents (nothing overflows an int).  Varying
 * blocks (MPI_Allgatherv) sit at the user's displacements, so a process's
 * range is not one contiguous piece: round r gathers each process's r-th
 * block, ceil(n_remote / n_local) rounds in all (the same bandwidth, a few
 * more start-ups). */
static int assemble(ig_pair *pair, const spread_view *v, const ig_xfer *x)
{
    int n = v->n_local;
    if (n == 1)
        return MPI_SUCCESS;
    int *arrays = malloc(3 * (size_t)n * sizeof(int));
    if (arrays == NULL)
        return MPI_ERR_NO_MEM;
    int *blocks = arrays, *counts = arrays + n, *displs = arrays + 2 * n, rc = MPI_SUCCESS;
    if (ig_xfer_uniform(x)) {
        for (int d = 0; d < n; d++) {
            displs[d] = ig_fd_first(v->n_remote, n, d);
            counts[d] = ig_fd_first(v->n_remote, n, d + 1) - displs[d];
        }
        rc = ig_group_allgatherv(x->rbuf, counts, displs, x->rtype, x->rextent, pair->side);
    } else {
        int rounds = (v->n_remote + n - 1) / n;
        for (int r = 0; r < rounds && rc == MPI_SUCCESS; r++) {
            for (int d = 0; d < n; d++) {
                int b = ig_fd_first(v->n_remote, n, d) + r;
                blocks[d] = b < ig_fd_first(v->n_remote, n, d + 1) ? b : -1;
            }
            ig_xfer_gather_layout(x, n, blocks, counts, displs);
            rc = ig_group_allgatherv(x->rbuf, counts, displs, x->rtype, x->rextent, pair->side);
        }
    }
    free(arrays);
    return rc;
}

static int spread(ig_pair *pair, const ig_xfer *x, int first_sends, int second_sends)
{
    spread_view v = view_of(pair, first_sends, second_sends);
    /* The side communicators are created collectively before any traffic. */
    int rc = ig_pair_side_prepare(pair);
    if (rc == MPI_SUCCESS)
        rc = exchange(pair, &v, x);
    if (rc == MPI_SUCCESS && v.remote_sends)
        rc = assemble(pair, &v, x);
    return rc;
}

int ig_fd_run(ig_pair *pair, const ig_xfer *x)
{
    return spread(pair, x, 1, 1);
}

int ig_spread_run(ig_pair *pair, const ig_xfer *x)
{
    return spread(pair, x, 1, 0);
}
