#include "speculate.h"

#include "mpi_identity.h"
#include "p2p.h"
#include "star_plan.h"
#include "stats.h"
#include "tags.h"

#include <limits.h>
#include <stdlib.h>

/* The step this process's own arguments lead to, where it is one that is
 * posted early (direct, or the star), or 0. */
static int guessed_step(const ig_call *c, ig_comm_cache *cache, const ig_settings *s, ig_step *st)
{
    int n[2], group = ig_comm_cache_group_sizes(cache, n);
    ig_shape guess;
    ig_choice ch;
    /* A withdrawn early message is received by a destination that sizes it
     * with MPI_Get_count, which gives MPI_UNDEFINED beyond INT_MAX bytes:
     * such a message could never be taken, and its sender would wait for
     * it forever (a star member sends on blocks of the size it
     * expects).  Blocks that large gain nothing from overlapping a round
     * of small messages anyway. */
    if (c->local_reason != IG_FALLBACK_NONE || c->send_bytes > INT_MAX || c->expect_bytes > INT_MAX ||
        !ig_agree_carries_posted(c->op, n[0], n[1]))
        return 0;
    /* Where a truncated receive aborts the job, an early message must fit
     * the cache's room to be withdrawn (comm_cache.h); the bound is the
     * same for every process. */
    if (!ig_mpi_truncated_receive_returns() && c->send_bytes > IG_CACHE_DISCARD_BYTES)
        return 0;
    ig_shape_guess_uniform(group, c->send_bytes, c->expect_bytes, c->send_overlaps, c->scattered, n[0], n[1],
                           ig_comm_cache_nodes(cache), ig_comm_cache_oversubscribed(cache), &guess);
    ig_decide(&guess, 0, s, &ch);
    if (ch.kind != IG_DECISION_SERVE || ch.nsteps != 1)
        return 0;
    *st = ch.steps[0];
    /* The star's receives from team members are posted early too, and
     * cancelled on withdrawing; its early messages are taken by their
     * receives (or discarded), never by size alone as MPICH's are. */
    if (st->algorithm == IG_ALG_STAR)
        return ig_mpi_truncated_receive_returns();
    /* Withdrawing assumes an early direct sender reached every remote process. */
    return st->algorithm == IG_ALG_DIRECT && c->remote_size <= st->window;
}

void ig_speculate_prepare(const ig_call *c, const ig_xfer *x, ig_comm_cache *cache, const ig_settings *s,
                          ig_speculation *sp)
{
    ig_step st;
    *sp = (ig_speculation){ .code = 0, .post_rc = MPI_SUCCESS };
    if (!guessed_step(c, cache, s, &st))
        return;
    int n[2], group = ig_comm_cache_group_sizes(cache, n);
    ig_pair *pair = ig_comm_cache_pair_built(cache, ig_step_local_first(&st, group));
    if (pair == NULL)
        return;
    sp->algorithm = st.algorithm;
    if (st.algorithm == IG_ALG_STAR) {
        if (ig_star_prepare(pair, x, &sp->star) != MPI_SUCCESS) {
            ig_star_release(&sp->star);
            return;
        }
    } else if (ig_direct_prepare(pair, x, &st, &sp->d) != MPI_SUCCESS) {
        return;
    }
    sp->code = ig_decide_posted_code(&st);
}

/* The receives go early too, so that no early message arrives unexpected,
 * except where a truncated one could not be withdrawn: in an erroneous call
 * a sender's block may exceed what this process expects, and under MPICH
 * completing that receive aborts the job (mpi_identity.h).  There they are
 * posted only once the early step stands (ig_direct_finish), and withdrawn
 * messages are taken by size (discard_one). */
void ig_speculate_post(ig_speculation *sp)
{
    if (sp->code == 0)
        return;
    if (sp->algorithm == IG_ALG_STAR)
        sp->post_rc = ig_star_start(&sp->star);
    else
        sp->post_rc = ig_direct_start(&sp->d, ig_mpi_truncated_receive_returns());
    ig_stats_posted_early();
}

static void send_on_now(void *arg, int received_rc)
{
    ig_star_send_on((ig_star *)arg, received_rc);
    ig_stats_sent_on_early();
}

void ig_speculate_side(ig_speculation *sp, ig_side_wait *side)
{
    *side = (ig_side_wait){ .req = NULL, .on_complete = send_on_now, .arg = &sp->star };
    if (sp->code != 0 && sp->algorithm == IG_ALG_STAR && sp->post_rc == MPI_SUCCESS)
        side->req = ig_star_owned_receive(&sp->star);
}

/* Cancel one early receive: whether it completed (took its message) instead. */
static int cancel_one(MPI_Request *req)
{
    MPI_Status status;
    int cancelled = 1;
    PMPI_Cancel(req);
    /* A receive that completed with an error (truncation) took its message too. */
    PMPI_Wait(req, &status);
    if (PMPI_Test_cancelled(&status, &cancelled) != MPI_SUCCESS)
        cancelled = 0;
    return !cancelled;
}

/* How process r of the merged order (in group g) posted the star early:
 * STAR_SENDER, STAR_RECEIVER (its group receives, the other group's
 * sending), or 0 (not the star). */
enum { STAR_SENDER = 1, STAR_RECEIVER = 2 };
static int star_role(const ig_posted *posted, int r, int g)
{
    ig_step st;
    if (r >= posted->n || !ig_decide_posted_step(posted->code[r], &st) || st.algorithm != IG_ALG_STAR)
        return 0;
    return st.sender == g ? STAR_SENDER : STAR_RECEIVER;
}

/* The star with the other group sending, as this process's group sees it
 * (pairs are built by all processes or none: looked up, never built). */
typedef struct {
    ig_pair *pair;  /* NULL: no such star could have been posted */
    int me, group;  /* this process's index among the receivers; its group */
    int base[2];    /* merged rank of each group's first process */
} star_here;

static star_here star_here_of(ig_comm_cache *cache)
{
    int n[2];
    star_here h = { .pair = NULL };
    h.group = ig_comm_cache_group_sizes(cache, n);
    h.base[0] = 0;
    h.base[1] = n[0];
    h.pair = ig_comm_cache_pair_built(cache, 0);
    if (h.pair != NULL && h.pair->p >= h.pair->q)
        h.pair = NULL; /* the star runs only where p < q */
    if (h.pair != NULL)
        h.me = h.pair->rank - h.pair->p;
    return h;
}

/* Whether sender `sender` of the other group posted the star early, so
 * that its block went to each team's member at its place. */
static int star_sender_posted(const star_here *h, const ig_posted *posted, int sender)
{
    int other = !h->group;
    return star_role(posted, h->base[other] + sender, other) == STAR_SENDER;
}

/* Whether team member m of this group sends its block on to this
 * process in a withdrawal: it posted the star early as a receiver, and
 * its block's sender sent it that block (speculate_settle has every such
 * member send on, whether or not the block arrived before the agreement
 * ended, so that every process can tell from the agreement alone). */
static int star_member_sends_on(const star_here *h, const ig_posted *posted, int m)
{
    int b = ig_star_owned_block(h->pair->p, h->pair->q, m);
    return b >= 0 && star_role(posted, h->base[h->group] + m, h->group) == STAR_RECEIVER &&
           star_sender_posted(h, posted, b);
}

/* A star receiver's early receives, in a withdrawal.  The one of the block
 * it owns completes where that block's sender posted early, and the block
 * goes on to the team (above); every other receive is cancelled.
 * took[b]: block b's receive took its message.  (Where the sender's post
 * itself failed, the wait for its block does not end: a message the MPI
 * library refuses to post is the one case in which the library can
 * leave a peer waiting, README, Limitations.) */
static void settle_star_receives(ig_star *st, const star_here *h, const ig_posted *posted, char *took)
{
    const ig_pair *pair = st->pair;
    int owned = ig_star_owned_block(pair->p, pair->q, st->me);
    for (int b = 0; b < pair->p; b++) {
        if (b == owned && star_sender_posted(h, posted, b)) {
            MPI_Request *receive = ig_star_owned_receive(st); /* NULL: sent on already */
            took[b] = (char)(receive == NULL || *receive != MPI_REQUEST_NULL);
            if (receive != NULL)
                ig_star_send_on(st, ig_waitall(1, receive));
            continue;
        }
        took[b] = (char)(st->reqs[b] != MPI_REQUEST_NULL && cancel_one(&st->reqs[b]));
    }
}

/* Cancel (or, the star's own block, complete) this process's early
 * receives; got[b]: the one from remote process b took that process's
 * early message; star_took[b]: the star's receive of block b took its
 * message (from a sender or a team member). */
static void settle_receives(ig_speculation *sp, const star_here *h, const ig_posted *posted, char *got,
                            char *star_took)
{
    if (sp->algorithm == IG_ALG_STAR) {
        if (sp->star.me < 0)
            return;
        settle_star_receives(&sp->star, h, posted, star_took);
        for (int b = 0; b < sp->star.pair->p; b++) {
            int from_sender = 0;
            ig_star_block_source(sp->star.pair->p, sp->star.pair->q, sp->star.me, b, &from_sender);
            got[b] = from_sender ? star_took[b] : 0;
        }
        return;
    }
    for (int b = 0; b < sp->d.nrecv; b++) {
        /* Not posted (under MPICH, or the post failed): nothing taken.
         * Nothing completed these requests before, so null means that. */
        got[b] = 0;
        if (!sp->d.receives_posted || sp->d.reqs[b] == MPI_REQUEST_NULL)
            continue;
        got[b] = (char)cancel_one(&sp->d.reqs[b]);
    }
}

/* Receive and discard one message from `source` with `tag` on pair. */
static int discard_from(ig_comm_cache *cache, ig_pair *pair, int source, int tag)
{
    MPI_Message msg;
    MPI_Status status;
    int bytes = 0;
    int rc = PMPI_Mprobe(source, tag, pair->comm, &msg, &status);
    /* Defined: an early message is at most INT_MAX bytes (guessed_step). */
    if (rc == MPI_SUCCESS)
        rc = PMPI_Get_count(&status, MPI_BYTE, &bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    /* The cache's room when the message fits it (always, where a truncated
     * receive would abort the job: guessed_step); else allocated, and
     * without that the message is still taken, into the sink (p2p.h). */
    void *room = ig_comm_cache_discard_room(cache);
    int fits = bytes <= IG_CACHE_DISCARD_BYTES;
    void *scratch = fits ? room : malloc(bytes > 0 ? (size_t)bytes : 1);
    if (scratch == NULL) {
        ig_mrecv_sink(&msg);
        return MPI_ERR_NO_MEM;
    }
    rc = PMPI_Mrecv(scratch, bytes, MPI_BYTE, &msg, MPI_STATUS_IGNORE);
    if (!fits)
        free(scratch);
    return rc;
}

/* The early message of remote process `index`, sent on the pair whose
 * first group this process's group is (or is not), with `tag` (direct's
 * or the star's). */
static int discard_one(ig_comm_cache *cache, int local_first, int index, int tag)
{
    /* The remote sender posted on a pair it had built, and pairs are built
     * by all processes or none (ig_pair_adopt): look it up, never build
     * it here, which is collective. */
    ig_pair *pair = ig_comm_cache_pair_built(cache, local_first);
    if (pair == NULL)
        return MPI_ERR_INTERN;
    return discard_from(cache, pair, ig_pair_view_of(pair).remote_base + index, tag);
}

/* Whether an early star sender of index `sender` sent to this process: to
 * the member that owns its block in every team. */
static int star_sent_here(const star_here *h, int sender)
{
    return h->pair != NULL && ig_star_owned_block(h->pair->p, h->pair->q, h->me) == sender;
}

/* Every early message sent to this process and not taken by its own
 * early receives (got[], by remote index): an early direct sender sent to
 * every remote process, an early star sender to one member of each team. */
static int discard_early_messages(ig_comm_cache *cache, const star_here *h, const ig_posted *posted,
                                  const char *got)
{
    int n[2], group = ig_comm_cache_group_sizes(cache, n), rc = MPI_SUCCESS;
    for (int r = 0; r < posted->n; r++) {
        int g = r < n[0] ? 0 : 1, index = g == 0 ? r : r - n[0];
        ig_step st;
        int sent = ig_decide_posted_step(posted->code[r], &st) && (st.sender < 0 || st.sender == g);
        if (g == group || !sent || got[index])
            continue;
        if (st.algorithm == IG_ALG_STAR) {
            if (star_sent_here(h, index))
                ig_err_keep(&rc, discard_one(cache, 0, index, IG_TAG_STAR));
            continue;
        }
        /* Remote process r's pair has its group first; this one's is the other way. */
        ig_err_keep(&rc, discard_one(cache, !ig_step_local_first(&st, g), index, IG_TAG_DIRECT));
    }
    return rc;
}

/* Every block a team member of this process's group sent on to it in a
 * withdrawal (star_member_sends_on) and its own early receive did not
 * take (took[b], where it posted the star early as a receiver). */
static int discard_star_sent_on(ig_comm_cache *cache, const star_here *h, const ig_posted *posted,
                                const char *took)
{
    int rc = MPI_SUCCESS;
    if (h->pair == NULL)
        return rc;
    for (int b = 0; b < h->pair->p; b++) {
        int from_sender = 0, m = ig_star_block_source(h->pair->p, h->pair->q, h->me, b, &from_sender);
        if (!from_sender && !took[b] && star_member_sends_on(h, posted, m))
            ig_err_keep(&rc, discard_from(cache, h->pair, h->pair->p + m, IG_TAG_STAR));
    }
    return rc;
}

/* Complete what this process sent early (its peers have taken or
 * discarded it) and give back its requests. */
static int complete_early_sends(ig_speculation *sp)
{
    int rc;
    if (sp->algorithm == IG_ALG_STAR) {
        /* A receiver's receives are complete or cancelled; a member's
         * sends on (sent whenever its sender posted early) are taken or
         * discarded by its team. */
        rc = ig_waitall(sp->star.nreqs, sp->star.reqs);
        ig_err_keep(&rc, sp->star.send_on_rc);
        ig_star_release(&sp->star);
    } else {
        rc = ig_waitall(sp->d.window, sp->d.reqs + sp->d.nrecv);
        ig_direct_release(&sp->d);
    }
    return rc;
}

int ig_speculate_settle(ig_speculation *sp, ig_comm_cache *cache, const ig_posted *posted,
                        const ig_choice *agreed)
{
    int any = 0, rc = MPI_SUCCESS;
    char got[IG_AGREE_MAX_POSTED] = { 0 }, star_took[IG_AGREE_MAX_POSTED] = { 0 };
    for (int r = 0; r < posted->n; r++)
        any |= posted->code[r] != 0;
    if (!any || ig_decide_posted_stand(posted->code, posted->n, agreed))
        return MPI_SUCCESS;
    star_here h = star_here_of(cache);
    if (sp->code != 0)
        settle_receives(sp, &h, posted, got, star_took);
    ig_err_keep(&rc, discard_early_messages(cache, &h, posted, got));
    ig_err_keep(&rc, discard_star_sent_on(cache, &h, posted, star_took));
    if (sp->code != 0) {
        ig_err_keep(&rc, complete_early_sends(sp));
        sp->code = 0;
        ig_stats_withdrawn();
    }
    /* No process runs the agreed path (whose messages may share a pair and a
     * tag with the early ones) while another still withdraws. */
    ig_err_keep(&rc, PMPI_Barrier(ig_comm_cache_merged(cache)));
    return rc;
}

int ig_speculate_finish(ig_speculation *sp)
{
    int rc = sp->post_rc;
    ig_err_keep(&rc, sp->algorithm == IG_ALG_STAR ? ig_star_finish(&sp->star) : ig_direct_finish(&sp->d));
    sp->code = 0;
    return rc;
}

void ig_speculate_abandon(ig_speculation *sp)
{
    if (sp->code == 0)
        return;
    int star = sp->algorithm == IG_ALG_STAR;
    MPI_Request *reqs = star ? sp->star.reqs : sp->d.reqs;
    /* The receives come first in both: cancelled; the sends let go. */
    int nreceives = star ? (sp->star.me < 0 ? 0 : sp->star.pair->p) : sp->d.nrecv;
    int nreqs = star ? sp->star.nreqs : sp->d.nrecv + sp->d.window;
    for (int i = 0; i < nreqs; i++) {
        if (reqs[i] == MPI_REQUEST_NULL)
            continue;
        if (i < nreceives)
            cancel_one(&reqs[i]);
        else
            PMPI_Request_free(&reqs[i]);
    }
    if (star)
        ig_star_release(&sp->star);
    else
        ig_direct_release(&sp->d);
    sp->code = 0;
}
