/*
 * The group stage, by one of two runners (the decision picks, decide.c):
 *
 *   mpi   the MPI library's tuned MPI_Allgather(v), as the paper.
 *   ring  intergather's neighbour ring: n - 1 Sendrecv steps, each member
 *         forwarding to its right what it got from its left.  Every link
 *         carries (n - 1) k once, so the stage runs at link rate on any
 *         network; Open MPI's default choice for large blocks ran at about
 *         half the link rate on the emulated cluster (docs/performance.md).
 *
 * and, for the full-duplex algorithm only, the ring in parts
 * (ig_group_ring_in_parts): the same ring with each block cut into parts
 * that a member forwards as soon as each has come (step->stage_parts).
 *
 * Deviation from the paper, which runs this stage as MPI_Allgather: the
 * default (INTERGATHER_GROUP_ALLGATHER=auto) hands large blocks to the
 * ring, because the paper's bandwidth term (p - 1) k t_w for this stage
 * assumes an allgather that keeps every link busy.
 */
#include "group_allgather.h"

#include "blocks.h"
#include "byte_pieces.h"
#include "p2p.h"
#include "stats.h"
#include "tags.h"

#include <limits.h>
#include <stddef.h>
#include <stdint.h>

static void *member_ptr(void *buf, const int *displs, MPI_Aint extent, int k)
{
    return ig_offset(buf, displs == NULL ? k : displs[k], extent);
}

static int member_count(const int *counts, int k)
{
    return counts == NULL ? 1 : counts[k];
}

/* Step t: send what arrived in step t - 1 (own block at t = 0) to the
 * right, receive the next one from the left.  A failed step does not stop
 * the ring (the others would wait for the rest of it). */
static int ring_in_place(void *buf, const int *counts, const int *displs, MPI_Datatype type, MPI_Aint extent,
                         MPI_Comm comm)
{
    int n, me, first_error = MPI_SUCCESS;
    PMPI_Comm_size(comm, &n);
    PMPI_Comm_rank(comm, &me);
    int right = (me + 1) % n, left = (me + n - 1) % n;
    for (int t = 0; t < n - 1; t++) {
        int out = (me - t + n) % n, in = (me - t - 1 + n) % n;
        int rc = PMPI_Sendrecv(member_ptr(buf, displs, extent, out), member_count(counts, out), type, right,
                               IG_TAG_GATHER, member_ptr(buf, displs, extent, in), member_count(counts, in), type,
                               left, IG_TAG_GATHER, comm, MPI_STATUS_IGNORE);
        if (first_error == MPI_SUCCESS)
            first_error = rc;
    }
    return first_error;
}

/* ---- The ring in parts (group_allgather.h) ------------------------------ */

typedef struct {
    char *buf;
    const int *counts, *displs;
    MPI_Aint extent, true_lb;
    MPI_Count bytes; /* one element's */
    int parts;
} ring_units;

/* Unit u of member k (its element u / parts, part u % parts: the element's
 * bytes cut as the relay cuts a block into pieces) as bytes. */
static char *unit_at(const ring_units *r, int k, int u, int *len)
{
    ig_piece part = ig_byte_piece((uint64_t)r->bytes, r->parts, u % r->parts);
    *len = (int)part.length;
    return (char *)ig_offset(r->buf, r->displs[k] + u / r->parts, r->extent) + r->true_lb + (MPI_Aint)part.offset;
}

/* The sends in flight: at least one, here and in the ring alike. */
static int ring_window(int window)
{
    return window > 0 ? window : 1;
}

int ig_group_ring_parts_requests(const int *counts, int n, int me, int parts, int window)
{
    int64_t units = 0;
    for (int k = 0; k < n; k++)
        units += k == me ? 0 : counts[k];
    units = units * parts + ring_window(window);
    return units > INT_MAX ? INT_MAX : (int)units;
}

/* Receives first, in the order the left neighbour sends (members me - 1,
 * me - 2, ..., each unit in order: one source, one tag, so they match in
 * MPI's non-overtaking order); then the sends, member me, me - 1, ...: a
 * unit of a member other than mine leaves once its receive has completed.
 * Every wait also keeps the caller's paced send going (rp->paced).  The
 * sends are synchronous (group_allgather.h): with sends that completed
 * once TCP had taken them, a member's flows into a link built queues of
 * megabytes, and a neighbour's ring flow that started later (by all
 * signs its TCP window small after an idle spell) crawled behind them
 * for half a second while the ring waited on it (docs/performance.md,
 * forty-ninth session).
 * A receive that failed once posted is still forwarded, and a failed
 * step does not stop the ring, so that no member is left waiting (its
 * error is returned).  A send or receive the MPI library refuses to post
 * at all is not made up for (README, Limitations): its peer waits for
 * that one message, and after a refused receive the left neighbour's
 * later units, matched in order, land one unit early. */
int ig_group_ring_in_parts(void *buf, const int *counts, const int *displs, MPI_Datatype type, MPI_Aint extent,
                           MPI_Comm comm, const ig_ring_parts *rp)
{
    int n, me, rc = MPI_SUCCESS;
    ig_stats_group_stage(IG_GROUP_STAGE_RING);
    ring_units r = { buf, counts, displs, extent, 0, 0, rp->parts };
    PMPI_Comm_size(comm, &n);
    PMPI_Comm_rank(comm, &me);
    ig_err_keep(&rc, PMPI_Type_size_x(type, &r.bytes));
    ig_err_keep(&rc, ig_block_true_lb(1, type, &r.true_lb));
    int right = (me + 1) % n, left = (me + n - 1) % n, nrecv = 0, len;
    int window = ring_window(rp->window);
    MPI_Request *recv = rp->reqs;
    for (int t = 0; t < n - 1; t++) {
        int in = (me - t - 1 + n) % n;
        for (int u = 0; u < counts[in] * r.parts; u++, nrecv++) {
            char *at = unit_at(&r, in, u, &len);
            int err = PMPI_Irecv(at, len, MPI_BYTE, left, IG_TAG_GATHER, comm, &recv[nrecv]);
            if (err != MPI_SUCCESS)
                recv[nrecv] = MPI_REQUEST_NULL; /* waited for below as done */
            ig_err_keep(&rc, err);
        }
    }
    MPI_Request *send = recv + nrecv;
    for (int w = 0; w < window; w++)
        send[w] = MPI_REQUEST_NULL;
    int64_t sent = 0, arrived = 0; /* receives of the member being forwarded start at arrived */
    for (int t = 0; t < n - 1; t++) {
        int out = (me - t + n) % n;
        for (int u = 0; u < counts[out] * r.parts; u++, sent++) {
            if (t > 0)
                ig_err_keep(&rc, ig_paced_wait(&recv[arrived + u], rp->paced));
            else if (rp->own_arrivals != NULL)
                ig_err_keep(&rc, ig_paced_wait(&rp->own_arrivals[u], rp->paced));
            MPI_Request *slot = &send[sent % window];
            ig_err_keep(&rc, ig_paced_wait(slot, rp->paced));
            char *at = unit_at(&r, out, u, &len);
            int err = PMPI_Issend(at, len, MPI_BYTE, right, IG_TAG_GATHER, comm, slot);
            if (err != MPI_SUCCESS)
                *slot = MPI_REQUEST_NULL;
            ig_err_keep(&rc, err);
        }
        if (t > 0)
            arrived += (int64_t)counts[out] * r.parts;
    }
    if (rp->paced != NULL)
        ig_err_keep(&rc, ig_paced_finish(rp->paced));
    ig_err_keep(&rc, ig_waitall(nrecv, recv));
    ig_err_keep(&rc, ig_waitall(window, send));
    if (rp->own_arrivals != NULL) /* all waited for already where n > 1 */
        ig_err_keep(&rc, ig_waitall(counts[me] * r.parts, rp->own_arrivals));
    return rc;
}

int ig_group_allgatherv(void *buf, const int *counts, const int *displs, MPI_Datatype type, MPI_Aint extent,
                        MPI_Comm comm, ig_group_stage stage)
{
    ig_stats_group_stage(stage);
    if (stage == IG_GROUP_STAGE_RING)
        return ring_in_place(buf, counts, displs, type, extent, comm);
    if (counts == NULL)
        return PMPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 1, type, comm);
    return PMPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, counts, displs, type, comm);
}
