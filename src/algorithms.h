/*
 * The algorithms: their table (algorithms.def), the parameters every one
 * of them takes (ig_step), and their functions.
 *
 * An algorithm moves one call's blocks (ig_xfer, xfer.h) over a pair
 * (pair.h: the pair's ranks 0..p-1 are its first group, p.. its second;
 * in half duplex the first group sends).  It takes every parameter from
 * its ig_step, reads no setting, returns an MPI error code, and on a
 * failed step still takes part in the steps after it (MPICH's errflag), so
 * that its peers are never left waiting.  Which algorithm runs, with which
 * parameters, is decided in one place: decide.c.
 */
#ifndef IG_ALGORITHMS_H
#define IG_ALGORITHMS_H

#include "group_stage.h"
#include "intergather.h"

#include <stdint.h>

typedef enum {
#define IG_ALGORITHM(id, name, function) IG_ALG_##id,
#include "algorithms.def"
#undef IG_ALGORITHM
    IG_ALG_COUNT
} ig_algorithm;

/* Everything an algorithm needs beyond the call's buffers. */
typedef struct {
    ig_algorithm algorithm;
    int sender;               /* half duplex: the sending group, 0 (low) or 1 (high); -1: both */
    ig_ring_kind ring_schedule;
    /* The intra-group allgather stage run by the pair's first group (the
     * senders, or the low group in full duplex) and by its second group
     * (the receivers, or the high group): IG_GROUP_STAGE_MPI or _RING. */
    ig_group_stage stage[2];
    uint64_t max_block_bytes; /* half duplex: the senders' largest block, in bytes (ring: room for one
                               * relayed block; chain: a block's bytes; the relay's receivers' room in
                               * decide_room.c); 0 where both groups send in one step */
    int window;               /* direct, chain, relay (a receiver's relays), full duplex's ring stage in
                               * parts: sends a process keeps in flight at once */
    int piece_window;         /* relay: pieces a sender keeps in flight at once */
    int relay_members;        /* relay: 0, each block cut into q pieces, one to each receiver; d > 0,
                               * each sender's whole block to d members that relay a piece each
                               * (relay_plan.h) */
    /* Full duplex: the parts each block is cut into in group g's ring stage
     * (group_allgather.h), each part one message forwarded as soon as it
     * has arrived; 0: whole members, one Sendrecv a step. */
    int stage_parts[2];
    uint64_t chain_segment_bytes; /* chain: bytes per segment (0: whole blocks, in their datatype) */
    uint64_t relay_part_bytes;    /* relay: the most bytes of a piece in one message (0: whole pieces) */
    int relay_sync_pieces;        /* relay: a sender's pieces go by MPI_Issend (decide.c says when) */
    /* fc: every block of the call is bytes in order, under 2 GiB (the
     * agreed shape says so): its broadcast stage moves them as MPI_BYTE
     * with the MPI library's MPI_Bcast; otherwise it is intergather's own
     * binomial tree, each member with its own types (algo_fc.c). */
    int bcast_in_bytes;
    /* direct, in an erroneous call whose receives would be truncated: the
     * largest block the pair's first and second group send (0: receive in
     * place).  A process that expects less from a group takes that group's
     * blocks whole (algo_direct.c says why). */
    uint64_t largest_sent[2];
    /* The pair's arrays this step needs (decide_room.c, ig_decide_step_room):
     * requests and ints.  Dispatch grows the pair's room to them first, on
     * every process of the pair together (pair.h), so that none runs short
     * alone. */
    int room_requests, room_ints;
} ig_step;

/* The chain's segments per block: the block (max_block_bytes) cut into
 * chain_segment_bytes pieces, or 1 when blocks move whole. */
static inline int64_t ig_step_chain_segments(const ig_step *step)
{
    if (step->chain_segment_bytes == 0 || step->max_block_bytes == 0)
        return 1;
    return (int64_t)((step->max_block_bytes + step->chain_segment_bytes - 1) / step->chain_segment_bytes);
}

/* Whether a process of group `group` (0 low, 1 high) is in the first group
 * of the pair a step runs on: the sending group's, in full duplex the low
 * group's (comm_cache.h: ig_comm_cache_pair). */
static inline int ig_step_local_first(const ig_step *step, int group)
{
    return step->sender < 0 ? group == 0 : step->sender == group;
}

typedef struct {
    const char *name;
} ig_algorithm_info;

const ig_algorithm_info *ig_algorithm_info_of(ig_algorithm a);

#ifndef IG_ALGORITHMS_PURE
#include "pair.h"
#include "xfer.h"

#define IG_ALGORITHM(id, name, function) int function(ig_pair *pair, const ig_xfer *x, const ig_step *step);
#include "algorithms.def"
#undef IG_ALGORITHM

/* The range exchange shared by full duplex (both groups send) and spread
 * (only the pair's first group sends): algo_full_duplex.c. */
int ig_range_exchange(ig_pair *pair, const ig_xfer *x, int first_sends, int second_sends, const ig_step *step);

/* The direct algorithm in three parts: prepare (the requests, nothing
 * posted), start (every receive, unless with_receives is 0, and the first
 * window of sends), finish (the receives if start left them, then the
 * remaining sends as slots free up, then wait).  ig_alg_direct is the
 * three in a row; speculate.c prepares and starts before the call's
 * agreement ends and finishes after it. */
typedef struct {
    ig_pair *pair;
    const ig_xfer *x;
    MPI_Request *reqs; /* nrecv receives, then window send slots */
    int nrecv, nsend, window, posted, start, remote_base, n_remote, receives_posted;
    /* Blocks received whole (step->largest_sent): a slot of whole_bytes
     * for each, the slot of each remote block (-1: received in place), and
     * the receives' statuses; NULL otherwise. */
    char *whole;
    int whole_bytes;
    int *whole_index;
    MPI_Status *stats;
} ig_direct;

int ig_direct_prepare(ig_pair *pair, const ig_xfer *x, const ig_step *step, ig_direct *d);
int ig_direct_start(ig_direct *d, int with_receives);
int ig_direct_finish(ig_direct *d);
/* Free what prepare allocated (finish does; for a step given up after start
 * once its requests are complete or freed). */
void ig_direct_release(ig_direct *d);

/* The star in three parts, as direct's: prepare (the requests, nothing
 * posted), start (a sender's sends, a receiver's receives: the first
 * round), finish (a member's block on to its team once it has arrived,
 * unless ig_star_send_on did that already, then wait).  ig_alg_star is
 * the three in a row; speculate.c prepares and starts before the call's
 * agreement ends and finishes after it. */
typedef struct {
    ig_pair *pair;
    const ig_xfer *x;
    MPI_Request *reqs; /* a sender: its round-1 sends; a receiver: p receives, then its sends on */
    int nreqs, me;     /* me: the receiver's index among the receivers, -1 for a sender */
    int sent_on, send_on_rc; /* a member: its block sent on; the first error of receiving and sending it */
} ig_star;

int ig_star_prepare(ig_pair *pair, const ig_xfer *x, ig_star *st);
int ig_star_start(ig_star *st);
/* A team member's receive of the block it owns, while it has not sent
 * that block on (NULL otherwise: a sender, an extra, or sent on). */
MPI_Request *ig_star_owned_receive(ig_star *st);
/* Send the owned block on to the team, its receive completed with
 * received_rc (waited on by the caller: speculate.c sends on as soon as
 * the block arrives, before the call's agreement ends). */
void ig_star_send_on(ig_star *st, int received_rc);
int ig_star_finish(ig_star *st);
/* Free what prepare took (finish does; for a step given up after start
 * once its requests are complete or freed). */
void ig_star_release(ig_star *st);

/* Run algorithm `step->algorithm` (the table's function). */
int ig_algorithm_run(ig_pair *pair, const ig_xfer *x, const ig_step *step);
#endif

#endif
