/*
 * Half-duplex MPI_Allgatherv with blocks of different sizes on one
 * inter-communicator, timed on the emulated cluster against what a user
 * has without intergather, making the same calls
 * (scripts/cluster/allgatherv.sh runs it; not part of the library).  What
 * it shows: what intergather's MPI_Allgatherv gains where the decision
 * relays its blocks (src/algo_relay.c), against what it ran before (the
 * fully connected family, forced with INTERGATHER_ALGORITHM=fc) and the
 * peers.
 *
 *   allgatherv P LARGEST[,LARGEST...] ROUNDS WARMUP [VARIANT,...]
 *
 * World ranks 0..P-1 form the low group, which sends; the rest receive.
 * Low process i sends LARGEST (P - i) / P bytes (4 senders: 1, 3/4, 1/2
 * and 1/4 of LARGEST); receivers place the blocks in reverse order, 64
 * bytes apart.  Each round runs every variant named (default
 * library,iallgatherv), in order on even rounds and in reverse on odd ones
 * (A B, B A):
 *   library     MPI_Allgatherv (the program runs under LD_PRELOAD)
 *   iallgatherv PMPI_Iallgatherv + PMPI_Wait (Open MPI's linear exchange)
 *   native      PMPI_Allgatherv (Open MPI's root gathering)
 *   merge       PMPI_Allgatherv on the inter-communicator merged once at
 *               start (the workaround; every process also receives the
 *               blocks, the senders included)
 * Each call comes after a barrier; its time is the slowest process's own
 * time (exit minus entry, CLOCK_MONOTONIC).  Every received byte and the
 * gaps between blocks are checked on the receivers.  The first WARMUP
 * rounds are not reported.  Output (world rank 0, stdout):
 * variant,largest,round,seconds.
 */
#define _POSIX_C_SOURCE 200809L
#include "timed_calls.h"

#include <stdlib.h>
#include <string.h>

#define GAP 64
#define GAP_BYTE 0xa5

static unsigned char byte_of(int sender, size_t i) { return (unsigned char)(sender * 31 + i * 7 + 1); }

enum { LIBRARY, IALLGATHERV, NATIVE, MERGE, N_VARIANTS };
static const char *const variant_names[N_VARIANTS] = { "library", "iallgatherv", "native", "merge" };

typedef struct {
    MPI_Comm inter, merged;
    int low, lrank, p, q;
    int *counts, *displs;   /* the low group's blocks and where they land (p of each) */
    int *zeros;             /* the senders' counts and displacements: nothing from each of q */
    int *mcounts, *mdispls; /* merge: the same per merged rank (the low group first) */
    size_t span;            /* bytes the layout spans */
    unsigned char *sbuf, *rbuf;
} ctx;

static int block_of(int sender, int p, size_t largest)
{
    return (int)(largest * (size_t)(p - sender) / (size_t)p);
}

/* Blocks in reverse order, GAP bytes apart (and before the first). */
static void lay_out(ctx *c, size_t largest)
{
    size_t at = GAP;
    for (int s = c->p - 1; s >= 0; s--) {
        c->counts[s] = c->mcounts[s] = block_of(s, c->p, largest);
        c->displs[s] = c->mdispls[s] = (int)at;
        at += (size_t)c->counts[s] + GAP;
    }
    c->span = at;
}

static void check(const ctx *c, const char *what)
{
    size_t at = 0;
    for (int s = c->p - 1; s >= 0; s--) {
        for (; at < (size_t)c->displs[s]; at++)
            if (c->rbuf[at] != GAP_BYTE) {
                fprintf(stderr, "allgatherv: %s: gap byte %zu written\n", what, at);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
        for (size_t i = 0; i < (size_t)c->counts[s]; i++, at++)
            if (c->rbuf[at] != byte_of(s, i)) {
                fprintf(stderr, "allgatherv: %s: block of sender %d, byte %zu wrong\n", what, s, i);
                MPI_Abort(MPI_COMM_WORLD, 1);
            }
    }
}

/* One call of `variant`; returns the slowest process's own time. */
static double timed_call(ctx *c, int variant, size_t largest)
{
    int scount = 0;
    lay_out(c, largest);
    if (c->low) {
        scount = block_of(c->lrank, c->p, largest);
        for (int i = 0; i < scount; i++)
            c->sbuf[i] = byte_of(c->lrank, (size_t)i);
    }
    memset(c->rbuf, GAP_BYTE, c->span);
    /* On the inter-communicator a sender expects nothing. */
    const int *counts = c->low ? c->zeros : c->counts, *displs = c->low ? c->zeros : c->displs;
    MPI_Request req;
    PMPI_Barrier(MPI_COMM_WORLD);
    double t0 = igc_now();
    int rc;
    switch (variant) {
    case LIBRARY:
        rc = MPI_Allgatherv(c->sbuf, scount, MPI_BYTE, c->rbuf, counts, displs, MPI_BYTE, c->inter);
        break;
    case IALLGATHERV:
        rc = PMPI_Iallgatherv(c->sbuf, scount, MPI_BYTE, c->rbuf, counts, displs, MPI_BYTE, c->inter, &req);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Wait(&req, MPI_STATUS_IGNORE);
        break;
    case NATIVE:
        rc = PMPI_Allgatherv(c->sbuf, scount, MPI_BYTE, c->rbuf, counts, displs, MPI_BYTE, c->inter);
        break;
    default:
        rc = PMPI_Allgatherv(c->sbuf, scount, MPI_BYTE, c->rbuf, c->mcounts, c->mdispls, MPI_BYTE, c->merged);
        break;
    }
    double slowest = igc_slowest("allgatherv", rc, igc_now() - t0);
    if (!c->low)
        check(c, variant_names[variant]);
    return slowest;
}

/* The variants named in a comma-separated list, into `order`; how many. */
static int parse_variants(const char *list, int order[N_VARIANTS])
{
    int n = 0;
    for (const char *s = list; *s != '\0' && n < N_VARIANTS;) {
        size_t len = strcspn(s, ",");
        int v = 0;
        while (v < N_VARIANTS && (strlen(variant_names[v]) != len || strncmp(s, variant_names[v], len) != 0))
            v++;
        if (v == N_VARIANTS) {
            fprintf(stderr, "allgatherv: unknown variant '%.*s'\n", (int)len, s);
            MPI_Abort(MPI_COMM_WORLD, 2);
        }
        order[n++] = v;
        s += len + (s[len] == ',');
    }
    return n;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 5) {
        fprintf(stderr, "usage: allgatherv P LARGEST[,LARGEST...] ROUNDS WARMUP [VARIANT,...]\n");
        MPI_Abort(MPI_COMM_WORLD, 2);
    }
    int rank, size, rounds = atoi(argv[3]), warmup = atoi(argv[4]);
    ctx c;
    c.p = atoi(argv[1]);
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    c.q = size - c.p;
    size_t most = 0;
    for (char *s = argv[2]; *s != '\0';) {
        size_t v = (size_t)strtoul(s, &s, 10);
        most = v > most ? v : most;
        s += *s == ',';
    }
    MPI_Comm local;
    c.low = igc_intercomm(c.p, &local, &c.inter);
    MPI_Comm_rank(c.inter, &c.lrank);
    MPI_Intercomm_merge(c.inter, !c.low, &c.merged);
    int order[N_VARIANTS], nvariants = parse_variants(argc > 5 ? argv[5] : "library,iallgatherv", order);
    c.counts = calloc((size_t)c.p, sizeof(int));
    c.displs = calloc((size_t)c.p, sizeof(int));
    c.zeros = calloc((size_t)c.q, sizeof(int));
    c.mcounts = calloc((size_t)size, sizeof(int)); /* the high group's stay 0 */
    c.mdispls = calloc((size_t)size, sizeof(int));
    c.sbuf = malloc(most + 1);
    c.rbuf = malloc((most + GAP) * (size_t)c.p + GAP);
    if (c.counts == NULL || c.displs == NULL || c.zeros == NULL || c.mcounts == NULL || c.mdispls == NULL ||
        c.sbuf == NULL || c.rbuf == NULL)
        MPI_Abort(MPI_COMM_WORLD, 1);
    if (rank == 0)
        printf("variant,largest,round,seconds\n");
    for (char *s = argv[2]; *s != '\0';) {
        size_t largest = (size_t)strtoul(s, &s, 10);
        s += *s == ',';
        for (int r = 0; r < warmup + rounds; r++)
            for (int k = 0; k < nvariants; k++) {
                int variant = order[r % 2 == 0 ? k : nvariants - 1 - k]; /* A B, B A */
                double t = timed_call(&c, variant, largest);
                if (rank == 0 && r >= warmup)
                    printf("%s,%zu,%d,%.9f\n", variant_names[variant], largest, r - warmup, t);
            }
        if (rank == 0)
            fflush(stdout);
    }
    free(c.counts);
    free(c.displs);
    free(c.zeros);
    free(c.mcounts);
    free(c.mdispls);
    free(c.sbuf);
    free(c.rbuf);
    MPI_Comm_free(&c.merged);
    MPI_Comm_free(&c.inter);
    MPI_Comm_free(&local);
    MPI_Finalize();
    return 0;
}
