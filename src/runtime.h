/*
 * Process-wide start-up and shutdown: settings are read once, and a hook on
 * MPI_COMM_SELF prints the summary and releases global state at finalize.
 */
#ifndef IG_RUNTIME_H
#define IG_RUNTIME_H

/* Idempotent and thread-safe; call it from every entry point once MPI is
 * initialized.  Returns 0, or an MPI error code if the hook could not be set. */
int ig_runtime_start(void);

/* Print one line, from one process, the first time the shim serves a call. */
void ig_runtime_announce(const char *what);

#endif
