/*
 * Inter-communicator MPI_Allgather, half duplex, compared byte for byte with
 * PMPI_Allgather on the same inter-communicator in the same run.
 *
 * usage: allgather_matrix SPLITS [MAXCOUNT]
 *   SPLITS    "P+Q,P+Q,...": the splits to run, one after the other (left
 *             group of P processes, right group of Q), or a number LEFT:
 *             LEFT processes on the left, the rest on the right
 *   MAXCOUNT  largest element count to try (default 262144)
 * Half duplex in both directions (left group sending, right group sending)
 * and full duplex (both sending, with different counts), counts
 * 0, 1, 7, 1000, 20000, 262144 and four datatypes (testlib.h).  World rank 0 prints how many
 * calls moved data ("expect served moved=N full=F empty=M"), which the
 * test script compares with intergather's verbose summary.  A call that
 * does not return in TEST_CALL_SECONDS ends the process with a HANG line
 * naming the case (testlib.h).
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int counts[] = { 0, 1, 7, 1000, 20000, 262144 };

typedef struct {
    MPI_Comm inter;
    const char *split;
    int is_left, local_size, remote_size, maxcount;
    long moved, full, empty;
} ctx;

/* One case: the left group sends left_count elements per process, the right
 * group right_count (0 for a receiving group). */
static void run_case(ctx *c, int type_id, int left_count, int right_count)
{
    MPI_Datatype type = test_type(type_id);
    int scount = c->is_left ? left_count : right_count, rcount = c->is_left ? right_count : left_count;
    size_t sspan = test_span(type, scount);
    size_t rspan = test_span(type, (MPI_Aint)rcount * c->remote_size) + 64; /* + a tail that must stay untouched */
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);

    test_buffers b;
    test_buffers_open(&b, sspan, rspan, (unsigned)(wrank * 131 + scount + type_id));
    char what[160];
    snprintf(what, sizeof what, "%s: left sends %d, right sends %d x %s", c->split, left_count, right_count,
             test_type_name(type_id));
    test_watch_call("allgather_matrix world rank %d: %s", wrank, what);
    if (PMPI_Allgather(b.sbuf, scount, type, b.expected, rcount, type, c->inter) != MPI_SUCCESS)
        TEST_FAIL("native PMPI_Allgather failed");
    if (MPI_Allgather(b.sbuf, scount, type, b.got, rcount, type, c->inter) != MPI_SUCCESS)
        TEST_FAIL("MPI_Allgather failed");
    test_watch_done();
    test_buffers_check(&b, what);
    test_buffers_close(&b);
    if (left_count > 0 || right_count > 0)
        c->moved++;
    else
        c->empty++;
    if (left_count > 0 && right_count > 0)
        c->full++;
}

/* Every case on one split. */
static void run_split(MPI_Comm inter, int is_left, const char *split, void *arg)
{
    ctx *c = arg;
    c->inter = inter;
    c->is_left = is_left;
    c->split = split;
    MPI_Comm_size(inter, &c->local_size);
    MPI_Comm_remote_size(inter, &c->remote_size);
    size_t ncounts = sizeof counts / sizeof counts[0];
    for (int t = 0; t < TEST_NTYPES; t++) {
        for (size_t k = 0; k < ncounts; k++) {
            if (counts[k] > c->maxcount)
                continue;
            run_case(c, t, counts[k], 0); /* left group sends */
            run_case(c, t, 0, counts[k]); /* right group sends */
            /* both send, different amounts (the next smaller count) */
            if (counts[k] > 0)
                run_case(c, t, counts[k], counts[k - 1] > 0 ? counts[k - 1] : 3);
        }
    }
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 2)
        TEST_FAIL("usage: allgather_matrix SPLITS [MAXCOUNT]");
    ctx c = { .maxcount = argc > 2 ? atoi(argv[2]) : 262144 };
    test_for_each_split(argv[1], run_split, &c);
    /* World rank 0 takes part in every split: its counts are the run's. */
    int wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    if (wrank == 0)
        printf("expect served moved=%ld full=%ld empty=%ld\nPASS allgather_matrix\n", c.moved, c.full, c.empty);
    MPI_Finalize();
    return 0;
}
