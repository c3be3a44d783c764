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

/* A broadcast from rank 0 of comm along a binomial tree, point to point:
 * every member passes its own count and type, which need only match the
 * root's in type signature, as MPI promises (MPI_Bcast implementations
 * may choose and cut by each member's own count: algo_fc.c).  A member
 * whose receive failed still forwards, so that none is left waiting. */
int ig_bcast_binomial(void *buf, int count, MPI_Datatype type, int tag, MPI_Comm comm);

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
