/*
 * Agreement: every process of both groups learns the same shape of a call
 * (shape.h) before anything depends on it.  MPI_Allgather: one allreduce
 * of a dozen integers on the communicator's private merged communicator;
 * MPI_Allgatherv: one allgather of four integers per process (which also
 * gives every process every block size).  Only when that exchange shows
 * that the groups' sizes disagree (an erroneous program) does a second
 * allreduce settle, jointly, whether some receive would be truncated.
 *
 * A process that posted its part of the direct algorithm before this
 * exchange (speculate.h) says so in it, so that every process knows the
 * messages already on their way.
 *
 * Cost: about log2(p + q) start-ups per call.  It is what makes every
 * choice after it -- native or served, which algorithm, with which
 * parameters -- a function of numbers every process holds alike, so a
 * process's own layout, or counts a program gets wrong, can never send two
 * processes down different paths (a hang, or silently wrong data).
 */
#ifndef IG_AGREE_H
#define IG_AGREE_H

#include "call.h"
#include "comm_cache.h"
#include "shape.h"

/* What each process posted before the agreement (speculate.h), in merged
 * order: MPI_Allgather calls on pairs of at most IG_AGREE_MAX_POSTED
 * processes in all carry one more integer per process in the allreduce;
 * elsewhere nothing is posted early and n is 0. */
#define IG_AGREE_MAX_POSTED 32

typedef struct {
    int n;
    int64_t code[IG_AGREE_MAX_POSTED];
} ig_posted;

/* Whether a call of this operation on these groups can carry what was posted. */
int ig_agree_carries_posted(ig_op op, int n0, int n1);

int ig_agree(const ig_call *call, ig_comm_cache *cache, int64_t posted_code, ig_shape *shape, ig_posted *posted);

#endif
