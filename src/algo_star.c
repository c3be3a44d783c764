/*
 * The star (not in the paper), half duplex with p < q: whole blocks in two
 * rounds of messages posted at once, as star_plan.h plans them.  A sender
 * sends its block to one member of each of the q / p teams; a receiver
 * posts a receive for every block, from its sender or a team member as
 * the plan says, waits for the block it owns, and sends it on to its
 * team.  Where the fully connected algorithm (algo_fc.c) runs the same
 * two stages as a broadcast tree and an allgather, log p + 2 log(q/p + 1)
 * dependent rounds, the star has two: the plan for small blocks, where
 * the rounds' latency, not the links, paces a call (decide.c).
 *
 * Every message is a whole block in the processes' own types: a sender's
 * send type, a receiver's receive type for the block's slot, which MPI
 * guarantees match in signature (a member sends on from its slot).  A
 * member whose receive failed still sends on (MPICH's errflag), so that
 * its team is not left waiting; the error is its own to report.
 */
#include "algorithms.h"
#include "p2p.h"
#include "star_plan.h"
#include "tags.h"

static int star_sender(ig_pair *pair, const ig_xfer *x)
{
    int s = ig_star_teams(pair->p, pair->q), rc = MPI_SUCCESS;
    MPI_Request *reqs = ig_pair_requests(pair, s);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    for (int n = 0; n < s; n++) {
        int to = pair->p + ig_star_sender_target(pair->p, pair->q, pair->rank, n);
        ig_err_keep(&rc, PMPI_Isend(x->sbuf, x->scount, x->stype, to, IG_TAG_STAR, pair->comm, &reqs[n]));
    }
    ig_err_keep(&rc, ig_waitall(s, reqs));
    ig_pair_requests_done(pair, reqs);
    return rc;
}

/* Post the receive of every block, each from where the plan says. */
static int post_receives(ig_pair *pair, const ig_xfer *x, int me, MPI_Request *reqs)
{
    int rc = MPI_SUCCESS;
    for (int b = 0; b < pair->p; b++) {
        int from_sender = 0, from = ig_star_block_source(pair->p, pair->q, me, b, &from_sender);
        int source = from_sender ? from : pair->p + from;
        ig_err_keep(&rc, PMPI_Irecv(ig_xfer_rptr(x, b), ig_xfer_rcount(x, b), x->rtype, source, IG_TAG_STAR,
                                    pair->comm, &reqs[b]));
    }
    return rc;
}

/* A member's block, once it has arrived, on to the rest of its team. */
static int forward_owned(ig_pair *pair, const ig_xfer *x, int me, MPI_Request *recvs, MPI_Request *sends)
{
    int b = ig_star_owned_block(pair->p, pair->q, me), n = ig_star_forward_count(pair->p, pair->q, me);
    int rc = ig_waitall(1, &recvs[b]);
    for (int i = 0; i < n; i++) {
        int to = pair->p + ig_star_forward_target(pair->p, pair->q, me, i);
        ig_err_keep(&rc, PMPI_Isend(ig_xfer_rptr(x, b), ig_xfer_rcount(x, b), x->rtype, to, IG_TAG_STAR, pair->comm,
                                    &sends[i]));
    }
    return rc;
}

static int star_receiver(ig_pair *pair, const ig_xfer *x)
{
    int me = pair->rank - pair->p, n = pair->p + ig_star_forward_count(pair->p, pair->q, me);
    MPI_Request *reqs = ig_pair_requests(pair, n);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    int rc = post_receives(pair, x, me, reqs);
    if (ig_star_owned_block(pair->p, pair->q, me) >= 0)
        ig_err_keep(&rc, forward_owned(pair, x, me, reqs, reqs + pair->p));
    ig_err_keep(&rc, ig_waitall(n, reqs));
    ig_pair_requests_done(pair, reqs);
    return rc;
}

/* The decision runs the star only where p < q (decide.c). */
int ig_alg_star(ig_pair *pair, const ig_xfer *x, const ig_step *step)
{
    (void)step;
    if (pair->p >= pair->q)
        return MPI_ERR_INTERN;
    return ig_pair_is_sender(pair) ? star_sender(pair, x) : star_receiver(pair, x);
}
