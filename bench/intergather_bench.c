/*
 * intergather-bench: times half-duplex inter-group allgather algorithms on
 * one inter-communicator and checks every result against the baseline.
 *
 * MPI_COMM_WORLD is split into p senders (world ranks 0..p-1) and q = size - p
 * receivers.  Default mode: an inter-communicator joins the two groups;
 * `native` is PMPI_Allgather on it (the binary links the shim, so MPI_Allgather
 * would be ours), and the library's algorithms run on a pair built from
 * MPI_Intercomm_merge of it.  --intra mode (SimGrid SMPI has no
 * inter-communicators): the pair is built on MPI_COMM_WORLD itself and
 * root-gathering, the same algorithm as native rebuilt on the pair, is the
 * baseline.
 *
 * Under smpicc (SMPI_SHARED_MALLOC is a macro of SMPI's mpi.h) payloads come
 * from SMPI_SHARED_MALLOC and results are not verified (shared buffers hold no
 * meaningful data), unless --verify asks for private buffers and the check
 * (small runs only: every rank then holds real memory).  SMPI may run every
 * rank in one address space without privatizing globals, so this file keeps all state on main's stack: no
 * mutable globals, no getopt (its optind is one), no strtok.
 */
#include <mpi.h>

#include "intergather.h"

#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

typedef enum { ALG_NATIVE, ALG_FC, ALG_RING_OPTIMAL, ALG_RING_PAPER, ALG_INTRA_RING, ALG_ROOT_GATHERING, ALG_COUNT } alg_id;

static const char *const alg_names[ALG_COUNT] = { "native",     "fc",         "ring-optimal",
                                                  "ring-paper", "intra-ring", "root-gathering" };

#define DEFAULT_MIN_BYTES (32 * 1024L)
#define DEFAULT_MAX_BYTES (4 * 1024 * 1024L)

typedef struct {
    int p;            /* senders; 0 = size / 2 */
    int intra;
    int iters, warmup;
    int nsizes;
    long *sizes;      /* bytes per sender block, ascending as given */
    int nalgs;
    alg_id algs[ALG_COUNT];
    const char *csv;  /* NULL: stdout */
    int verify;       /* 0: --no-verify */
    int help;
} options;

typedef struct {
    int rank, size, p, q, is_sender, intra;
    MPI_Comm inter;   /* default mode only */
    ig_pair *pair;
    alg_id baseline;
} bench;

/* ------------------------------------------------------------------------ */
/* Command line                                                              */

static void usage(FILE *f)
{
    fprintf(f,
            "usage: mpirun -np N intergather-bench [options]\n"
            "  -p P              senders (world ranks 0..P-1); the other N-P processes receive\n"
            "                    (default N/2; 1 <= P <= N-1)\n"
            "  --sizes SPEC      bytes per sender block: a list A,B,C or a range MIN:MAX that\n"
            "                    doubles from MIN (MAX is added if the doubling skips it);\n"
            "                    suffixes K, M, G (binary; KB/KiB likewise). Default 32K:4M\n"
            "  --iters N         timed iterations per measurement (default 10)\n"
            "  --warmup N        untimed iterations before them (default 2)\n"
            "  --algos LIST      comma-separated, from: native fc ring-optimal ring-paper\n"
            "                    intra-ring root-gathering (default: all available)\n"
            "  --csv FILE        write the CSV there (default: stdout)\n"
            "  --no-verify       skip the result check (verified=skipped): saves the baseline\n"
            "                    call per size, for long runs that only time\n"
            "  --verify          check results (the default, except under SimGrid SMPI, where\n"
            "                    it also gives every rank private payload buffers)\n"
            "  --intra           no inter-communicator: the groups are built on MPI_COMM_WORLD\n"
            "                    (for SimGrid SMPI); native is unavailable and root-gathering\n"
            "                    is the baseline\n"
            "  --help            this text\n"
            "Each iteration: barrier, then time the call; per iteration the max over\n"
            "processes; min/median/max over iterations.  Every algorithm's result is\n"
            "compared byte for byte with the baseline's (native, or root-gathering with\n"
            "--intra) once per size; a mismatch gives exit status 1.\n");
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

static int parse_algos(const char *spec, options *o, char *err, size_t errlen)
{
    const char *item = spec;
    o->nalgs = 0;
    for (;;) {
        const char *end = strchr(item, ',');
        if (end == NULL)
            end = item + strlen(item);
        size_t len = (size_t)(end - item);
        int found = -1;
        for (int a = 0; a < ALG_COUNT; a++)
            if (strlen(alg_names[a]) == len && strncmp(alg_names[a], item, len) == 0)
                found = a;
        if (found < 0) {
            snprintf(err, errlen,
                     "--algos: unknown algorithm '%.*s' (known: native fc ring-optimal ring-paper intra-ring "
                     "root-gathering)",
                     (int)len, item);
            return -1;
        }
        int dup = 0;
        for (int i = 0; i < o->nalgs; i++)
            dup |= o->algs[i] == (alg_id)found;
        if (!dup)
            o->algs[o->nalgs++] = (alg_id)found;
        if (*end == '\0')
            return 0;
        item = end + 1;
    }
}

/* Every process parses the same argv, so every process reaches the same verdict. */
static int parse_args(int argc, char **argv, int size, options *o, char *err, size_t errlen)
{
    const char *sizes = NULL, *algos = NULL;
    memset(o, 0, sizeof *o);
    o->iters = 10;
    o->warmup = 2;
    o->verify = !BENCH_SMPI;
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
        } else if (strcmp(a, "-p") == 0 || strcmp(a, "--iters") == 0 || strcmp(a, "--warmup") == 0 ||
                   strcmp(a, "--sizes") == 0 || strcmp(a, "--algos") == 0 || strcmp(a, "--csv") == 0) {
            if (!has_value) {
                snprintf(err, errlen, "%s needs a value", a);
                return -1;
            }
            const char *v = argv[++i];
            if (strcmp(a, "-p") == 0 && parse_int(v, 1, &o->p) != 0) {
                snprintf(err, errlen, "-p %s: expected a number of senders >= 1", v);
                return -1;
            } else if (strcmp(a, "--iters") == 0 && parse_int(v, 1, &o->iters) != 0) {
                snprintf(err, errlen, "--iters %s: expected an integer >= 1", v);
                return -1;
            } else if (strcmp(a, "--warmup") == 0 && parse_int(v, 0, &o->warmup) != 0) {
                snprintf(err, errlen, "--warmup %s: expected an integer >= 0", v);
                return -1;
            } else if (strcmp(a, "--sizes") == 0) {
                sizes = v;
            } else if (strcmp(a, "--algos") == 0) {
                algos = v;
            } else if (strcmp(a, "--csv") == 0) {
                if (*v == '\0') {
                    snprintf(err, errlen, "--csv needs a file name");
                    return -1;
                }
                o->csv = v;
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
    if (algos != NULL) {
        if (parse_algos(algos, o, err, errlen) != 0)
            return -1;
        for (int i = 0; i < o->nalgs; i++)
            if (o->intra && o->algs[i] == ALG_NATIVE) {
                snprintf(err, errlen,
                         "--algos native: needs an inter-communicator, unavailable with --intra%s "
                         "(root-gathering is the same algorithm on the pair)",
                         BENCH_SMPI ? " (always on under SMPI)" : "");
                return -1;
            }
    } else {
        for (int a = 0; a < ALG_COUNT; a++)
            if (!(o->intra && a == ALG_NATIVE))
                o->algs[o->nalgs++] = (alg_id)a;
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Data                                                                      */

/* Byte i of sender s's block for a given block size: distinct across
 * senders, offsets and sizes, so misplaced or stale data shows. */
static unsigned char pattern(int s, size_t i, long bytes)
{
    uint32_t x = (uint32_t)s * 0x9E3779B1u ^ (uint32_t)i * 0x85EBCA77u ^ (uint32_t)((uint64_t)i >> 32) ^ (uint32_t)bytes;
    x ^= x >> 15;
    x *= 0x2C1B3C6Du;
    x ^= x >> 13;
    return (unsigned char)x;
}

/* ------------------------------------------------------------------------ */
/* MPI                                                                       */

static void check_mpi(int rc, const char *what, const bench *b)
{
    if (rc == MPI_SUCCESS)
        return;
    char msg[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, msg, &len);
    fprintf(stderr, "intergather-bench: world rank %d: %s failed: %s\n", b->rank, what, msg);
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
    b->inter = MPI_COMM_NULL;
    b->pair = NULL;
    b->baseline = o->intra ? ALG_ROOT_GATHERING : ALG_NATIVE;
    if (o->intra)
        return ig_pair_create(MPI_COMM_WORLD, b->p, &b->pair);
#if BENCH_SMPI
    return MPI_ERR_OTHER; /* not reached: SMPI forces --intra */
#else
    MPI_Comm local, merged;
    int rc = MPI_Comm_split(MPI_COMM_WORLD, b->is_sender ? 0 : 1, b->rank, &local);
    if (rc == MPI_SUCCESS)
        rc = MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, b->is_sender ? b->p : 0, 4242, &b->inter);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_free(&local);
    /* high = receiver: the merged order is senders first, as a pair needs. */
    if (rc == MPI_SUCCESS)
        rc = MPI_Intercomm_merge(b->inter, !b->is_sender, &merged);
    if (rc == MPI_SUCCESS)
        rc = ig_pair_create(merged, b->p, &b->pair);
    if (rc == MPI_SUCCESS)
        rc = MPI_Comm_free(&merged);
    return rc;
#endif
}

static void teardown(bench *b)
{
    ig_pair_free(&b->pair);
    if (b->inter != MPI_COMM_NULL)
        MPI_Comm_free(&b->inter);
}

/* One call of algorithm `a`, inter-communicator allgather conventions: a
 * sender passes its block and 0 receive elements, a receiver the reverse. */
static int run_alg(const bench *b, alg_id a, int bytes, const void *sbuf, void *rbuf)
{
    int sc = b->is_sender ? bytes : 0, rc = b->is_sender ? 0 : bytes;
    switch (a) {
    case ALG_NATIVE:
#if BENCH_SMPI
        return MPI_ERR_OTHER;
#else
        return PMPI_Allgather(sbuf, sc, MPI_BYTE, rbuf, rc, MPI_BYTE, b->inter);
#endif
    case ALG_FC:
        return ig_pair_allgather_fc(b->pair, sbuf, sc, MPI_BYTE, rbuf, rc, MPI_BYTE);
    case ALG_RING_OPTIMAL:
        return ig_pair_allgather_ring(b->pair, IG_RING_OPTIMAL, sbuf, sc, MPI_BYTE, rbuf, rc, MPI_BYTE);
    case ALG_RING_PAPER:
        return ig_pair_allgather_ring(b->pair, IG_RING_PAPER, sbuf, sc, MPI_BYTE, rbuf, rc, MPI_BYTE);
    case ALG_INTRA_RING:
        return ig_pair_allgather_intra_ring(b->pair, sbuf, sc, MPI_BYTE, rbuf, rc, MPI_BYTE);
    case ALG_ROOT_GATHERING:
        return ig_pair_allgather_root_gathering(b->pair, sbuf, sc, MPI_BYTE, rbuf, rc, MPI_BYTE);
    default:
        return MPI_ERR_ARG;
    }
}

static int compare_doubles(const void *x, const void *y)
{
    double a = *(const double *)x, c = *(const double *)y;
    return (a > c) - (a < c);
}

typedef struct {
    double min, median, max;
} stats;

/* warmup untimed calls, then iters timed ones; each iteration's time is the
 * slowest process's. */
static stats measure(const bench *b, const options *o, alg_id a, int bytes, const void *sbuf, void *rbuf,
                     double *t, double *tmax)
{
    for (int i = 0; i < o->warmup; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        check_mpi(run_alg(b, a, bytes, sbuf, rbuf), alg_names[a], b);
    }
    for (int i = 0; i < o->iters; i++) {
        MPI_Barrier(MPI_COMM_WORLD);
        double t0 = MPI_Wtime();
        check_mpi(run_alg(b, a, bytes, sbuf, rbuf), alg_names[a], b);
        t[i] = MPI_Wtime() - t0;
    }
    MPI_Allreduce(t, tmax, o->iters, MPI_DOUBLE, MPI_MAX, MPI_COMM_WORLD);
    qsort(tmax, (size_t)o->iters, sizeof *tmax, compare_doubles);
    int n = o->iters;
    stats s = { tmax[0], n % 2 ? tmax[n / 2] : 0.5 * (tmax[n / 2 - 1] + tmax[n / 2]), tmax[n - 1] };
    return s;
}

/* Poison the receive buffer so that bytes an algorithm fails to write show:
 * each poisoned byte differs from the reference byte at that place. */
static void poison(unsigned char *rbuf, const unsigned char *ref, size_t n)
{
    for (size_t i = 0; i < n; i++)
        rbuf[i] = (unsigned char)~ref[i];
}

/* 1 if every receiver's buffer equals the reference, on every process. */
static int all_equal(const bench *b, const unsigned char *rbuf, const unsigned char *ref, size_t n)
{
    int local = b->is_sender || memcmp(rbuf, ref, n) == 0, global = 0;
    MPI_Allreduce(&local, &global, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    return global;
}

/* ------------------------------------------------------------------------ */

static void print_summary(const bench *b, const options *o, const double *med)
{
    int base_col = -1;
    for (int j = 0; j < o->nalgs; j++)
        if (o->algs[j] == b->baseline)
            base_col = j;
    fprintf(stderr, "\nsummary: median time per call (ms)%s, p=%d q=%d, %s mode\n",
            base_col >= 0 ? " and speed-up baseline/algorithm" : "", b->p, b->q, b->intra ? "intra" : "inter");
    fprintf(stderr, "%10s", "bytes");
    for (int j = 0; j < o->nalgs; j++)
        fprintf(stderr, " %20s", alg_names[o->algs[j]]);
    fprintf(stderr, "\n");
    for (int s = 0; s < o->nsizes; s++) {
        fprintf(stderr, "%10ld", o->sizes[s]);
        for (int j = 0; j < o->nalgs; j++) {
            double m = med[s * o->nalgs + j];
            char cell[40];
            if (base_col >= 0 && m > 0)
                snprintf(cell, sizeof cell, "%.3f (%.2fx)", 1e3 * m, med[s * o->nalgs + base_col] / m);
            else
                snprintf(cell, sizeof cell, "%.3f", 1e3 * m);
            fprintf(stderr, " %20s", cell);
        }
        fprintf(stderr, "\n");
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, size;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &size);

    options o;
    char err[256] = "";
    if (parse_args(argc, argv, size, &o, err, sizeof err) != 0 || o.help) {
        if (rank == 0) {
            if (o.help)
                usage(stdout);
            else
                fprintf(stderr, "intergather-bench: %s\n", err);
        }
        free(o.sizes);
        MPI_Finalize();
        return o.help ? 0 : EXIT_USAGE;
    }

    /* The CSV file opens on rank 0 only; everyone learns whether it did. */
    FILE *csv = NULL;
    int csv_ok = 1;
    if (rank == 0) {
        csv = o.csv != NULL ? fopen(o.csv, "w") : stdout;
        csv_ok = csv != NULL;
        if (!csv_ok)
            perror(o.csv);
    }
    MPI_Bcast(&csv_ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!csv_ok) {
        free(o.sizes);
        MPI_Finalize();
        return EXIT_USAGE;
    }

    bench b;
    check_mpi(setup(&b, &o), "setting up the groups", &b);

    long max_bytes = 0;
    for (int s = 0; s < o.nsizes; s++)
        if (o.sizes[s] > max_bytes)
            max_bytes = o.sizes[s];
    size_t recv_max = (size_t)b.p * (size_t)max_bytes;
    unsigned char *sbuf = NULL, *rbuf = NULL, *ref = NULL;
    int alloc_ok = 1;
    if (b.is_sender) {
        sbuf = payload_alloc((size_t)max_bytes, o.verify);
        alloc_ok = sbuf != NULL;
        if (alloc_ok && !BENCH_SMPI)
            memset(sbuf, 0, (size_t)max_bytes); /* defined bytes even with --no-verify */
    } else {
        rbuf = payload_alloc(recv_max, o.verify);
        if (o.verify)
            ref = malloc(recv_max);
        alloc_ok = rbuf != NULL && (!o.verify || ref != NULL);
    }
    double *t = malloc((size_t)o.iters * sizeof *t), *tmax = malloc((size_t)o.iters * sizeof *tmax);
    double *med = calloc((size_t)o.nsizes * (size_t)o.nalgs, sizeof *med);
    alloc_ok = alloc_ok && t != NULL && tmax != NULL && med != NULL;
    if (!alloc_ok)
        fprintf(stderr, "intergather-bench: world rank %d: out of memory for %ld-byte blocks\n", rank, max_bytes);
    int all_ok = 0;
    MPI_Allreduce(&alloc_ok, &all_ok, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
    if (!all_ok)
        MPI_Abort(MPI_COMM_WORLD, EXIT_MPI);

    if (rank == 0) {
        fprintf(csv, "mode,algorithm,p,q,bytes,iterations,min_s,median_s,max_s,verified\n");
        fflush(csv);
    }
    int mismatches = 0, done = 0, total = o.nsizes * o.nalgs;
    for (int s = 0; s < o.nsizes; s++) {
        int bytes = (int)o.sizes[s];
        size_t rbytes = (size_t)b.p * (size_t)bytes;
        int base_ok = 1;
        if (o.verify) {
            /* Reference: the baseline's result, itself checked against the
             * known pattern first. */
            if (b.is_sender) {
                for (size_t i = 0; i < (size_t)bytes; i++)
                    sbuf[i] = pattern(b.rank, i, bytes);
            } else {
                for (int k = 0; k < b.p; k++)
                    for (size_t i = 0; i < (size_t)bytes; i++)
                        ref[(size_t)k * (size_t)bytes + i] = pattern(k, i, bytes);
                poison(rbuf, ref, rbytes);
            }
            MPI_Barrier(MPI_COMM_WORLD);
            check_mpi(run_alg(&b, b.baseline, bytes, sbuf, rbuf), alg_names[b.baseline], &b);
            base_ok = all_equal(&b, rbuf, ref, rbytes);
            if (!b.is_sender)
                memcpy(ref, rbuf, rbytes);
            if (!base_ok && rank == 0)
                fprintf(stderr, "intergather-bench: %s result differs from the expected data at %d bytes\n",
                        alg_names[b.baseline], bytes);
        }
        for (int j = 0; j < o.nalgs; j++) {
            alg_id a = o.algs[j];
            const char *verified = "skipped";
            if (o.verify) {
                int ok;
                if (a == b.baseline) {
                    ok = base_ok;
                } else {
                    if (!b.is_sender)
                        poison(rbuf, ref, rbytes);
                    MPI_Barrier(MPI_COMM_WORLD);
                    check_mpi(run_alg(&b, a, bytes, sbuf, rbuf), alg_names[a], &b);
                    ok = all_equal(&b, rbuf, ref, rbytes);
                }
                verified = ok ? "yes" : "MISMATCH";
                mismatches += !ok;
            }
            stats st = measure(&b, &o, a, bytes, sbuf, rbuf, t, tmax);
            med[s * o.nalgs + j] = st.median;
            done++;
            if (rank == 0) {
                fprintf(csv, "%s,%s,%d,%d,%d,%d,%.9f,%.9f,%.9f,%s\n", b.intra ? "intra" : "inter", alg_names[a],
                        b.p, b.q, bytes, o.iters, st.min, st.median, st.max, verified);
                fflush(csv);
                fprintf(stderr, "[%d/%d] %-14s p=%d q=%d bytes=%d: median %.3f ms (min %.3f, max %.3f) verified=%s\n",
                        done, total, alg_names[a], b.p, b.q, bytes, 1e3 * st.median, 1e3 * st.min, 1e3 * st.max,
                        verified);
            }
        }
    }
    if (rank == 0) {
        print_summary(&b, &o, med);
        if (mismatches > 0)
            fprintf(stderr, "intergather-bench: %d measurement(s) did NOT match the baseline\n", mismatches);
        if (csv != stdout)
            fclose(csv);
    }

    if (sbuf != NULL)
        payload_free(sbuf, o.verify);
    if (rbuf != NULL)
        payload_free(rbuf, o.verify);
    free(ref);
    free(t);
    free(tmax);
    free(med);
    free(o.sizes);
    teardown(&b);
    MPI_Finalize();
    return mismatches > 0 ? EXIT_MISMATCH : 0;
}
