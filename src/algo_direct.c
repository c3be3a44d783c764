/*
 * Direct: every sending process's block straight to every process of the
 * other group, one stage (not in the paper; Open MPI's libnbc runs its
 * non-blocking inter-communicator allgather this way).  Half duplex: the
 * pair's first group sends; full duplex (step->sender < 0): both groups
 * send and receive at once.
 *
 * Every receive is posted first, so no message arrives unexpected.  Sends
 * then go out in a staggered order -- process i of a group of n starts at
 * remote process floor(i m / n) of the m remote ones and walks round -- with
 * at most step->window in flight: at any moment each receiver is the
 * target of a few senders, not of all of them.  A receiver takes p messages
 * of k bytes, the bandwidth bound p k t_w, in one latency; a sender sends q
 * of them, so with p < q the senders' links carry q k and the fully
 * connected algorithm is the better plan (the decision weighs both,
 * decide.c).
 *
 * Posting and completing are two functions so that a process may post its
 * part before the call's agreement and complete it after (speculate.c).
 */
#include "algorithms.h"
#include "p2p.h"
#include "tags.h"

#include <stdlib.h>

/* Who sends and receives in this step, from this process's side. */
static void direct_roles(const ig_pair *pair, const ig_step *step, ig_direct *d)
{
    ig_pair_view v = ig_pair_view_of(pair);
    int both = step->sender < 0, local_sends = both || v.first, remote_sends = both || !v.first;
    d->nrecv = remote_sends ? v.n_remote : 0;
    d->nsend = local_sends ? v.n_remote : 0;
    d->window = d->nsend < step->window ? d->nsend : step->window;
    if (d->window < 1 && d->nsend > 0)
        d->window = 1;
    d->start = (int)((long long)v.local_index * v.n_remote / v.n_local);
    d->remote_base = v.remote_base;
    d->n_remote = v.n_remote;
}

static int send_next(ig_direct *d, int slot)
{
    MPI_Request *sends = d->reqs + d->nrecv;
    int peer = d->remote_base + (d->start + d->posted) % d->n_remote;
    d->posted++;
    return PMPI_Isend(d->x->sbuf, d->x->scount, d->x->stype, peer, IG_TAG_DIRECT, d->pair->comm, &sends[slot]);
}

int ig_direct_prepare(ig_pair *pair, const ig_xfer *x, const ig_step *step, ig_direct *d)
{
    *d = (ig_direct){ .pair = pair, .x = x };
    direct_roles(pair, step, d);
    d->reqs = ig_requests_new(d->nrecv + d->window);
    return d->reqs == NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

int ig_direct_start(ig_direct *d)
{
    int rc = MPI_SUCCESS;
    for (int b = 0; b < d->nrecv; b++)
        ig_err_keep(&rc, PMPI_Irecv(ig_xfer_rptr(d->x, b), ig_xfer_rcount(d->x, b), d->x->rtype,
                                    d->remote_base + b, IG_TAG_DIRECT, d->pair->comm, &d->reqs[b]));
    while (d->posted < d->window)
        ig_err_keep(&rc, send_next(d, d->posted));
    return rc;
}

int ig_direct_finish(ig_direct *d)
{
    int rc = MPI_SUCCESS;
    if (d->reqs == NULL)
        return MPI_ERR_NO_MEM;
    while (d->posted < d->nsend) {
        int slot;
        ig_err_keep(&rc, ig_window_slot(d->reqs + d->nrecv, d->window, d->posted, &slot));
        ig_err_keep(&rc, send_next(d, slot));
    }
    ig_err_keep(&rc, ig_waitall(d->nrecv + d->window, d->reqs));
    free(d->reqs);
    d->reqs = NULL;
    return rc;
}

int ig_alg_direct(ig_pair *pair, const ig_xfer *x, const ig_step *step)
{
    ig_direct d;
    int rc = ig_direct_prepare(pair, x, step, &d);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = ig_direct_start(&d);
    ig_err_keep(&rc, ig_direct_finish(&d));
    return rc;
}
