/*
 * A group pair: the algorithms' view of one transfer direction, built on a
 * private intra-communicator whose ranks 0..p-1 are the senders and
 * p..p+q-1 the receivers (also the ring order).  Sub-communicators for each
 * algorithm are created on first use, collectively over the pair.
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
};

/* Every internal communicator goes through these two, so that errors come
 * back as codes and the statistics count live internal communicators. */
int ig_private_comm_setup(MPI_Comm comm);
int ig_private_comm_free(MPI_Comm *comm);

/* Take ownership of `comm` (already private and ordered senders first). */
int ig_pair_adopt(MPI_Comm comm, int p, ig_pair **pair);

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
