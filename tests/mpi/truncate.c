/*
 * Truncation, an erroneous call: the receiving group expects fewer ints
 * per block than the other group sends.  Under the library every process
 * returns, with MPI_ERRORS_RETURN on the inter-communicator: the receivers
 * with MPI_ERR_TRUNCATE and, of every block, the ints they expected in
 * place (what a receive in place takes) and nothing beyond; the senders
 * with MPI_SUCCESS and, in full duplex, the other group's blocks.  Then a
 * correct call on the same communicator must match native byte for byte
 * (nothing of the erroneous call left over, early messages included).
 * The inter-communicator's error handler is the program's own, which
 * returns as MPI_ERRORS_RETURN does: a call that fails must have invoked
 * it exactly once, with its error, on that communicator, as MPI invokes
 * it; a call that succeeds, never.
 *
 * Native MPI is no reference: Open MPI 4.1's root gathering hangs here with
 * more than one receiver, and MPICH 4.0.2 (like intergather before it
 * received such blocks whole, algo_direct.c) aborts the job when a
 * truncated non-blocking receive completes, whatever the error handler.
 *
 * usage: truncate LEFT COUNT half|full|uneven
 *   group A (the LEFT low world ranks) sends COUNT ints per process and
 *   group B expects COUNT/2 from each; full: B also sends COUNT ints, which
 *   A expects; uneven: B sends COUNT/2 ints and A expects COUNT from each
 *   (more than is sent: no process's own group sends more than it
 *   expects, only the other group knows that B's receives truncate).
 *   MPI_Allgather, then MPI_Allgatherv (B's blocks in reverse order), then
 *   MPI_Allgatherv where B expects half, all and more in turn
 *   (expected_from), each twice.  World rank 0 prints "PASS truncate".
 * usage: truncate probe COUNT (2 processes, run without the library)
 *   The MPI library alone: world rank 0 sends COUNT ints to rank 1, which
 *   receives them with MPI_Irecv into room for COUNT / 2 and prints
 *   "PROBE overrun" where that receive wrote past its buffer, else
 *   "PROBE contained" (test_truncate.sh: README Limitations).
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define GUARD (-7)

static int pattern(int sender, int i)
{
    return sender * 1000003 + i;
}

typedef enum { CALL_ALLGATHER, CALL_ALLGATHERV, CALL_ALLGATHERV_MIXED } call_kind;

typedef struct {
    MPI_Comm inter;
    int is_left, rank, remote, count, full, uneven;
    call_kind kind;
} call_setup;

/* Ints this process expects from remote process j: group A what B sends
 * (full duplex) or nothing; group B half of what A sends, or with
 * CALL_ALLGATHERV_MIXED in turn half, all, and half as much again (only
 * the first of the three truncates: each block is received whole or in
 * place by itself, algo_direct.c). */
static int expected_from(const call_setup *s, int j)
{
    if (s->is_left)
        return s->full || s->uneven ? s->count : 0;
    if (s->kind != CALL_ALLGATHERV_MIXED || j % 3 == 0)
        return s->count / 2;
    return j % 3 == 1 ? s->count : s->count + s->count / 2;
}

/* Ints each process of group A (left) or B sends (COUNT/2 for B when uneven). */
static int sent_by(const call_setup *s, int left)
{
    if (left)
        return s->count;
    return s->uneven ? s->count / 2 : s->full ? s->count : 0;
}

static int min(int a, int b)
{
    return a < b ? a : b;
}

static void one_call(const call_setup *s)
{
    int scount = sent_by(s, s->is_left), remote_sends = sent_by(s, !s->is_left), blocks = 0, truncates = 0;
    int *counts = malloc(sizeof(int) * (size_t)s->remote), *displs = malloc(sizeof(int) * (size_t)s->remote);
    /* MPI_Allgatherv places the remote blocks in reverse order. */
    for (int j = s->remote - 1; j >= 0; j--) {
        counts[j] = expected_from(s, j);
        displs[j] = s->kind == CALL_ALLGATHER ? j * counts[j] : blocks;
        blocks += counts[j];
        truncates |= counts[j] < remote_sends;
    }
    int span = blocks + s->count; /* the blocks, then a guard area */
    int *sbuf = malloc(sizeof(int) * (size_t)(scount + 1)), *rbuf = malloc(sizeof(int) * (size_t)(span + 1));
    for (int i = 0; i < scount; i++)
        sbuf[i] = pattern(s->rank, i);
    for (int i = 0; i < span; i++)
        rbuf[i] = GUARD;
    test_errors_taken(); /* nothing logged before this call counts */
    int rc = s->kind == CALL_ALLGATHER
                 ? MPI_Allgather(sbuf, scount, MPI_INT, rbuf, counts[0], MPI_INT, s->inter)
                 : MPI_Allgatherv(sbuf, scount, MPI_INT, rbuf, counts, displs, MPI_INT, s->inter);
    static const char *const names[] = { "MPI_Allgather", "MPI_Allgatherv", "MPI_Allgatherv (mixed counts)" };
    const char *what = names[s->kind];
    test_error_log log = test_errors_taken();
    if (log.calls != (rc != MPI_SUCCESS) ||
        (rc != MPI_SUCCESS && (log.last_class != test_error_class(rc) || log.last_comm != s->inter)))
        TEST_FAIL("%s, process %d: the error handler ran %d times (class %d), the call returned class %d", what,
                  s->rank, log.calls, log.last_class, test_error_class(rc));
    int want = truncates ? MPI_ERR_TRUNCATE : MPI_SUCCESS;
    if (test_error_class(rc) != want)
        TEST_FAIL("%s, %s process %d: error class %d, expected %d", what, s->is_left ? "sending" : "receiving",
                  s->rank, test_error_class(rc), want);
    /* Each block: what was sent, as far as it fits; the rest untouched. */
    for (int j = 0; j < s->remote; j++)
        for (int i = 0; i < counts[j]; i++) {
            int got = rbuf[displs[j] + i], expect = i < min(counts[j], remote_sends) ? pattern(j, i) : GUARD;
            if (got != expect)
                TEST_FAIL("%s, process %d (group %s): block %d int %d is %d, expected %d", what, s->rank,
                          s->is_left ? "A" : "B", j, i, got, expect);
        }
    for (int i = blocks; i < span; i++)
        if (rbuf[i] != GUARD)
            TEST_FAIL("%s, process %d: int %d beyond the blocks was written", what, s->rank, i);
    free(sbuf);
    free(rbuf);
    free(counts);
    free(displs);
}

/* truncate probe COUNT (the header). */
static void probe(int count)
{
    int wrank, *buf = malloc((size_t)count * sizeof *buf);
    if (buf == NULL)
        TEST_FAIL("out of memory");
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN);
    for (int i = 0; i < count; i++)
        buf[i] = wrank == 0 ? pattern(0, i) : GUARD;
    if (wrank == 0) {
        MPI_Send(buf, count, MPI_INT, 1, 0, MPI_COMM_WORLD);
    } else if (wrank == 1) {
        MPI_Request req;
        int overrun = 0;
        MPI_Irecv(buf, count / 2, MPI_INT, 0, 0, MPI_COMM_WORLD, &req);
        MPI_Wait(&req, MPI_STATUS_IGNORE);
        for (int i = count / 2; i < count; i++)
            overrun |= buf[i] != GUARD;
        printf("PROBE %s (%d ints into room for %d)\n", overrun ? "overrun" : "contained", count, count / 2);
    }
    free(buf);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc == 3 && strcmp(argv[1], "probe") == 0) {
        probe(atoi(argv[2]));
        MPI_Finalize();
        return 0;
    }
    if (argc < 4 || (strcmp(argv[3], "half") != 0 && strcmp(argv[3], "full") != 0 && strcmp(argv[3], "uneven") != 0))
        TEST_FAIL("usage: truncate LEFT COUNT half|full|uneven");
    call_setup s = { .count = atoi(argv[2]), .full = strcmp(argv[3], "full") == 0,
                     .uneven = strcmp(argv[3], "uneven") == 0 };
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    s.inter = test_intercomm(atoi(argv[1]), &s.is_left);
    test_log_errors(s.inter);
    MPI_Comm_rank(s.inter, &s.rank);
    MPI_Comm_remote_size(s.inter, &s.remote);
    for (int round = 0; round < 2; round++)
        for (int kind = CALL_ALLGATHER; kind <= CALL_ALLGATHERV_MIXED; kind++) {
            s.kind = (call_kind)kind;
            one_call(&s);
            /* A correct call right after the erroneous one. */
            test_allgather_against_native(s.inter, s.is_left, TEST_INT, s.count, s.full || s.uneven ? s.count : 0);
        }
    MPI_Comm_free(&s.inter);
    if (wrank == 0)
        printf("PASS truncate (%s, %d ints)\n", argv[3], s.count);
    MPI_Finalize();
    return 0;
}
