/*
 * intergather-bench: times inter-group allgather algorithms on one
 * inter-communicator and checks every result against the baseline.
 *
 * MPI_COMM_WORLD is split into p senders (world ranks 0..p-1, group A) and
 * q = size - p receivers (group B).  Default mode: an inter-communicator
 * joins the two groups; `native` is PMPI_Allgather on it (the binary links
 * the library, so MPI_Allgather is the library's entry point: algorithm
 * `intergather`), and the library's algorithms run on a pair built from
 * MPI_Intercomm_merge of it.  --intra mode (SimGrid SMPI has no
 * inter-communicators): the pair is built on MPI_COMM_WORLD itself and
 * root-gathering, the same algorithm as native rebuilt on the pair, is the
 * baseline (merge-allgatherv with --duplex full).
 *
 * --duplex full: both groups send (blocks of the same size) and both
 * receive the other group's blocks.  --imbalance: random process arrival
 * patterns (Patarasuk and Yuan): every process sleeps a random delay before
 * each timed call; the average and worst per-process times are reported.
 *
 * The algorithms are rows of the table algs[] below: a library algorithm with
 * the pair signature of include/intergather.h is one row.
 *
 * Under smpicc (SMPI_SHARED_MALLOC is a macro of SMPI's mpi.h) payloads come
 * from SMPI_SHARED_MALLOC and results are not verified (shared buffers hold no
 * meaningful data), unless --verify asks for private buffers and the check
 * (small runs only: every rank then holds real memory).  SMPI may run every
 * rank in one address space without privatizing globals, so this file keeps
 * all state on main's stack: no mutable globals (the algorithm table is
 * const), no getopt (its optind is one), no strtok, no rand().
 */
#ifndef _POSIX_C_SOURCE
#define _POSIX_C_SOURCE 200809L /* nanosleep under -std=c11 */
#endif
#include <mpi.h>

#include "baselines.h"
#include "intergather.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#ifdef SMPI_SHARED_MALLOC
#define BENCH_SMPI 1
#define SHARED_ALLOC(n) SMPI_SHARED_MALLOC(n)
#define SHARED_FREE(ptr) SMPI_SHARED_FREE(ptr)
#else
#define BENCH_SMPI 0
#define SHARED_ALLOC(n) malloc(n)
#define SHARED_FREE(ptr) free(ptr)
#endif

/* Payload buffers: private memory whenever results are verified, SMPI's
 * shared (content-free) memory for timing-only runs under SMPI. */
static void *payload_alloc(size_t n, int verify) { return verify ? malloc(n) : SHARED_ALLOC(n); }
static void payload_free(void *ptr, int verify)
{
    if (verify)
        free(ptr);
    else
        SHARED_FREE(ptr);
}

enum { EXIT_MISMATCH = 1, EXIT_USAGE = 2, EXIT_MPI = 3 };

#define DEFAULT_MIN_BYTES (32 * 1024L)
#define DEFAULT_MAX_BYTES (4 * 1024 * 1024L)

/* ------------------------------------------------------------------------ */
/* The benchmark's state and one call's arguments                            */

typedef struct {
    int rank, size, p, q, is_sender, intra, full;
    int sends;        /* this process contributes a block */
    int nremote;      /* blocks it receives: the remote group's (0 for a half-duplex sender) */
    int remote0;      /* world rank of the first of them */
    MPI_Comm inter;   /* default mode only */
    MPI_Comm side;    /* this process's own group on merged (the baselines' gather and broadcast) */
    MPI_Comm merged;  /* senders first: MPI_Intercomm_merge(inter), or a dup of MPI_COMM_WORLD with --intra */
    ig_pair *pair;
    int baseline;     /* index into algs[] */
    double gap;       /* --gap */
} bench;

/* Inter-communicator MPI_Allgather conventions: half duplex, a sender passes
 * its block and 0 receive elements, a receiver the reverse; full duplex, both
 * pass both.  mcounts/mdispls/mtype/mscount: merge-allgatherv's arguments on
 * the merged communicator (in units of mtype). */
typedef struct {
    const void *sbuf;
    int scount;
    void *rbuf;
    int rcount;
    const int *mcounts, *mdispls;
    MPI_Datatype mtype;
    int mscount;
} call;

/* ------------------------------------------------------------------------ */
/* The algorithms                                                            */

/* The signature of the library's pair algorithms (include/intergather.h). */
typedef int (*pair_fn)(ig_pair *pair, const void *sendbuf, int sendcount, MPI_Datatype sendtype, void *recvbuf,
                       int recvcount, MPI_Datatype recvtype);
/* A call the benchmark makes itself (MPI's own collectives). */
typedef int (*peer_fn)(const bench *b, const call *c);

enum {
    AV_INTER = 1, /* default mode (an inter-communicator) */
    AV_INTRA = 2, /* --intra (SimGrid SMPI) */
    AV_HALF = 4,  /* --duplex half */
    AV_FULL = 8   /* --duplex full */
};

typedef struct {
    const char *name;
    unsigned avail;      /* AV_* */
    pair_fn half, full;  /* library pair API per duplex, on the pair (NULL: not in that duplex) */
    peer_fn peer;        /* or this, for both duplexes (half/full then NULL) */
    const char *what;    /* for --help */
} alg_desc;

static int ring_optimal(ig_pair *pair, const void *sbuf, int sc, MPI_Datatype st, void *rbuf, int rc, MPI_Datatype rt)
{
    return ig_pair_allgather_ring(pair, IG_RING_OPTIMAL, sbuf, sc, st, rbuf, rc, rt);
}

static int ring_paper(ig_pair *pair, const void *sbuf, int sc, MPI_Datatype st, void *rbuf, int rc, MPI_Datatype rt)
{
    return ig_pair_allgather_ring(pair, IG_RING_PAPER, sbuf, sc, st, rbuf, rc, rt);
}

static int direct_half(ig_pair *pair, const void *sbuf, int sc, MPI_Datatype st, void *rbuf, int rc, MPI_Datatype rt)
{
    return ig_pair_allgather_direct(pair, 0, sbuf, sc, st, rbuf, rc, rt);
}

static int direct_full(ig_pair *pair, const void *sbuf, int sc, MPI_Datatype st, void *rbuf, int rc, MPI_Datatype rt)
{
    return ig_pair_allgather_direct(pair, 1, sbuf, sc, st, rbuf, rc, rt);
}

static int chain_half(ig_pair *pair, const void *sbuf, int sc, MPI_Datatype st, void *rbuf, int rc, MPI_Datatype rt)
{
    return ig_pair_allgather_algorithm(pair, "chain", 0, sbuf, sc, st, rbuf, rc, rt);
}

static int relay_half(ig_pair *pair, const void *sbuf, int sc, MPI_Datatype st, void *rbuf, int rc, MPI_Datatype rt)
{
    return ig_pair_allgather_algorithm(pair, "relay", 0, sbuf, sc, st, rbuf, rc, rt);
}

static int star_half(ig_pair *pair, const void *sbuf, int sc, MPI_Datatype st, void *rbuf, int rc, MPI_Datatype rt)
{
    return ig_pair_allgather_algorithm(pair, "star", 0, sbuf, sc, st, rbuf, rc, rt);
}

/* PMPI_Allgather on the inter-communicator: the MPI library's own. */
static int peer_native(const bench *b, const call *c)
{
#if BENCH_SMPI
    (void)b;
    (void)c;
    return MPI_ERR_OTHER; /* not reached: SMPI forces --intra */
#else
    return PMPI_Allgather(c->sbuf, c->scount, MPI_BYTE, c->rbuf, c->rcount, MPI_BYTE, b->inter);
#endif
}

/* PMPI_Iallgather + PMPI_Wait on the inter-communicator (Open MPI: libnbc). */
static int peer_iallgather(const bench *b, const call *c)
{
#if BENCH_SMPI
    (void)b;
    (void)c;
    return MPI_ERR_OTHER;
#else
    MPI_Request req;
    int rc = PMPI_Iallgather(c->sbuf, c->scount, MPI_BYTE, c->rbuf, c->rcount, MPI_BYTE, b->inter, &req);
    return rc != MPI_SUCCESS ? rc : PMPI_Wait(&req, MPI_STATUS_IGNORE);
#endif
}

/* The user's workaround: PMPI_Allgatherv on the inter-communicator merged
 * once (at setup), with counts and displacements that put the remote group's
 * blocks where inter-communicator MPI_Allgather would; every process needs a
 * receive buffer for every contributed block (its own group's go after the
 * remote group's). */
static int peer_merge_allgatherv(const bench *b, const call *c)
{
    return PMPI_Allgatherv(c->sbuf, c->mscount, c->mtype, c->rbuf, c->mcounts, c->mdispls, c->mtype, b->merged);
}

/* The baselines of bench/baselines.c, on the merged communicator (senders
 * first) and this process's own group. */
static int peer_root_gathering(const bench *b, const call *c)
{
    return bench_root_gathering(b->merged, b->side, b->p, c->sbuf, c->rbuf, c->scount > 0 ? c->scount : c->rcount);
}

static int peer_intra_ring(const bench *b, const call *c)
{
    return bench_intra_ring(b->merged, b->p, c->sbuf, c->rbuf, c->scount > 0 ? c->scount : c->rcount);
}

/* MPI_Allgather on the inter-communicator: the library's entry point (this
 * binary links libintergather), i.e. what its default decision does. */
static int peer_intergather(const bench *b, const call *c)
{
#if BENCH_SMPI
    (void)b;
    (void)c;
    return MPI_ERR_OTHER;
#else
    return MPI_Allgather(c->sbuf, c->scount, MPI_BYTE, c->rbuf, c->rcount, MPI_BYTE, b->inter);
#endif
}

/* One row per algorithm; --algos names, the CSV's algorithm column and the
 * default order come from here.  A new library algorithm with the pair
 * signature is one row, e.g.
 *   { "direct", AV_INTER | AV_INTRA | AV_HALF, ig_pair_allgather_direct, NULL, NULL, "..." },
 * Keep "native" (the inter-mode baseline), "root-gathering" (the --intra
 * half-duplex baseline) and "merge-allgatherv" (the --intra full-duplex
 * baseline). */
static const alg_desc algs[] = {
    { "native", AV_INTER | AV_HALF | AV_FULL, NULL, NULL, peer_native,
      "PMPI_Allgather on the inter-communicator (the baseline)" },
    { "fc", AV_INTER | AV_INTRA | AV_HALF | AV_FULL, ig_pair_allgather_fc, ig_pair_allgather_fd, NULL,
      "fully connected: ig_pair_allgather_fc, full duplex ig_pair_allgather_fd" },
    { "direct", AV_INTER | AV_INTRA | AV_HALF | AV_FULL, direct_half, direct_full, NULL,
      "direct: every block straight to every receiver (ig_pair_allgather_direct)" },
    { "chain", AV_INTER | AV_INTRA | AV_HALF, chain_half, NULL, NULL,
      "chain: the fully connected stages pipelined in segments (ig_pair_allgather_algorithm)" },
    { "relay", AV_INTER | AV_INTRA | AV_HALF, relay_half, NULL, NULL,
      "relay: blocks cut in q pieces, each receiver relays its own (ig_pair_allgather_algorithm)" },
    { "star", AV_INTER | AV_INTRA | AV_HALF, star_half, NULL, NULL,
      "star: p < q, whole blocks to one member of each team, then within the team (ig_pair_allgather_algorithm)" },
    { "ring-optimal", AV_INTER | AV_INTRA | AV_HALF, ring_optimal, NULL, NULL,
      "ig_pair_allgather_ring, IG_RING_OPTIMAL" },
    { "ring-paper", AV_INTER | AV_INTRA | AV_HALF, ring_paper, NULL, NULL, "ig_pair_allgather_ring, IG_RING_PAPER" },
    { "intra-ring", AV_INTER | AV_INTRA | AV_HALF, NULL, NULL, peer_intra_ring,
      "intra-group ring allgather over all p + q (bench/baselines.c)" },
    { "root-gathering", AV_INTER | AV_INTRA | AV_HALF, NULL, NULL, peer_root_gathering,
      "native's algorithm rebuilt on the merged communicator (bench/baselines.c; --intra baseline)" },
    { "iallgather", AV_INTER | AV_HALF | AV_FULL, NULL, NULL, peer_iallgather,
      "PMPI_Iallgather + PMPI_Wait on the inter-communicator" },
    { "merge-allgatherv", AV_INTER | AV_INTRA | AV_HALF | AV_FULL, NULL, NULL, peer_merge_allgatherv,
      "PMPI_Allgatherv on the merged communicator (merged at setup)" },
    { "intergather", AV_INTER | AV_HALF | AV_FULL, NULL, NULL, peer_intergather,
      "MPI_Allgather through the library (its default decision)" },
};
#define NALGS ((int)(sizeof algs / sizeof algs[0]))

static int alg_index(const char *name, size_t len)
{
    for (int a = 0; a < NALGS; a++)
        if (strlen(algs[a].name) == len && strncmp(algs[a].name, name, len) == 0)
            return a;
    return -1;
}

/* A row that claims a duplex must be able to run it. */
static int alg_row_ok(int a)
{
    const alg_desc *d = &algs[a];
    if (d->peer != NULL)
        return d->half == NULL && d->full == NULL;
    return (!(d->avail & AV_HALF) || d->half != NULL) && (!(d->avail & AV_FULL) || d->full != NULL);
}

static unsigned alg_needs(int intra, int full) { return (intra ? AV_INTRA : AV_INTER) | (full ? AV_FULL : AV_HALF); }

static int alg_available(int a, int intra, int full)
{
    unsigned need = alg_needs(intra, full);
    return (algs[a].avail & need) == need;
}

static int run_alg(const bench *b, int a, const call *c)
{
    const alg_desc *d = &algs[a];
    if (d->peer != NULL)
        return d->peer(b, c);
    pair_fn f = b->full ? d->full : d->half;
    if (f == NULL)
        return MPI_ERR_ARG;
    return f(b->pair, c->sbuf, c->scount, MPI_BYTE, c->rbuf, c->rcount, MPI_BYTE);
}

/* ------------------------------------------------------------------------ */
/* Command line                                                              */

#define MAX_IMBALANCE 1e6
#define MAX_TIERS 4 /* --iters-large tiers */

typedef struct {
    int p;            /* senders; 0 = size / 2 */
    int intra, full;
    int iters, warmup;
    /* --iters-large BYTES:N[:W],...: at each size the tier of the largest
     * BYTES <= size, if any, gives the timed calls N and the warmup W. */
    int ntiers;
    struct {
        long from;
        int iters;
        int warmup; /* W, or -1: --warmup */
    } tier[MAX_TIERS];
    int nsizes;
    long *sizes;      /* bytes per block, ascending as given */
    int nimb;
    double *imb;      /* --imbalance factors F, as given */
    unsigned long seed;
    int nalgs;
    int algs[NALGS];
    const char *csv;  /* NULL: stdout */
    const char *calls; /* --calls FILE: every balanced timed call (NULL: none) */
    const char *proc_times; /* --proc-times FILE: every process's time in every timed call (NULL: none) */
    long warm_bytes;  /* --warm-links BYTES:ROUNDS: bytes per message (0: no warm-up) */
    int warm_rounds;
    int interleave;   /* --interleave: balanced measurements in rounds of every algorithm */
    double gap;       /* --gap SECONDS: idle time before each timed call's barrier */
    int verify;       /* 0: --no-verify */
    int help;
} options;

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mpirun -np N intergather-bench [options]\n"
            "  -p P              senders (world ranks 0..P-1, group A); the other N-P processes\n"
            "                    receive (group B) (default N/2; 1 <= P <= N-1)\n"
            "  --sizes SPEC      bytes per block: a list A,B,C or a range MIN:MAX that\n"
            "                    doubles from MIN (MAX is added if the doubling skips it);\n"
            "                    suffixes K, M, G (binary; KB/KiB likewise). Default 32K:4M\n"
            "  --iters N         timed iterations per measurement (default 10)\n"
            "  --iters-large BYTES:N[:W][,BYTES:N[:W]...]  N timed iterations (and W\n"
            "                    warmup ones, default --warmup) instead at block sizes >=\n"
            "                    BYTES, the tier of the largest such BYTES applying (up to\n"
            "                    4 tiers of distinct BYTES; e.g. 64K:5,1M:3:0 with --iters\n"
            "                    48: many calls where a call takes milliseconds, few where\n"
            "                    it takes seconds; the last --iters-large given applies)\n"
            "  --warmup N        untimed iterations before an algorithm's balanced\n"
            "                    measurement at each size (default 2)\n"
            "  --algos LIST      comma-separated (default: all available in the mode), from\n"
            "                    (name, duplex, mode: inter default, intra with --intra):\n");
    for (int a = 0; a < NALGS; a++) {
        unsigned av = algs[a].avail;
        char duplex[16], modes[16];
        snprintf(duplex, sizeof duplex, "%s%s%s", (av & AV_HALF) ? "half" : "", (av & AV_HALF) && (av & AV_FULL) ? "+" : "",
                 (av & AV_FULL) ? "full" : "");
        snprintf(modes, sizeof modes, "%s%s%s", (av & AV_INTER) ? "inter" : "", (av & AV_INTER) && (av & AV_INTRA) ? "+" : "",
                 (av & AV_INTRA) ? "intra" : "");
        fprintf(f, "    %-18s %-10s %s\n      %s\n", algs[a].name, duplex, modes, algs[a].what);
    }
    fprintf(f,
            "  --duplex half|full  half (default): group A sends, group B receives; full: both\n"
            "                    groups send blocks of the same size and receive the other's\n"
            "  --imbalance LIST  arrival-pattern factors F, e.g. 0,1,4,16,64 (default 0): per\n"
            "                    size, T = the BASELINE's balanced time (native's median_s at\n"
            "                    F=0; root-gathering / merge-allgatherv with --intra), measured\n"
            "                    first at each size (even when the baseline is not in --algos;\n"
            "                    its row is then not printed), the same T for every algorithm;\n"
            "                    then before each timed call every process sleeps a random\n"
            "                    delay in [0, F*T] after a barrier (a worst-case imbalance\n"
            "                    factor omega/T of at most F, give or take the sleep's\n"
            "                    overshoot: omega_s shows the real one).  Every algorithm thus\n"
            "                    sees the same delays in seconds, and avg_proc_s is\n"
            "                    comparable across algorithms at one size and F.\n"
            "                    Rows at F=0 are printed only if 0 is in the list\n"
            "  --seed N          seed of the delays (default 1): the draws depend on the seed,\n"
            "                    world rank, block size and F only, so every algorithm sees\n"
            "                    the same arrival patterns\n"
            "  --csv FILE        write the CSV there (default: stdout)\n"
            "  --interleave      balanced measurements (F=0) in rounds: each round times every\n"
            "                    algorithm of --algos once, in the orders of a Williams\n"
            "                    design (over n rounds, 2n for odd n, each algorithm runs\n"
            "                    in every position once and right after every other one\n"
            "                    equally often), so a change in the machine's load, and\n"
            "                    what one call leaves for the next, fall on every algorithm\n"
            "                    alike (default: each algorithm's calls in a row). Warm-up\n"
            "                    calls are interleaved likewise; F > 0 is unchanged\n"
            "  --gap SECONDS     sleep this long before each timed call's barrier (default\n"
            "                    0): the network is idle when every call starts, whatever\n"
            "                    ran before it (a rate limiter's token bucket refilled,\n"
            "                    queues drained), so no call inherits another's traffic\n"
            "  --calls FILE      also write every balanced timed call there, one row each:\n"
            "                    mode,algorithm,p,q,bytes,duplex,call,seconds,position\n"
            "                    (call: its index, 0..iterations-1; with --interleave,\n"
            "                    calls with the same index ran in the same round: paired\n"
            "                    ratios; position: its place in that round, from 0; 0\n"
            "                    without --interleave)\n"
            "  --proc-times FILE every process's arrival and time in every timed call, one\n"
            "                    row each: mode,algorithm,p,q,bytes,duplex,imbalance,call,\n"
            "                    rank,group,arrival_s,seconds (group A or B; arrival after\n"
            "                    the barrier, 0 at F=0; seconds from arrival to exit: the\n"
            "                    terms of avg_proc_s).  Not for balanced calls with\n"
            "                    --interleave, which time in rounds\n"
            "  --warm-links BYTES:ROUNDS  before any measurement, ROUNDS rounds in which\n"
            "                    every process sends BYTES to every other process and\n"
            "                    receives as much from each, all at once (default: none).\n"
            "                    Over TCP a connection's send buffer and window grow only\n"
            "                    as it carries data, and a sender's call ends once its\n"
            "                    data are in those buffers: without this, the first\n"
            "                    algorithm that sends between every pair of processes\n"
            "                    (after native, which does not) runs on cold connections\n"
            "                    and the later ones on warm ones.  Each round's time goes\n"
            "                    to standard error\n"
            "  --no-verify       skip the result check (verified=skipped): saves the baseline\n"
            "                    call per size, for long runs that only time\n"
            "  --verify          check results (the default, except under SimGrid SMPI, where\n"
            "                    it also gives every rank private payload buffers)\n"
            "  --intra           no inter-communicator: the groups are built on MPI_COMM_WORLD\n"
            "                    (for SimGrid SMPI); native, iallgather and intergather are\n"
            "                    unavailable; root-gathering is the baseline (merge-allgatherv\n"
            "                    with --duplex full)\n"
            "  --help            this text\n"
            "Each iteration: barrier, [delay,] then time the call.  Every algorithm's result\n"
            "is compared byte for byte with the baseline's (native, or root-gathering /\n"
            "merge-allgatherv with --intra), on every process that receives, in a call\n"
            "before each measurement and in the measurement's last timed call (unless\n"
            "--no-verify); a mismatch gives exit status 1.\n"
            "CSV columns, one row per algorithm, size and F:\n"
            "  mode          inter or intra\n"
            "  algorithm, p, q, bytes (per block), iterations\n"
            "  min_s, median_s, max_s  over iterations of the slowest process's time in\n"
            "                the call (from its own arrival to its exit)\n"
            "  verified      yes, MISMATCH or skipped\n"
            "  duplex        half or full\n"
            "  imbalance     F\n"
            "  t_balanced_s  T, the delay unit: the baseline's median_s at F=0 for this\n"
            "                size, the same on every row of a size (each algorithm's own\n"
            "                balanced time is its median_s at F=0); with no F > 0 and the\n"
            "                baseline not in --algos, the algorithm's own median_s\n"
            "  avg_proc_s    average per-process time: mean over processes of exit time\n"
            "                minus own arrival time, averaged over iterations\n"
            "  worst_proc_s  worst per-process time: max over processes of the same,\n"
            "                averaged over iterations\n"
            "  omega_s       realized worst-case imbalance: latest minus earliest arrival\n"
            "                (clocks aligned by the barrier), averaged over iterations;\n"
            "                0 at F=0 (arrival = barrier exit by definition)\n"
            "At F=0, min_s/median_s/max_s are what they always were (barrier, then the\n"
            "call; per iteration the max over processes).\n");
}

/* A byte count with an optional binary suffix, 1 .. INT_MAX (MPI counts are int). */
static int parse_bytes(const char *s, const char *end, long *out)
{
    long long v = 0;
    const char *c = s;
    if (c == end || *c < '0' || *c > '9')
        return -1;
    for (; c < end && *c >= '0' && *c <= '9'; c++) {
        v = v * 10 + (*c - '0');
        if (v > INT_MAX)
            return -1;
    }
    long long mult = 1;
    size_t rest = (size_t)(end - c);
    if (rest > 0) {
        char u = *c;
        if (u == 'k' || u == 'K')
            mult = 1024LL;
        else if (u == 'm' || u == 'M')
            mult = 1024LL * 1024;
        else if (u == 'g' || u == 'G')
            mult = 1024LL * 1024 * 1024;
        else if (!((u == 'b' || u == 'B') && rest == 1))
            return -1;
        if (mult > 1 && !(rest == 1 || (rest == 2 && (c[1] == 'B' || c[1] == 'b')) ||
                          (rest == 3 && c[1] == 'i' && (c[2] == 'B' || c[2] == 'b'))))
            return -1;
    }
    v *= mult;
    if (v < 1 || v > INT_MAX)
        return -1;
    *out = (long)v;
    return 0;
}

static int parse_int(const char *s, int min, int *out)
{
    long long v = 0;
    if (*s == '\0')
        return -1;
    for (const char *c = s; *c; c++) {
        if (*c < '0' || *c > '9')
            return -1;
        v = v * 10 + (*c - '0');
        if (v > INT_MAX)
            return -1;
    }
    if (v < min)
        return -1;
    *out = (int)v;
    return 0;
}

/* One tier BYTES:N[:W] of --iters-large, the text from s to end. */
static int parse_tier(const char *s, const char *end, long *from, int *iters, int *warmup)
{
    char text[64];
    size_t len = (size_t)(end - s);
    if (len >= sizeof text)
        return -1;
    memcpy(text, s, len);
    text[len] = '\0';
    char *colon = strchr(text, ':'), *colon2 = colon != NULL ? strchr(colon + 1, ':') : NULL;
    if (colon == NULL || parse_bytes(text, colon, from) != 0)
        return -1;
    if (colon2 != NULL)
        *colon2 = '\0';
    *warmup = -1;
    return parse_int(colon + 1, 1, iters) != 0 || (colon2 != NULL && parse_int(colon2 + 1, 0, warmup) != 0) ? -1 : 0;
}

/* --iters-large: comma-separated tiers of distinct BYTES, which replace
 * those of an earlier --iters-large (the last one given applies, as for
 * every other option). */
static int parse_tiers(const char *v, options *o)
{
    o->ntiers = 0;
    for (const char *s = v;;) {
        const char *comma = strchr(s, ',');
        const char *end = comma != NULL ? comma : s + strlen(s);
        if (o->ntiers == MAX_TIERS)
            return -1;
        if (parse_tier(s, end, &o->tier[o->ntiers].from, &o->tier[o->ntiers].iters, &o->tier[o->ntiers].warmup) != 0)
            return -1;
        for (int t = 0; t < o->ntiers; t++)
            if (o->tier[t].from == o->tier[o->ntiers].from)
                return -1;
        o->ntiers++;
        if (comma == NULL)
            return 0;
        s = comma + 1;
    }
}

/* The timed and warmup calls at a block size: the tier of the largest
 * BYTES <= bytes, whatever the order the tiers were given in. */
static void tier_at(const options *o, long bytes, int *iters, int *warmup)
{
    long best = -1;
    for (int t = 0; t < o->ntiers; t++)
        if (bytes >= o->tier[t].from && o->tier[t].from > best) {
            best = o->tier[t].from;
            *iters = o->tier[t].iters;
            *warmup = o->tier[t].warmup >= 0 ? o->tier[t].warmup : o->warmup;
        }
}

static int add_size(options *o, long bytes)
{
    long *grown = realloc(o->sizes, (size_t)(o->nsizes + 1) * sizeof *grown);
    if (grown == NULL)
        return -1;
    o->sizes = grown;
    o->sizes[o->nsizes++] = bytes;
    return 0;
}

static int parse_sizes(const char *spec, options *o, char *err, size_t errlen)
{
    const char *colon = strchr(spec, ':');
    o->nsizes = 0;
    if (colon != NULL) {
        long lo, hi;
        if (parse_bytes(spec, colon, &lo) != 0 || parse_bytes(colon + 1, colon + strlen(colon), &hi) != 0) {
            snprintf(err, errlen, "--sizes %s: expected MIN:MAX, each 1..%d bytes with an optional K/M/G suffix",
                     spec, INT_MAX);
            return -1;
        }
        if (lo > hi) {
            snprintf(err, errlen, "--sizes %s: MIN is larger than MAX", spec);
            return -1;
        }
        long b = lo;
        for (; b <= hi; b *= 2) {
            if (add_size(o, b) != 0)
                return -1;
            if (b > hi / 2)
                break;
        }
        if (o->sizes[o->nsizes - 1] != hi && add_size(o, hi) != 0)
            return -1;
        return 0;
    }
    const char *item = spec;
    for (;;) {
        const char *end = strchr(item, ',');
        if (end == NULL)
            end = item + strlen(item);
        long b;
        if (parse_bytes(item, end, &b) != 0) {
            snprintf(err, errlen, "--sizes %s: '%.*s' is not a byte count 1..%d (suffixes K, M, G)", spec,
                     (int)(end - item), item, INT_MAX);
            return -1;
        }
        if (add_size(o, b) != 0)
            return -1;
        if (*end == '\0')
            return 0;
        item = end + 1;
    }
}

/* A list of factors 0 <= F <= MAX_IMBALANCE, decimals allowed; duplicates dropped. */
static int parse_imbalance(const char *spec, options *o, char *err, size_t errlen)
{
    const char *item = spec;
    o->nimb = 0;
    for (;;) {
        const char *end = strchr(item, ',');
        if (end == NULL)
            end = item + strlen(item);
        char *stop = NULL;
        double f = (item < end && ((*item >= '0' && *item <= '9') || *item == '.')) ? strtod(item, &stop) : -1;
        if (stop != end || !(f >= 0 && f <= MAX_IMBALANCE)) {
            snprintf(err, errlen, "--imbalance %s: '%.*s' is not a factor 0..%g", spec, (int)(end - item), item,
                     MAX_IMBALANCE);
            return -1;
        }
        int dup = 0;
        for (int i = 0; i < o->nimb; i++)
            dup |= o->imb[i] == f;
        if (!dup) {
            double *grown = realloc(o->imb, (size_t)(o->nimb + 1) * sizeof *grown);
            if (grown == NULL) {
                snprintf(err, errlen, "out of memory parsing --imbalance");
                return -1;
            }
            o->imb = grown;
            o->imb[o->nimb++] = f;
        }
        if (*end == '\0')
            return 0;
        item = end + 1;
    }
}

static int parse_algos(const char *spec, options *o, char *err, size_t errlen)
{
    const char *item = spec;
    o->nalgs = 0;
    for (;;) {
        const char *end = strchr(item, ',');
        if (end == NULL)
            end = item + strlen(item);
        size_t len = (size_t)(end - item);
        int found = alg_index(item, len);
        if (found < 0) {
            int n = snprintf(err, errlen, "--algos: unknown algorithm '%.*s' (known:", (int)len, item);
            for (int a = 0; a < NALGS && n >= 0 && (size_t)n < errlen; a++)
                n += snprintf(err + n, errlen - (size_t)n, " %s", algs[a].name);
            if (n >= 0 && (size_t)n < errlen)
                snprintf(err + n, errlen - (size_t)n, ")");
            return -1;
        }
        int dup = 0;
        for (int i = 0; i < o->nalgs; i++)
            dup |= o->algs[i] == found;
        if (!dup)
            o->algs[o->nalgs++] = found;
        if (*end == '\0')
            return 0;
        item = end + 1;
    }
}

/* An option that names an output file: any name but an empty one. */
static int file_option(const char *option, const char *v, const char **out, char *err, size_t errlen)
{
    if (*v == '\0') {
        snprintf(err, errlen, "%s needs a file name", option);
        return -1;
    }
    *out = v;
    return 0;
}

/* Every process parses the same argv, so every process reaches the same verdict. */
static int parse_args(int argc, char **argv, int size, options *o, char *err, size_t errlen)
{
    const char *sizes = NULL, *algos = NULL, *imbalance = NULL;
    memset(o, 0, sizeof *o);
    o->iters = 10;
    o->warmup = 2;
    o->seed = 1;
    o->verify = !BENCH_SMPI;
    for (int a = 0; a < NALGS; a++)
        if (!alg_row_ok(a)) {
            snprintf(err, errlen, "algorithm table: row '%s' claims a duplex it has no function for", algs[a].name);
            return -1;
        }
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        int has_value = i + 1 < argc;
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) {
            o->help = 1;
            return 0;
        } else if (strcmp(a, "--intra") == 0) {
            o->intra = 1;
        } else if (strcmp(a, "--no-verify") == 0) {
            o->verify = 0;
        } else if (strcmp(a, "--verify") == 0) {
            o->verify = 1;
        } else if (strcmp(a, "--interleave") == 0) {
            o->interleave = 1;
        } else if (strcmp(a, "-p") == 0 || strcmp(a, "--iters") == 0 || strcmp(a, "--warmup") == 0 ||
                   strcmp(a, "--sizes") == 0 || strcmp(a, "--algos") == 0 || strcmp(a, "--csv") == 0 ||
                   strcmp(a, "--duplex") == 0 || strcmp(a, "--imbalance") == 0 || strcmp(a, "--seed") == 0 ||
                   strcmp(a, "--iters-large") == 0 || strcmp(a, "--calls") == 0 || strcmp(a, "--proc-times") == 0 ||
                   strcmp(a, "--gap") == 0 || strcmp(a, "--warm-links") == 0) {
            if (!has_value) {
                snprintf(err, errlen, "%s needs a value", a);
                return -1;
            }
            const char *v = argv[++i];
            int seed = 0;
            if (strcmp(a, "-p") == 0 && parse_int(v, 1, &o->p) != 0) {
                snprintf(err, errlen, "-p %s: expected a number of senders >= 1", v);
                return -1;
            } else if (strcmp(a, "--iters") == 0 && parse_int(v, 1, &o->iters) != 0) {
                snprintf(err, errlen, "--iters %s: expected an integer >= 1", v);
                return -1;
            } else if (strcmp(a, "--iters-large") == 0 && parse_tiers(v, o) != 0) {
                snprintf(err, errlen,
                         "--iters-large %s: expected up to %d tiers BYTES:N or BYTES:N:W of distinct BYTES, "
                         "comma-separated, e.g. 64K:5,1M:3:0",
                         v, MAX_TIERS);
                return -1;
            } else if (strcmp(a, "--warmup") == 0 && parse_int(v, 0, &o->warmup) != 0) {
                snprintf(err, errlen, "--warmup %s: expected an integer >= 0", v);
                return -1;
            } else if (strcmp(a, "--seed") == 0) {
                if (parse_int(v, 0, &seed) != 0) {
                    snprintf(err, errlen, "--seed %s: expected an integer >= 0", v);
                    return -1;
                }
                o->seed = (unsigned long)seed;
            } else if (strcmp(a, "--duplex") == 0) {
                if (strcmp(v, "half") == 0) {
                    o->full = 0;
                } else if (strcmp(v, "full") == 0) {
                    o->full = 1;
                } else {
                    snprintf(err, errlen, "--duplex %s: expected half or full", v);
                    return -1;
                }
            } else if (strcmp(a, "--sizes") == 0) {
                sizes = v;
            } else if (strcmp(a, "--algos") == 0) {
                algos = v;
            } else if (strcmp(a, "--imbalance") == 0) {
                imbalance = v;
            } else if (strcmp(a, "--csv") == 0) {
                if (file_option(a, v, &o->csv, err, errlen) != 0)
                    return -1;
            } else if (strcmp(a, "--gap") == 0) {
                char *end = NULL;
                o->gap = strtod(v, &end);
                if (end == v || *end != '\0' || !(o->gap >= 0 && o->gap <= 10)) {
                    snprintf(err, errlen, "--gap %s: expected seconds from 0 to 10, e.g. 0.02", v);
                    return -1;
                }
            } else if (strcmp(a, "--calls") == 0) {
                if (file_option(a, v, &o->calls, err, errlen) != 0)
                    return -1;
            } else if (strcmp(a, "--warm-links") == 0) {
                const char *colon = strchr(v, ':');
                if (colon == NULL || parse_bytes(v, colon, &o->warm_bytes) != 0 ||
                    parse_int(colon + 1, 1, &o->warm_rounds) != 0) {
                    snprintf(err, errlen, "--warm-links %s: expected BYTES:ROUNDS, e.g. 1M:3", v);
                    return -1;
                }
            } else if (strcmp(a, "--proc-times") == 0) {
                if (file_option(a, v, &o->proc_times, err, errlen) != 0)
                    return -1;
            }
        } else {
            snprintf(err, errlen, "unknown argument '%s' (see --help)", a);
            return -1;
        }
    }
#if BENCH_SMPI
    o->intra = 1; /* SMPI has no inter-communicators */
#endif
    if (size < 2) {
        snprintf(err, errlen, "needs at least 2 processes (1 sender, 1 receiver), got %d", size);
        return -1;
    }
    if (o->p == 0)
        o->p = size / 2;
    if (o->p >= size) {
        snprintf(err, errlen, "-p %d: with %d processes the senders must number 1..%d", o->p, size, size - 1);
        return -1;
    }
    if (parse_sizes(sizes != NULL ? sizes : "32K:4M", o, err, errlen) != 0) {
        if (err[0] == '\0')
            snprintf(err, errlen, "out of memory parsing --sizes");
        return -1;
    }
    if (parse_imbalance(imbalance != NULL ? imbalance : "0", o, err, errlen) != 0)
        return -1;
    if (algos != NULL) {
        if (parse_algos(algos, o, err, errlen) != 0)
            return -1;
        for (int i = 0; i < o->nalgs; i++) {
            const alg_desc *d = &algs[o->algs[i]];
            if (o->intra && !(d->avail & AV_INTRA)) {
                snprintf(err, errlen, "--algos %s: needs an inter-communicator, unavailable with --intra%s%s", d->name,
                         BENCH_SMPI ? " (always on under SMPI)" : "",
                         strcmp(d->name, "native") == 0 ? " (root-gathering is the same algorithm on the pair)" : "");
                return -1;
            }
            if (!(d->avail & (o->full ? AV_FULL : AV_HALF))) {
                snprintf(err, errlen, "--algos %s: not available with --duplex %s", d->name, o->full ? "full" : "half");
                return -1;
            }
        }
    } else {
        for (int a = 0; a < NALGS; a++)
            if (alg_available(a, o->intra, o->full))
                o->algs[o->nalgs++] = a;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Data                                                                      */

/* Byte i of world rank s's block for a given block size: distinct across
 * senders, offsets and sizes, so misplaced or stale data shows. */
static unsigned char pattern(int s, size_t i, long bytes)
{
    uint32_t x = (uint32_t)s * 0x9E3779B1u ^ (uint32_t)i * 0x85EBCA77u ^ (uint32_t)((uint64_t)i >> 32) ^ (uint32_t)bytes;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 13;
    return (unsigned char)x;
}

/* Delays: splitmix64, its state on the caller's stack.  The stream of a
 * process depends on the seed, its world rank, the block size and F only. */
static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static uint64_t delay_stream(unsigned long seed, int rank, int bytes, double f)
{
    uint64_t fbits;
    memcpy(&fbits, &f, sizeof fbits);
    uint64_t s = mix64((uint64_t)seed + 0x9E3779B97F4A7C15ULL);
    s = mix64(s ^ ((uint64_t)(unsigned)rank << 1));
    s = mix64(s ^ (uint64_t)(unsigned)bytes);
    return mix64(s ^ fbits);
}

/* Uniform in [0, 1). */
static double next_unit(uint64_t *state)
{
    *state += 0x9E3779B97F4A7C15ULL;
    return (double)(mix64(*state) >> 11) * (1.0 / 9007199254740992.0);
}

/* Sleep (not spin: the processes share few cores) until MPI_Wtime() reaches
 * target.  Under SMPI nanosleep is simulated, like MPI_Wtime. */
static void sleep_until(double target)
{
    for (;;) {
        double left = target - MPI_Wtime();
        if (!(left > 0))
            return;
        struct timespec ts;
        ts.tv_sec = (time_t)left;
        ts.tv_nsec = (long)((left - (double)ts.tv_sec) * 1e9);
        if (ts.tv_nsec > 999999999L)
            ts.tv_nsec = 999999999L;
        if (ts.tv_sec == 0 && ts.tv_nsec == 0)
            return;
        nanosleep(&ts, NULL);
    }
}

/* ------------------------------------------------------------------------ */
/* MPI                                                                       */

static void check_mpi(int rc, const char *what, int rank)
{
    if (rc == MPI_SUCCESS)
        return;
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    fprintf(stderr, "intergather-bench: world rank %d: %s failed: %s\n", rank, what, msg);
    MPI_Abort(MPI_COMM_WORLD, EXIT_MPI);
}

static int setup(bench *b, const options *o)
{
    MPI_Comm_rank(MPI_COMM_WORLD, &b->rank);
    MPI_Comm_size(MPI_COMM_WORLD, &b->size);
    b->p = o->p;
    b->q = b->size - o->p;
    b->is_sender = b->rank < b->p;
    b->intra = o->intra;
    b->full = o->full;
    b->gap = o->gap;
    b->sends = o->full || b->is_sender;
    b->nremote = b->is_sender ? (o->full ? b->q : 0) : b->p;
    b->remote0 = b->is_sender ? b->p : 0;
    b->inter = MPI_COMM_NULL;
    b->merged = MPI_COMM_NULL;
    b->side = MPI_COMM_NULL;
    b->pair = NULL;
    const char *base = !o->intra ? "native" : o->full ? "merge-allgatherv" : "root-gathering";
    b->baseline = alg_index(base, strlen(base));
    if (b->baseline < 0)
        return MPI_ERR_OTHER;
    if (o->intra) {
        int rc = ig_pair_create(MPI_COMM_WORLD, b->p, &b->pair);
        if (rc == MPI_SUCCESS)
            rc = MPI_Comm_dup(MPI_COMM_WORLD, &b->merged);
        return rc == MPI_SUCCESS ? MPI_Comm_split(b->merged, b->is_sender, b->rank, &b->side) : rc;
    }
#if BENCH_SMPI
    return MPI_ERR_OTHER; /* not reached: SMPI forces --intra */
#else
    MPI_Comm local;
    int rc = MPI_Comm_split(MPI_COMM_WORLD, b->is_sender ? 0 : 1, b->rank, &local);
    if (rc == MPI_SUCCESS)
        rc = MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, b->is_sender ? b->p : 0, 4242, &b->inter);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_free(&local);
    /* high = receiver: the merged order is senders first, as a pair needs
     * (and merge-allgatherv's counts assume). */
    if (rc == MPI_SUCCESS)
        rc = MPI_Intercomm_merge(b->inter, !b->is_sender, &b->merged);
    if (rc == MPI_SUCCESS)
        rc = ig_pair_create(b->merged, b->p, &b->pair);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_split(b->merged, b->is_sender, b->rank, &b->side);
    return rc;
#endif
}

/* --warm-links: `rounds` rounds of every process sending `bytes` to every
 * other process at once (sends staggered from the next rank on), so that
 * every TCP connection the measurements use has carried data before the
 * first of them (collective on MPI_COMM_WORLD). */
static void warm_links(const bench *b, long bytes, int rounds)
{
    int n = b->size;
    char *sbuf = calloc((size_t)bytes, 1), *rbuf = malloc((size_t)bytes * (size_t)n);
    MPI_Request *reqs = malloc(2 * (size_t)n * sizeof *reqs);
    if (sbuf == NULL || rbuf == NULL || reqs == NULL)
        check_mpi(MPI_ERR_NO_MEM, "--warm-links", b->rank);
    for (int r = 0; r < rounds; r++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        for (int k = 1; k < n; k++) {
            int from = (b->rank - k + n) % n, to = (b->rank + k) % n;
            check_mpi(MPI_Irecv(rbuf + (size_t)from * (size_t)bytes, (int)bytes, MPI_BYTE, from, 4243, MPI_COMM_WORLD,
                                &reqs[2 * k]),
                      "--warm-links", b->rank);
            check_mpi(MPI_Isend(sbuf, (int)bytes, MPI_BYTE, to, 4243, MPI_COMM_WORLD, &reqs[2 * k + 1]),
                      "--warm-links", b->rank);
        }
        check_mpi(MPI_Waitall(2 * (n - 1), reqs + 2, MPI_STATUSES_IGNORE), "--warm-links", b->rank);
        double t = MPI_Wtime() - t0, slowest = 0;
        MPI_Reduce(&t, &slowest, 1, MPI_DOUBLE, MPI_MAX, 0, MPI_COMM_WORLD);
        if (b->rank == 0)
            fprintf(stderr, "warm-links: round %d of %d, %ld bytes to each of %d processes: %.3f ms\n", r + 1, rounds,
                    bytes, n - 1, 1e3 * slowest);
    }
    free(reqs);
    free(rbuf);
    free(sbuf);
}

static void teardown(bench *b)
{
    ig_pair_free(&b->pair);
    if (b->side != MPI_COMM_NULL)
        MPI_Comm_free(&b->side);
    if (b->merged != MPI_COMM_NULL)
        MPI_Comm_free(&b->merged);
    if (b->inter != MPI_COMM_NULL)
        MPI_Comm_free(&b->inter);
}

/* merge-allgatherv's arguments at one block size: merged rank r contributes
 * a block if it sends; this process places the remote group's blocks first,
 * in order (where inter-communicator MPI_Allgather puts them), then its own
 * group's.  In bytes if every displacement fits in an int, else in units of
 * a contiguous block type (*type, to be freed by the caller). */
static int merge_args(const bench *b, int bytes, int *counts, int *displs, MPI_Datatype *type, int *scount)
{
    int mblocks = b->full ? b->size : b->p, unit = bytes;
    *type = MPI_BYTE;
    if ((long long)mblocks * bytes > INT_MAX) {
        int rc = MPI_Type_contiguous(bytes, MPI_BYTE, type);
        if (rc == MPI_SUCCESS)
            rc = MPI_Type_commit(type);
        if (rc != MPI_SUCCESS)
            return rc;
        unit = 1;
    }
    for (int r = 0; r < b->size; r++) {
        int in_a = r < b->p, contributes = b->full || in_a, idx = in_a ? r : r - b->p;
        counts[r] = contributes ? unit : 0;
        displs[r] = !contributes ? 0 : (in_a == b->is_sender ? b->nremote + idx : idx) * unit;
    }
    *scount = b->sends ? unit : 0;
    return MPI_SUCCESS;
}

static int compare_doubles(const void *x, const void *y)
{
    double a = *(const double *)x, c = *(const double *)y;
    return (a > c) - (a < c);
}

/* Poison the receive buffer so that bytes an algorithm fails to write show:
 * each poisoned byte differs from the reference byte at that place. */
static void poison(unsigned char *rbuf, const unsigned char *ref, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rbuf[i] = (unsigned char)~ref[i];
}

/* 1 if every receiving process's buffer starts with its reference, on every process. */
static int all_equal(const unsigned char *rbuf, const unsigned char *ref, size_t n)
{
    int local = n == 0 || memcmp(rbuf, ref, n) == 0, global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return global;
}

typedef struct {
    double min, median, max; /* over iterations of the slowest process's time */
    double avg_proc;         /* mean over iterations of the mean over processes */
    double worst_proc;       /* mean over iterations of the max over processes */
    double omega;            /* mean over iterations of latest minus earliest arrival */
    int last_ok;             /* the last timed call's result matched the reference (1 if not checked) */
} stats;

/* One untimed call after a barrier: a warm-up, or the check before a
 * measurement. */
static void untimed_call(const bench *b, int a, const call *c)
{
    MPI_Barrier(MPI_COMM_WORLD);
    check_mpi(run_alg(b, a, c), algs[a].name, b->rank);
}

/* One timed call: the --gap pause, a barrier (aligns the clocks), then, if
 * d > 0, a sleep of d seconds, then the call.  *e gets the time from this
 * process's arrival to its exit, *arr its arrival after the barrier. */
static void timed_call(const bench *b, int a, const call *c, double d, double *e, double *arr)
{
    if (b->gap > 0)
        sleep_until(MPI_Wtime() + b->gap);
    MPI_Barrier(MPI_COMM_WORLD);
    double t0 = MPI_Wtime(), ta = t0;
    if (d > 0) {
        sleep_until(t0 + d);
        ta = MPI_Wtime();
    }
    check_mpi(run_alg(b, a, c), algs[a].name, b->rank);
    *e = MPI_Wtime() - ta;
    *arr = ta - t0;
}

/* The statistics of n timed calls from each process's times e[] and
 * arrivals arr[] (collective).  w: scratch of 7 n doubles.  per_call, if not
 * NULL, gets every call's slowest process's time, in call order. */
static stats summarize(int n, const double *e, const double *arr, double *w, double *per_call)
{
    double *sum = w, *mx_in = w + n, *mx = w + 4 * n;
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int i = 0; i < n; i++) {
        mx_in[i] = e[i];
        mx_in[n + i] = arr[i];
        mx_in[2 * n + i] = -arr[i];
    }
    MPI_Allreduce(e, sum, n, MPI_DOUBLE, MPI_SUM, MPI_COMM_WORLD);
    MPI_Allreduce(mx_in, mx, 3 * n, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    stats s = { 0, 0, 0, 0, 0, 0, 1 };
    for (int i = 0; i < n; i++) {
        s.avg_proc += sum[i] / size;
        s.worst_proc += mx[i];
        s.omega += mx[n + i] + mx[2 * n + i];
    }
    s.avg_proc /= n;
    s.worst_proc /= n;
    s.omega /= n;
    if (per_call != NULL)
        memcpy(per_call, mx, (size_t)n * sizeof *mx);
    qsort(mx, (size_t)n, sizeof *mx, compare_doubles);
    s.min = mx[0];
    s.median = n % 2 ? mx[n / 2] : 0.5 * (mx[n / 2 - 1] + mx[n / 2]);
    s.max = mx[n - 1];
    return s;
}

/* warmup untimed calls (if asked), then n timed ones (timed_call), each
 * after a delay uniform in [0, delay_max] drawn from rng.  w holds 9 n
 * doubles; per_call as in summarize.  With verify (the same on every process;
 * ref and rbytes the process's reference, which may be empty), the last timed
 * call's receive buffer is poisoned before its barrier and compared after
 * the loop, both outside the timed region: so a call made under the
 * measurement's own arrival pattern is checked, not only the balanced one
 * before it. */
static stats measure(const bench *b, int n, int a, const call *c, int warmup, double delay_max, uint64_t rng,
                     double *w, int verify, const unsigned char *ref, size_t rbytes, double *per_call)
{
    double *e = w, *arr = w + n;
    for (int i = 0; i < warmup; i++)
        untimed_call(b, a, c);
    for (int i = 0; i < n; i++) {
        double d = delay_max > 0 ? next_unit(&rng) * delay_max : 0;
        if (verify && i == n - 1 && rbytes > 0)
            poison(c->rbuf, ref, rbytes);
        timed_call(b, a, c, d, &e[i], &arr[i]);
    }
    int last_ok = verify ? all_equal(c->rbuf, ref, rbytes) : 1;
    stats s = summarize(n, e, arr, w + 2 * n, per_call);
    s.last_ok = last_ok;
    return s;
}

/* Opens an optional output file (name NULL: none, *f stays NULL); 0 if it
 * could not be opened (reported). */
static int open_optional(const char *name, FILE **f)
{
    *f = NULL;
    if (name == NULL)
        return 1;
    *f = fopen(name, "w");
    if (*f == NULL)
        perror(name);
    return *f != NULL;
}

/* Every process's arrival and time in the n timed calls just measured
 * (e[], arr[] as measure leaves them), gathered to rank 0 and written
 * there, one row per call and process (--proc-times; collective). */
static void write_proc_times(const bench *b, FILE *f, int a, int bytes, double imbalance, int n, const double *e,
                             const double *arr)
{
    int size = b->size;
    double *mine = malloc(2 * (size_t)n * sizeof *mine), *all = NULL;
    if (mine == NULL)
        check_mpi(MPI_ERR_NO_MEM, "--proc-times", b->rank);
    memcpy(mine, e, (size_t)n * sizeof *mine);
    memcpy(mine + n, arr, (size_t)n * sizeof *mine);
    if (b->rank == 0 && (all = malloc(2 * (size_t)n * (size_t)size * sizeof *all)) == NULL)
        check_mpi(MPI_ERR_NO_MEM, "--proc-times", b->rank);
    check_mpi(MPI_Gather(mine, 2 * n, MPI_DOUBLE, all, 2 * n, MPI_DOUBLE, 0, MPI_COMM_WORLD), "--proc-times",
              b->rank);
    for (int r = 0; b->rank == 0 && r < size; r++)
        for (int i = 0; i < n; i++)
            fprintf(f, "%s,%s,%d,%d,%d,%s,%g,%d,%d,%s,%.9f,%.9f\n", b->intra ? "intra" : "inter", algs[a].name, b->p,
                    b->q, bytes, b->full ? "full" : "half", imbalance, i, r, r < b->p ? "A" : "B",
                    all[(size_t)r * 2 * (size_t)n + (size_t)n + (size_t)i], all[(size_t)r * 2 * (size_t)n + (size_t)i]);
    if (b->rank == 0)
        fflush(f);
    free(all);
    free(mine);
}

/* 1 if algorithm a's result equals the reference on every process
 * (collective); for the baseline, its own check base_ok. */
static int verify_alg(const bench *b, int a, const call *c, int base_ok, const unsigned char *ref, size_t rbytes)
{
    if (a == b->baseline)
        return base_ok;
    if (rbytes > 0)
        poison(c->rbuf, ref, rbytes);
    untimed_call(b, a, c);
    return all_equal(c->rbuf, ref, rbytes);
}

/* --interleave's order.  Round r calls the n algorithms in the order of row
 * r of a Williams design, a Latin square balanced for carryover: over every
 * n rounds (2 n for odd n, whose second n rows are the first n reversed)
 * each algorithm runs once in every position and right after every other
 * algorithm equally often.  A plain rotation (start at the (r mod n)-th)
 * puts every algorithm after the same one in all but one round of n, and
 * whatever that one leaves behind (the scheduler's, the transport's or the
 * caches' state) falls on one algorithm only: on the emulated cluster at 16
 * processes, MPI_Iallgather measured 3.1 ms after native and 4.0 ms after
 * intergather, the same call.  Row 0 is 0, 1, n-1, 2, n-2, ...; row r adds
 * r (mod n).  Returns the algorithm (its index among the n) at position k. */
static int round_slot(int n, int round, int k)
{
    int rows = n % 2 ? 2 * n : n, r = round % rows;
    if (r >= n)
        k = n - 1 - k;
    int first_row = k == 0 ? 0 : k % 2 ? (k + 1) / 2 : n - k / 2;
    return (first_row + r) % n;
}

/* The position of algorithm j (its index among the n) in round `round`. */
static int round_position(int n, int round, int j)
{
    for (int k = 0; k < n; k++)
        if (round_slot(n, round, k) == j)
            return k;
    return -1; /* not reached: every row is a permutation */
}

/* --interleave: the balanced measurements of the nalgs algorithms alg[] at
 * once, into out[j].  Round i (warm-up rounds first, from row 0 too) calls
 * every algorithm once, in round_slot's order, so that no algorithm always
 * follows the same one and a drift in load is shared.  With verify, each
 * algorithm's call in the last round is checked as in measure (the check, a
 * collective, runs between that call and the next barrier, outside every
 * timed region).  times: scratch of 2 nalgs n doubles; per_call: nalgs * n
 * doubles, algorithm j's at j * n. */
static void measure_interleaved(const bench *b, int nalgs, const int *alg, int n, const call *c, int warmup,
                                double *w, double *times, int verify, const unsigned char *ref, size_t rbytes,
                                stats *out, double *per_call)
{
    int last_ok[NALGS] = { 0 };
    for (int i = 0; i < warmup; i++)
        for (int k = 0; k < nalgs; k++)
            untimed_call(b, alg[round_slot(nalgs, i, k)], c);
    for (int i = 0; i < n; i++)
        for (int k = 0; k < nalgs; k++) {
            int j = round_slot(nalgs, i, k);
            double *e = times + 2 * (size_t)j * (size_t)n, *arr = e + n;
            int check = verify && i == n - 1;
            if (check && rbytes > 0)
                poison(c->rbuf, ref, rbytes);
            timed_call(b, alg[j], c, 0, &e[i], &arr[i]);
            if (check)
                last_ok[j] = all_equal(c->rbuf, ref, rbytes);
        }
    for (int j = 0; j < nalgs; j++) {
        double *e = times + 2 * (size_t)j * (size_t)n;
        out[j] = summarize(n, e, e + n, w, per_call + (size_t)j * (size_t)n);
        out[j].last_ok = verify ? last_ok[j] : 1;
    }
}

/* ------------------------------------------------------------------------ */

/* One table: per size and algorithm, val[s * row_stride + j] in ms, with the
 * ratio baseline/algorithm when the baseline is among the columns. */
static void print_table(const bench *b, const options *o, const char *title, const double *val, int row_stride)
{
    int base_col = -1;
    for (int j = 0; j < o->nalgs; j++)
        if (o->algs[j] == b->baseline)
            base_col = j;
    fprintf(stderr, "\nsummary: %s%s, p=%d q=%d, %s mode, %s duplex\n", title,
            base_col >= 0 ? " and speed-up baseline/algorithm" : "", b->p, b->q, b->intra ? "intra" : "inter",
            b->full ? "full" : "half");
    fprintf(stderr, "%10s", "bytes");
    for (int j = 0; j < o->nalgs; j++)
        fprintf(stderr, " %20s", algs[o->algs[j]].name);
    fprintf(stderr, "\n");
    for (int s = 0; s < o->nsizes; s++) {
        fprintf(stderr, "%10ld", o->sizes[s]);
        for (int j = 0; j < o->nalgs; j++) {
            double m = val[s * row_stride + j];
            char cell[40];
            if (base_col >= 0 && m > 0)
                snprintf(cell, sizeof cell, "%.3f (%.2fx)", 1e3 * m, val[s * row_stride + base_col] / m);
            else
                snprintf(cell, sizeof cell, "%.3f", 1e3 * m);
            fprintf(stderr, " %20s", cell);
        }
        fprintf(stderr, "\n");
    }
}

static void print_summary(const bench *b, const options *o, const double *med, const double *avgp)
{
    print_table(b, o, "median time per call (ms), balanced (F=0)", med, o->nalgs);
    for (int k = 0; k < o->nimb; k++) {
        if (o->imb[k] == 0)
            continue;
        char title[96];
        snprintf(title, sizeof title, "average per-process time (ms), imbalance F=%g", o->imb[k]);
        print_table(b, o, title, avgp + (size_t)k * (size_t)o->nalgs, o->nimb * o->nalgs);
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    options o;
    char err[512] = "";
    if (parse_args(argc, argv, size, &o, err, sizeof err) != 0 || o.help) {
        if (rank == 0) {
            if (o.help)
                usage(stdout);
            else
                fprintf(stderr, "intergather-bench: %s\n", err);
        }
        free(o.sizes);
        free(o.imb);
        MPI_Finalize();
        return o.help ? 0 : EXIT_USAGE;
    }

    /* The CSV files open on rank 0 only; everyone learns whether they did. */
    FILE *csv = NULL, *calls = NULL, *proc_times = NULL;
    int csv_ok = 1;
    if (rank == 0) {
        csv = o.csv != NULL ? fopen(o.csv, "w") : stdout;
        csv_ok = csv != NULL;
        if (!csv_ok)
            perror(o.csv);
        csv_ok = csv_ok && open_optional(o.calls, &calls) && open_optional(o.proc_times, &proc_times);
        if (!csv_ok) {
            if (csv != NULL && csv != stdout)
                fclose(csv);
            if (calls != NULL)
                fclose(calls);
        }
    }
    MPI_Bcast(&csv_ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!csv_ok) {
        free(o.sizes);
        free(o.imb);
        MPI_Finalize();
        return EXIT_USAGE;
    }

    bench b;
    check_mpi(setup(&b, &o), "setting up the groups", rank);
    if (o.warm_bytes > 0)
        warm_links(&b, o.warm_bytes, o.warm_rounds);

    long max_bytes = 0;
    for (int s = 0; s < o.nsizes; s++)
        if (o.sizes[s] > max_bytes)
            max_bytes = o.sizes[s];
    /* merge-allgatherv receives every contributed block, its own group's too. */
    int need_merge = 0, merge_alg = alg_index("merge-allgatherv", strlen("merge-allgatherv"));
    for (int j = 0; j < o.nalgs; j++)
        need_merge |= o.algs[j] == merge_alg;
    need_merge |= o.verify && b.baseline == merge_alg;
    size_t rblocks = (size_t)b.nremote, mblocks = (size_t)(b.full ? b.size : b.p);
    if (need_merge && mblocks > rblocks)
        rblocks = mblocks;
    size_t recv_max = (size_t)b.nremote * (size_t)max_bytes, rcap = rblocks * (size_t)max_bytes;
    size_t scap = b.sends ? (size_t)max_bytes : 0;
    /* Never NULL, even where nothing is sent or received. */
    unsigned char *sbuf = payload_alloc(scap > 0 ? scap : 1, o.verify);
    unsigned char *rbuf = payload_alloc(rcap > 0 ? rcap : 1, o.verify), *ref = NULL;
    int alloc_ok = sbuf != NULL && rbuf != NULL;
    if (alloc_ok && !BENCH_SMPI)
        memset(sbuf, 0, scap > 0 ? scap : 1); /* defined bytes even with --no-verify */
    if (o.verify && recv_max > 0) {
        ref = malloc(recv_max);
        alloc_ok = alloc_ok && ref != NULL;
    }
    int *mcounts = malloc((size_t)b.size * sizeof *mcounts), *mdispls = malloc((size_t)b.size * sizeof *mdispls);
    int max_iters = o.iters;
    for (int t = 0; t < o.ntiers; t++)
        max_iters = o.tier[t].iters > max_iters ? o.tier[t].iters : max_iters;
    double *w = malloc(9 * (size_t)max_iters * sizeof *w);
    /* per_call: every algorithm's balanced calls; times: --interleave's
     * per-process times and arrivals. */
    double *per_call = malloc((size_t)o.nalgs * (size_t)max_iters * sizeof *per_call);
    double *times = malloc(2 * (size_t)o.nalgs * (size_t)max_iters * sizeof *times);
    size_t ncells = (size_t)o.nsizes * (size_t)o.nalgs;
    double *med = calloc(ncells, sizeof *med), *avgp = calloc(ncells * (size_t)o.nimb, sizeof *avgp);
    alloc_ok = alloc_ok && mcounts != NULL && mdispls != NULL && w != NULL && per_call != NULL && times != NULL &&
               med != NULL && avgp != NULL;
    if (!alloc_ok)
        fprintf(stderr, "intergather-bench: world rank %d: out of memory for %ld-byte blocks\n", rank, max_bytes);
    int all_ok = 0;
    MPI_Allreduce(&alloc_ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok)
        MPI_Abort(MPI_COMM_WORLD, EXIT_MPI);

    if (rank == 0) {
        fprintf(csv, "mode,algorithm,p,q,bytes,iterations,min_s,median_s,max_s,verified,"
                     "duplex,imbalance,t_balanced_s,avg_proc_s,worst_proc_s,omega_s\n");
        fflush(csv);
        if (calls != NULL)
            fprintf(calls, "mode,algorithm,p,q,bytes,duplex,call,seconds,position\n");
        if (proc_times != NULL)
            fprintf(proc_times, "mode,algorithm,p,q,bytes,duplex,imbalance,call,rank,group,arrival_s,seconds\n");
    }
    int mismatches = 0, done = 0, total = o.nsizes * o.nalgs * o.nimb;
    for (int s = 0; s < o.nsizes; s++) {
        int bytes = (int)o.sizes[s];
        size_t rbytes = (size_t)b.nremote * (size_t)bytes;
        call c = { sbuf, b.sends ? bytes : 0, rbuf, b.nremote > 0 ? bytes : 0, mcounts, mdispls, MPI_BYTE, 0 };
        check_mpi(merge_args(&b, bytes, mcounts, mdispls, &c.mtype, &c.mscount), "merge-allgatherv arguments", rank);
        int base_ok = 1;
        if (o.verify) {
            /* Reference: the baseline's result, itself checked against the
             * known pattern first. */
            if (b.sends)
                for (size_t i = 0; i < (size_t)bytes; i++)
                    sbuf[i] = pattern(b.rank, i, bytes);
            for (int k = 0; k < b.nremote; k++)
                for (size_t i = 0; i < (size_t)bytes; i++)
                    ref[(size_t)k * (size_t)bytes + i] = pattern(b.remote0 + k, i, bytes);
            if (rbytes > 0)
                poison(rbuf, ref, rbytes);
            untimed_call(&b, b.baseline, &c);
            base_ok = all_equal(rbuf, ref, rbytes);
            if (rbytes > 0)
                memcpy(ref, rbuf, rbytes);
            if (!base_ok && rank == 0)
                fprintf(stderr, "intergather-bench: %s result differs from the expected data at %d bytes\n",
                        algs[b.baseline].name, bytes);
        }
        int iters = o.iters, warmup = o.warmup;
        tier_at(&o, bytes, &iters, &warmup);
        /* The delay unit T: the baseline's balanced median at this size, the
         * same for every algorithm.  The baseline goes first; if it is not
         * in --algos and some F > 0 needs T, it is measured for T alone. */
        int any_imb = 0, base_j = -1;
        for (int k = 0; k < o.nimb; k++)
            any_imb |= o.imb[k] > 0;
        for (int j = 0; j < o.nalgs; j++)
            if (o.algs[j] == b.baseline)
                base_j = j;
        double t_unit = 0;
        if (base_j < 0 && any_imb) {
            MPI_Barrier(MPI_COMM_WORLD);
            t_unit = measure(&b, iters, b.baseline, &c, warmup, 0, 0, w, 0, NULL, 0, NULL).median;
            if (rank == 0)
                fprintf(stderr, "%s p=%d q=%d bytes=%d: median %.3f ms: the delay unit T\n", algs[b.baseline].name,
                        b.p, b.q, bytes, 1e3 * t_unit);
        }
        /* With --interleave every algorithm is checked first, then the
         * balanced calls of all run in rounds; otherwise each algorithm's
         * check and balanced calls run in turn. */
        int ok[NALGS];
        stats bal_all[NALGS];
        if (o.interleave) {
            for (int j = 0; j < o.nalgs; j++)
                ok[j] = !o.verify || verify_alg(&b, o.algs[j], &c, base_ok, ref, rbytes);
            measure_interleaved(&b, o.nalgs, o.algs, iters, &c, warmup, w, times, o.verify, ref, rbytes, bal_all,
                                per_call);
        }
        for (int jj = 0; jj < o.nalgs; jj++) {
            /* the baseline first, then the others in --algos order */
            int j = base_j < 0 ? jj : jj == 0 ? base_j : jj <= base_j ? jj - 1 : jj;
            int a = o.algs[j];
            if (!o.interleave)
                ok[j] = !o.verify || verify_alg(&b, a, &c, base_ok, ref, rbytes);
            const char *verified = !o.verify ? "skipped" : ok[j] ? "yes" : "MISMATCH";
            mismatches += !ok[j];
            /* The balanced measurement, always first. */
            double *calls_j = per_call + (o.interleave ? (size_t)j * (size_t)iters : 0);
            stats bal = o.interleave ? bal_all[j]
                                     : measure(&b, iters, a, &c, warmup, 0, 0, w, o.verify, ref, rbytes, calls_j);
            mismatches += o.verify && !bal.last_ok;
            if (o.proc_times != NULL && !o.interleave)
                write_proc_times(&b, proc_times, a, bytes, 0, iters, w, w + iters);
            if (j == base_j)
                t_unit = bal.median;
            double t_bal = base_j < 0 && !any_imb ? bal.median : t_unit;
            if (calls != NULL) {
                for (int i = 0; i < iters; i++)
                    fprintf(calls, "%s,%s,%d,%d,%d,%s,%d,%.9f,%d\n", b.intra ? "intra" : "inter", algs[a].name, b.p,
                            b.q, bytes, b.full ? "full" : "half", i, calls_j[i],
                            o.interleave ? round_position(o.nalgs, i, j) : 0);
                fflush(calls);
            }
            med[s * o.nalgs + j] = bal.median;
            for (int k = 0; k < o.nimb; k++) {
                double f = o.imb[k];
                stats st = f == 0 ? bal
                                  : measure(&b, iters, a, &c, 0, f * t_bal,
                                            delay_stream(o.seed, b.rank, bytes, f), w, o.verify, ref, rbytes,
                                            NULL);
                if (f != 0 && o.proc_times != NULL)
                    write_proc_times(&b, proc_times, a, bytes, f, iters, w, w + iters);
                /* the check before the measurement and that of its last call */
                const char *row_verified = o.verify && !st.last_ok ? "MISMATCH" : verified;
                mismatches += o.verify && f != 0 && !st.last_ok;
                avgp[((size_t)s * (size_t)o.nimb + (size_t)k) * (size_t)o.nalgs + (size_t)j] = st.avg_proc;
                done++;
                if (rank != 0)
                    continue;
                fprintf(csv, "%s,%s,%d,%d,%d,%d,%.9f,%.9f,%.9f,%s,%s,%g,%.9f,%.9f,%.9f,%.9f\n",
                        b.intra ? "intra" : "inter", algs[a].name, b.p, b.q, bytes, iters, st.min, st.median, st.max,
                        row_verified, b.full ? "full" : "half", f, t_bal, st.avg_proc, st.worst_proc, st.omega);
                fflush(csv);
                if (f == 0)
                    fprintf(stderr, "[%d/%d] %-16s p=%d q=%d bytes=%d: median %.3f ms (min %.3f, max %.3f) verified=%s\n",
                            done, total, algs[a].name, b.p, b.q, bytes, 1e3 * st.median, 1e3 * st.min, 1e3 * st.max,
                            row_verified);
                else
                    fprintf(stderr,
                            "[%d/%d] %-16s p=%d q=%d bytes=%d F=%g: avg/process %.3f ms, worst %.3f, omega %.3f "
                            "(T %.3f) verified=%s\n",
                            done, total, algs[a].name, b.p, b.q, bytes, f, 1e3 * st.avg_proc, 1e3 * st.worst_proc,
                            1e3 * st.omega, 1e3 * t_bal, row_verified);
            }
        }
        if (c.mtype != MPI_BYTE)
            MPI_Type_free(&c.mtype);
    }
    if (rank == 0) {
        print_summary(&b, &o, med, avgp);
        if (mismatches > 0)
            fprintf(stderr, "intergather-bench: %d measurement(s) did NOT match the baseline\n", mismatches);
        if (csv != stdout)
            fclose(csv);
        if (calls != NULL)
            fclose(calls);
        if (proc_times != NULL)
            fclose(proc_times);
    }

    payload_free(sbuf, o.verify);
    payload_free(rbuf, o.verify);
    free(ref);
    free(mcounts);
    free(mdispls);
    free(w);
    free(per_call);
    free(times);
    free(med);
    free(avgp);
    free(o.sizes);
    free(o.imb);
    teardown(&b);
    MPI_Finalize();
    return mismatches > 0 ? EXIT_MISMATCH : 0;
}
