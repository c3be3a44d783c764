#include "speculate.h"

#include "mpi_identity.h"
#include "p2p.h"
#include "stats.h"
#include "tags.h"

#include <limits.h>
#include <stdlib.h>

/* The direct step this process's own arguments lead to, or 0. */
static int guessed_direct(const ig_call *c, ig_comm_cache *cache, const ig_settings *s, ig_step *st)
{
    int n[2], group = ig_comm_cache_group_sizes(cache, n);
    ig_shape guess;
    ig_choice ch;
    /* A withdrawn early message is received by a destination that sizes it
     * with MPI_Get_count, which gives MPI_UNDEFINED beyond INT_MAX bytes:
     * such a message could never be taken, and its sender would wait for
     * it forever.  Blocks that large gain nothing from overlapping a round
     * of small messages anyway. */
    if (c->local_reason != IG_FALLBACK_NONE || c->send_bytes > INT_MAX ||
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
    if (ch.kind != IG_DECISION_SERVE || ch.nsteps != 1 || ch.steps[0].algorithm != IG_ALG_DIRECT)
        return 0;
    *st = ch.steps[0];
    /* Withdrawing assumes an early sender reached every remote process. */
    return c->remote_size <= st->window;
}

void ig_speculate_prepare(const ig_call *c, const ig_xfer *x, ig_comm_cache *cache, const ig_settings *s,
                          ig_speculation *sp)
{
    ig_step st;
    *sp = (ig_speculation){ .code = 0, .post_rc = MPI_SUCCESS };
    if (!guessed_direct(c, cache, s, &st))
        return;
    int n[2], group = ig_comm_cache_group_sizes(cache, n);
    ig_pair *pair = ig_comm_cache_pair_built(cache, ig_step_local_first(&st, group));
    if (pair != NULL && ig_direct_prepare(pair, x, &st, &sp->d) == MPI_SUCCESS)
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
    sp->post_rc = ig_direct_start(&sp->d, ig_mpi_truncated_receive_returns());
    ig_stats_posted_early();
}

/* Cancel this process's early receives; got[b]: the one from remote
 * process b completed (took that process's early message) instead. */
static void cancel_receives(ig_speculation *sp, char *got)
{
    for (int b = 0; b < sp->d.nrecv; b++) {
        MPI_Status status;
        int cancelled = 1;
        /* Not posted (under MPICH, or the post failed): nothing taken.
         * Nothing completed these requests before, so null means that. */
        got[b] = 0;
        if (!sp->d.receives_posted || sp->d.reqs[b] == MPI_REQUEST_NULL)
            continue;
        PMPI_Cancel(&sp->d.reqs[b]);
        /* A receive that completed with an error (truncation) took its message too. */
        PMPI_Wait(&sp->d.reqs[b], &status);
        if (PMPI_Test_cancelled(&status, &cancelled) != MPI_SUCCESS)
            cancelled = 0;
        got[b] = !cancelled;
    }
}

/* Receive and discard the early message of remote process `index`, sent on
 * the pair whose first group this process's group is (or is not). */
static int discard_one(ig_comm_cache *cache, int local_first, int index)
{
    /* The remote sender posted on a pair it had built, and pairs are built
     * by all processes or none (ig_pair_adopt): look it up, never build
     * it here, which is collective. */
    ig_pair *pair = ig_comm_cache_pair_built(cache, local_first);
    MPI_Message msg;
    MPI_Status status;
    int bytes = 0;
    if (pair == NULL)
        return MPI_ERR_INTERN;
    int rc = PMPI_Mprobe(ig_pair_view_of(pair).remote_base + index, IG_TAG_DIRECT, pair->comm, &msg, &status);
    /* Defined: an early message is at most INT_MAX bytes (guessed_direct). */
    if (rc == MPI_SUCCESS)
        rc = PMPI_Get_count(&status, MPI_BYTE, &bytes);
    if (rc != MPI_SUCCESS)
        return rc;
    /* The cache's room when the message fits it (always, where a truncated
     * receive would abort the job: guessed_direct); else allocated, and
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

/* Every early message sent to this process and not taken by its own
 * early receives (got[], by remote index). */
static int discard_early_messages(ig_comm_cache *cache, const ig_posted *posted, const char *got)
{
    int n[2], group = ig_comm_cache_group_sizes(cache, n), rc = MPI_SUCCESS;
    for (int r = 0; r < posted->n; r++) {
        int g = r < n[0] ? 0 : 1, index = g == 0 ? r : r - n[0];
        ig_step st = { .algorithm = IG_ALG_DIRECT, .sender = (int)posted->code[r] - 2 };
        int sent = posted->code[r] != 0 && (st.sender < 0 || st.sender == g);
        if (g == group || !sent || got[index])
            continue;
        /* Remote process r's pair has its group first; this one's is the other way. */
        ig_err_keep(&rc, discard_one(cache, !ig_step_local_first(&st, g), index));
    }
    return rc;
}

int ig_speculate_settle(ig_speculation *sp, ig_comm_cache *cache, const ig_posted *posted,
                        const ig_choice *agreed)
{
    int any = 0, rc = MPI_SUCCESS;
    char got[IG_AGREE_MAX_POSTED] = { 0 };
    for (int r = 0; r < posted->n; r++)
        any |= posted->code[r] != 0;
    if (!any || ig_decide_posted_stand(posted->code, posted->n, agreed))
        return MPI_SUCCESS;
    if (sp->code != 0)
        cancel_receives(sp, got);
    ig_err_keep(&rc, discard_early_messages(cache, posted, got));
    if (sp->code != 0) {
        ig_err_keep(&rc, ig_waitall(sp->d.window, sp->d.reqs + sp->d.nrecv));
        ig_direct_release(&sp->d);
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
    ig_err_keep(&rc, ig_direct_finish(&sp->d));
    sp->code = 0;
    return rc;
}

void ig_speculate_abandon(ig_speculation *sp)
{
    char got[IG_AGREE_MAX_POSTED];
    if (sp->code == 0)
        return;
    cancel_receives(sp, got);
    for (int i = 0; i < sp->d.window; i++)
        if (sp->d.reqs[sp->d.nrecv + i] != MPI_REQUEST_NULL)
            PMPI_Request_free(&sp->d.reqs[sp->d.nrecv + i]);
    ig_direct_release(&sp->d);
    sp->code = 0;
}
