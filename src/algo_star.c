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
 * Posting and completing are separate, as direct's (algorithms.h), so
 * that the first round may be posted before the call's agreement ends
 * (speculate.c), and a member's sends on as soon as its block arrives,
 * while the agreement is still running (speculate.c says how they are
 * withdrawn where the agreement does not confirm them).
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

int ig_star_prepare(ig_pair *pair, const ig_xfer *x, ig_star *st)
{
    int p = pair->p, q = pair->q;
    st->pair = pair;
    st->x = x;
    st->me = ig_pair_is_sender(pair) ? -1 : pair->rank - p;
    st->nreqs = st->me < 0 ? ig_star_teams(p, q) : p + ig_star_forward_count(p, q, st->me);
    st->reqs = NULL;
    st->sent_on = 0;
    st->send_on_rc = MPI_SUCCESS;
    if (p >= q)
        return MPI_ERR_INTERN; /* the decision runs the star only where p < q (decide.c) */
    st->reqs = ig_pair_requests(pair, st->nreqs);
    return st->reqs == NULL ? MPI_ERR_NO_MEM : MPI_SUCCESS;
}

/* A sender's block to one member of every team. */
static int send_to_teams(ig_star *st)
{
    const ig_pair *pair = st->pair;
    int rc = MPI_SUCCESS;
    for (int n = 0; n < st->nreqs; n++) {
        int to = pair->p + ig_star_sender_target(pair->p, pair->q, pair->rank, n);
        ig_err_keep(&rc, PMPI_Isend(st->x->sbuf, st->x->scount, st->x->stype, to, IG_TAG_STAR, pair->comm,
                                    &st->reqs[n]));
    }
    return rc;
}

/* A receiver's receive of every block, each from where the plan says. */
static int post_receives(ig_star *st)
{
    const ig_pair *pair = st->pair;
    const ig_xfer *x = st->x;
    int rc = MPI_SUCCESS;
    for (int b = 0; b < pair->p; b++) {
        int from_sender = 0, from = ig_star_block_source(pair->p, pair->q, st->me, b, &from_sender);
        int source = from_sender ? from : pair->p + from;
        ig_err_keep(&rc, PMPI_Irecv(ig_xfer_rptr(x, b), ig_xfer_rcount(x, b), x->rtype, source, IG_TAG_STAR,
                                    pair->comm, &st->reqs[b]));
    }
    return rc;
}

int ig_star_start(ig_star *st)
{
    return st->me < 0 ? send_to_teams(st) : post_receives(st);
}

MPI_Request *ig_star_owned_receive(ig_star *st)
{
    if (st->me < 0 || st->sent_on)
        return NULL;
    int b = ig_star_owned_block(st->pair->p, st->pair->q, st->me);
    return b < 0 ? NULL : &st->reqs[b];
}

/* A member's block on to the rest of its team (its receive complete). */
void ig_star_send_on(ig_star *st, int received_rc)
{
    const ig_pair *pair = st->pair;
    const ig_xfer *x = st->x;
    int b = ig_star_owned_block(pair->p, pair->q, st->me), n = ig_star_forward_count(pair->p, pair->q, st->me);
    st->sent_on = 1;
    ig_err_keep(&st->send_on_rc, received_rc);
    for (int i = 0; i < n; i++) {
        int to = pair->p + ig_star_forward_target(pair->p, pair->q, st->me, i);
        ig_err_keep(&st->send_on_rc, PMPI_Isend(ig_xfer_rptr(x, b), ig_xfer_rcount(x, b), x->rtype, to, IG_TAG_STAR,
                                                pair->comm, &st->reqs[pair->p + i]));
    }
}

int ig_star_finish(ig_star *st)
{
    MPI_Request *owned = ig_star_owned_receive(st);
    if (owned != NULL)
        ig_star_send_on(st, ig_waitall(1, owned));
    int rc = st->send_on_rc;
    ig_err_keep(&rc, ig_waitall(st->nreqs, st->reqs));
    ig_star_release(st);
    return rc;
}

void ig_star_release(ig_star *st)
{
    ig_pair_requests_done(st->pair, st->reqs);
    st->reqs = NULL;
}

int ig_alg_star(ig_pair *pair, const ig_xfer *x, const ig_step *step)
{
    ig_star st;
    (void)step;
    int rc = ig_star_prepare(pair, x, &st);
    if (rc != MPI_SUCCESS) {
        ig_star_release(&st);
        return rc;
    }
    rc = ig_star_start(&st);
    ig_err_keep(&rc, ig_star_finish(&st));
    return rc;
}
