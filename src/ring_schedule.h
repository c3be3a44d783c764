/*
 * Ring schedules (pure, no MPI) for the inter-group all-to-all broadcast of
 * Kang, Agrawal, Choudhary, Liao, "Optimal Algorithms for Half-Duplex
 * Inter-Group All-to-All Broadcast on Fully Connected and Ring Topologies",
 * section IV.
 *
 * Model: N = p + q processes on a ring.  Ranks 0..p-1 are senders (rank i
 * holds message m_i), ranks p..N-1 are receivers.  Rank r talks only to
 * (r - 1) mod N and (r + 1) mod N.  In each step a process sends at most one
 * message and receives at most one (a process that hosts a dummy of the paper
 * schedule may do up to IG_RING_MAX_OPS of each), and it may send only what it
 * held at the start of the step.  At the end every receiver holds m_0..m_{p-1}.
 *
 * Every function is O(1) in time and memory: a process computes its own
 * operations step by step and never builds a global schedule.
 *
 * Guarantees (verified by tests/unit/check_ring_schedule.c for all
 * 1 <= p, q <= 64 and samples up to p, q = 4096):
 *   - a send by a to b in step t is matched by exactly one receive at b from a
 *     of the same message in step t, and vice versa;
 *   - no process ever receives a message it already holds, nor the same
 *     message twice in one step, so a receive never writes a buffer that is
 *     being sent from in the same step;
 *   - on senders, every relayed (non-own) message is sent on in the step
 *     after it arrives (or never), so two relay slots, alternated by the
 *     parity of the arrival step, suffice (see ig_ring_slot).
 */
#ifndef IG_RING_SCHEDULE_H
#define IG_RING_SCHEDULE_H

#include "intergather.h" /* ig_ring_kind: IG_RING_OPTIMAL (split-stream), IG_RING_PAPER */

/* Max sends (and max receives) of one real process in one step.  Only the
 * paper schedule with q == 1 uses 2 (one extra receive, see ring_schedule.c). */
#define IG_RING_MAX_OPS 2

typedef struct {
    int peer; /* real ring rank 0..N-1, never the caller itself */
    int msg;  /* message index 0..p-1 */
} ig_ring_op;

/* Number of steps T (0 when p < 1 or q < 1).
 *   IG_RING_OPTIMAL: p + q/2 (integer division).
 *   IG_RING_PAPER:   p' + q'/2 (p', q' = p, q rounded up to even), except
 *                     q == 1: max(1, p - 1);  q == 2 and p odd: p + 1.
 * The last step always carries at least one transfer. */
int ig_ring_steps(ig_ring_kind s, int p, int q);

/* Operations of real process `rank` in step `step` (0..T-1): up to
 * IG_RING_MAX_OPS sends and receives.  Out-of-range arguments give no
 * operations.  O(1). */
void ig_ring_ops(ig_ring_kind s, int p, int q, int rank, int step,
                 ig_ring_op sends[IG_RING_MAX_OPS], int *nsends,
                 ig_ring_op recvs[IG_RING_MAX_OPS], int *nrecvs);

/* Relay slots a sender needs for messages other than its own: 2 for both
 * schedules and all p, q (a sender with nothing to relay, e.g. p == 1, simply
 * leaves them unused).  0 for invalid p, q. */
int ig_ring_sender_slots(ig_ring_kind s, int p, int q);

/* The slot (0..ig_ring_sender_slots()-1) in which sender `rank` keeps message
 * `msg` (msg != rank) from the step it receives it until its send of it.
 * O(1).  Returns 0 for messages the sender never receives and -1 for invalid
 * arguments (rank not a sender, msg == rank, msg out of range). */
int ig_ring_slot(ig_ring_kind s, int p, int q, int rank, int msg);

#endif
