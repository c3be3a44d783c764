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
 */
#include "algorithms.h"
#include "p2p.h"
#include "tags.h"

#include <stdlib.h>

int ig_alg_direct(ig_pair *pair, const ig_xfer *x, const ig_step *step)
{
    ig_pair_view v = ig_pair_view_of(pair);
    int both = step->sender < 0, local_sends = both || v.first, remote_sends = both || !v.first;
    int nrecv = remote_sends ? v.n_remote : 0;
    int window = local_sends ? (step->window < v.n_remote ? step->window : v.n_remote) : 0;
    if (window < 1 && local_sends)
        window = 1;
    MPI_Request *reqs = ig_requests_new(nrecv + window);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    int rc = MPI_SUCCESS;
    for (int b = 0; b < nrecv; b++)
        ig_err_keep(&rc, PMPI_Irecv(ig_xfer_rptr(x, b), ig_xfer_rcount(x, b), x->rtype, v.remote_base + b,
                                    IG_TAG_DIRECT, pair->comm, &reqs[b]));
    MPI_Request *sends = reqs + nrecv;
    int start = (int)((long long)v.local_index * v.n_remote / v.n_local);
    for (int j = 0; local_sends && j < v.n_remote; j++) {
        int slot = j;
        if (j >= window) { /* wait for a free slot: the oldest of any */
            int rc_any = PMPI_Waitany(window, sends, &slot, MPI_STATUS_IGNORE);
            ig_err_keep(&rc, rc_any);
            if (slot == MPI_UNDEFINED)
                slot = j % window;
        }
        int peer = v.remote_base + (start + j) % v.n_remote;
        ig_err_keep(&rc, PMPI_Isend(x->sbuf, x->scount, x->stype, peer, IG_TAG_DIRECT, pair->comm, &sends[slot]));
    }
    ig_err_keep(&rc, ig_waitall(nrecv + window, reqs));
    free(reqs);
    return rc;
}
