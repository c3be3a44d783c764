/*
 * Test support, preloaded before the library by tests/mpi/test_fc_variants.sh:
 * on the process whose MPI_COMM_WORLD rank is IG_TEST_SLOW_RANK, the
 * library's exchange sends in parts (PMPI_Isend with IG_TAG_DIRECT, 1, of at
 * least 16 KiB of MPI_BYTE: the full-duplex algorithm's block to its owner,
 * algo_full_duplex.c) wait IG_TEST_SLOW_MS milliseconds before the first
 * send of every burst (a send more than 10 ms after the one before).
 *
 * Why: the owner of that block then gets its own parts late while its left
 * neighbour's parts arrive, the situation the ring in parts forwards in
 * arrival order for (group_allgather.c): its summary counts such a ring as
 * ring-relayed-ahead.  On one node the exchange is otherwise far too fast
 * for any order to show.  It changes when one process sends, never what.
 * Never installed.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <mpi.h>
#include <stdlib.h>
#include <time.h>

#define TAG_DIRECT 1 /* src/tags.h: IG_TAG_DIRECT */
#define MIN_PART 16384
#define BURST_GAP_S 0.010

typedef int (*isend_fn)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

/* The delay in seconds on this process, 0 elsewhere. */
static double delay_here(void)
{
    static int known;
    static double delay;
    if (!known) {
        const char *rank = getenv("IG_TEST_SLOW_RANK"), *ms = getenv("IG_TEST_SLOW_MS");
        int me = -1;
        PMPI_Comm_rank(MPI_COMM_WORLD, &me);
        delay = rank != NULL && ms != NULL && atoi(rank) == me ? atof(ms) * 1e-3 : 0.0;
        known = 1;
    }
    return delay;
}

int PMPI_Isend(const void *buf, int count, MPI_Datatype type, int dest, int tag, MPI_Comm comm, MPI_Request *req)
{
    static isend_fn next;
    static double last;
    if (next == NULL)
        *(void **)&next = dlsym(RTLD_NEXT, "PMPI_Isend");
    if (tag == TAG_DIRECT && type == MPI_BYTE && count >= MIN_PART && delay_here() > 0) {
        double t = now();
        if (t - last > BURST_GAP_S) {
            struct timespec d = { (time_t)delay_here(), (long)((delay_here() - (time_t)delay_here()) * 1e9) };
            nanosleep(&d, NULL);
        }
        last = now();
    }
    return next(buf, count, type, dest, tag, comm, req);
}
