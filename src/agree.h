/*
 * Agreement: every process of both groups learns the same shape of a call
 * (shape.h) before anything depends on it.  MPI_Allgather: each process's
 * view (a dozen integers) sent straight to every other process on the
 * communicator's private merged communicator when they are at most
 * IG_AGREE_MAX_LINEAR in all, otherwise the maximum of it over every
 * process: up to IG_AGREE_MAX_POSTED processes by recursive doubling on
 * point-to-point messages (allmax.h), which lets a process that posted
 * early wait on its own early data at the same time, above that one
 * MPI_Allreduce; MPI_Allgatherv: one allgather of five integers per process (which also
 * gives every process every block size).  Only when that exchange shows
 * that the groups' sizes disagree (an erroneous program) does a second
 * allreduce settle, jointly, whether some receive would be truncated.
 *
 * A process that posted its part of the direct algorithm before this
 * exchange (speculate.h) says so in it, so that every process knows the
 * messages already on their way.
 *
 * Cost: one round of p + q - 1 small messages, or about log2(p + q)
 * start-ups, per call.  It is what makes every
 * choice after it -- native or served, which algorithm, with which
 * parameters -- a function of numbers every process holds alike, so a
 * process's own layout, or counts a program gets wrong, can never send two
 * processes down different paths (a hang, or silently wrong data).
 */
#ifndef IG_AGREE_H
#define IG_AGREE_H

#include "allmax.h"
#include "call.h"
#include "comm_cache.h"
#include "shape.h"

/* What each process posted before the agreement (speculate.h), in merged
 * order: MPI_Allgather calls on pairs of at most IG_AGREE_MAX_POSTED
 * processes in all carry one more integer per process; elsewhere nothing
 * is posted early and n is 0. */
#define IG_AGREE_MAX_POSTED 32

/* Up to this many processes in all, an MPI_Allgather's views go straight
 * from every process to every other in one round of messages, posted
 * before any early data, instead of an allreduce: log2(p + q) rounds whose
 * later ones would queue behind the data on a network link.  Measured on
 * the emulated cluster (docs/performance.md): 4+4 at 4 KiB went from 1.4
 * to 0.9 ms, but 8+8 from 5.6 to 11.4 ms (15 messages per process where
 * the allreduce sends 4, with 16 processes sharing 2 cores). */
#define IG_AGREE_MAX_LINEAR 8

typedef struct {
    int n;
    int64_t code[IG_AGREE_MAX_POSTED];
} ig_posted;

/* Whether a call of this operation on these groups can carry what was posted. */
int ig_agree_carries_posted(ig_op op, int n0, int n1);

/* One agreement, started before a process posts anything early and
 * finished after: the views travel in the meantime. */
typedef struct {
    const ig_call *call;
    ig_comm_cache *cache;
    int64_t posted_code;
    int linear, nprocs, rank, start_rc;
    int64_t views[IG_AGREE_MAX_LINEAR][IG_UNIFORM_LEN + 1]; /* linear: each process's view and posted code */
    MPI_Request reqs[2 * IG_AGREE_MAX_LINEAR];
} ig_agreement;

/* posted_code: what this process is about to post early (0: nothing). */
void ig_agree_start(const ig_call *call, ig_comm_cache *cache, int64_t posted_code, ig_agreement *a);
/* side: a request of what was posted early to wait on beside the
 * agreement's own messages (speculate.h), or NULL. */
int ig_agree_finish(ig_agreement *a, ig_side_wait *side, ig_shape *shape, ig_posted *posted);

#endif
