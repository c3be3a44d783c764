/*
 * The opening round of an MPI_Allgather or MPI_Allgatherv (what and why:
 * opening_plan.h):
 * one direct message from every process to every process of the other
 * group, with the sender's block when its sizes are small, on the
 * communicator's private copy of the inter-communicator.
 */
#ifndef IG_OPENING_H
#define IG_OPENING_H

#include "call.h"
#include "comm_cache.h"
#include "settings.h"
#include "shape.h"

/* Whether this call starts with the opening: the same answer on every
 * process (the settings, the group sizes, the MPI library). */
int ig_opening_applies(const ig_call *c, ig_comm_cache *cache, const ig_settings *s);

typedef enum {
    IG_OPENING_GO_ON = 0, /* no pair was done: every process goes on to the agreement */
    IG_OPENING_ENDED,     /* the call ended in the opening (*rc: this process's outcome) */
    IG_OPENING_SKIPPED    /* not run (predicted, below): every process goes on to the agreement */
} ig_opening_outcome;

/* The round, or IG_OPENING_SKIPPED without it where the communicator's
 * last calls predict that the round would not end this one
 * (ig_decide_opening_predict_skip).  A call the round ends counts as
 * small in that history. */
ig_opening_outcome ig_opening_run(const ig_call *c, ig_comm_cache *cache, const ig_settings *s, int *rc);

/* After a call's agreement succeeded, with its agreed shape, where the
 * opening applies: the call joins the history that predicts whether later
 * calls skip the round, large where the round would not have ended it
 * (ig_decide_opening_call_is_large).  Every process that finished the
 * agreement holds the same shape, so all predict alike.  (A process whose
 * agreement failed, an error of the MPI library on intergather's private
 * communicator, does not record the call and may predict unlike its peers
 * in any later call: after such an error MPI's state is undefined, and
 * peers that went on are already out of step with it in this call.) */
void ig_opening_agreed(const ig_call *c, ig_comm_cache *cache, const ig_settings *s, const ig_shape *shape);

/* In a call that skipped the round, after its agreement: where the agreed
 * shape shows a process that cannot be served (its arguments, its
 * memory), the round after all, which serves such calls point to point so
 * that no process waits in the MPI library for one whose arguments it
 * refuses (its outcome, *rc as ig_opening_run's); otherwise
 * IG_OPENING_GO_ON without it.  Every process holds the same shape and
 * skipped alike, so all run the round or none. */
ig_opening_outcome ig_opening_after_all(const ig_call *c, ig_comm_cache *cache, const ig_settings *s,
                                        const ig_shape *shape, int *rc);

#endif
