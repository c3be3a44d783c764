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
 * Deviation from the paper, which runs this stage as MPI_Allgather: the
 * default (INTERGATHER_GROUP_ALLGATHER=auto) hands large blocks to the
 * ring, because the paper's bandwidth term (p - 1) k t_w for this stage
 * assumes an allgather that keeps every link busy.
 */
#include "group_allgather.h"

#include "blocks.h"
#include "p2p.h"
#include "relay_plan.h"
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

/* Every unit has an id, element e's part i being e * parts + i (elements
 * counted from the buffer's start, in extents), and its tag is
 * IG_TAG_RING_UNIT_FIRST + id: the right neighbour's receives name each
 * unit, so units may go in any order.  A member sends, whenever a send may
 * start, the unit with the most hops still to go among those that have
 * arrived: its own units first (n - 1 hops), then its left neighbour's
 * (n - 2), and so on; within a member's, in order.  A ring allgather (and
 * this one before the forty-sixth session) sends every unit in that order
 * whether or not it has arrived, waiting for each; and sending in the order
 * units arrive, tried in the same session, let units on their last hop
 * take a member's link ahead of those it has to pass on.  On the emulated
 * cluster, full duplex 4+12 at 4 MiB, a member whose own blocks came
 * slowly from the exchange (their TCP flows squeezed by its left
 * neighbour's ring flow on the same link) held its neighbour's parts,
 * already arrived, behind them, and its right link idled for 1 to 3 s in
 * about one call in two (docs/performance.md, forty-sixth session). */
typedef struct {
    char *buf;
    MPI_Aint extent, true_lb;
    MPI_Count bytes; /* one element's */
    int parts;
} ring_units;

static char *unit_at(const ring_units *r, int id, int *len)
{
    ig_piece part = ig_relay_piece((uint64_t)r->bytes, r->parts, id % r->parts);
    *len = (int)part.length;
    return (char *)ig_offset(r->buf, id / r->parts, r->extent) + r->true_lb + (MPI_Aint)part.offset;
}

/* The sends in flight: at least one, here and in the ring alike. */
static int ring_window(int window)
{
    return window > 0 ? window : 1;
}

static int capped_int(int64_t n)
{
    return n > INT_MAX ? INT_MAX : (int)n;
}

int ig_group_ring_parts_requests(int elements, int parts, int window)
{
    return capped_int((int64_t)elements * parts + ring_window(window));
}

int ig_group_ring_parts_ints(int elements, int parts)
{
    return capped_int(3 * (int64_t)elements * parts);
}

/* The units a member holds, by arrival index f, which is also the order
 * of priority: its own (f < own, their receives the caller's), then each
 * other member's from its left neighbour's on, the right neighbour's last
 * (received, not forwarded: f >= forward). */
typedef struct {
    MPI_Request *arrivals;
    int *id;    /* each unit's id */
    int *state; /* UNIT_AWAITED, UNIT_ARRIVED or UNIT_SENT */
    int *indices;
    int own, forward, next; /* next: the first unit not yet sent */
} ring_units_held;

enum { UNIT_AWAITED = 0, UNIT_ARRIVED, UNIT_SENT };

/* Mark what has arrived among the units still to forward; with `block`,
 * wait until something has.  A receive that failed once posted counts as
 * arrived: it is forwarded as it is.  Whether anything is still awaited. */
static int note_arrivals(ring_units_held *h, int block, int *rc)
{
    int done = 0, n = h->forward - h->next;
    MPI_Request *from = h->arrivals + h->next;
    ig_err_keep(rc, block ? PMPI_Waitsome(n, from, &done, h->indices, MPI_STATUSES_IGNORE)
                          : PMPI_Testsome(n, from, &done, h->indices, MPI_STATUSES_IGNORE));
    for (int i = 0; done != MPI_UNDEFINED && i < done; i++)
        h->state[h->next + h->indices[i]] = UNIT_ARRIVED;
    return done != MPI_UNDEFINED;
}

/* The arrived unit with the most hops to go, marked sent; -1 where none has
 * arrived. */
static int take_first_arrived(ring_units_held *h)
{
    while (h->next < h->forward && h->state[h->next] == UNIT_SENT)
        h->next++;
    for (int f = h->next; f < h->forward; f++)
        if (h->state[f] == UNIT_ARRIVED) {
            h->state[f] = UNIT_SENT;
            return f;
        }
    return -1;
}

/* The next unit to send, once one has arrived (-1: none will; its error
 * kept). */
static int next_unit(ring_units_held *h, int *rc)
{
    note_arrivals(h, 0, rc);
    int f = take_first_arrived(h);
    while (f < 0) {
        if (!note_arrivals(h, 1, rc)) { /* not reached: every unit not yet sent is awaited or has arrived */
            ig_err_keep(rc, MPI_ERR_INTERN);
            return -1;
        }
        f = take_first_arrived(h);
    }
    return f;
}

/* Post a receive for every unit of every other member, in the order of
 * priority (ring_units_held), from the left neighbour.  A refused receive
 * counts as arrived. */
static int post_ring_receives(const ring_units *r, const int *counts, const int *displs, int n, int me,
                              MPI_Comm comm, ring_units_held *h)
{
    int rc = MPI_SUCCESS, f = h->own, len;
    for (int t = 1; t < n; t++) {
        int k = (me - t + n) % n;
        if (k == (me + 1) % n)
            h->forward = f;
        for (int u = 0; u < counts[k] * r->parts; u++, f++) {
            h->id[f] = displs[k] * r->parts + u;
            char *at = unit_at(r, h->id[f], &len);
            int err = PMPI_Irecv(at, len, MPI_BYTE, (me + n - 1) % n, IG_TAG_RING_UNIT_FIRST + h->id[f], comm,
                                 &h->arrivals[f]);
            if (err != MPI_SUCCESS)
                h->arrivals[f] = MPI_REQUEST_NULL;
            ig_err_keep(&rc, err);
        }
    }
    return rc;
}

/* Receives first (ring_units_held); then the sends, at most `window` in
 * flight, each the arrived unit with the most hops to go (above).  A
 * receive that failed once posted is still forwarded, and a failed step
 * does not stop the ring, so that no member is left waiting (its error is
 * returned).  A send or receive the MPI library refuses to post at all is
 * not made up for (README, Limitations): its peer waits for that one
 * message; a refused receive's unit is forwarded as it is. */
int ig_group_ring_in_parts(void *buf, const int *counts, const int *displs, MPI_Datatype type, MPI_Aint extent,
                           MPI_Comm comm, const ig_ring_parts *rp)
{
    int n, me, rc = MPI_SUCCESS, len;
    ig_stats_group_stage(IG_GROUP_STAGE_RING);
    PMPI_Comm_size(comm, &n);
    PMPI_Comm_rank(comm, &me);
    ring_units r = { buf, extent, 0, 0, rp->parts };
    ig_err_keep(&rc, PMPI_Type_size_x(type, &r.bytes));
    ig_err_keep(&rc, ig_block_true_lb(1, type, &r.true_lb));
    int elements = 0;
    for (int k = 0; k < n; k++)
        elements += counts[k];
    int units = elements * r.parts, own = counts[me] * r.parts;
    ring_units_held h = { rp->reqs, rp->ints, rp->ints + units, rp->ints + 2 * units, own, own, 0 };
    for (int f = 0; f < units; f++)
        h.state[f] = UNIT_AWAITED;
    for (int f = 0; f < own; f++)
        h.id[f] = displs[me] * r.parts + f;
    if (n > 1)
        ig_err_keep(&rc, post_ring_receives(&r, counts, displs, n, me, comm, &h));
    else
        h.forward = 0; /* alone: nothing to pass on */
    for (int f = 0; f < h.forward; f++)
        if (h.arrivals[f] == MPI_REQUEST_NULL) /* refused: forwarded as it is */
            h.state[f] = UNIT_ARRIVED;
    MPI_Request *send = rp->reqs + units;
    int window = ring_window(rp->window), counted_ahead = 0;
    for (int w = 0; w < window; w++)
        send[w] = MPI_REQUEST_NULL;
    for (int sent = 0; sent < h.forward; sent++) {
        MPI_Request *slot = &send[sent % window];
        ig_err_keep(&rc, PMPI_Wait(slot, MPI_STATUS_IGNORE));
        int f = next_unit(&h, &rc);
        if (f < 0)
            break;
        if (f >= own && h.next < own && !counted_ahead) {
            ig_stats_ring_relayed_ahead(); /* once a ring: an own unit came late */
            counted_ahead = 1;
        }
        char *at = unit_at(&r, h.id[f], &len);
        int err = PMPI_Isend(at, len, MPI_BYTE, (me + 1) % n, IG_TAG_RING_UNIT_FIRST + h.id[f], comm, slot);
        if (err != MPI_SUCCESS)
            *slot = MPI_REQUEST_NULL;
        ig_err_keep(&rc, err);
    }
    ig_err_keep(&rc, ig_waitall(units, rp->reqs));
    ig_err_keep(&rc, ig_waitall(window, send));
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
