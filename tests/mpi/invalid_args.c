/*
 * Invalid arguments passed alike by every process, common mistakes: a
 * negative count, MPI_DATATYPE_NULL, negative MPI_Allgatherv receive
 * counts, on an inter-communicator.  The shim must end each call as the
 * MPI library does: the same error class, and the communicator's error
 * handler (the program's own, which returns) run as often, with that
 * class.  "native" calls PMPI_*, "library" MPI_*; each process prints one
 * line a call, and test_invalid_args.sh compares the runs.  (Where only
 * some processes pass such arguments, tests/mpi/opening.c's hard cases
 * check the outcome, under Open MPI.)
 *
 * usage: invalid_args native|library LEFT
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { N = 4, MAX_PROCS = 64 };

typedef struct {
    int native;
    MPI_Comm inter;
    int sbuf[N], rbuf[N * MAX_PROCS], counts[MAX_PROCS], displs[MAX_PROCS];
} ctx;

static int allgather(ctx *c, int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype)
{
    return c->native ? PMPI_Allgather(c->sbuf, scount, stype, c->rbuf, rcount, rtype, c->inter)
                     : MPI_Allgather(c->sbuf, scount, stype, c->rbuf, rcount, rtype, c->inter);
}

static int allgatherv(ctx *c, int scount, MPI_Datatype stype, MPI_Datatype rtype)
{
    return c->native ? PMPI_Allgatherv(c->sbuf, scount, stype, c->rbuf, c->counts, c->displs, rtype, c->inter)
                     : MPI_Allgatherv(c->sbuf, scount, stype, c->rbuf, c->counts, c->displs, rtype, c->inter);
}

/* One call's outcome, as the script compares it. */
static void report(int wrank, const char *what, int rc)
{
    test_error_log log = test_errors_taken();
    printf("rank %d %s: class %d, handler ran %d times (class %d)\n", wrank, what, test_error_class(rc), log.calls,
           log.last_class);
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 3 || (strcmp(argv[1], "native") != 0 && strcmp(argv[1], "library") != 0))
        TEST_FAIL("usage: invalid_args native|library LEFT");
    ctx c = { .native = strcmp(argv[1], "native") == 0 };
    int wrank, is_left, remote, left = atoi(argv[2]);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    c.inter = test_intercomm(left, &is_left);
    MPI_Comm_remote_size(c.inter, &remote);
    if (remote > MAX_PROCS)
        TEST_FAIL("invalid_args: at most %d processes a group", MAX_PROCS);
    for (int i = 0; i < N; i++)
        c.sbuf[i] = wrank * 100 + i;
    for (int j = 0; j < remote; j++)
        c.counts[j] = N, c.displs[j] = j * N;
    test_log_errors(c.inter);

    report(wrank, "negative send count", allgather(&c, -1, MPI_INT, N, MPI_INT));
    report(wrank, "negative receive count", allgather(&c, N, MPI_INT, -1, MPI_INT));
    report(wrank, "null send type", allgather(&c, N, MPI_DATATYPE_NULL, N, MPI_INT));
    report(wrank, "null receive type", allgather(&c, N, MPI_INT, N, MPI_DATATYPE_NULL));
    report(wrank, "allgatherv null receive type", allgatherv(&c, N, MPI_INT, MPI_DATATYPE_NULL));
    report(wrank, "allgatherv negative send count", allgatherv(&c, -1, MPI_INT, MPI_INT));
    c.counts[remote - 1] = -1;
    report(wrank, "allgatherv negative receive count", allgatherv(&c, N, MPI_INT, MPI_INT));
    c.counts[remote - 1] = N;
    /* A correct call after them: nothing of theirs may be left behind. */
    report(wrank, "correct call", allgather(&c, N, MPI_INT, N, MPI_INT));
    for (int j = 0; j < remote; j++)
        for (int i = 0; i < N; i++) {
            int sender = is_left ? left + j : j; /* the left group is world ranks 0 .. LEFT - 1 */
            if (c.rbuf[j * N + i] != sender * 100 + i)
                TEST_FAIL("correct call: rank %d, block %d int %d: %d, expected %d", wrank, j, i, c.rbuf[j * N + i],
                          sender * 100 + i);
        }
    MPI_Comm_free(&c.inter);
    MPI_Barrier(MPI_COMM_WORLD);
    if (wrank == 0)
        printf("PASS invalid_args\n");
    MPI_Finalize();
    return 0;
}
