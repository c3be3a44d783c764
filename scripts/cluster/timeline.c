/*
 * Per-process timelines of small inter-communicator allgathers on the
 * emulated cluster (scripts/cluster/timeline.sh runs it; not part of the
 * library).  The processes of the emulated nodes share one host, so
 * CLOCK_MONOTONIC is one clock for all of them (MPI_Wtime is not: Open MPI
 * counts it from each process's own start), and every process's entry and
 * exit of every call can be put on one time line.
 *
 *   timeline P BYTES ROUNDS half|full SPIN_US [spin|rank]
 *
 * World ranks 0..P-1 form the low group, the rest the high one.  In half
 * duplex the low group sends BYTES per process and the high group
 * receives; in full duplex both send.  Each round times four variants
 * once each, in the orders of a Williams square (each variant follows
 * each other equally often), each call after 20 ms of sleep and a
 * barrier, as the bench's --gap does:
 *   0 library     MPI_Allgather (the program runs under LD_PRELOAD)
 *   1 iallgather  MPI_Iallgather + MPI_Wait
 *   2 hand        the opening round's messages written by hand on a
 *                 duplicate of the inter-communicator: every pair's one
 *                 message, a process that receives nothing leaving once its
 *                 sends are done (its receives completed at its next call)
 *   3 hand+spin   the same after SPIN_US microseconds of busy work: what
 *                 CPU time before a call's first message costs
 *     or hand-rank  (VARIANT3 "rank") the hand variant with its sends in
 *                 rank order from remote rank 0, as MPI_Iallgather posts
 *                 them, where the opening staggers them
 *     or chunked    (VARIANT3 "chunked") every block cut into chunks of
 *                 CHUNK bytes (environment, default 262144), sent chunk by
 *                 chunk to the receivers in turn (staggered), at most
 *                 WINDOW (default 4) sends in flight per process
 * Output (world rank 0, stdout): variant,round,rank,t0,t1 in seconds.
 * The hand variants call PMPI_* so that a PMPI tracer loaded before the
 * library (pmpi_trace.c) sees their messages too.
 */
#define _POSIX_C_SOURCE 200809L
#include <mpi.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

enum { VARIANTS = 4, MAX_REMOTE = 64 };

/* A Williams square for four treatments: row r is the order of round r % 4. */
static const int williams[VARIANTS][VARIANTS] = { { 0, 1, 3, 2 }, { 1, 2, 0, 3 }, { 2, 3, 1, 0 }, { 3, 0, 2, 1 } };

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + 1e-9 * (double)t.tv_nsec;
}

static void spin(double us)
{
    double end = now() + us * 1e-6;
    while (now() < end)
        ;
}

static void nap(double seconds)
{
    struct timespec t = { 0, (long)(seconds * 1e9) };
    nanosleep(&t, NULL);
}

typedef struct {
    MPI_Comm inter, hand;
    int local_rank, remote, scount, rcount;
    char *sbuf, *rbuf;
    MPI_Request left[MAX_REMOTE]; /* a leaver's receives, completed at its next hand call */
    int n_left;
} job;

enum { STAGGER, RANK_ORDER, CONVERGE, CHUNKED };

/* The k-th remote rank this process sends to: STAGGER starts at its own
 * rank (the opening's order), RANK_ORDER at 0 (MPI_Iallgather's),
 * CONVERGE staggers over all remote ranks but the last and sends to the
 * last one at the end (distinct first receivers, one common last one). */
static int send_peer(const job *j, int order, int k)
{
    if (order == RANK_ORDER)
        return k;
    if (order == CONVERGE && j->remote > 1)
        return k == j->remote - 1 ? j->remote - 1 : (j->local_rank + k) % (j->remote - 1);
    return (j->local_rank + k) % j->remote;
}

static void by_hand(job *j, int order)
{
    MPI_Request reqs[2 * MAX_REMOTE];
    int n = 0, leaves = j->rcount == 0 && j->scount > 0;
    if (j->n_left > 0)
        PMPI_Waitall(j->n_left, j->left, MPI_STATUSES_IGNORE);
    j->n_left = 0;
    for (int r = 0; r < j->remote; r++) {
        if (leaves)
            PMPI_Irecv(NULL, 0, MPI_BYTE, r, MPI_ANY_TAG, j->hand, &j->left[j->n_left++]);
        else
            PMPI_Irecv(j->rbuf + (size_t)r * (size_t)j->rcount, j->rcount, MPI_BYTE, r, MPI_ANY_TAG, j->hand,
                       &reqs[n++]);
    }
    for (int k = 0; k < j->remote; k++)
        PMPI_Isend(j->sbuf, j->scount, MPI_BYTE, send_peer(j, order, k), 5, j->hand, &reqs[n++]);
    PMPI_Waitall(n, reqs, MPI_STATUSES_IGNORE);
}

static int env_int(const char *name, int fallback)
{
    const char *v = getenv(name);
    return v != NULL && atoi(v) > 0 ? atoi(v) : fallback;
}

/* The blocks in chunks, each process sending chunk c to every receiver
 * before chunk c + 1, with a window of sends in flight. */
static void chunked(job *j)
{
    int chunk = env_int("CHUNK", 262144), window = env_int("WINDOW", 4);
    if (j->n_left > 0)
        PMPI_Waitall(j->n_left, j->left, MPI_STATUSES_IGNORE);
    j->n_left = 0;
    int rchunks = j->rcount > 0 ? (j->rcount + chunk - 1) / chunk : 0;
    int schunks = j->scount > 0 ? (j->scount + chunk - 1) / chunk : 0;
    MPI_Request *rr = malloc(sizeof *rr * (size_t)(j->remote * rchunks + 1));
    MPI_Request *ss = malloc(sizeof *ss * (size_t)window);
    int nr = 0;
    for (int r = 0; r < j->remote; r++)
        for (int c = 0; c < rchunks; c++) {
            int len = j->rcount - c * chunk < chunk ? j->rcount - c * chunk : chunk;
            PMPI_Irecv(j->rbuf + (size_t)r * (size_t)j->rcount + (size_t)c * (size_t)chunk, len, MPI_BYTE, r, 6,
                       j->hand, &rr[nr++]);
        }
    for (int w = 0; w < window; w++)
        ss[w] = MPI_REQUEST_NULL;
    int slot = 0;
    for (int c = 0; c < schunks; c++)
        for (int k = 0; k < j->remote; k++) {
            int len = j->scount - c * chunk < chunk ? j->scount - c * chunk : chunk;
            if (ss[slot] != MPI_REQUEST_NULL)
                PMPI_Waitany(window, ss, &slot, MPI_STATUS_IGNORE);
            PMPI_Isend(j->sbuf + (size_t)c * (size_t)chunk, len, MPI_BYTE, (j->local_rank + k) % j->remote, 6,
                       j->hand, &ss[slot]);
            for (int w = 0; w < window; w++) /* the next free slot, if any */
                if (ss[w] == MPI_REQUEST_NULL) {
                    slot = w;
                    break;
                }
        }
    PMPI_Waitall(window, ss, MPI_STATUSES_IGNORE);
    PMPI_Waitall(nr, rr, MPI_STATUSES_IGNORE);
    free(rr);
    free(ss);
}

/* order3 < 0: the fourth variant is hand+spin; else the hand variant in that order. */
static void call(job *j, int variant, double spin_us, int order3)
{
    MPI_Request req;
    switch (variant) {
    case 0:
        MPI_Allgather(j->sbuf, j->scount, MPI_BYTE, j->rbuf, j->rcount, MPI_BYTE, j->inter);
        break;
    case 1:
        MPI_Iallgather(j->sbuf, j->scount, MPI_BYTE, j->rbuf, j->rcount, MPI_BYTE, j->inter, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        break;
    case 3:
        if (order3 == CHUNKED) {
            chunked(j);
            break;
        }
        if (order3 >= 0) {
            by_hand(j, order3);
            break;
        }
        spin(spin_us);
        /* fall through */
    default:
        by_hand(j, STAGGER);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (argc < 6) {
        if (rank == 0)
            fprintf(stderr, "usage: timeline P BYTES ROUNDS half|full SPIN_US [spin|rank]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int p = atoi(argv[1]), bytes = atoi(argv[2]), rounds = atoi(argv[3]), full = strcmp(argv[4], "full") == 0;
    double spin_us = atof(argv[5]);
    int order3 = -1; /* "spin" (the default): the fourth variant is hand+spin */
    if (argc <= 6 || strcmp(argv[6], "spin") == 0)
        order3 = -1;
    else if (strcmp(argv[6], "converge") == 0)
        order3 = CONVERGE;
    else if (strcmp(argv[6], "chunked") == 0)
        order3 = CHUNKED;
    else /* "rank": both groups in rank order; "ranklow"/"rankhigh": one of them */
        order3 = strcmp(argv[6], "rank") == 0 || (strcmp(argv[6], "ranklow") == 0 && rank < p) ||
                         (strcmp(argv[6], "rankhigh") == 0 && rank >= p)
                     ? RANK_ORDER
                     : STAGGER;
    int low = rank < p;
    job j = { 0 };
    MPI_Comm local;
    MPI_Comm_split(MPI_COMM_WORLD, low, rank, &local);
    MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, low ? p : 0, 7, &j.inter);
    MPI_Comm_free(&local);
    MPI_Comm_dup(j.inter, &j.hand);
    MPI_Comm_rank(j.inter, &j.local_rank);
    MPI_Comm_remote_size(j.inter, &j.remote);
    if (j.remote > MAX_REMOTE)
        MPI_Abort(MPI_COMM_WORLD, 2);
    j.scount = low || full ? bytes : 0;
    j.rcount = !low || full ? bytes : 0;
    j.sbuf = malloc((size_t)bytes + 1);
    j.rbuf = malloc((size_t)bytes * (size_t)j.remote + 1);
    memset(j.sbuf, rank, (size_t)bytes);
    double *t = malloc(sizeof *t * 2 * VARIANTS * (size_t)rounds);
    for (int w = -2; w < rounds; w++) /* two rounds of warm-up */
        for (int s = 0; s < VARIANTS; s++) {
            int v = williams[(w + 4) % VARIANTS][s];
            nap(0.02);
            MPI_Barrier(MPI_COMM_WORLD);
            double t0 = now();
            call(&j, v, spin_us, order3);
            double t1 = now();
            if (w >= 0) {
                t[2 * ((size_t)v * rounds + w)] = t0;
                t[2 * ((size_t)v * rounds + w) + 1] = t1;
            }
        }
    if (j.n_left > 0)
        PMPI_Waitall(j.n_left, j.left, MPI_STATUSES_IGNORE);
    size_t per = 2 * VARIANTS * (size_t)rounds;
    double *all = rank == 0 ? malloc(sizeof *all * per * (size_t)size) : NULL;
    MPI_Gather(t, (int)per, MPI_DOUBLE, all, (int)per, MPI_DOUBLE, 0, MPI_COMM_WORLD);
    if (rank == 0) {
        printf("variant,round,rank,t0,t1\n");
        for (int r = 0; r < size; r++)
            for (int v = 0; v < VARIANTS; v++)
                for (int i = 0; i < rounds; i++) {
                    const double *x = all + (size_t)r * per + 2 * ((size_t)v * rounds + i);
                    printf("%d,%d,%d,%.9f,%.9f\n", v, i, r, x[0], x[1]);
                }
    }
    free(all);
    free(t);
    free(j.sbuf);
    free(j.rbuf);
    MPI_Comm_free(&j.hand);
    MPI_Comm_free(&j.inter);
    MPI_Finalize();
    return 0;
}
