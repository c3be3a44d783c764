/*
 * Speculation: a process posts its part of the direct algorithm while the
 * call's agreement is under way (right after its own view has gone out,
 * agree.h) when its own arguments say that the agreed choice will be the
 * direct algorithm, so that the data and the agreement travel at once and
 * a small call costs about the larger of the two, not their sum
 * (on the emulated cluster the agreement alone cost more than the data
 * below 64 KiB per block: docs/performance.md).  Where they say the star
 * (algo_star.c), its first round the same way: the senders' blocks to
 * the team members and every receiver's receives; and a member sends its
 * block on to its team as soon as it arrives, while the agreement still
 * runs (ig_speculate_side: the agreement waits on that block beside its
 * own messages, allmax.h), so that both rounds overlap the agreement (at
 * 4+12 with 4 KiB blocks the agreement, one allreduce, was about half of
 * the call: docs/performance.md, seventieth session).
 *
 * The decision stays joint.  Each process says in the agreement what it
 * posted (agree.h), and every process, from the same agreed numbers, either
 * confirms every early step (ig_decide_posted_stand: the agreed choice is
 * that same direct step, as it is whenever the program's arguments are
 * consistent), and then the early processes complete it as the agreed step
 * while the others run it from the start; or withdraws them all: each
 * process cancels its early receives (under MPICH it posts none early:
 * ig_speculate_post says why), receives and discards every early
 * message sent to it (the agreement says who sent one, on which pair;
 * a star member whose sender posted early sends its block on in any case,
 * so that its team knows from the agreement alone what to discard), and
 * completes its early sends, and all meet in a barrier before the agreed
 * path runs.  So a mistake in the arguments, or one process that cannot be
 * served, costs a withdrawal, never a hang or a stray message in a later
 * call.
 *
 * Posted early only where it can be withdrawn exactly: MPI_Allgather (not
 * v), at most IG_AGREE_MAX_POSTED processes in both groups, every send in
 * the first window (the star's first round is one message to each team),
 * the star only where every receive can be posted early (a truncated
 * receive returns an error), blocks of at most INT_MAX bytes (a discarded message is
 * sized in an int; under an MPI library that aborts on a truncated
 * receive, at most IG_CACHE_DISCARD_BYTES, which a withdrawn message is
 * taken into without allocating: comm_cache.h), on a pair that an earlier
 * call built (building one is collective).
 */
#ifndef IG_SPECULATE_H
#define IG_SPECULATE_H

#include "agree.h"
#include "algorithms.h"
#include "call.h"
#include "comm_cache.h"
#include "decide.h"

typedef struct {
    int64_t code; /* what this process posted (ig_decide_posted_code), 0: nothing */
    int post_rc;  /* the first error of posting it */
    ig_algorithm algorithm; /* IG_ALG_DIRECT, or IG_ALG_STAR (its first round) */
    ig_direct d;
    ig_star star;
} ig_speculation;

/* Prepare this process's direct step on the call's buffers x (which must
 * outlive the speculation) if its own arguments lead there (sp->code: what
 * it will post, to be said in the agreement), then post it once the
 * agreement's own messages are on their way (on a network they would
 * otherwise queue behind the data). */
void ig_speculate_prepare(const ig_call *c, const ig_xfer *x, ig_comm_cache *cache, const ig_settings *s,
                          ig_speculation *sp);
void ig_speculate_post(ig_speculation *sp);

/* After the agreement: keep the early step if it stands for everyone,
 * otherwise take part in withdrawing every early message (collective over
 * both groups whenever any process posted early). */
int ig_speculate_settle(ig_speculation *sp, ig_comm_cache *cache, const ig_posted *posted,
                        const ig_choice *agreed);

/* Whether this process's early step stands (after settle): then the call's
 * step is completed by ig_speculate_finish instead of being run. */
static inline int ig_speculate_stands(const ig_speculation *sp)
{
    return sp->code != 0;
}

int ig_speculate_finish(ig_speculation *sp);

/* What the agreement waits on beside its own messages (agree.h): an early
 * star member's receive of the block it owns, which it sends on to its
 * team as soon as it arrives (nothing otherwise). */
void ig_speculate_side(ig_speculation *sp, ig_side_wait *side);

/* The agreement itself failed: release what was posted, without waiting
 * for peers that may never answer. */
void ig_speculate_abandon(ig_speculation *sp);

#endif
