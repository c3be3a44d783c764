/*
 * intergather internal API: the algorithm core on plain intra-communicators.
 *
 * The LD_PRELOAD shim uses this core for inter-communicator MPI_Allgather;
 * the benchmark and the SimGrid simulation link it directly (pkg-config
 * intergather).  Each function runs what the shim would choose for such a
 * call with the default settings between nodes, within the algorithm
 * family it names: the default network model, unmeasured (the shim
 * measures it per communicator, INTERGATHER_NET_MODEL); no environment
 * variable is read.  Unlike the shim, these functions trust
 * their arguments: every process must pass sizes that match.  A "pair" describes two groups on one intra-communicator:
 * ranks 0..p-1 are the senders, ranks p..size-1 the receivers.
 *
 * Buffers follow MPI_Allgather on an inter-communicator: a sender passes its
 * block (sendbuf, sendcount, sendtype), a receiver (recvbuf, recvcount,
 * recvtype); in half duplex the side a process does not use (a sender's
 * receive arguments, a receiver's send arguments) is ignored, count,
 * buffer and type.  A receiver gets block i at
 * recvbuf + i * recvcount * extent(recvtype), exactly as native MPI lays it
 * out.  All functions return an MPI error code.  A call that one process
 * cannot take part in (it cannot build its buffers' datatypes, or a pair's
 * room, for want of memory) fails on every process of the pair together:
 * that process returns its own error, the others MPI_ERR_OTHER (or
 * MPI_ERR_NO_MEM where a pair's room could not grow), and none waits for
 * it.
 */
#ifndef INTERGATHER_H
#define INTERGATHER_H

#include <mpi.h>

#ifdef __cplusplus
extern "C" {
#endif

/* The library is built with hidden visibility: only what is marked here and
 * the MPI entry points are exported, so none of its internal names can clash
 * with a symbol of the program it is preloaded into. */
#if defined(__GNUC__)
#define INTERGATHER_API __attribute__((visibility("default")))
#else
#define INTERGATHER_API
#endif

typedef struct ig_pair ig_pair;

/* The ring schedules (src/ring_schedule.h): also the values of
 * INTERGATHER_RING_SCHEDULE. */
typedef enum {
    IG_RING_OPTIMAL = 0, /* split-stream: every p, q >= 1 in p + floor(q/2) steps */
    IG_RING_PAPER = 1    /* the paper's Algorithms 1 and 3 (corrected), p > q variant */
} ig_ring_kind;

/* Collective over comm.  The pair keeps private duplicates, so comm may be
 * freed afterwards and no internal message can match a user's receive.  If
 * any process cannot allocate the pair, every process returns
 * MPI_ERR_NO_MEM and gets no pair; if the duplicate fails in some process,
 * that process returns its error, the others MPI_ERR_OTHER, and none gets
 * a pair. */
INTERGATHER_API int ig_pair_create(MPI_Comm comm, int p, ig_pair **pair);
INTERGATHER_API int ig_pair_free(ig_pair **pair);
INTERGATHER_API int ig_pair_senders(const ig_pair *pair);
INTERGATHER_API int ig_pair_receivers(const ig_pair *pair);

/* The paper's fully connected algorithm (section III), any p, q >= 1; for
 * p > q the default plan spreads the blocks over the receivers. */
INTERGATHER_API int ig_pair_allgather_fc(ig_pair *pair, const void *sendbuf, int sendcount, MPI_Datatype sendtype,
                         void *recvbuf, int recvcount, MPI_Datatype recvtype);

/* The paper's ring algorithm (section IV): neighbour-only transfers in ring
 * order (senders 0..p-1, then receivers), one send and one receive per
 * process and step.  IG_RING_OPTIMAL takes p + floor(q/2) steps for every
 * p, q >= 1; IG_RING_PAPER takes p + q/2 for even p, q (dummies otherwise).
 * Blocks of more than INT_MAX bytes: MPI_ERR_COUNT on every process (the
 * relays count bytes in an int). */
INTERGATHER_API int ig_pair_allgather_ring(ig_pair *pair, ig_ring_kind kind, const void *sendbuf, int sendcount,
                           MPI_Datatype sendtype, void *recvbuf, int recvcount, MPI_Datatype recvtype);

/* Full duplex: both groups send (ranks 0..p-1 one group, p.. the other);
 * every process passes its own block and its receive buffer, which gets the
 * remote group's blocks.  Fully connected (Kang, Traff et al.): blocks spread
 * over the remote group, one exchange, one allgatherv per group. */
INTERGATHER_API int ig_pair_allgather_fd(ig_pair *pair, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                         int recvcount, MPI_Datatype recvtype);

/* The direct algorithm: every sender's block straight to every receiver,
 * one stage, a bounded number of sends in flight.  full_duplex != 0: both
 * groups send (ranks 0..p-1 one group, p.. the other), as
 * ig_pair_allgather_fd. */
INTERGATHER_API int ig_pair_allgather_direct(ig_pair *pair, int full_duplex, const void *sendbuf, int sendcount,
                                             MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                             MPI_Datatype recvtype);

/* Any algorithm of the library's table by name ("direct", "fc", "spread",
 * "chain", "relay", "full-duplex", "ring"; src/algorithms.def), forced as
 * INTERGATHER_ALGORITHM=name forces it: where it cannot serve the call the
 * fully connected family does.  MPI_ERR_ARG for an unknown name. */
INTERGATHER_API int ig_pair_allgather_algorithm(ig_pair *pair, const char *name, int full_duplex, const void *sendbuf,
                                                int sendcount, MPI_Datatype sendtype, void *recvbuf, int recvcount,
                                                MPI_Datatype recvtype);

/* Internal communicators intergather holds at this moment in this process
 * (private duplicates and sub-communicators of every inter-communicator it
 * has served and every live pair).  For leak checks such as scripts/soak;
 * a program under LD_PRELOAD finds it with dlsym(RTLD_DEFAULT, ...). */
INTERGATHER_API long intergather_internal_comms_live(void);

#ifdef __cplusplus
}
#endif

#endif
