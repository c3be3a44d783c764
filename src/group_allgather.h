/*
 * The intra-group allgather stage of the fully connected algorithms, in
 * place: every member's contribution already sits at its displacement.
 */
#ifndef IG_GROUP_ALLGATHER_H
#define IG_GROUP_ALLGATHER_H

#include "group_stage.h"
#include "p2p.h"

#include <mpi.h>

/* In-place allgather(v) over comm: member k's contribution is counts[k]
 * elements of type at buf + displs[k] * extent (counts == NULL: one element
 * at buf + k * extent for every member), run by `stage`
 * (IG_GROUP_STAGE_MPI or IG_GROUP_STAGE_RING; every member passes the
 * same).  All members use MPI_IN_PLACE (an intra-communicator collective
 * requires all or none of them to). */
int ig_group_allgatherv(void *buf, const int *counts, const int *displs, MPI_Datatype type, MPI_Aint extent,
                        MPI_Comm comm, ig_group_stage stage);

/* The ring in parts: every element of `type` (one block, one contiguous
 * piece of memory: its size in bytes from its true lower bound) cut into
 * `parts` byte ranges, each one message; every receive posted first, each
 * part forwarded to the right as soon as it has arrived, at most `window`
 * sends in flight; part i of an element is ig_byte_piece(its bytes,
 * parts, i) (byte_pieces.h), as whoever feeds the ring parts cuts it.
 * Each send is synchronous, so that at most `window` parts of a member's
 * stream are in the network at once (ig_paced_send, p2p.h, says why).
 * `reqs` holds ig_group_ring_parts_requests(...) requests.
 * Every member passes the same parts and window, and elements of one size
 * (the decision says so: decide.c).  The links never wait for a whole
 * member to arrive before forwarding it, as the ring's Sendrecv steps do. */
typedef struct {
    int parts;
    int window;
    MPI_Request *reqs;
    /* NULL: this member's own elements are in place; else the receives
     * that bring their parts, in order (element by element, each part by
     * part), each waited for before that part goes on. */
    MPI_Request *own_arrivals;
    /* NULL, or this member's block on its way to the remote group, kept
     * going while the ring waits (p2p.h). */
    ig_paced_send *paced;
} ig_ring_parts;

int ig_group_ring_parts_requests(const int *counts, int n, int me, int parts, int window);
int ig_group_ring_in_parts(void *buf, const int *counts, const int *displs, MPI_Datatype type, MPI_Aint extent,
                           MPI_Comm comm, const ig_ring_parts *rp);

#endif
