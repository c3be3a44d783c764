/*
 * A ring sender without relay space (its malloc fails: fail_malloc.c,
 * preloaded by test_ring_nomem.sh for world rank FAILING and a block of
 * COUNT ints) must not leave wrong data behind: it returns MPI_ERR_NO_MEM
 * (which also shows the failure was injected), and every receiver either
 * returns an error or holds every block exactly; no process waits forever.
 * A second call, of another size, must then be served correctly on the
 * same communicator.
 *
 * usage: ring_nomem LEFT COUNT FAILING   (group A, the LEFT low world ranks, sends;
 *                                         FAILING -1: no sender fails)
 * World rank 0 prints "PASS ring_nomem" and how many receivers reported
 * the error ("receivers-in-error=N").
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>

static int pattern(int sender, int call, int i)
{
    return sender * 1000003 + call * 7919 + i;
}

/* One half-duplex call of `count` ints per sender; returns 1 if this
 * process is a receiver that reported an error. */
static int one_call(MPI_Comm inter, int is_left, int count, int call, int failing)
{
    int rank, remote, wrank;
    MPI_Comm_rank(inter, &rank);
    MPI_Comm_remote_size(inter, &remote);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    int scount = is_left ? count : 0, rcount = is_left ? 0 : count;
    int *sbuf = malloc(sizeof(int) * (size_t)(scount + 1)), *rbuf = malloc(sizeof(int) * (size_t)(remote * rcount + 1));
    for (int i = 0; i < scount; i++)
        sbuf[i] = pattern(rank, call, i);
    for (int i = 0; i < remote * rcount; i++)
        rbuf[i] = -1;
    int rc = MPI_Allgather(sbuf, scount, MPI_INT, rbuf, rcount, MPI_INT, inter), cls = MPI_SUCCESS;
    if (rc != MPI_SUCCESS)
        MPI_Error_class(rc, &cls);
    if (wrank == failing && cls != MPI_ERR_NO_MEM)
        TEST_FAIL("call %d: world rank %d, whose relay space could not be allocated, returned class %d, not "
                  "MPI_ERR_NO_MEM (was the failure injected?)", call, wrank, cls);
    if (is_left && wrank != failing && cls != MPI_SUCCESS)
        TEST_FAIL("call %d: sender %d returned error class %d", call, wrank, cls);
    int wrong = 0;
    for (int j = 0; !is_left && j < remote; j++)
        for (int i = 0; i < rcount; i++)
            wrong += rbuf[j * rcount + i] != pattern(j, call, i);
    if (!is_left && cls == MPI_SUCCESS && wrong > 0)
        TEST_FAIL("call %d: receiver (world rank %d) returned MPI_SUCCESS with %d wrong ints", call, wrank, wrong);
    free(sbuf);
    free(rbuf);
    return !is_left && cls != MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc < 4)
        TEST_FAIL("usage: ring_nomem LEFT COUNT FAILING");
    int is_left, wrank, count = atoi(argv[2]), failing = atoi(argv[3]);
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm inter = test_intercomm(atoi(argv[1]), &is_left);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    int in_error = one_call(inter, is_left, count, 0, failing), total = 0;
    /* Another size: nothing fails, everything must arrive. */
    if (one_call(inter, is_left, count + 1, 1, -1))
        TEST_FAIL("the second call failed on world rank %d", wrank);
    MPI_Reduce(&in_error, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Comm_free(&inter);
    if (wrank == 0)
        printf("receivers-in-error=%d\nPASS ring_nomem\n", total);
    MPI_Finalize();
    return 0;
}
