/*
 * The collective path of a classified call (call.h): the communicator's
 * cache, the opening round (opening.h) and early posting (speculate.h),
 * the agreement on the call's shape (agree.h), the decision (decide.h),
 * and the algorithms that carry it out (algorithms.h).
 */
#ifndef IG_SERVE_H
#define IG_SERVE_H

#include "call.h"

/* Returns 1 and sets *rc when intergather completed the call (served it,
 * or failed it on every process; errors already reported through the
 * user's communicator); returns 0 when every process hands the call to the
 * MPI library (the reason is counted). */
int ig_serve(const ig_call *call, int *rc);

/* What every entry point does with a call: classify it (call.h), serve it
 * where it enters the collective path, release what classifying made for
 * it.  Returns 1 and sets *rc as ig_serve; 0 when the entry point hands
 * the call, with the program's own arguments, to the MPI library. */
int ig_serve_entry(ig_call *call, int *rc);

#endif
