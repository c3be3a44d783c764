/*
 * Full-duplex fully connected algorithm, execution (plan in fd_plan.c).
 * Runs on a pair whose two groups both send: ranks 0..p-1 are one group,
 * p..p+q-1 the other; every process passes its send block and its receive
 * buffer for the remote group's blocks.
 */
#include "fd_plan.h"
#include "pair.h"

#include <stdlib.h>

typedef struct {
    int local_index, n_local, n_remote, remote_base;
} fd_view;

static fd_view fd_view_of(const ig_pair *pair)
{
    fd_view v;
    int first_group = pair->rank < pair->p;
    v.local_index = first_group ? pair->rank : pair->rank - pair->p;
    v.n_local = first_group ? pair->p : pair->q;
    v.n_remote = first_group ? pair->q : pair->p;
    v.remote_base = first_group ? pair->p : 0;
    return v;
}

/* Stage 1: my block to its owner; the remote blocks I own, from their senders. */
static int fd_exchange(ig_pair *pair, const fd_view *v, const void *sbuf, const ig_block *sblk, void *rbuf,
                       const ig_block *rblk)
{
    int lo = ig_fd_first(v->n_remote, v->n_local, v->local_index);
    int hi = ig_fd_first(v->n_remote, v->n_local, v->local_index + 1);
    int owner = v->remote_base + ig_fd_owner(v->n_local, v->n_remote, v->local_index);
    MPI_Request *reqs = malloc((size_t)(hi - lo + 1) * sizeof(MPI_Request));
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    int n = 0, rc = MPI_SUCCESS;
    for (int b = lo; b < hi && rc == MPI_SUCCESS; b++)
        rc = PMPI_Irecv(ig_block_slot(rbuf, rblk, b), 1, rblk->type, v->remote_base + b, IG_TAG_DIRECT, pair->comm,
                        &reqs[n++]);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Isend(sbuf, 1, sblk->type, owner, IG_TAG_DIRECT, pair->comm, &reqs[n++]);
    int wrc = PMPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
    free(reqs);
    return rc != MPI_SUCCESS ? rc : wrc;
}

/* Stage 2: assemble the remote blocks within the local group.  Counts are in
 * blocks and displacements in block extents, so nothing overflows an int. */
static int fd_assemble(ig_pair *pair, const fd_view *v, void *rbuf, const ig_block *rblk)
{
    if (v->n_local == 1)
        return MPI_SUCCESS;
    int rc;
    int *counts = malloc((size_t)v->n_local * sizeof(int)), *displs = malloc((size_t)v->n_local * sizeof(int));
    if (counts == NULL || displs == NULL) {
        free(counts);
        free(displs);
        return MPI_ERR_NO_MEM;
    }
    for (int d = 0; d < v->n_local; d++) {
        displs[d] = ig_fd_first(v->n_remote, v->n_local, d);
        counts[d] = ig_fd_first(v->n_remote, v->n_local, d + 1) - displs[d];
    }
    rc = PMPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, rbuf, counts, displs, rblk->type, pair->side);
    free(counts);
    free(displs);
    return rc;
}

int ig_pair_allgather_fd(ig_pair *pair, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype)
{
    ig_block sblk, rblk;
    int rc = ig_block_make(scount, stype, &sblk);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = ig_block_make(rcount, rtype, &rblk);
    if (rc != MPI_SUCCESS) {
        ig_block_free(&sblk);
        return rc;
    }
    /* The side communicator is created collectively before any traffic. */
    fd_view v = fd_view_of(pair);
    rc = ig_pair_side_prepare(pair);
    if (rc == MPI_SUCCESS)
        rc = fd_exchange(pair, &v, sbuf, &sblk, rbuf, &rblk);
    if (rc == MPI_SUCCESS)
        rc = fd_assemble(pair, &v, rbuf, &rblk);
    ig_block_free(&sblk);
    ig_block_free(&rblk);
    return rc;
}
