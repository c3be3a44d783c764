#include "allmax.h"

#include "p2p.h"

#include <stddef.h>

/* The side's request, where there is one still pending. */
static MPI_Request *side_pending(ig_side_wait *side)
{
    if (side == NULL || side->req == NULL || *side->req == MPI_REQUEST_NULL)
        return NULL;
    return side->req;
}

int ig_waitall_beside(int n, MPI_Request *reqs, ig_side_wait *side)
{
    MPI_Request all[IG_BESIDE_MAX + 1];
    int rc = MPI_SUCCESS;
    if (n > IG_BESIDE_MAX)
        return MPI_ERR_INTERN;
    for (;;) {
        /* The side first: MPI_Waitany names the first completed request
         * in the array's order, and the side is to be seen at once. */
        MPI_Request *side_req = side_pending(side);
        int pending = 0, index = MPI_UNDEFINED, first = side_req != NULL;
        if (side_req != NULL)
            all[0] = *side_req;
        for (int i = 0; i < n; i++) {
            all[first + i] = reqs[i];
            pending |= reqs[i] != MPI_REQUEST_NULL;
        }
        if (!pending)
            return rc;
        int wrc = PMPI_Waitany(first + n, all, &index, MPI_STATUS_IGNORE);
        for (int i = 0; i < n; i++)
            reqs[i] = all[first + i];
        if (side_req != NULL)
            *side_req = all[0];
        if (side_req != NULL && *side_req == MPI_REQUEST_NULL) {
            /* The side completed: its outcome is the side's own to report.
             * A failed wait may also free other requests that ended in an
             * error (Open MPI frees every one), the side's among them:
             * then it ended in an error of its own. */
            side->on_complete(side->arg, index == 0 ? wrc : (wrc != MPI_SUCCESS ? wrc : MPI_ERR_OTHER));
            if (index == 0)
                continue;
        }
        ig_err_keep(&rc, wrc);
        if (index == MPI_UNDEFINED) {
            /* The wait failed and completed nothing: let go of the rest
             * rather than spin (the error is reported). */
            for (int i = 0; i < n; i++)
                if (reqs[i] != MPI_REQUEST_NULL)
                    ig_err_keep(&rc, PMPI_Wait(&reqs[i], MPI_STATUS_IGNORE));
            return rc;
        }
    }
}

static void take_max(int64_t *vec, const int64_t *other, int len)
{
    for (int i = 0; i < len; i++)
        if (other[i] > vec[i])
            vec[i] = other[i];
}

typedef struct {
    int64_t *vec, *scratch;
    int len, tag;
    MPI_Comm comm;
    ig_side_wait *side;
} allmax_call;

/* Send vec to `to` and/or receive into buf from `from` (-1: none), wait. */
static int exchange(const allmax_call *a, int to, int from, int64_t *buf)
{
    MPI_Request reqs[2] = { MPI_REQUEST_NULL, MPI_REQUEST_NULL };
    int rc = MPI_SUCCESS;
    if (from >= 0)
        ig_err_keep(&rc, PMPI_Irecv(buf, a->len, MPI_INT64_T, from, a->tag, a->comm, &reqs[0]));
    if (to >= 0)
        ig_err_keep(&rc, PMPI_Isend(a->vec, a->len, MPI_INT64_T, to, a->tag, a->comm, &reqs[1]));
    ig_err_keep(&rc, ig_waitall_beside(2, reqs, a->side));
    return rc;
}

/* Rank among the processes taking part in the doubling, and back. */
static int doubling_rank(int rank, int rem)
{
    if (rank < 2 * rem)
        return rank % 2 ? rank / 2 : -1;
    return rank - rem;
}

static int world_rank(int doubling, int rem)
{
    return doubling < rem ? 2 * doubling + 1 : doubling + rem;
}

int ig_allmax(int64_t *vec, int64_t *scratch, int len, int tag, MPI_Comm comm, ig_side_wait *side)
{
    allmax_call a = { vec, scratch, len, tag, comm, side };
    int rank = 0, size = 1, pof2 = 1;
    int rc = PMPI_Comm_rank(comm, &rank);
    ig_err_keep(&rc, PMPI_Comm_size(comm, &size));
    if (rc != MPI_SUCCESS)
        return rc;
    while (pof2 * 2 <= size)
        pof2 *= 2;
    int rem = size - pof2, me = doubling_rank(rank, rem);
    /* The first 2 rem: each even one's vector into the odd one after it. */
    if (rank < 2 * rem) {
        int odd = rank % 2, erc = exchange(&a, odd ? -1 : rank + 1, odd ? rank - 1 : -1, scratch);
        if (odd && erc == MPI_SUCCESS)
            take_max(vec, scratch, len);
        ig_err_keep(&rc, erc);
    }
    if (me >= 0)
        for (int mask = 1; mask < pof2; mask <<= 1) {
            int partner = world_rank(me ^ mask, rem), erc = exchange(&a, partner, partner, scratch);
            /* Only what arrived: a failed round passes on nothing made up. */
            if (erc == MPI_SUCCESS)
                take_max(vec, scratch, len);
            ig_err_keep(&rc, erc);
        }
    /* And the result back to the even ones. */
    if (rank < 2 * rem) {
        int odd = rank % 2;
        ig_err_keep(&rc, exchange(&a, odd ? rank - 1 : -1, odd ? -1 : rank + 1, vec));
    }
    return rc;
}
