/*
 * Bad input (issue "Every process takes the same path"): awkward but valid
 * arguments, erroneous ones, and ones with a defined error class, one case
 * per run.  MPI_COMM_WORLD is split into group A (the low LEFT world
 * ranks) and group B (the rest), joined by an inter-communicator; each
 * process calls MPI_Allgather and then MPI_Allgatherv with the case's
 * arguments and prints, per call, one line
 *
 *   OUTCOME case=NAME call=CALL rank=R group=G rc_class=C err=E data=D crc=X
 *
 * (R the world rank, C the error class of the return code and E its name,
 * D ok|bad against the result the standard defines, or n/a where it defines
 * none or the call failed, X a checksum of the whole receive buffer, guard
 * areas included, or "-" when the call failed).  The script
 * (test_bad_input.sh) runs it natively and under the shim and compares.
 *
 * Watchdog: with IG_BAD_INPUT_WATCHDOG=S in the environment, a process
 * still running S seconds after MPI_Init prints
 *   HANG case=NAME rank=R in=WHERE
 * on stderr and exits with status 98, so a hang names its case, its
 * processes and the call they are stuck in.
 *
 * Usage: bad_input CASE [LEFT [return|fatal [both|allgather|allgatherv]]]
 *   LEFT     size of group A (default: half the processes)
 *   return   MPI_ERRORS_RETURN on the inter-communicator (default);
 *   fatal    leave MPI_ERRORS_ARE_FATAL there.
 *
 * Per process, with n = 65536 ints (256 KiB), "A -> B" meaning A sends:
 *   control             MPI_INT both ways (full duplex)
 *   neg_extent_a2b      A -> B, B receives with a type of extent -4 into a
 *                       buffer it addresses from the end downwards
 *   neg_extent_b2a      B -> A, A receives with that type
 *   neg_extent_full     both ways, B receives with that type, A with MPI_INT
 *                       (sending with it is not covered: native Open MPI
 *                       4.1.4 fails that with MPI_ERR_INTERN and hangs)
 *   zero_extent_send    A -> B, A sends one int n times (type of extent 0)
 *   overlap_send        A -> B, A sends n/2 elements of contiguous(2, INT)
 *                       resized to extent 4 (overlapping: ints k, k+1), B
 *                       receives n ints; checked against that pattern only
 *   overlap_send_full   the same both ways
 *   upper_bound         1000 ints both ways, B says it receives 20000
 *   zero_vs_n           A sends 0, B expects n; B -> A: n (erroneous)
 *   n_vs_zero           A sends n, B expects 0; B -> A: n (erroneous)
 *   truncate            both send n, B expects n/2 (receive too small)
 *   uncommitted_send    both send n with an uncommitted type
 *   null_sendbuf        both send n from a NULL buffer
 *   uncommitted_recv_v  both receive n with an uncommitted type
 * MPI_Allgatherv receives the remote blocks in reverse order (displacement
 * of remote rank i: (remote size - 1 - i) * count).
 */
#include "testlib.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define N_INTS 65536 /* 256 KiB of ints per process */
#define GUARD 64     /* bytes before and after every receive area */
#define FILL 0xa5

/* How a process describes its data: the element kinds used. */
typedef enum { K_INT, K_NEG, K_ZERO, K_OVERLAP, K_UNCOMMITTED } kind;

/* One group's arguments in a case. */
typedef struct {
    kind skind;
    int scount;
    int null_sbuf;
    kind rkind;
    int rcount; /* per remote process (Allgatherv: every count) */
} args;

typedef struct {
    const char *name;
    args a, b;
    int check_data; /* whether the standard defines the result */
} case_def;

#define N N_INTS
static const case_def cases[] = {
    { "control", { K_INT, N, 0, K_INT, N }, { K_INT, N, 0, K_INT, N }, 1 },
    { "neg_extent_a2b", { K_INT, N, 0, K_INT, 0 }, { K_INT, 0, 0, K_NEG, N }, 1 },
    { "neg_extent_b2a", { K_INT, 0, 0, K_NEG, N }, { K_INT, N, 0, K_INT, 0 }, 1 },
    { "neg_extent_full", { K_INT, N, 0, K_INT, N }, { K_INT, N, 0, K_NEG, N }, 1 },
    { "zero_extent_send", { K_ZERO, N, 0, K_INT, 0 }, { K_INT, 0, 0, K_INT, N }, 1 },
    { "overlap_send", { K_OVERLAP, N / 2, 0, K_INT, 0 }, { K_INT, 0, 0, K_INT, N }, 1 },
    { "overlap_send_full", { K_OVERLAP, N / 2, 0, K_INT, N }, { K_OVERLAP, N / 2, 0, K_INT, N }, 1 },
    { "upper_bound", { K_INT, 1000, 0, K_INT, 1000 }, { K_INT, 1000, 0, K_INT, 20000 }, 0 },
    { "zero_vs_n", { K_INT, 0, 0, K_INT, N }, { K_INT, N, 0, K_INT, N }, 0 },
    { "n_vs_zero", { K_INT, N, 0, K_INT, N }, { K_INT, N, 0, K_INT, 0 }, 0 },
    { "truncate", { K_INT, N, 0, K_INT, N }, { K_INT, N, 0, K_INT, N / 2 }, 0 },
    { "uncommitted_send", { K_UNCOMMITTED, N, 0, K_INT, N }, { K_UNCOMMITTED, N, 0, K_INT, N }, 1 },
    { "null_sendbuf", { K_INT, N, 1, K_INT, N }, { K_INT, N, 1, K_INT, N }, 0 },
    { "uncommitted_recv_v", { K_INT, N, 0, K_UNCOMMITTED, N }, { K_INT, N, 0, K_UNCOMMITTED, N }, 1 },
};
#undef N

static MPI_Datatype type_of(kind k)
{
    static MPI_Datatype made[5];
    if (k == K_INT)
        return MPI_INT;
    if (made[k] != 0 && made[k] != MPI_DATATYPE_NULL)
        return made[k];
    MPI_Datatype pair;
    switch (k) {
    case K_NEG: /* one int, the next one 4 bytes below it */
        MPI_Type_create_resized(MPI_INT, 0, -(MPI_Aint)sizeof(int), &made[k]);
        break;
    case K_ZERO: /* one int, the next one at the same address */
        MPI_Type_create_resized(MPI_INT, 0, 0, &made[k]);
        break;
    case K_OVERLAP: /* ints k and k + 1, the next element starting at k + 1 */
        MPI_Type_contiguous(2, MPI_INT, &pair);
        MPI_Type_create_resized(pair, 0, sizeof(int), &made[k]);
        MPI_Type_free(&pair);
        break;
    case K_UNCOMMITTED:
        MPI_Type_contiguous(1, MPI_INT, &made[k]);
        return made[k]; /* deliberately not committed */
    default:
        break;
    }
    MPI_Type_commit(&made[k]);
    return made[k];
}

/* Ints per element of a kind. */
static int ints_of(kind k)
{
    return k == K_OVERLAP ? 2 : 1;
}

/* The k-th int of world rank w's send array. */
static int value(int w, int k)
{
    return ((w + 1) << 20) + k;
}

/* The j-th int of the message world rank w sends, as its type describes it
 * (send arrays hold value(w, 0..scount)). */
static int sent_int(const args *s, int w, int j)
{
    switch (s->skind) {
    case K_NEG: return value(w, s->scount - 1 - j); /* from the last int downwards */
    case K_ZERO: return value(w, 0);
    case K_OVERLAP: return value(w, j / 2 + j % 2);
    default: return value(w, j);
    }
}

/* One process's receive area: `ints` ints between two guards. */
typedef struct {
    unsigned char *raw, *expected;
    size_t bytes;
    void *rbuf;
} recv_area;

static void area_open(recv_area *r, const args *me, int rsize)
{
    size_t ints = (size_t)me->rcount * ints_of(me->rkind) * rsize;
    r->bytes = 2 * GUARD + ints * sizeof(int);
    r->raw = malloc(r->bytes);
    r->expected = malloc(r->bytes);
    if (r->raw == NULL || r->expected == NULL)
        TEST_FAIL("out of memory");
    /* Negative extent: the buffer argument is the last int; data goes down. */
    r->rbuf = r->raw + GUARD + (me->rkind == K_NEG && ints > 0 ? (ints - 1) * sizeof(int) : 0);
}

/* Address of receive element position `pos` (in elements of the receive
 * type, counted as MPI does: block displacement plus index). */
static int *recv_slot(const recv_area *r, const args *me, long pos)
{
    long step = me->rkind == K_NEG ? -1 : 1;
    return (int *)r->rbuf + step * pos;
}

/* The result the standard defines: block i (from remote rank i) at element
 * displacement displ[i], min(sent, room) ints of remote rank i's message. */
static void area_expect(recv_area *r, const args *me, const args *remote, const int *remote_world,
                        const int *displs, int rsize)
{
    memset(r->expected, FILL, r->bytes);
    size_t sent = (size_t)remote->scount * ints_of(remote->skind), room = (size_t)me->rcount * ints_of(me->rkind);
    size_t ints = sent < room ? sent : room;
    for (int i = 0; i < rsize; i++)
        for (size_t j = 0; j < ints; j++) {
            int *slot = recv_slot(r, me, (long)displs[i] + (long)j);
            int v = sent_int(remote, remote_world[i], (int)j);
            memcpy(r->expected + ((unsigned char *)slot - r->raw), &v, sizeof v);
        }
}

/* Error class names, so the outcome reads the same under any MPI. */
static const char *class_name(int cls)
{
    static const struct {
        int cls;
        const char *name;
    } names[] = {
        { MPI_SUCCESS, "MPI_SUCCESS" },     { MPI_ERR_BUFFER, "MPI_ERR_BUFFER" },
        { MPI_ERR_COUNT, "MPI_ERR_COUNT" }, { MPI_ERR_TYPE, "MPI_ERR_TYPE" },
        { MPI_ERR_TAG, "MPI_ERR_TAG" },     { MPI_ERR_COMM, "MPI_ERR_COMM" },
        { MPI_ERR_RANK, "MPI_ERR_RANK" },   { MPI_ERR_REQUEST, "MPI_ERR_REQUEST" },
        { MPI_ERR_ROOT, "MPI_ERR_ROOT" },   { MPI_ERR_GROUP, "MPI_ERR_GROUP" },
        { MPI_ERR_OP, "MPI_ERR_OP" },       { MPI_ERR_ARG, "MPI_ERR_ARG" },
        { MPI_ERR_UNKNOWN, "MPI_ERR_UNKNOWN" }, { MPI_ERR_TRUNCATE, "MPI_ERR_TRUNCATE" },
        { MPI_ERR_OTHER, "MPI_ERR_OTHER" }, { MPI_ERR_INTERN, "MPI_ERR_INTERN" },
        { MPI_ERR_IN_STATUS, "MPI_ERR_IN_STATUS" }, { MPI_ERR_PENDING, "MPI_ERR_PENDING" },
        { MPI_ERR_NO_MEM, "MPI_ERR_NO_MEM" },
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (names[i].cls == cls)
            return names[i].name;
    return "other";
}

/* The stage each process is in, for the watchdog (testlib.h). */
static void watch(const char *cname, int wrank, const char *where)
{
    test_watch("case=%s rank=%d in=%s", cname, wrank, where);
}

static uint32_t crc_of(const unsigned char *p, size_t n)
{
    uint32_t h = 2166136261u; /* FNV-1a */
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 16777619u;
    return h;
}

static void report(const char *cname, const char *call, int wrank, int is_a, int rc, const recv_area *r,
                   int check_data)
{
    int cls = rc;
    MPI_Error_class(rc, &cls);
    const char *data = "n/a";
    char crc[16] = "-";
    if (rc == MPI_SUCCESS) {
        snprintf(crc, sizeof crc, "%08x", (unsigned)crc_of(r->raw, r->bytes));
        if (check_data)
            data = memcmp(r->raw, r->expected, r->bytes) == 0 ? "ok" : "bad";
    }
    if (check_data && rc == MPI_SUCCESS && strcmp(data, "bad") == 0) {
        for (size_t i = 0; i < r->bytes; i++)
            if (r->raw[i] != r->expected[i]) {
                fprintf(stderr, "DATA [world rank %d] %s %s: first difference at byte %zu of %zu (%s)\n", wrank,
                        cname, call, i, r->bytes,
                        i < GUARD || i >= r->bytes - GUARD ? "guard area" : "data");
                break;
            }
    }
    printf("OUTCOME case=%s call=%s rank=%d group=%c rc_class=%d err=%s data=%s crc=%s\n", cname, call, wrank,
           is_a ? 'A' : 'B', cls, class_name(cls), data, crc);
    fflush(stdout);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int wrank, wsize, is_a, rsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_size(MPI_COMM_WORLD, &wsize);
    const case_def *c = NULL;
    for (size_t i = 0; argc > 1 && i < sizeof cases / sizeof cases[0]; i++)
        if (strcmp(argv[1], cases[i].name) == 0)
            c = &cases[i];
    if (c == NULL)
        TEST_FAIL("usage: bad_input CASE [LEFT [return|fatal [both|allgather|allgatherv]]]; unknown case '%s'",
                  argc > 1 ? argv[1] : "");
    const char *watchdog = getenv("IG_BAD_INPUT_WATCHDOG");
    if (watchdog != NULL && atoi(watchdog) > 0) {
        watch(c->name, wrank, "setup");
        test_watchdog((unsigned)atoi(watchdog));
    }
    int left = argc > 2 ? atoi(argv[2]) : wsize / 2;
    int fatal = argc > 3 && strcmp(argv[3], "fatal") == 0;
    const char *calls = argc > 4 ? argv[4] : "both";
    MPI_Comm inter = test_intercomm(left, &is_a);
    if (!fatal)
        MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    MPI_Comm_remote_size(inter, &rsize);
    const args *me = is_a ? &c->a : &c->b, *remote = is_a ? &c->b : &c->a;
    int remote_first = is_a ? left : 0; /* world rank of remote rank 0 */
    int *remote_world = malloc((size_t)rsize * sizeof(int));
    int *counts = malloc((size_t)rsize * sizeof(int)), *displs = malloc((size_t)rsize * sizeof(int));
    int *natural = malloc((size_t)rsize * sizeof(int));
    int *sdata = malloc(((size_t)me->scount + 1) * sizeof(int));
    if (!remote_world || !counts || !displs || !natural || !sdata)
        TEST_FAIL("out of memory");
    for (int i = 0; i < rsize; i++) {
        remote_world[i] = remote_first + i;
        counts[i] = me->rcount;
        natural[i] = i * me->rcount;
        displs[i] = (rsize - 1 - i) * me->rcount; /* Allgatherv: blocks in reverse order */
    }
    for (int k = 0; k <= me->scount; k++)
        sdata[k] = value(wrank, k);
    const void *sbuf = sdata;
    if (me->null_sbuf)
        sbuf = NULL;
    else if (me->skind == K_NEG && me->scount > 0)
        sbuf = sdata + me->scount - 1;
    MPI_Datatype stype = type_of(me->skind), rtype = type_of(me->rkind);

    recv_area r;
    area_open(&r, me, rsize);
    if (strcmp(calls, "allgatherv") != 0) {
        area_expect(&r, me, remote, remote_world, natural, rsize);
        memset(r.raw, FILL, r.bytes);
        watch(c->name, wrank, "MPI_Allgather");
        int rc = MPI_Allgather(sbuf, me->scount, stype, r.rbuf, me->rcount, rtype, inter);
        report(c->name, "allgather", wrank, is_a, rc, &r, c->check_data);
    }
    if (strcmp(calls, "allgather") != 0) {
        area_expect(&r, me, remote, remote_world, displs, rsize);
        memset(r.raw, FILL, r.bytes);
        watch(c->name, wrank, "MPI_Allgatherv");
        int rc = MPI_Allgatherv(sbuf, me->scount, stype, r.rbuf, counts, displs, rtype, inter);
        report(c->name, "allgatherv", wrank, is_a, rc, &r, c->check_data);
    }
    watch(c->name, wrank, "MPI_Comm_free");
    MPI_Comm_free(&inter);
    free(r.raw);
    free(r.expected);
    free(remote_world);
    free(counts);
    free(displs);
    free(natural);
    free(sdata);
    watch(c->name, wrank, "MPI_Finalize");
    MPI_Finalize();
    test_watchdog(0);
    return 0;
}
