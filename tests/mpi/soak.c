/*
 * soak.c: a long randomized run of MPI_Allgather / MPI_Allgatherv on
 * inter-communicators, every result compared with PMPI_Allgather(v) on the
 * same arguments.  Run long by scripts/soak/run.sh (which explains the
 * options), short by tests/mpi/test_random_calls.sh;
 * a plain MPI program, never linked to intergather: run it natively or
 * with LD_PRELOAD=libintergather.so.
 *
 * Every process draws the shared decisions (which communicator, which call,
 * duplex, counts, datatypes, communicator churn) from one generator seeded
 * identically everywhere, so all processes agree on what each call is;
 * per-process details that MPI lets differ (receive displacements, buffer
 * contents, NULL buffers for empty sides, the datatype of a group that sends
 * nothing, an MPI_Allgather send type of the same signature) come from a
 * generator seeded with the world rank.
 *
 * Checks, any failure ends the job with MPI_Abort and a "SOAK MISMATCH" or
 * "SOAK ERROR" line:
 *  - the receive buffer (data, gaps between blocks and 64 guard bytes on
 *    each side) is byte-identical to the one PMPI filled;
 *  - the send buffer is left unchanged;
 *  - every call returns MPI_SUCCESS (MPI_ERRORS_RETURN is installed);
 *  - a watchdog (alarm) reports a call that does not finish in time.
 * At the end world rank 0 prints one "SOAK-RESULT key=value ..." line:
 * the maxima over all processes of RSS (start, after warm-up, end, peak), of
 * the growth of private memory (RssAnon: the heap, where a leak grows) and
 * of the library's live internal communicators
 * (intergather_internal_comms_live, found with dlsym; -1 natively), and a
 * verdict on their growth.  RSS also counts the pages of Open MPI's
 * shared-memory segments a process has touched, which grow with the number
 * of fragments in flight up to the segments' size: the forced chain at 5+2
 * touched 12 MiB of them where native MPI touched 3, with the same private
 * memory (docs/performance.md, seventy-sixth session), so the verdict and
 * scripts/soak/run.sh judge private memory.
 *
 * Probe mode (--probe NAME): one legal call in which one side passes a
 * datatype of extent 0, checked against the known result (see run_probe).
 *
 * Fault mode (--fault kill|abort|exit): world rank --fault-rank writes the
 * time (CLOCK_REALTIME, seconds) to --fault-file and then kills itself with
 * SIGKILL, calls MPI_Abort, or calls exit(3) without MPI_Finalize, before
 * call --fault-at; the others carry on into that call and block in it.
 */
#define _GNU_SOURCE
#include <mpi.h>

#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define GUARD 64
#define POOL_MAX 6

/* ---------------------------------------------------------------- options */

static struct {
    long calls;
    unsigned long long seed;
    int left;             /* size of the left group of the primary split */
    long max_bytes;       /* largest block per process */
    long sample_every;    /* RSS / live-comm sampling period, in calls */
    long warmup;          /* calls before the RSS reference sample; -1: calls / 10 */
    double churn;         /* probability of a create/dup/free before a call */
    long rss_slack_kib;   /* allowed growth of private memory after warm-up; -1:
                           * not judged here (run.sh compares with a native run) */
    int watchdog;         /* seconds one call may take; 0: off */
    int fault;            /* 0 none, 1 kill, 2 abort, 3 exit */
    long fault_at;
    int fault_rank;
    const char *fault_file;
    const char *probe;    /* run one probe instead of the soak */
} opt = { 2000, 20240601ULL, -1, 1L << 20, 25, -1, 0.03, -1, 120, 0, 100, -1, NULL, NULL };

static void usage(void)
{
    fprintf(stderr, "usage: soak [--calls N] [--seed S] [--left L] [--max-bytes B] [--sample-every N]\n"
                    "            [--warmup N] [--churn P] [--rss-slack-kib K] [--watchdog SECONDS]\n"
                    "            [--fault kill|abort|exit --fault-at N --fault-rank R --fault-file PATH]\n"
                    "       soak --probe zero-extent-send|zero-extent-recv-v [--left L]\n");
}

static int parse_args(int argc, char **argv)
{
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (v == NULL)
            return -1;
        i++;
        if (!strcmp(a, "--calls")) opt.calls = atol(v);
        else if (!strcmp(a, "--seed")) opt.seed = strtoull(v, NULL, 0);
        else if (!strcmp(a, "--left")) opt.left = atoi(v);
        else if (!strcmp(a, "--max-bytes")) opt.max_bytes = atol(v);
        else if (!strcmp(a, "--sample-every")) opt.sample_every = atol(v);
        else if (!strcmp(a, "--warmup")) opt.warmup = atol(v);
        else if (!strcmp(a, "--churn")) opt.churn = atof(v);
        else if (!strcmp(a, "--rss-slack-kib")) opt.rss_slack_kib = atol(v);
        else if (!strcmp(a, "--watchdog")) opt.watchdog = atoi(v);
        else if (!strcmp(a, "--fault-at")) opt.fault_at = atol(v);
        else if (!strcmp(a, "--fault-rank")) opt.fault_rank = atoi(v);
        else if (!strcmp(a, "--fault-file")) opt.fault_file = v;
        else if (!strcmp(a, "--probe")) opt.probe = v;
        else if (!strcmp(a, "--fault")) {
            if (!strcmp(v, "none")) opt.fault = 0;
            else if (!strcmp(v, "kill")) opt.fault = 1;
            else if (!strcmp(v, "abort")) opt.fault = 2;
            else if (!strcmp(v, "exit")) opt.fault = 3;
            else return -1;
        } else
            return -1;
    }
    if (opt.calls < 1 || opt.max_bytes < 1 || opt.sample_every < 1)
        return -1;
    return 0;
}

/* ------------------------------------------------------------- generators */

typedef struct { uint64_t s; } rng;

static uint64_t rng_next(rng *r)
{
    uint64_t z = (r->s += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}
static uint64_t rng_below(rng *r, uint64_t n) { return n ? rng_next(r) % n : 0; }
static double rng_unit(rng *r) { return (double)(rng_next(r) >> 11) * 0x1.0p-53; }
static rng rng_make(uint64_t a, uint64_t b, uint64_t c)
{
    rng r = { a * 0x100000001b3ULL ^ b * 0xc2b2ae3d27d4eb4fULL ^ c * 0x165667b19e3779f9ULL };
    rng_next(&r);
    return r;
}

/* ---------------------------------------------------------------- globals */

static int wrank, wsize;
static long (*live_fn)(void);
static char current_call[512] = "(none yet)";
static double t_start;

static double now(void) { return MPI_Wtime(); }

static void fatal(const char *kind, const char *fmt, ...) __attribute__((noreturn, format(printf, 2, 3)));
static void fatal(const char *kind, const char *fmt, ...)
{
    char msg[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    fprintf(stderr, "SOAK %s [world rank %d]: %s\n    call: %s\n", kind, wrank, msg, current_call);
    fflush(stderr);
    MPI_Abort(MPI_COMM_WORLD, 2);
    _exit(2);
}

static void on_alarm(int sig)
{
    (void)sig;
    char msg[768];
    int n = snprintf(msg, sizeof msg, "SOAK HANG [world rank %d]: a call did not finish within %d s\n    call: %s\n",
                     wrank, opt.watchdog, current_call);
    if (n > 0)
        (void)!write(2, msg, (size_t)(n < (int)sizeof msg ? n : (int)sizeof msg - 1));
    _exit(4);
}

/* ------------------------------------------------------------- datatypes */

typedef struct {
    const char *name;
    MPI_Datatype type;
    int basic;   /* index of the predefined type it is made of, or -1 */
    int nbasic;  /* how many of those one element holds */
    MPI_Aint extent, true_lb, true_extent;
    int size;
} dtype;

enum { T_BYTE, T_INT, T_DOUBLE, T_VECTOR, T_LB_POS, T_LB_NEG, T_CONTIG_STRUCT, T_COUNT };
static dtype types[T_COUNT];

struct three { char c; double d; int i; };

static void type_init(int k, const char *name, MPI_Datatype t, int basic, int nbasic)
{
    if (t != MPI_BYTE && t != MPI_INT && t != MPI_DOUBLE)
        MPI_Type_commit(&t);
    dtype *d = &types[k];
    MPI_Aint lb;
    d->name = name;
    d->type = t;
    d->basic = basic;
    d->nbasic = nbasic;
    MPI_Type_get_extent(t, &lb, &d->extent);
    MPI_Type_get_true_extent(t, &d->true_lb, &d->true_extent);
    MPI_Type_size(t, &d->size);
}

static void types_create(void)
{
    MPI_Datatype t, s;
    type_init(T_BYTE, "MPI_BYTE", MPI_BYTE, T_BYTE, 1);
    type_init(T_INT, "MPI_INT", MPI_INT, T_INT, 1);
    type_init(T_DOUBLE, "MPI_DOUBLE", MPI_DOUBLE, T_DOUBLE, 1);
    /* three blocks of two ints, stride four: gaps inside each element */
    MPI_Type_vector(3, 2, 4, MPI_INT, &t);
    type_init(T_VECTOR, "vector(3,2,4,INT)", t, T_INT, 6);
    /* an int at 8 and a double at 16, lower bound 4, extent 32 */
    {
        int lens[2] = { 1, 1 };
        MPI_Aint displs[2] = { 8, 16 };
        MPI_Datatype parts[2] = { MPI_INT, MPI_DOUBLE };
        MPI_Type_create_struct(2, lens, displs, parts, &s);
        MPI_Type_create_resized(s, 4, 32, &t);
        MPI_Type_free(&s);
        type_init(T_LB_POS, "resized(int@8,double@16;lb=4,ext=32)", t, -1, 0);
    }
    /* a double, lower bound -8, extent 24 */
    MPI_Type_create_resized(MPI_DOUBLE, -8, 24, &t);
    type_init(T_LB_NEG, "resized(double;lb=-8,ext=24)", t, T_DOUBLE, 1);
    /* contiguous(4) of struct {char; double; int} */
    {
        int lens[3] = { 1, 1, 1 };
        MPI_Aint displs[3] = { offsetof(struct three, c), offsetof(struct three, d), offsetof(struct three, i) };
        MPI_Datatype parts[3] = { MPI_CHAR, MPI_DOUBLE, MPI_INT }, r;
        MPI_Type_create_struct(3, lens, displs, parts, &s);
        MPI_Type_create_resized(s, 0, sizeof(struct three), &r);
        MPI_Type_contiguous(4, r, &t);
        MPI_Type_free(&s);
        MPI_Type_free(&r);
        type_init(T_CONTIG_STRUCT, "contiguous(4,struct{char,double,int})", t, -1, 0);
    }
}

static void types_free(void)
{
    for (int k = 0; k < T_COUNT; k++)
        if (k != T_BYTE && k != T_INT && k != T_DOUBLE)
            MPI_Type_free(&types[k].type);
}

/* ---------------------------------------------------------------- buffers */

typedef struct {
    unsigned char *alloc;
    size_t len;
    void *base; /* what MPI is given (NULL possible when nothing is touched) */
} buffer;

/* A buffer for `n` blocks of type t, block i `cnt[i]` elements at element
 * displacement `disp[i]`, with GUARD bytes before and after what MPI may
 * touch.  `null_ok`: when nothing is touched, give MPI a NULL pointer. */
static void buffer_open(buffer *b, const dtype *t, int n, const int *disp, const int *cnt, int null_ok)
{
    long long lo = 0, hi = 0;
    int any = 0;
    for (int i = 0; i < n; i++) {
        if (cnt[i] <= 0)
            continue;
        long long l = (long long)disp[i] * t->extent + t->true_lb;
        long long h = ((long long)disp[i] + cnt[i] - 1) * t->extent + t->true_lb + t->true_extent;
        if (!any || l < lo) lo = l;
        if (!any || h > hi) hi = h;
        any = 1;
    }
    b->len = (size_t)(hi - lo) + 2 * GUARD;
    b->alloc = malloc(b->len);
    if (b->alloc == NULL)
        fatal("ERROR", "out of memory (%zu bytes)", b->len);
    b->base = !any && null_ok ? NULL : b->alloc + GUARD - lo;
}

static void buffer_close(buffer *b)
{
    free(b->alloc);
    b->alloc = NULL;
}

static void fill_random(unsigned char *p, size_t n, rng *r)
{
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t v = rng_next(r);
        memcpy(p + i, &v, 8);
    }
    for (; i < n; i++)
        p[i] = (unsigned char)rng_next(r);
}

static void fill_pattern(unsigned char *p, size_t n, long call)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (unsigned char)(0xA5 ^ (i * 131 + (size_t)call));
}

/* ---------------------------------------------------------- communicators */

typedef struct {
    MPI_Comm comm;      /* MPI_COMM_NULL where this process is not a member */
    int id;
    int nmem, nleft;    /* members; of them in the left group */
    int group;          /* this process: 0 left, 1 right, -1 not a member */
    int gsize[2];
    int dup_of;         /* id it was duplicated from, or -1 */
} entry;

static entry pool[POOL_MAX];
static int npool, next_id;
static struct { long created, dups, freed; } churn_stats;

static void entry_from_perm(entry *e, const int *perm, int nmem, int nleft)
{
    int pos = -1;
    for (int i = 0; i < nmem; i++)
        if (perm[i] == wrank)
            pos = i;
    e->id = next_id++;
    e->nmem = nmem;
    e->nleft = nleft;
    e->gsize[0] = nleft;
    e->gsize[1] = nmem - nleft;
    e->dup_of = -1;
    e->group = pos < 0 ? -1 : pos < nleft ? 0 : 1;
    e->comm = MPI_COMM_NULL;
    MPI_Comm local;
    int rc = MPI_Comm_split(MPI_COMM_WORLD, pos < 0 ? MPI_UNDEFINED : e->group, pos, &local);
    if (rc != MPI_SUCCESS)
        fatal("ERROR", "MPI_Comm_split returned %d", rc);
    if (pos < 0)
        return;
    rc = MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, e->group == 0 ? perm[nleft] : perm[0], 1000 + e->id % 1000,
                              &e->comm);
    if (rc != MPI_SUCCESS)
        fatal("ERROR", "MPI_Intercomm_create returned %d", rc);
    MPI_Comm_free(&local);
    churn_stats.created++;
}

static void churn(rng *shared)
{
    double r = rng_unit(shared);
    snprintf(current_call, sizeof current_call, "communicator churn");
    if (r < 0.4 && npool < POOL_MAX) {
        int perm[256], nmem = wsize;
        for (int i = 0; i < wsize; i++)
            perm[i] = i;
        for (int i = wsize - 1; i > 0; i--) {
            int j = (int)rng_below(shared, (uint64_t)i + 1), t = perm[i];
            perm[i] = perm[j];
            perm[j] = t;
        }
        if (wsize > 2 && rng_unit(shared) < 0.3)
            nmem = 2 + (int)rng_below(shared, (uint64_t)wsize - 1);
        int nleft = 1 + (int)rng_below(shared, (uint64_t)nmem - 1);
        entry_from_perm(&pool[npool++], perm, nmem, nleft);
    } else if (r < 0.7 && npool < POOL_MAX) {
        int k = (int)rng_below(shared, (uint64_t)npool);
        entry e = pool[k];
        e.id = next_id++;
        e.dup_of = pool[k].id;
        if (e.comm != MPI_COMM_NULL) {
            int rc = MPI_Comm_dup(pool[k].comm, &e.comm);
            if (rc != MPI_SUCCESS)
                fatal("ERROR", "MPI_Comm_dup returned %d", rc);
            churn_stats.dups++;
        }
        pool[npool++] = e;
    } else if (npool > 1) {
        int k = 1 + (int)rng_below(shared, (uint64_t)npool - 1); /* the primary stays */
        if (pool[k].comm != MPI_COMM_NULL) {
            MPI_Comm_free(&pool[k].comm);
            churn_stats.freed++;
        }
        memmove(&pool[k], &pool[k + 1], (size_t)(npool - k - 1) * sizeof(entry));
        npool--;
    }
}

/* ------------------------------------------------------------ measurement */

typedef struct {
    long rss, hwm, anon; /* KiB: VmRSS, VmHWM, RssAnon (VmRSS on kernels without it) */
} memory;

static memory read_status(void)
{
    memory m = { -1, -1, -1 };
    FILE *f = fopen("/proc/self/status", "r");
    if (f == NULL)
        return m;
    char line[256];
    while (fgets(line, sizeof line, f)) {
        if (!strncmp(line, "VmRSS:", 6))
            m.rss = atol(line + 6);
        else if (!strncmp(line, "VmHWM:", 6))
            m.hwm = atol(line + 6);
        else if (!strncmp(line, "RssAnon:", 8))
            m.anon = atol(line + 8);
    }
    fclose(f);
    if (m.anon < 0)
        m.anon = m.rss;
    return m;
}

static long live_now(void) { return live_fn ? live_fn() : -1; }

/* ------------------------------------------------------------------ calls */

/* What one group sends in one call, drawn identically by every process. */
typedef struct {
    int sends;
    int stype, rtype, mul; /* receivers take each element as mul elements of rtype */
    int count;             /* MPI_Allgather */
    int counts[256];       /* MPI_Allgatherv, per rank of the group */
    long long bytes;       /* total the group sends */
} side;

static struct {
    long calls, allgather, allgatherv, half, full, empty, checks, mismatches, bytes_checked, skipped;
} stats;

static void draw_side(rng *shared, side *s, int sends, int gsize, int varying)
{
    s->sends = sends;
    s->stype = (int)rng_below(shared, T_COUNT);
    s->rtype = s->stype;
    s->mul = 1;
    if (types[s->stype].nbasic > 0 && rng_unit(shared) < 0.3) {
        s->rtype = types[s->stype].basic;
        s->mul = types[s->stype].nbasic;
    }
    /* log-uniform block size from 1 byte to max_bytes */
    double lg = rng_unit(shared) * log2((double)opt.max_bytes);
    long bytes = (long)pow(2.0, lg);
    int count = (int)(bytes / types[s->stype].size);
    if (count < 1)
        count = 1;
    s->count = sends ? count : 0;
    s->bytes = 0;
    for (int i = 0; i < gsize; i++) {
        int c = 0;
        if (sends) {
            double u = rng_unit(shared);
            c = u < 0.25 ? 0 : (int)rng_below(shared, (uint64_t)count + 1);
        }
        s->counts[i] = varying ? c : s->count;
        s->bytes += (long long)s->counts[i] * types[s->stype].size;
    }
}

static const char *duplex_name(int a, int b) { return a && b ? "full" : a ? "left-sends" : b ? "right-sends" : "none-sends"; }

static void one_call(long call, rng *shared)
{
    int k = (int)rng_below(shared, (uint64_t)npool);
    entry *e = &pool[k];
    int varying = rng_unit(shared) < 0.45;
    double d = rng_unit(shared);
    int sends[2] = { d < 0.40 || d >= 0.80, (d >= 0.40 && d < 0.80) || d >= 0.80 };
    if (d >= 0.97)
        sends[0] = sends[1] = 0;
    side sd[2];
    draw_side(shared, &sd[0], sends[0], e->gsize[0], varying);
    draw_side(shared, &sd[1], sends[1], e->gsize[1], varying);
    stats.calls++;
    if (varying) stats.allgatherv++; else stats.allgather++;
    int a = sd[0].sends && sd[0].bytes > 0, b = sd[1].sends && sd[1].bytes > 0;
    if (a && b) stats.full++; else if (a || b) stats.half++; else stats.empty++;
    if (e->group < 0) {
        stats.skipped++;
        return;
    }
    int g = e->group, h = 1 - g, myrank, rsize;
    MPI_Comm_rank(e->comm, &myrank);
    MPI_Comm_remote_size(e->comm, &rsize);
    rng mine = rng_make(opt.seed, (uint64_t)call, (uint64_t)wrank + 1);

    /* send side */
    const side *ms = &sd[g], *rs = &sd[h];
    int scount = varying ? ms->counts[myrank] : ms->count;
    /* A process of a sending group whose own count is 0 still passes the
     * group's type: Open MPI 4.1's inter-communicator allgatherv gathers at
     * the group root with the root's send type (a zero-count root with another
     * type makes native MPI fail with MPI_ERR_TRUNCATE or hang).  Only a group
     * that sends nothing at all gets a random type. */
    int stype = ms->sends ? ms->stype : (int)rng_below(&mine, T_COUNT);
    /* MPI_Allgather: a process may describe its block with another type of
     * the same signature (a vector as six MPI_INTs), chosen per process: the
     * library must still take the path the rest of the group takes.  (Not
     * with MPI_Allgatherv: Open MPI's own inter-communicator allgatherv
     * gathers with the root's type and counts.) */
    if (!varying && scount > 0 && types[stype].nbasic > 1 && rng_unit(&mine) < 0.3) {
        scount *= types[stype].nbasic;
        stype = types[stype].basic;
    }
    int zero = 0;
    buffer sb;
    buffer_open(&sb, &types[stype], 1, &zero, &scount, rng_unit(&mine) < 0.5);
    fill_random(sb.alloc, sb.len, &mine);
    unsigned char *spristine = malloc(sb.len);
    memcpy(spristine, sb.alloc, sb.len);

    /* receive side: rsize blocks from the remote group */
    int *rcounts = malloc((size_t)rsize * sizeof(int)), *displs = malloc((size_t)rsize * sizeof(int));
    int rtype = rs->sends ? rs->rtype : (int)rng_below(&mine, T_COUNT);
    long long rtotal = 0;
    for (int i = 0; i < rsize; i++) {
        rcounts[i] = (varying ? rs->counts[i] : rs->count) * rs->mul;
        rtotal += rcounts[i];
    }
    if (varying) {
        /* blocks in a random order, random gaps, any displacement for an empty block */
        int *order = malloc((size_t)rsize * sizeof(int));
        for (int i = 0; i < rsize; i++)
            order[i] = i;
        for (int i = rsize - 1; i > 0; i--) {
            int j = (int)rng_below(&mine, (uint64_t)i + 1), t = order[i];
            order[i] = order[j];
            order[j] = t;
        }
        long long at = (long long)rng_below(&mine, 3);
        for (int i = 0; i < rsize; i++) {
            int b = order[i];
            if (rcounts[b] == 0) {
                displs[b] = (int)rng_below(&mine, (uint64_t)at + 1);
                continue;
            }
            displs[b] = (int)at;
            at += rcounts[b] + (long long)rng_below(&mine, 4);
        }
        free(order);
    } else {
        for (int i = 0; i < rsize; i++)
            displs[i] = i * rcounts[i];
    }
    int null_ok = rng_unit(&mine) < 0.5;
    buffer got, want;
    buffer_open(&got, &types[rtype], rsize, displs, rcounts, null_ok);
    buffer_open(&want, &types[rtype], rsize, displs, rcounts, null_ok);
    fill_pattern(got.alloc, got.len, call);
    fill_pattern(want.alloc, want.len, call);

    snprintf(current_call, sizeof current_call,
             "#%ld %s on comm %d (%d+%d of %d%s%s, this process: %s rank %d) duplex=%s; "
             "sends %d x %s; receives %lld elements of %s in %d blocks",
             call, varying ? "MPI_Allgatherv" : "MPI_Allgather", e->id, e->gsize[0], e->gsize[1], wsize,
             e->nmem < wsize ? ", subset" : "", e->dup_of >= 0 ? ", a dup" : "", g ? "right" : "left", myrank,
             duplex_name(a, b), scount,
             types[stype].name, rtotal, types[rtype].name, rsize);
    if (opt.watchdog > 0)
        alarm((unsigned)opt.watchdog);
    int rc, rc_ref;
    MPI_Datatype st = types[stype].type, rt = types[rtype].type;
    if (varying) {
        rc = MPI_Allgatherv(sb.base, scount, st, got.base, rcounts, displs, rt, e->comm);
        rc_ref = PMPI_Allgatherv(sb.base, scount, st, want.base, rcounts, displs, rt, e->comm);
    } else {
        rc = MPI_Allgather(sb.base, scount, st, got.base, rcounts[0], rt, e->comm);
        rc_ref = PMPI_Allgather(sb.base, scount, st, want.base, rcounts[0], rt, e->comm);
    }
    if (opt.watchdog > 0)
        alarm(0);
    if (rc != MPI_SUCCESS || rc_ref != MPI_SUCCESS) {
        char s1[MPI_MAX_ERROR_STRING] = "", s2[MPI_MAX_ERROR_STRING] = "";
        int l;
        MPI_Error_string(rc, s1, &l);
        MPI_Error_string(rc_ref, s2, &l);
        fatal("ERROR", "the call returned %d (%s), the reference %d (%s)", rc, s1, rc_ref, s2);
    }
    stats.checks++;
    stats.bytes_checked += (long)got.len;
    if (memcmp(got.alloc, want.alloc, got.len) != 0) {
        size_t first = 0, ndiff = 0;
        for (size_t i = got.len; i-- > 0;)
            if (got.alloc[i] != want.alloc[i]) {
                first = i;
                ndiff++;
            }
        long long off = (long long)first - (long long)((unsigned char *)got.base - got.alloc);
        int block = -1;
        for (int i = 0; i < rsize; i++) {
            long long l = (long long)displs[i] * types[rtype].extent + types[rtype].true_lb;
            long long hgh = ((long long)displs[i] + rcounts[i]) * types[rtype].extent + types[rtype].true_lb;
            if (rcounts[i] > 0 && off >= l && off < hgh)
                block = i;
        }
        stats.mismatches++;
        fatal("MISMATCH",
              "receive buffer differs from PMPI's: %zu bytes differ, the first at offset %lld from the buffer "
              "start (%s%d) : expected 0x%02x, got 0x%02x (seed %llu)",
              ndiff, off, block >= 0 ? "in the block of remote rank " : "outside every block: guard/gap ",
              block, want.alloc[first], got.alloc[first], opt.seed);
    }
    if (memcmp(sb.alloc, spristine, sb.len) != 0)
        fatal("MISMATCH", "the send buffer was modified (seed %llu)", opt.seed);

    buffer_close(&sb);
    buffer_close(&got);
    buffer_close(&want);
    free(spristine);
    free(rcounts);
    free(displs);
}

/* ------------------------------------------------------------------- fault */

static void fault_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    if (opt.fault_file) {
        FILE *f = fopen(opt.fault_file, "w");
        if (f) {
            fprintf(f, "%ld.%09ld\n", (long)ts.tv_sec, ts.tv_nsec);
            fflush(f);
            fsync(fileno(f));
            fclose(f);
        }
    }
    fprintf(stderr, "soak: world rank %d injects fault '%s' now\n", wrank,
            opt.fault == 1 ? "kill -9" : opt.fault == 2 ? "MPI_Abort" : "exit(3)");
    fflush(stderr);
    switch (opt.fault) {
    case 1: kill(getpid(), SIGKILL); break;
    case 2: MPI_Abort(MPI_COMM_WORLD, 3); break;
    case 3: exit(3);
    }
    _exit(5);
}

/* ------------------------------------------------------------------ probes */

/* Legal calls in which one side's arguments look unusual to the other side.
 * Each process checks its result against the known pattern and prints
 * "PROBE-RESULT <name> PASS" (world rank 0) when all agree.
 *
 * zero-extent-send: MPI_Allgather, the left group (one process, so native
 *   Open MPI, which gathers at the root in the send type, is right too) sends
 *   one int described by a type of extent 0; the right group receives
 *   MPI_INTs.
 * zero-extent-recv-v: MPI_Allgatherv, the left group sends one int per
 *   process from rank 0 only (the others send 0); the right group receives
 *   with a type of extent 0 and counts {1, 0, ...}: one block, nothing
 *   overlaps. */
static int run_probe(void)
{
    entry *e = &pool[0];
    int g = e->group, r, rsize, bad = 0;
    MPI_Comm_rank(e->comm, &r);
    MPI_Comm_remote_size(e->comm, &rsize);
    MPI_Datatype z;
    MPI_Type_create_resized(MPI_INT, 0, 0, &z);
    MPI_Type_commit(&z);
    int mine = 1000 + wrank, got[256];
    for (int i = 0; i < 256; i++)
        got[i] = -1;
    int rc;
    snprintf(current_call, sizeof current_call, "probe %s", opt.probe);
    alarm(opt.watchdog > 0 ? (unsigned)opt.watchdog : 0);
    if (!strcmp(opt.probe, "zero-extent-send")) {
        if (g == 0)
            rc = MPI_Allgather(&mine, 1, z, NULL, 0, MPI_INT, e->comm);
        else
            rc = MPI_Allgather(NULL, 0, MPI_INT, got, 1, MPI_INT, e->comm);
        if (g == 1)
            for (int i = 0; i < rsize; i++)
                bad |= got[i] != 1000 + i; /* the left group is world ranks 0..left-1 */
    } else if (!strcmp(opt.probe, "zero-extent-recv-v")) {
        int counts[256] = { 0 }, none[256] = { 0 }, displs[256] = { 0 };
        counts[0] = 1;
        if (g == 0)
            rc = MPI_Allgatherv(&mine, r == 0 ? 1 : 0, MPI_INT, NULL, none, displs, MPI_INT, e->comm);
        else
            rc = MPI_Allgatherv(NULL, 0, MPI_INT, got, counts, displs, z, e->comm);
        if (g == 1)
            bad |= got[0] != 1000 || got[1] != -1;
    } else {
        if (wrank == 0)
            fprintf(stderr, "soak: unknown probe '%s'\n", opt.probe);
        MPI_Abort(MPI_COMM_WORLD, 2);
        return 2;
    }
    alarm(0);
    if (rc != MPI_SUCCESS)
        fatal("ERROR", "the call returned %d", rc);
    if (bad)
        fatal("MISMATCH", "wrong data received (%d %d ...)", got[0], got[1]);
    int all_bad;
    MPI_Allreduce(&bad, &all_bad, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    if (wrank == 0)
        printf("PROBE-RESULT %s %s\n", opt.probe, all_bad ? "FAIL" : "PASS");
    MPI_Type_free(&z);
    MPI_Comm_free(&e->comm);
    return 0;
}

/* -------------------------------------------------------------------- main */

int main(int argc, char **argv)
{
    /* A fixed mmap threshold: large buffers are always returned to the
     * system when freed, so RSS samples measure what stays allocated. */
    mallopt(M_MMAP_THRESHOLD, 256 * 1024);
    mallopt(M_TRIM_THRESHOLD, 1024 * 1024);
    MPI_Init(&argc, &argv);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    if (parse_args(argc, argv) != 0) {
        if (wrank == 0)
            usage();
        MPI_Finalize();
        return 2;
    }
    if (wsize < 2 || wsize > 256) {
        if (wrank == 0)
            fprintf(stderr, "soak: needs 2 to 256 processes\n");
        MPI_Finalize();
        return 2;
    }
    if (opt.left < 1 || opt.left >= wsize)
        opt.left = wsize / 2;
    if (opt.warmup < 0)
        opt.warmup = opt.calls / 10 > 50 ? opt.calls / 10 : (opt.calls > 50 ? 50 : opt.calls / 2);
    if (opt.fault_rank < 0)
        opt.fault_rank = wsize - 1;
    *(void **)&live_fn = dlsym(RTLD_DEFAULT, "intergather_internal_comms_live");
    signal(SIGALRM, on_alarm);
    types_create();

    memory start = read_status(), warm = { -1, -1, -1 }, mid = { -1, -1, -1 };
    long rss_peak = start.rss, live_start = live_now(), live_peak;
    long live_warm = -1;
    live_peak = live_start;

    if (wrank == 0)
        printf("soak: %d processes, primary split %d+%d, seed %llu, %ld calls, blocks up to %ld bytes, "
               "library %s\n",
               wsize, opt.left, wsize - opt.left, opt.seed, opt.calls, opt.max_bytes,
               live_fn ? "loaded (intergather_internal_comms_live found)" : "not loaded (native run)");
    fflush(stdout);

    /* the primary split: world order, left group first */
    {
        int perm[256];
        for (int i = 0; i < wsize; i++)
            perm[i] = i;
        entry_from_perm(&pool[npool++], perm, wsize, opt.left);
    }

    if (opt.probe) {
        int rc = run_probe();
        types_free();
        MPI_Finalize();
        return rc;
    }

    rng shared = rng_make(opt.seed, 0x5eed, 0);
    t_start = now();
    long report_every = opt.calls >= 10 ? opt.calls / 10 : 1;
    for (long call = 0; call < opt.calls; call++) {
        if (opt.fault && call == opt.fault_at && wrank == opt.fault_rank)
            fault_now();
        if (rng_unit(&shared) < opt.churn)
            churn(&shared);
        one_call(call, &shared);
        if ((call + 1) % opt.sample_every == 0 || call + 1 == opt.warmup || call + 1 == opt.calls / 2) {
            long live = live_now();
            memory m = read_status();
            if (m.rss > rss_peak) rss_peak = m.rss;
            if (live > live_peak) live_peak = live;
            if (call + 1 == opt.warmup) {
                warm = m;
                live_warm = live;
            }
            if (call + 1 == opt.calls / 2)
                mid = m;
        }
        if (wrank == 0 && (call + 1) % report_every == 0 && !opt.fault) {
            memory m = read_status();
            printf("soak: %ld/%ld calls, %.1f s, rank 0: RSS %.1f MiB (private %.1f), live internal comms %ld, "
                   "pool %d comms\n",
                   call + 1, opt.calls, now() - t_start, m.rss / 1024.0, m.anon / 1024.0, live_now(), npool);
            fflush(stdout);
        }
    }
    double seconds = now() - t_start;
    snprintf(current_call, sizeof current_call, "freeing the communicators at the end");
    for (int k = 0; k < npool; k++)
        if (pool[k].comm != MPI_COMM_NULL) {
            MPI_Comm_free(&pool[k].comm);
            churn_stats.freed++;
        }
    npool = 0;
    /* The live count after everything is freed; the RSS at the end. */
    long live_end = live_now();
    memory end = read_status();
    if (warm.rss < 0)
        warm = start;

    long mx_in[11] = { start.rss, warm.rss, end.rss, rss_peak, end.hwm, end.rss - warm.rss,
                       live_peak, live_end - live_start, mid.rss < 0 ? 0 : end.rss - mid.rss,
                       end.anon - warm.anon, mid.anon < 0 ? 0 : end.anon - mid.anon };
    long mx[11];
    MPI_Reduce(mx_in, mx, 11, MPI_LONG, MPI_MAX, 0, MPI_COMM_WORLD);
    long mn_in[2] = { live_end - live_start, live_start }, mn[2];
    MPI_Reduce(mn_in, mn, 2, MPI_LONG, MPI_MIN, 0, MPI_COMM_WORLD);
    long sum_in[6] = { stats.checks, stats.mismatches, stats.bytes_checked / 1024, churn_stats.created,
                       churn_stats.dups, churn_stats.freed }, sum[6];
    MPI_Reduce(sum_in, sum, 6, MPI_LONG, MPI_SUM, 0, MPI_COMM_WORLD);
    (void)live_warm;

    if (wrank == 0) {
        int rss_bad = opt.rss_slack_kib >= 0 && mx[9] > opt.rss_slack_kib;
        int live_bad = live_fn != NULL && (mx[7] != 0 || mn[0] != 0);
        printf("SOAK-RESULT calls=%ld allgather=%ld allgatherv=%ld half=%ld full=%ld empty=%ld checks=%ld "
               "mismatches=%ld checked_mib=%.0f comms_created=%ld comms_dup=%ld comms_freed=%ld "
               "rss_start_kib=%ld rss_warm_kib=%ld rss_end_kib=%ld rss_peak_kib=%ld hwm_kib=%ld "
               "rss_growth_kib=%ld rss_growth_2nd_half_kib=%ld private_growth_kib=%ld "
               "private_growth_2nd_half_kib=%ld live_start=%ld live_peak=%ld live_end=%ld "
               "library=%s seconds=%.1f seed=%llu verdict=%s%s%s\n",
               stats.calls, stats.allgather, stats.allgatherv, stats.half, stats.full, stats.empty, sum[0], sum[1],
               sum[2] / 1024.0, sum[3], sum[4], sum[5], mx[0], mx[1], mx[2], mx[3], mx[4], mx[5], mx[8], mx[9], mx[10], mn[1],
               mx[6], mn[1] + mx[7], live_fn ? "yes" : "no", seconds, opt.seed,
               rss_bad || live_bad ? "FAIL" : "PASS", rss_bad ? ",private-memory-growth" : "",
               live_bad ? ",live-comms-not-back-to-baseline" : "");
        fflush(stdout);
    }
    types_free();
    MPI_Finalize();
    return 0;
}
