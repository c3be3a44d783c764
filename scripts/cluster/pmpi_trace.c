/*
 * A PMPI tracer for scripts/cluster/timeline.sh (not part of the library).
 * Loaded before libintergather.so (LD_PRELOAD=pmpi_trace.so:libintergather.so),
 * its PMPI_* definitions are the ones the library's calls bind to: each
 * records the call's start and end on CLOCK_MONOTONIC (one clock for every
 * process of the emulated cluster) and calls the MPI library's own.  At
 * exit each process writes start,end,name lines to
 * $PMPI_TRACE_DIR/trace.RANK (Open MPI's OMPI_COMM_WORLD_RANK).
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include <mpi.h>

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

enum { MAX_EVENTS = 1 << 19 };

static struct {
    double start, end;
    const char *name;
} events[MAX_EVENTS];
static int n_events;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void record(const char *name, double start)
{
    if (n_events < MAX_EVENTS)
        events[n_events++] = (typeof(events[0])){ start, now(), name };
}

static void *next(const char *name)
{
    void *f = dlsym(RTLD_NEXT, name);
    if (f == NULL) {
        fprintf(stderr, "pmpi_trace: %s not found\n", name);
        abort();
    }
    return f;
}

/* Defines PMPI_NAME(PARAMS) as a timed call of the next PMPI_NAME(ARGS). */
#define TRACED(NAME, PARAMS, ARGS)                                                                                 \
    int PMPI_##NAME PARAMS                                                                                         \
    {                                                                                                              \
        static int(*real) PARAMS;                                                                                  \
        if (real == NULL)                                                                                          \
            real = (int(*) PARAMS)next("PMPI_" #NAME);                                                             \
        double start = now();                                                                                      \
        int rc = real ARGS;                                                                                        \
        record(#NAME, start);                                                                                      \
        return rc;                                                                                                 \
    }

TRACED(Isend, (const void *b, int n, MPI_Datatype t, int r, int g, MPI_Comm c, MPI_Request *q), (b, n, t, r, g, c, q))
TRACED(Irecv, (void *b, int n, MPI_Datatype t, int r, int g, MPI_Comm c, MPI_Request *q), (b, n, t, r, g, c, q))
TRACED(Waitall, (int n, MPI_Request *q, MPI_Status *s), (n, q, s))
TRACED(Wait, (MPI_Request *q, MPI_Status *s), (q, s))
TRACED(Testall, (int n, MPI_Request *q, int *f, MPI_Status *s), (n, q, f, s))
TRACED(Test, (MPI_Request *q, int *f, MPI_Status *s), (q, f, s))
TRACED(Comm_get_attr, (MPI_Comm c, int k, void *v, int *f), (c, k, v, f))
TRACED(Comm_rank, (MPI_Comm c, int *r), (c, r))
TRACED(Comm_remote_size, (MPI_Comm c, int *r), (c, r))
TRACED(Comm_test_inter, (MPI_Comm c, int *f), (c, f))
TRACED(Type_get_extent, (MPI_Datatype t, MPI_Aint *l, MPI_Aint *e), (t, l, e))
TRACED(Get_count, (const MPI_Status *s, MPI_Datatype t, int *n), (s, t, n))

__attribute__((destructor)) static void write_trace(void)
{
    const char *dir = getenv("PMPI_TRACE_DIR"), *rank = getenv("OMPI_COMM_WORLD_RANK");
    char path[4096];
    snprintf(path, sizeof path, "%s/trace.%s", dir != NULL ? dir : ".", rank != NULL ? rank : "x");
    FILE *f = fopen(path, "w");
    if (f == NULL)
        return;
    for (int i = 0; i < n_events; i++)
        fprintf(f, "%.9f,%.9f,%s\n", events[i].start, events[i].end, events[i].name);
    fclose(f);
}
