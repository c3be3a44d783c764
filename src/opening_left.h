/*
 * The round-one receives a process that leaves early (opening_plan.h) does
 * not wait for, kept with the communicator (comm_cache.h) until they are
 * settled.
 *
 * Each of them matches the one round-one message its peer sends in that
 * call.  In a correct call that message carries nothing, but in an
 * erroneous one (a block sent to processes that expect nothing) it can
 * announce a block in pieces, and the pieces after it are then still to
 * come.  Left unreceived, they would be matched by the next call's
 * round-one receives (MPI_ANY_TAG): wrong data, or a hang.  So the
 * receives are not freed but kept, and settled -- completed, and the
 * pieces they announce taken and dropped -- before the next opening on the
 * communicator posts any receive, when the communicator is freed, and at
 * MPI_Finalize.  Settling waits only for messages its peers sent in a call
 * they have entered, so it never waits on anything that waits on it.
 * Those that have already arrived are settled as the process leaves.
 */
#ifndef IG_OPENING_LEFT_H
#define IG_OPENING_LEFT_H

#include "decide.h"

#include <mpi.h>

typedef struct {
    MPI_Request recv[IG_OPENING_MAX_PROCS]; /* by remote rank; MPI_REQUEST_NULL once settled */
    int n;                                  /* remote ranks held (0: nothing to settle) */
    int sent_in_vain;                       /* a peer's block came although this process expected nothing */
} ig_opening_left;

/* Settle what `left` holds on `comm` (the opening's communicator): every
 * receive when `wait`, otherwise those already complete.  Returns 1 once
 * all are settled if a peer sent this process a block although it
 * expected nothing (an erroneous call, which the caller reports), else 0. */
int ig_opening_left_settle(ig_opening_left *left, MPI_Comm comm, int wait);

#endif
