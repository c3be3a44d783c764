/*
 * A program that alternates small and large MPI_Allgather calls on one
 * inter-communicator (a header and its data, every time step), timed on
 * the emulated cluster (scripts/cluster/alternate.sh runs it; not part of
 * the library).  What it shows: whether the library runs each small call
 * in the opening round and sends each large one straight to the agreement
 * (src/decide.h, ig_decide_opening_predict_skip), against MPI_Iallgather +
 * MPI_Wait doing the same calls.
 *
 *   alternate P SMALL LARGE ROUNDS WARMUP
 *
 * World ranks 0..P-1 form the low group, the rest the high one.  The small
 * call is full duplex (both groups send SMALL bytes per process), the
 * large one half duplex (the low group sends LARGE bytes).  Each round
 * runs both variants, each as a small call then a large one, in the order
 * A B B A over pairs of rounds:
 *   library     MPI_Allgather (the program runs under LD_PRELOAD)
 *   iallgather  PMPI_Iallgather + PMPI_Wait (Open MPI's linear exchange)
 * Each call comes after a barrier; its time is the slowest process's own
 * time (exit minus entry, CLOCK_MONOTONIC: one clock for every process of
 * the host).  Every received byte is checked.  The first WARMUP rounds are
 * not reported (the prediction learns the pattern within four periods).
 * Output (world rank 0, stdout): variant,round,call,seconds.
 */
#define _POSIX_C_SOURCE 200809L
#include "timed_calls.h"

#include <stdlib.h>
#include <string.h>

static unsigned char byte_of(int low, int sender, size_t i) { return (unsigned char)(low * 131 + sender * 31 + i * 7); }

typedef struct {
    MPI_Comm inter;
    int low, lrank, nremote;
    unsigned char *sbuf, *rbuf;
} ctx;

static void fill(const ctx *c, size_t bytes)
{
    for (size_t i = 0; i < bytes; i++)
        c->sbuf[i] = byte_of(c->low, c->lrank, i);
    memset(c->rbuf, 0, bytes * (size_t)c->nremote);
}

static void check(const ctx *c, size_t bytes, const char *what)
{
    for (int s = 0; s < c->nremote; s++)
        for (size_t i = 0; i < bytes; i++)
            if (c->rbuf[(size_t)s * bytes + i] != byte_of(!c->low, s, i)) {
                fprintf(stderr, "alternate: %s: block of remote %d, byte %zu wrong\n", what, s, i);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
}

/* One call of `variant` (0 library, 1 iallgather): `sends`/`expects`
 * bytes per process; returns the slowest process's own time. */
static double timed_call(const ctx *c, int variant, size_t sends, size_t expects)
{
    fill(c, sends > expects ? sends : expects);
    PMPI_Barrier(MPI_COMM_WORLD);
    double t0 = igc_now();
    int rc;
    if (variant == 0) {
        rc = MPI_Allgather(c->sbuf, (int)sends, MPI_BYTE, c->rbuf, (int)expects, MPI_BYTE, c->inter);
    } else {
        MPI_Request req;
        rc = PMPI_Iallgather(c->sbuf, (int)sends, MPI_BYTE, c->rbuf, (int)expects, MPI_BYTE, c->inter, &req);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Wait(&req, MPI_STATUS_IGNORE);
    }
    double slowest = igc_slowest("alternate", rc, igc_now() - t0);
    check(c, expects, variant == 0 ? "library" : "iallgather");
    return slowest;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 6) {
        fprintf(stderr, "usage: alternate P SMALL LARGE ROUNDS WARMUP\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int rank, p = atoi(argv[1]), rounds = atoi(argv[4]), warmup = atoi(argv[5]);
    size_t small = (size_t)atol(argv[2]), large = (size_t)atol(argv[3]);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    ctx c;
    MPI_Comm local;
    c.low = igc_intercomm(p, &local, &c.inter);
    MPI_Comm_rank(c.inter, &c.lrank);
    MPI_Comm_remote_size(c.inter, &c.nremote);
    size_t most = small > large ? small : large;
    c.sbuf = malloc(most);
    c.rbuf = malloc(most * (size_t)c.nremote);
    if (c.sbuf == NULL || c.rbuf == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (rank == 0)
        printf("variant,round,call,seconds\n");
    for (int r = 0; r < warmup + rounds; r++)
        for (int k = 0; k < 2; k++) {
            int variant = (r % 2 == 0) ? k : 1 - k; /* A B, B A */
            double ts = timed_call(&c, variant, small, small);
            double tl = timed_call(&c, variant, c.low ? large : 0, c.low ? 0 : large);
            if (rank == 0 && r >= warmup) {
                const char *name = variant == 0 ? "library" : "iallgather";
                printf("%s,%d,small,%.9f\n%s,%d,large,%.9f\n", name, r - warmup, ts, name, r - warmup, tl);
            }
        }
    free(c.sbuf);
    free(c.rbuf);
    MPI_Comm_free(&c.inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
