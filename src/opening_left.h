/*
 * What a process that leaves early (opening_plan.h) leaves behind on the
 * communicator (kept in comm_cache.h) until it is settled.
 *
 * Its round-one receives.  Each matches the one round-one message its
 * peer sends in that call.  In a correct call that message carries
 * nothing, but in an erroneous one (a block sent to processes that expect
 * nothing) it can announce a block in pieces, and the pieces after it are
 * then still to come.  Left unreceived, they would be matched by the next
 * call's round-one receives (MPI_ANY_TAG): wrong data, or a hang.  So the
 * receives are not freed but kept, and settled -- completed, and the
 * pieces they announce taken and dropped -- before the next opening on the
 * communicator posts any receive, when the communicator is freed, and at
 * MPI_Finalize.  Not as it leaves: a test there runs MPI's progress, which
 * can yield the processor (opening.c, leave_early).
 *
 * Its pieces that nobody takes in the call.  A sender in pieces sends
 * them from a copy of its block (in a buffer kept here for the next
 * calls, up to IG_OPENING_COPY_KEPT bytes: a larger one is freed once no
 * send reads it, so that a program with many communicators does not hold
 * a copy of its largest block on each), and waits until each peer has
 * taken its pieces or has said, in its own round-one message, that it
 * leaves early (then it takes them only when it settles, later: where the
 * pieces are not sent eagerly, waiting for that would wait on a process
 * that has gone on, perhaps to a barrier this one has not reached).  The
 * sends still open are kept, and completed when this process settles.
 *
 * Settling the receives waits only for messages peers sent in a call they
 * have entered; settling the sends, for peers to settle their receives.
 * So the receives are settled first, on every communicator at finalize,
 * and nothing waits on anything that waits on it.  A consequence for
 * correct programs: a process that leaves early runs at most one call
 * ahead of its peers on a communicator (native root gathering holds its
 * senders at least as much).
 */
#ifndef IG_OPENING_LEFT_H
#define IG_OPENING_LEFT_H

#include "decide.h"
#include "p2p.h"

#include <mpi.h>
#include <stddef.h>

/* The largest copy buffer kept between calls (above). */
#define IG_OPENING_COPY_KEPT ((size_t)4 << 20)

typedef struct {
    MPI_Request recv[IG_OPENING_MAX_PROCS]; /* by remote rank; MPI_REQUEST_NULL once settled */
    char sink[IG_OPENING_MAX_PROCS][IG_SINK_BYTES]; /* where each takes its message (p2p.h) */
    int n;                                  /* remote ranks held (0: no receive to settle) */
    int sent_in_vain;                       /* a peer's block came although this process expected nothing */
    int peer_not_small;                     /* a settled message said its sender was not small (or said
                                             * nothing): some receiver of this process's block was not */
    MPI_Request *sends;                     /* pieces not yet taken (erroneous calls), n_sends of them */
    int n_sends;
    char *copy; /* the buffer a sender in pieces sends from, copy_room bytes, kept for the next calls (above) */
    size_t copy_room;
} ig_opening_left;

/* The buffer to send a block of `bytes` in pieces from (grown as needed;
 * NULL if it cannot be).  Only when no send is open (after settling). */
char *ig_opening_left_copy_room(ig_opening_left *left, size_t bytes);

/* Settle peer j's receive if its message has come (or, with `wait`, once
 * it comes); returns whether it is settled.  When this call settles it,
 * *tag becomes its message's tag (-1 if the receive failed); otherwise
 * *tag is left as it was. */
int ig_opening_left_settle_peer(ig_opening_left *left, int j, MPI_Comm comm, int wait, int *tag);

/* The two halves of settling, on `comm` (the opening's communicator),
 * waiting for all of it.  Once every receive is settled, a block that a
 * peer sent this process although it expected nothing (an erroneous call)
 * is counted in the summary's erroneous-sizes and explained in one log
 * line per process. */
void ig_opening_left_settle_receives(ig_opening_left *left, MPI_Comm comm);
void ig_opening_left_settle_sends(ig_opening_left *left);

/* The copy buffer freed if it is larger than IG_OPENING_COPY_KEPT and no
 * send reads it. */
void ig_opening_left_trim_copy(ig_opening_left *left);

/* Both halves, receives first, then the copy trimmed. */
void ig_opening_left_settle(ig_opening_left *left, MPI_Comm comm);

/* Settled, with the buffer freed (the communicator's end). */
void ig_opening_left_release(ig_opening_left *left, MPI_Comm comm);

#endif
