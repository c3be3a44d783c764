/*
 * Direct: every sending process's block straight to every process of the
 * other group, one stage (not in the paper; Open MPI's libnbc runs its
 * non-blocking inter-communicator allgather this way).  Half duplex: the
 * pair's first group sends; full duplex (step->sender < 0): both groups
 * send and receive at once.
 *
 * Every receive is posted first, so no message arrives unexpected (except
 * under MPICH when posted early: speculate.c says why).  Sends
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
 *
 * Erroneous calls (decide.c) run here too, both ways, each process
 * receiving with its own counts.  Where a block is larger than its
 * receiver expects (step->largest_sent), the receiver takes it whole, as
 * MPI_PACKED, into scratch, copies into its buffer what a receive in place
 * would have taken, and reports MPI_ERR_TRUNCATE itself: a receive in
 * place would fail with that error when completed, and MPICH (4.0.2)
 * raises such an error through MPI_COMM_WORLD's error handler, aborting
 * the job whatever handler the program gave its communicator.
 */
#include "algorithms.h"
#include "blocks.h"
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
    uint64_t largest = step->largest_sent[v.first ? 1 : 0];
    d->whole_bytes = remote_sends ? (int)largest : 0; /* the decision keeps it <= INT_MAX */
}

/* The bytes this process expects in remote block b. */
static MPI_Count expected_bytes(const ig_direct *d, int b)
{
    MPI_Count size = 0;
    PMPI_Type_size_x(d->x->rtype, &size);
    return size * ig_xfer_rcount(d->x, b);
}

static void release_whole(ig_direct *d)
{
    free(d->whole);
    free(d->whole_index);
    free(d->stats);
    d->whole = NULL;
    d->whole_index = NULL;
    d->stats = NULL;
}

/* Whether remote block b is received whole (it may not fit in place). */
static int received_whole(const ig_direct *d, int b)
{
    return d->whole != NULL && d->whole_index[b] >= 0;
}

/* Room for the blocks that may not fit in place, one slot of the largest
 * block each.  Without it (out of memory) they are received in place, as
 * before. */
static void prepare_whole(ig_direct *d)
{
    int n_whole = 0;
    if (d->whole_bytes == 0 || d->nrecv == 0)
        return;
    d->whole_index = malloc((size_t)d->nrecv * sizeof *d->whole_index);
    for (int b = 0; b < d->nrecv && d->whole_index != NULL; b++)
        d->whole_index[b] = expected_bytes(d, b) < d->whole_bytes ? n_whole++ : -1;
    if (n_whole > 0) {
        d->whole = malloc((size_t)n_whole * (size_t)d->whole_bytes);
        d->stats = malloc((size_t)(d->nrecv + d->window) * sizeof *d->stats);
    }
    if (d->whole == NULL || d->stats == NULL)
        release_whole(d);
}

static char *whole_slot(const ig_direct *d, int b)
{
    return d->whole + (size_t)d->whole_index[b] * (size_t)d->whole_bytes;
}

/* Block b, received whole: into the receive buffer what a receive in place
 * would have taken (as much as fits, through the receive type, a partial
 * element included), by a send to self; MPI_ERR_TRUNCATE if it did not fit. */
static int deliver_whole(const ig_direct *d, int b)
{
    MPI_Count expected = expected_bytes(d, b);
    int got = 0, rc = PMPI_Get_count(&d->stats[b], MPI_PACKED, &got);
    if (rc != MPI_SUCCESS)
        return rc;
    int take = (MPI_Count)got > expected ? (int)expected : got;
    rc = ig_copy_to_self(whole_slot(d, b), take, MPI_PACKED, ig_xfer_rptr(d->x, b), ig_xfer_rcount(d->x, b),
                         d->x->rtype, d->pair->comm, d->pair->rank);
    return rc == MPI_SUCCESS && (MPI_Count)got > expected ? MPI_ERR_TRUNCATE : rc;
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
    d->reqs = ig_pair_requests(pair, d->nrecv + d->window);
    if (d->reqs == NULL)
        return MPI_ERR_NO_MEM;
    prepare_whole(d);
    return MPI_SUCCESS;
}

static int post_receives(ig_direct *d)
{
    int rc = MPI_SUCCESS;
    d->receives_posted = 1;
    for (int b = 0; b < d->nrecv; b++) {
        int from = d->remote_base + b;
        if (received_whole(d, b))
            ig_err_keep(&rc, PMPI_Irecv(whole_slot(d, b), d->whole_bytes, MPI_PACKED, from, IG_TAG_DIRECT,
                                        d->pair->comm, &d->reqs[b]));
        else
            ig_err_keep(&rc, PMPI_Irecv(ig_xfer_rptr(d->x, b), ig_xfer_rcount(d->x, b), d->x->rtype, from,
                                        IG_TAG_DIRECT, d->pair->comm, &d->reqs[b]));
    }
    return rc;
}

int ig_direct_start(ig_direct *d, int with_receives)
{
    int rc = with_receives ? post_receives(d) : MPI_SUCCESS;
    while (d->posted < d->window)
        ig_err_keep(&rc, send_next(d, d->posted));
    return rc;
}

int ig_direct_finish(ig_direct *d)
{
    int rc = MPI_SUCCESS;
    if (d->reqs == NULL)
        return MPI_ERR_NO_MEM;
    if (!d->receives_posted)
        rc = post_receives(d);
    while (d->posted < d->nsend) {
        int slot;
        ig_err_keep(&rc, ig_window_slot(d->reqs + d->nrecv, d->window, d->posted, &slot));
        ig_err_keep(&rc, send_next(d, slot));
    }
    if (d->whole == NULL) {
        ig_err_keep(&rc, ig_waitall(d->nrecv + d->window, d->reqs));
    } else {
        int wrc = ig_waitall_status(d->nrecv + d->window, d->reqs, d->stats);
        ig_err_keep(&rc, wrc);
        for (int b = 0; b < d->nrecv && wrc == MPI_SUCCESS; b++)
            if (received_whole(d, b))
                ig_err_keep(&rc, deliver_whole(d, b));
    }
    ig_direct_release(d);
    return rc;
}

void ig_direct_release(ig_direct *d)
{
    ig_pair_requests_done(d->pair, d->reqs);
    d->reqs = NULL;
    release_whole(d);
}

int ig_alg_direct(ig_pair *pair, const ig_xfer *x, const ig_step *step)
{
    ig_direct d;
    int rc = ig_direct_prepare(pair, x, step, &d);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = ig_direct_start(&d, 1);
    ig_err_keep(&rc, ig_direct_finish(&d));
    return rc;
}
