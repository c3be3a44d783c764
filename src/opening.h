/*
 * The opening round of an MPI_Allgather (what and why: opening_plan.h):
 * one direct message from every process to every process of the other
 * group, with the sender's block when its sizes are small, on the
 * communicator's private copy of the inter-communicator.
 */
#ifndef IG_OPENING_H
#define IG_OPENING_H

#include "call.h"
#include "comm_cache.h"
#include "settings.h"

/* Whether this call starts with the opening: the same answer on every
 * process (the operation, the settings, the group sizes, the MPI library). */
int ig_opening_applies(const ig_call *c, ig_comm_cache *cache, const ig_settings *s);

typedef enum {
    IG_OPENING_GO_ON = 0, /* no pair was done: every process goes on to the agreement */
    IG_OPENING_ENDED      /* the call ended in the opening (*rc: this process's outcome) */
} ig_opening_outcome;

ig_opening_outcome ig_opening_run(const ig_call *c, ig_comm_cache *cache, const ig_settings *s, int *rc);

#endif
