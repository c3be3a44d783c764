/*
 * Process-wide start-up and shutdown: the MPI_Init(_thread) wrappers,
 * settings read once, a hook on MPI_COMM_SELF that prints the summary and
 * releases global state at finalize, and the one-line "active" message.
 */
#ifndef IG_LIFECYCLE_H
#define IG_LIFECYCLE_H

#include <mpi.h>

/* Idempotent and thread-safe; called for every intercepted call once MPI
 * is initialized (ig_call_classify, call.h) and by the MPI_Init wrappers.
 * Returns MPI_SUCCESS, or an MPI error code if the hook could not be set. */
int ig_lifecycle_start(void);

/* A private communicator of this process alone whose errors return: for
 * questions to the MPI library that must not invoke a user's error
 * handler (call.c asks whether a datatype is committed).  MPI_COMM_NULL
 * where ig_lifecycle_start failed. */
MPI_Comm ig_lifecycle_probe_comm(void);

/* Whether the finalize hook has run: intergather's state is released, and
 * calls go to the MPI library.  MPI runs MPI_COMM_SELF's delete callbacks
 * newest first, and the hook is set in MPI_Init (C and Fortran: the
 * wrappers here and in entry_fortran.c), before any callback a program
 * sets, so it runs after them: a program's callbacks that call
 * MPI_Allgather at finalize are served as any other call. */
int ig_lifecycle_finished(void);

/* 1 when ig_lifecycle_start has succeeded and the finalize hook has not
 * run: MPI is then initialized and not finalized (the hook runs first
 * thing in MPI_Finalize).  0 says nothing: ask the MPI library. */
int ig_lifecycle_running(void);

/* Print one line, from one process, the first time the shim serves a call. */
void ig_lifecycle_announce(const char *what);

#endif
