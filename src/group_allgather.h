/*
 * The intra-group allgather stage of the fully connected algorithms, in
 * place: every member's contribution already sits at its displacement.
 */
#ifndef IG_GROUP_ALLGATHER_H
#define IG_GROUP_ALLGATHER_H

#include "settings.h"

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
 * `parts` byte ranges, each one message (a unit); every receive posted
 * first; whenever a send may start (at most `window` in flight), the unit
 * with the most hops still to go among those that have arrived goes to the
 * right; part i of an element is ig_relay_piece(its bytes, parts, i)
 * (relay_plan.h), as whoever feeds the ring parts cuts it.  Member k's
 * elements are displs[k] .. displs[k] + counts[k] - 1, each element one
 * member's, N elements in all, N parts at most IG_RING_MAX_UNITS (tags.h):
 * each unit is tagged with its own id.  Every member passes the same parts
 * and window, and elements of one size (the decision says so: decide.c).
 * The links never wait for a whole member to arrive before forwarding it,
 * as the ring's Sendrecv steps do, nor for one unit while others have
 * arrived. */
typedef struct {
    int parts;
    int window;
    /* ig_group_ring_parts_requests(N, parts, window) requests, the first
     * counts[me] * parts of them the receives that bring this member's own
     * units, element by element, part by part, posted by the caller (a
     * refused one MPI_REQUEST_NULL), and ig_group_ring_parts_ints(N, parts)
     * ints. */
    MPI_Request *reqs;
    int *ints;
} ig_ring_parts;

int ig_group_ring_parts_requests(int elements, int parts, int window);
int ig_group_ring_parts_ints(int elements, int parts);
int ig_group_ring_in_parts(void *buf, const int *counts, const int *displs, MPI_Datatype type, MPI_Aint extent,
                           MPI_Comm comm, const ig_ring_parts *rp);

#endif
