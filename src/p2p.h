/*
 * Point-to-point helpers for the algorithms.  Every request array starts
 * as MPI_REQUEST_NULL, so a post that failed leaves nothing to wait on,
 * and completion errors come back as the error of the failed operation
 * (MPI_ERR_TRUNCATE, ...), not as MPI_ERR_IN_STATUS.
 */
#ifndef IG_P2P_H
#define IG_P2P_H

#include <mpi.h>

/* Complete every request; the first error of an operation, or of the call. */
int ig_waitall(int n, MPI_Request *reqs);
/* The same with the caller's statuses (to read counts afterwards). */
int ig_waitall_status(int n, MPI_Request *reqs, MPI_Status *stats);

/* Where send number `posted` of a window of `window` send requests goes:
 * slot `posted` while the window fills, then the slot of whichever send
 * completes first (the oldest slot when none is active, or when the wait
 * failed and named none).  Returns the wait's error.  Callers post every
 * receive of their step before the first call, so the wait never holds up
 * a peer. */
int ig_window_slot(MPI_Request *slots, int window, int posted, int *slot);

/* One block sent to one peer while the caller goes on with other work:
 * cut into `parts` byte ranges as ig_byte_piece cuts a block
 * (byte_pieces.h), each a synchronous send, at most `window` of them
 * unfinished; the next part is posted whenever the caller waits through
 * ig_paced_wait.  A synchronous send finishes once the receiver has
 * matched it, so at most `window` parts of the block are ever in the
 * network.  Sends posted at once are not: TCP writes them into the
 * socket, and where a link's queue is deep (no drops) a flow with
 * megabytes queued takes the link from a flow that started later
 * (docs/performance.md, forty-ninth session).  The receiver posts its
 * receives in order before it waits for anything. */
enum { IG_PACED_MAX_WINDOW = 16 };
typedef struct {
    const char *base; /* the block's first byte */
    MPI_Count bytes;
    int parts, next, window, dest, tag;
    MPI_Comm comm;
    MPI_Request slots[IG_PACED_MAX_WINDOW];
} ig_paced_send;
/* Post the first `window` parts (at most IG_PACED_MAX_WINDOW). */
int ig_paced_start(ig_paced_send *ps, const void *base, MPI_Count bytes, int parts, int window, int dest, int tag,
                   MPI_Comm comm);
/* Complete *req, posting ps's next parts meanwhile (ps may be NULL). */
int ig_paced_wait(MPI_Request *req, ig_paced_send *ps);
/* Post and complete the rest of ps's parts. */
int ig_paced_finish(ig_paced_send *ps);

/* A broadcast from rank 0 of comm along a binomial tree, point to point:
 * every member passes its own count and type, which need only match the
 * root's in type signature, as MPI promises (MPI_Bcast implementations
 * may choose and cut by each member's own count: algo_fc.c).  A member
 * whose receive failed still forwards, so that none is left waiting. */
int ig_bcast_binomial(void *buf, int count, MPI_Datatype type, int tag, MPI_Comm comm);

/* Receives of a message a process takes only to drop it (it expects
 * nothing, or has no room for it): into a sink of IG_SINK_BYTES bytes
 * through a type of two bytes with a gap between them.  Not a receive of
 * count 0 into a placeholder: Open MPI 4.1's ob1 layer writes a message
 * that it moves by RDMA (shared memory above 4 KiB, where the kernel's
 * single copy is available; TCP above 64 KiB) whole into a contiguous
 * receive buffer, however short (measured: 70000 bytes written into a
 * receive of count 0, which returned MPI_ERR_TRUNCATE).  Into a type that
 * is not contiguous ob1 does not move a message by RDMA: it takes the
 * data in copied fragments and unpacks them through the type map, which
 * ends after two bytes, so a longer message is cut there
 * (MPI_ERR_TRUNCATE): measured with Open MPI's ob1 layer (over
 * shared memory and TCP), its UCX layer and MPICH; the opening's sink
 * scenarios (tests/mpi/test_opening.sh) crash without it.  Messages of
 * one or two bytes fit (and empty ones): ig_sink_took_data says whether
 * one carried anything.
 * Every pending sink receive needs its own room (MPI forbids overlapping
 * receive buffers).  The type is made by ig_sink_start (lifecycle.c,
 * first at start-up) and freed by ig_sink_end at finalize; a process
 * whose start-up failed receives into one MPI_SHORT_INT instead, a
 * predefined type with a gap inside (p2p.c says why; its extent, 8 bytes
 * here, is the room's size). */
enum { IG_SINK_BYTES = 8 };
int ig_sink_start(void);
void ig_sink_end(void);
int ig_irecv_sink(char *room, int source, int tag, MPI_Comm comm, MPI_Request *req);
int ig_recv_sink(int source, int tag, MPI_Comm comm, MPI_Status *status);
int ig_mrecv_sink(MPI_Message *message);
/* Whether a completed sink receive took a message with data: rc is its
 * completion's error (MPI_ERR_TRUNCATE: more than the sink holds). */
int ig_sink_took_data(int rc, const MPI_Status *status);
/* Whether an MPI error code is of class MPI_ERR_TRUNCATE (the standard
 * lets a library return a code that is not itself the class). */
int ig_is_truncation(int rc);

/* MPICH's errflag: keep the first error and go on with the remaining
 * steps, so that a process whose step failed still takes part in the
 * others and its peers are never left waiting. */
static inline void ig_err_keep(int *first, int rc)
{
    if (*first == MPI_SUCCESS && rc != MPI_SUCCESS)
        *first = rc;
}

/* The same across the processes of comm, for a step after which a
 * process that failed alone would leave its peers waiting (it lacks a
 * communicator they go on to use): every process learns whether all
 * succeeded.  Returns rc where it failed here, MPI_ERR_OTHER where it
 * failed elsewhere only, or the reduction's own error.  Collective. */
int ig_err_joint(MPI_Comm comm, int rc);

#endif
