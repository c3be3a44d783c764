/*
 * Agreement: every process of both groups learns the same shape of a call
 * (shape.h) before anything depends on it.  MPI_Allgather: one allreduce
 * of a dozen integers on the communicator's private merged communicator;
 * MPI_Allgatherv: one allgather of four integers per process (which also
 * gives every process every block size).  Only when that exchange shows
 * that the groups' sizes disagree (an erroneous program) does a second
 * allreduce settle, jointly, whether some receive would be truncated.
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

int ig_agree(const ig_call *call, ig_comm_cache *cache, ig_shape *shape);

#endif
