#include "opening_left.h"

#include "opening_plan.h"

/* Settle one receive: its message's tag says how many pieces follow
 * (ig_opening_pieces_after), which are received into nothing and dropped.
 * Returns whether a block came (truncated to nothing). */
static int settle_one(MPI_Request *req, int peer, MPI_Comm comm, int wait)
{
    static char nothing;
    MPI_Status st;
    int done = 1, rc = wait ? PMPI_Wait(req, &st) : PMPI_Test(req, &done, &st);
    if (!done)
        return 0;
    *req = MPI_REQUEST_NULL;
    if (rc != MPI_SUCCESS && rc != MPI_ERR_TRUNCATE)
        return 0; /* a failed receive says nothing about what follows */
    int64_t after = ig_opening_pieces_after(st.MPI_TAG);
    for (int64_t i = 0; i < after; i++)
        PMPI_Recv(&nothing, 0, MPI_BYTE, peer, IG_OPENING_TAG_PIECE, comm, MPI_STATUS_IGNORE);
    return rc == MPI_ERR_TRUNCATE;
}

int ig_opening_left_settle(ig_opening_left *left, MPI_Comm comm, int wait)
{
    int pending = 0;
    for (int j = 0; j < left->n; j++) {
        if (left->recv[j] == MPI_REQUEST_NULL)
            continue;
        left->sent_in_vain |= settle_one(&left->recv[j], j, comm, wait);
        pending |= left->recv[j] != MPI_REQUEST_NULL;
    }
    if (pending)
        return 0; /* reported once all are settled */
    int vain = left->sent_in_vain;
    left->n = left->sent_in_vain = 0;
    return vain;
}
