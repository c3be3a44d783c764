#define _POSIX_C_SOURCE 200809L /* nanosleep */
#include "testlib.h"

#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

void test_fail(const char *file, int line, const char *fmt, ...)
{
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "TEST FAILURE [world rank %d] %s:%d: ", rank, file, line);
    vfprintf(stderr, fmt, ap);
    fprintf(stderr, "\n");
    va_end(ap);
    MPI_Abort(MPI_COMM_WORLD, 1);
    exit(1);
}

/* The watchdog's line, composed when the step is named: a signal handler
 * may only call async-signal-safe functions (write, _exit). */
static char hang_line[200];
static volatile size_t hang_len;

static void watch_step(const char *fmt, va_list ap)
{
    char step[sizeof hang_line - 8];
    vsnprintf(step, sizeof step, fmt, ap);
    hang_len = 0; /* no torn line if the alarm comes now */
    int n = snprintf(hang_line, sizeof hang_line, "HANG %s\n", step);
    hang_len = n > 0 && (size_t)n < sizeof hang_line ? (size_t)n : 0;
}

void test_watch(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    watch_step(fmt, ap);
    va_end(ap);
}

static void on_alarm(int sig)
{
    (void)sig;
    ssize_t written = write(STDERR_FILENO, hang_line, hang_len);
    (void)written;
    _exit(98);
}

void test_watchdog(unsigned seconds)
{
    signal(SIGALRM, on_alarm);
    alarm(seconds);
}

void test_watch_call(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    watch_step(fmt, ap);
    va_end(ap);
    test_watchdog(TEST_CALL_SECONDS);
}

void test_watch_done(void)
{
    test_watchdog(0);
}

int test_error_class(int rc)
{
    int cls = MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    return cls;
}

static test_error_log error_log = { 0, MPI_SUCCESS, MPI_COMM_NULL };

static void log_error(MPI_Comm *comm, int *code, ...)
{
    error_log.calls++;
    error_log.last_comm = *comm;
    MPI_Error_class(*code, &error_log.last_class);
}

void test_log_errors(MPI_Comm comm)
{
    MPI_Errhandler handler;
    MPI_Comm_create_errhandler(log_error, &handler);
    MPI_Comm_set_errhandler(comm, handler);
    MPI_Errhandler_free(&handler);
}

test_error_log test_errors_taken(void)
{
    test_error_log taken = error_log;
    error_log = (test_error_log){ 0, MPI_SUCCESS, MPI_COMM_NULL };
    return taken;
}

void test_expect_class(int rc, int want, const char *what)
{
    if (test_error_class(rc) != want)
        TEST_FAIL("%s: error class %d, expected %d", what, test_error_class(rc), want);
}

void test_expect_error(int rc, const char *what)
{
    if (rc == MPI_SUCCESS)
        TEST_FAIL("%s: succeeded, expected an error", what);
}

/* The first `left` processes of `comm` and the rest, connected. */
static MPI_Comm intercomm_of(MPI_Comm comm, int left, int *is_left)
{
    int rank;
    MPI_Comm_rank(comm, &rank);
    *is_left = rank < left;
    MPI_Comm local, inter;
    MPI_Comm_split(comm, *is_left, rank, &local);
    MPI_Intercomm_create(local, 0, comm, *is_left ? left : 0, 99, &inter);
    MPI_Comm_free(&local);
    return inter;
}

void test_datatype_errors_return(void)
{
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
}

MPI_Comm test_intercomm(int left, int *is_left)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (left < 1 || left >= size)
        TEST_FAIL("left group size %d does not fit in %d processes", left, size);
    return intercomm_of(MPI_COMM_WORLD, left, is_left);
}

/* A barrier of MPI_COMM_WORLD that sleeps while it waits (a process
 * spinning in MPI would take a core from the split that runs). */
static void barrier_asleep(void)
{
    MPI_Request req;
    int done = 0;
    MPI_Ibarrier(MPI_COMM_WORLD, &req);
    for (;;) {
        MPI_Test(&req, &done, MPI_STATUS_IGNORE);
        if (done)
            return;
        struct timespec ms = { 0, 1000000 };
        nanosleep(&ms, NULL);
    }
}

static void take_part_in_split(int p, int q, test_split_fn fn, void *arg)
{
    int rank, is_left;
    char name[32];
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm job;
    MPI_Comm_split(MPI_COMM_WORLD, rank < p + q ? 0 : MPI_UNDEFINED, rank, &job);
    if (job != MPI_COMM_NULL) {
        MPI_Comm inter = intercomm_of(job, p, &is_left);
        snprintf(name, sizeof name, "%d+%d", p, q);
        fn(inter, is_left, name, arg);
        MPI_Comm_free(&inter);
        MPI_Comm_free(&job);
    }
    barrier_asleep();
}

void test_for_each_split(const char *splits, test_split_fn fn, void *arg)
{
    int size;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    if (strchr(splits, '+') == NULL) {
        int left = atoi(splits);
        if (left < 1 || left >= size)
            TEST_FAIL("left group size %d does not fit in %d processes", left, size);
        return take_part_in_split(left, size - left, fn, arg);
    }
    for (const char *s = splits; *s != '\0';) {
        int p, q, used;
        if (sscanf(s, "%d+%d%n", &p, &q, &used) != 2 || p < 1 || q < 1 || p + q > size)
            TEST_FAIL("bad split at \"%s\" (P+Q, P+Q <= %d processes)", s, size);
        take_part_in_split(p, q, fn, arg);
        s += used;
        if (*s == ',')
            s++;
    }
}

static MPI_Datatype types[TEST_NTYPES];

static MPI_Datatype make_struct_with_lb(void)
{
    /* A char at offset 4 and a double at offset 16, resized to lower bound 2
     * and extent 32: gaps before, between and after the data. */
    int lens[2] = { 1, 1 };
    MPI_Aint displs[2] = { 4, 16 };
    MPI_Datatype parts[2] = { MPI_CHAR, MPI_DOUBLE }, s, r;
    MPI_Type_create_struct(2, lens, displs, parts, &s);
    MPI_Type_create_resized(s, 2, 32, &r);
    MPI_Type_free(&s);
    return r;
}

MPI_Datatype test_type(int which)
{
    if (types[which] != 0 && types[which] != MPI_DATATYPE_NULL)
        return types[which];
    switch (which) {
    case TEST_INT: types[which] = MPI_INT; break;
    case TEST_SHIFTED_DOUBLE: {
        /* one double 8 bytes past the element's start (lower bound 8, extent
         * 8): elements tile contiguously, but the data begin at true_lb 8,
         * where the byte-range algorithms (chain, relay) must start. */
        int one = 1;
        MPI_Aint at = 8;
        MPI_Type_create_hindexed(1, &one, &at, MPI_DOUBLE, &types[which]);
        MPI_Type_commit(&types[which]);
        break;
    }
    case TEST_VECTOR:
        /* two ints, stride three: a gap of 4 bytes inside each element */
        MPI_Type_vector(2, 1, 2, MPI_INT, &types[which]);
        MPI_Type_commit(&types[which]);
        break;
    case TEST_STRUCT_LB:
        types[which] = make_struct_with_lb();
        MPI_Type_commit(&types[which]);
        break;
    }
    return types[which];
}

const char *test_type_name(int which)
{
    static const char *names[TEST_NTYPES] = { "MPI_INT", "hindexed(1,8,DOUBLE)", "vector(2,1,2,INT)", "resized-struct-lb2" };
    return names[which];
}

size_t test_span(MPI_Datatype type, MPI_Aint count)
{
    MPI_Aint lb, extent, tlb, textent;
    MPI_Type_get_extent(type, &lb, &extent);
    MPI_Type_get_true_extent(type, &tlb, &textent);
    if (count == 0)
        return 0;
    /* The buffer starts at the address passed to MPI; data starts at true_lb >= 0 here. */
    return (size_t)(tlb + (count - 1) * extent + textent);
}

MPI_Datatype test_absolute_type(void *buf, int count, MPI_Datatype base)
{
    MPI_Aint addr;
    MPI_Datatype t;
    MPI_Get_address(buf, &addr);
    MPI_Type_create_hindexed(1, &count, &addr, base, &t);
    MPI_Type_commit(&t);
    return t;
}

void test_fill(void *buf, size_t bytes, unsigned seed)
{
    unsigned char *b = buf;
    unsigned x = seed * 2654435761u + 1;
    for (size_t i = 0; i < bytes; i++) {
        x = x * 1103515245u + 12345u;
        b[i] = (unsigned char)(x >> 16);
    }
}

int test_compare(const void *expected, const void *got, size_t bytes, const char *what)
{
    const unsigned char *e = expected, *g = got;
    for (size_t i = 0; i < bytes; i++) {
        if (e[i] != g[i]) {
            int rank;
            MPI_Comm_rank(MPI_COMM_WORLD, &rank);
            fprintf(stderr, "MISMATCH [world rank %d] %s: byte %zu of %zu: expected 0x%02x got 0x%02x\n", rank,
                    what, i, bytes, e[i], g[i]);
            return 1;
        }
    }
    return 0;
}

void test_buffers_open(test_buffers *b, size_t sspan, size_t rspan, unsigned seed)
{
    b->sspan = sspan;
    b->rspan = rspan;
    b->sbuf = malloc(sspan + 1);
    b->expected = malloc(rspan + 1);
    b->got = malloc(rspan + 1);
    if (!b->sbuf || !b->expected || !b->got)
        TEST_FAIL("out of memory");
    test_fill(b->sbuf, sspan, seed);
    test_fill(b->expected, rspan, 7);
    memcpy(b->got, b->expected, rspan);
}

void test_buffers_check(const test_buffers *b, const char *what)
{
    if (test_compare(b->expected, b->got, b->rspan, what))
        TEST_FAIL("result differs from native: %s", what);
}

void test_buffers_close(test_buffers *b)
{
    free(b->sbuf);
    free(b->expected);
    free(b->got);
}

void test_allgather_against_native(MPI_Comm inter, int is_left, int type_id, int left_count, int right_count)
{
    MPI_Datatype type = test_type(type_id);
    int remote, wrank, scount = is_left ? left_count : right_count, rcount = is_left ? right_count : left_count;
    MPI_Comm_remote_size(inter, &remote);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    test_buffers b;
    test_buffers_open(&b, test_span(type, scount), test_span(type, (MPI_Aint)rcount * remote) + 64,
                      (unsigned)(wrank * 131 + scount + 7 * is_left));
    if (PMPI_Allgather(b.sbuf, scount, type, b.expected, rcount, type, inter) != MPI_SUCCESS ||
        MPI_Allgather(b.sbuf, scount, type, b.got, rcount, type, inter) != MPI_SUCCESS)
        TEST_FAIL("an allgather failed");
    char what[128];
    snprintf(what, sizeof what, "allgather, left sends %d, right sends %d x %s", left_count, right_count,
             test_type_name(type_id));
    test_buffers_check(&b, what);
    test_buffers_close(&b);
}
