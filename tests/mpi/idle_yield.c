/*
 * Test support for the MPICH pass (scripts/test-mpich.sh), preloaded by
 * tests/mpi/common.sh's ig_launch into every process an MPICH launcher
 * starts: a process whose UCX progress finds nothing to do 64 times in a
 * row sleeps 20 microseconds.
 *
 * Why: MPICH 4.0.2's ch4:ucx device waits by polling ucp_worker_progress
 * and never gives up its core (MPIR_CVAR_POLLS_BEFORE_YIELD changed
 * nothing here).  The tests start more processes than the test machine
 * has cores (up to 16 on 2), so every process waiting for a message took
 * whole scheduler time slices from the one about to send it: 200 barriers
 * of 6 processes took 4.8 s, 0.05 s with this; a matrix launch of 9 to 12
 * processes 9 to 14 s, 0.5 s with this.  It changes when a waiting
 * process runs, never what any MPI call does, so the tests check the same
 * things, only faster.  Where the MPI library does not poll through
 * ucp_worker_progress (Open MPI here, or MPICH over another device) this
 * library is inert.  Never installed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <pthread.h>
#include <time.h>

#define IDLE_POLLS_BEFORE_SLEEP 64
#define SLEEP_NS 20000L

typedef void *ucp_worker_h; /* an opaque pointer in UCX's ucp.h */

static unsigned (*next_progress)(ucp_worker_h);

static void find_next_progress(void)
{
    *(void **)&next_progress = dlsym(RTLD_NEXT, "ucp_worker_progress");
}

/* Per thread: tests/mpi/threads.c waits in several threads at once. */
unsigned ucp_worker_progress(ucp_worker_h worker)
{
    static pthread_once_t found = PTHREAD_ONCE_INIT;
    static _Thread_local unsigned idle_polls;
    pthread_once(&found, find_next_progress);
    unsigned events = next_progress(worker);
    if (events != 0) {
        idle_polls = 0;
    } else if (++idle_polls >= IDLE_POLLS_BEFORE_SLEEP) {
        idle_polls = 0;
        struct timespec nap = { 0, SLEEP_NS };
        nanosleep(&nap, NULL);
    }
    return events;
}
