/*
 * Errors of a served call, reported as the MPI library reports its own:
 * through the user's communicator, so the error handler the user installed
 * there decides what happens, with the MPI function named.
 */
#ifndef IG_ERRORS_H
#define IG_ERRORS_H

#include <mpi.h>

/* Report rc (if not MPI_SUCCESS) for `function` ("MPI_Allgather") on comm
 * and return it.  Under MPI_ERRORS_ARE_FATAL the process prints what
 * failed, naming `function`, and aborts, as the MPI library does for its
 * own errors; under any other handler the handler is called with rc. */
int ig_error_report(MPI_Comm comm, const char *function, int rc);

#endif
