/*
 * A group pair: the algorithms' view of one transfer direction, built on a
 * private intra-communicator whose ranks 0..p-1 are the senders and
 * p..p+q-1 the receivers (also the ring order); in full duplex, where both
 * groups send, the first group is the low group (algorithms.h,
 * ig_step_local_first).  Sub-communicators for each algorithm are created
 * on first use, collectively over the pair.
 */
#ifndef IG_PAIR_H
#define IG_PAIR_H

#include "blocks.h"
#include "fc_plan.h"
#include "intergather.h"

struct ig_pair {
    MPI_Comm comm; /* private, senders first */
    int p, q, rank;

    int fc_ready;
    ig_fc_role fc;
    MPI_Comm fc_bcast; /* this process's broadcast group, or MPI_COMM_NULL */
    MPI_Comm fc_gather;/* this process's gather group, or MPI_COMM_NULL */

    MPI_Comm side; /* this process's own group (senders or receivers), on first use */

    /* Room for one call's requests and counts, reserved when the pair was
     * built (ig_pair_requests, ig_pair_ints); busy while an algorithm
     * holds it. */
    MPI_Request *room_requests;
    int *room_ints;
    int room_requests_n, room_ints_n, room_requests_busy, room_ints_busy;
};

/* Every internal communicator goes through these two, so that errors come
 * back as codes and the statistics count live internal communicators. */
int ig_private_comm_setup(MPI_Comm comm);
int ig_private_comm_free(MPI_Comm *comm);
/* MPI_Comm_split of parent, set up as above; *out is MPI_COMM_NULL where
 * the split failed (nothing to free) or color is MPI_UNDEFINED. */
int ig_private_comm_split(MPI_Comm parent, int color, int key, MPI_Comm *out);

/* Make *pair (storage the caller owns, or NULL when the caller could not
 * allocate it) the pair of `comm`, already private and ordered senders
 * first, and reserve its room: `requests` requests and `ints` ints, what
 * the algorithms the decision can choose for it hold at once
 * (ig_decide_pair_room).  Collective over comm: every process learns
 * whether all of them have their storage and room, and if one does not,
 * all return MPI_ERR_NO_MEM and none holds a pair (comm stays the
 * caller's), so that no process runs an algorithm its peers cannot. */
int ig_pair_adopt(MPI_Comm comm, int p, int requests, int ints, ig_pair *pair);

/* Make the pair's room hold `requests` requests and `ints` ints (a step's
 * need, step->room_requests and room_ints), growing it if it is smaller; it keeps the
 * larger size.  Collective over the pair when it grows -- the need and the
 * room are the same on every process, so all grow together -- and joint:
 * if one process cannot, all return MPI_ERR_NO_MEM with the room as it
 * was.  Not while the room is taken. */
int ig_pair_fit_room(ig_pair *pair, int requests, int ints);

/* Free what ig_pair_adopt gave the pair (its communicators and room), not
 * the storage. */
int ig_pair_release(ig_pair *pair);

/* n requests set to MPI_REQUEST_NULL: the pair's reserved room when n fits
 * and the room is free (nothing allocated, so nothing can fail), else newly
 * allocated (NULL when out of memory; counted, as no step the library runs
 * should need it: ig_algorithm_run fits the room first).  Give them back
 * (NULL too) with ig_pair_requests_done. */
MPI_Request *ig_pair_requests(ig_pair *pair, int n);
void ig_pair_requests_done(ig_pair *pair, MPI_Request *reqs);

/* n ints, from the room as ig_pair_requests (NULL when out of memory). */
int *ig_pair_ints(ig_pair *pair, int n);
void ig_pair_ints_done(ig_pair *pair, int *ints);

static inline int ig_pair_is_sender(const ig_pair *pair)
{
    return pair->rank < pair->p;
}

/* This process's place in the pair, for algorithms that treat the two
 * groups alike: its index in its own group, the two group sizes, and the
 * pair rank of the other group's first process. */
typedef struct {
    int first;       /* 1: this process is in the pair's first group (ranks 0..p-1) */
    int local_index;
    int n_local, n_remote, remote_base;
} ig_pair_view;

static inline ig_pair_view ig_pair_view_of(const ig_pair *pair)
{
    int first = pair->rank < pair->p;
    return (ig_pair_view){ first, first ? pair->rank : pair->rank - pair->p, first ? pair->p : pair->q,
                           first ? pair->q : pair->p, first ? pair->p : 0 };
}

/* Create the communicator of this process's own group if not yet done. */
int ig_pair_side_prepare(ig_pair *pair);

/* Create the fully connected sub-communicators if not yet done. */
int ig_pair_fc_prepare(ig_pair *pair);

#endif
