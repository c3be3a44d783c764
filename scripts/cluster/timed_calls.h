/*
 * What the emulated cluster's call-timing programs (alternate.c,
 * allgatherv.c; not part of the library) share: one clock for every
 * process of the host, the inter-communicator of world ranks 0..p-1 (the
 * low group) and the rest, and a call's time as the slowest process's.
 */
#ifndef IGC_TIMED_CALLS_H
#define IGC_TIMED_CALLS_H

#include <mpi.h>

#include <stdio.h>
#include <time.h>

static inline double igc_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

/* World ranks below p form the low group; *local is that rank's group. */
static inline int igc_intercomm(int p, MPI_Comm *local, MPI_Comm *inter)
{
    int rank, low;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    low = rank < p;
    MPI_Comm_split(MPI_COMM_WORLD, low, rank, local);
    MPI_Intercomm_create(*local, 0, MPI_COMM_WORLD, low ? p : 0, 7, inter);
    return low;
}

/* The slowest process's time for a call that took this one `mine`
 * seconds; a failed call (rc) ends the job, named by `program`. */
static inline double igc_slowest(const char *program, int rc, double mine)
{
    double slowest;
    if (rc != MPI_SUCCESS) {
        fprintf(stderr, "%s: a call failed (%d)\n", program, rc);
        MPI_Abort(MPI_COMM_WORLD, 1);
    }
    PMPI_Allreduce(&mine, &slowest, 1, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    return slowest;
}

#endif
