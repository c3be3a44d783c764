#include "opening_left.h"

#include "log.h"
#include "mpi_identity.h"
#include "opening_plan.h"
#include "p2p.h"
#include "stats.h"

#include <stdatomic.h>
#include <stdlib.h>

/* Said once per process: MPI would have reported MPI_ERR_TRUNCATE in the
 * call, which this process had left without waiting to see it. */
static void explain_sent_in_vain(void)
{
    static atomic_int told;
    ig_stats_erroneous();
    if (atomic_exchange(&told, 1))
        return;
    ig_log("MPI_Allgather or MPI_Allgatherv: a remote process sent a block to this process, which expected nothing (an erroneous "
           "program; MPI would report MPI_ERR_TRUNCATE): it had already left that call, which returned "
           "MPI_SUCCESS; the block was dropped (world rank %d)",
           ig_world_rank());
}

/* The pieces that follow a settled receive's message (its tag says how
 * many: ig_opening_pieces_after), received into the sink and dropped. */
static void drop_pieces(int peer, int tag, MPI_Comm comm)
{
    int64_t after = ig_opening_pieces_after(tag);
    for (int64_t i = 0; i < after; i++)
        ig_recv_sink(peer, IG_OPENING_TAG_PIECE, comm, MPI_STATUS_IGNORE);
}

int ig_opening_left_settle_peer(ig_opening_left *left, int j, MPI_Comm comm, int wait, int *tag)
{
    MPI_Status st;
    MPI_Request *req = &left->recv[j];
    if (*req == MPI_REQUEST_NULL)
        return 1;
    int done = 1, rc = wait ? PMPI_Wait(req, &st) : PMPI_Test(req, &done, &st);
    if (!done && rc == MPI_SUCCESS)
        return 0;
    *req = MPI_REQUEST_NULL; /* completed, or failed (then Open MPI has freed it) */
    *tag = -1;
    if (rc != MPI_SUCCESS && !ig_is_truncation(rc)) {
        left->peer_not_small = 1;
        return 1; /* a failed receive says nothing about what follows */
    }
    *tag = st.MPI_TAG;
    left->peer_not_small |= !ig_opening_tag_small(st.MPI_TAG);
    drop_pieces(j, st.MPI_TAG, comm);
    left->sent_in_vain |= ig_sink_took_data(rc, &st); /* a block came, and was dropped */
    return 1;
}

char *ig_opening_left_copy_room(ig_opening_left *left, size_t bytes)
{
    if (bytes > left->copy_room) {
        char *bigger = realloc(left->copy, bytes);
        if (bigger == NULL)
            return NULL;
        left->copy = bigger;
        left->copy_room = bytes;
    }
    return left->copy;
}

void ig_opening_left_settle_receives(ig_opening_left *left, MPI_Comm comm)
{
    int tag;
    for (int j = 0; j < left->n; j++)
        ig_opening_left_settle_peer(left, j, comm, 1, &tag);
    if (left->sent_in_vain)
        explain_sent_in_vain();
    left->n = left->sent_in_vain = 0;
}

/* Every send is complete after this (ig_waitall waits for those an error
 * left pending). */
void ig_opening_left_settle_sends(ig_opening_left *left)
{
    if (left->n_sends == 0)
        return;
    ig_waitall(left->n_sends, left->sends);
    free(left->sends);
    left->sends = NULL;
    left->n_sends = 0;
}

static void free_copy(ig_opening_left *left)
{
    free(left->copy);
    left->copy = NULL;
    left->copy_room = 0;
}

void ig_opening_left_trim_copy(ig_opening_left *left)
{
    if (left->n_sends == 0 && left->copy_room > IG_OPENING_COPY_KEPT)
        free_copy(left);
}

void ig_opening_left_settle(ig_opening_left *left, MPI_Comm comm)
{
    ig_opening_left_settle_receives(left, comm);
    ig_opening_left_settle_sends(left);
    ig_opening_left_trim_copy(left);
}

void ig_opening_left_release(ig_opening_left *left, MPI_Comm comm)
{
    if (comm != MPI_COMM_NULL)
        ig_opening_left_settle(left, comm);
    free_copy(left);
}
