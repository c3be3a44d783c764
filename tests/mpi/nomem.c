/*
 * Out of memory in one process (fail_malloc.c, preloaded by
 * test_nomem.sh, fails one allocation size of libintergather's in one
 * world rank) must never strand its peers or leave wrong data behind:
 * every process of every call either returns an error or holds exactly
 * the blocks sent, and the job ends.  Each kind of call runs twice with
 * different contents, so that a message one call left behind and the next
 * one took would show as wrong data.
 *
 * usage: nomem LEFT COUNT KINDS
 *   LEFT   the low world ranks that form the left group (the rest: right)
 *   COUNT  ints per block
 *   KINDS  letters, one call kind each, in order:
 *          h  MPI_Allgather, the left group sends (half duplex)
 *          r  MPI_Allgather, the right group sends
 *          f  MPI_Allgather, both groups send (full duplex)
 *          v  MPI_Allgatherv, the left group sends, blocks in reverse order
 *             with a gap of one int between them
 *          m  MPI_Allgather, the left group sends, the right group
 *             expects 5 ints more per block than are sent: erroneous, so
 *             only its end is checked, not its data (where every process
 *             goes native, Open MPI's root gathering returns MPI_SUCCESS
 *             with other bytes); a message it left behind would show in
 *             the calls after it
 * World rank 0 prints "calls-in-error=N" (process calls that returned an
 * error) and "PASS nomem".
 */
#include "testlib.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int pattern(int sender, int call, int i)
{
    return sender * 1000003 + call * 7919 + i;
}

typedef struct {
    MPI_Comm inter;
    int is_left, rank, remote, count, wrank;
} party;

enum { EXTRA = 5 }; /* the ints more than sent that kind m expects */

/* Where remote block j starts in the receive buffer, in ints. */
static int block_at(char kind, int remote, int count, int j)
{
    if (kind == 'm')
        return j * (count + EXTRA);
    return kind == 'v' ? (remote - 1 - j) * (count + 1) : j * count;
}

/* One call; returns 1 if it returned an error here. */
static int one_call(const party *pt, char kind, int call)
{
    int sends = kind == 'f' || (kind == 'r' ? !pt->is_left : pt->is_left);
    int receives = kind == 'f' || !sends;
    int scount = sends ? pt->count : 0, rcount = receives ? pt->count : 0;
    int expected = kind == 'm' && receives ? rcount + EXTRA : rcount;
    int span = pt->remote * (pt->count + EXTRA) + 1;
    int *sbuf = malloc(sizeof(int) * (size_t)(scount + 1)), *rbuf = malloc(sizeof(int) * (size_t)span);
    int *counts = malloc(sizeof(int) * (size_t)pt->remote), *displs = malloc(sizeof(int) * (size_t)pt->remote);
    if (sbuf == NULL || rbuf == NULL || counts == NULL || displs == NULL)
        TEST_FAIL("out of memory in the test program");
    for (int i = 0; i < scount; i++)
        sbuf[i] = pattern(pt->rank, call, i);
    for (int i = 0; i < span; i++)
        rbuf[i] = -1;
    for (int j = 0; j < pt->remote; j++) {
        counts[j] = rcount;
        displs[j] = block_at(kind, pt->remote, rcount, j);
    }
    int rc = kind == 'v' ? MPI_Allgatherv(sbuf, scount, MPI_INT, rbuf, counts, displs, MPI_INT, pt->inter)
                         : MPI_Allgather(sbuf, scount, MPI_INT, rbuf, expected, MPI_INT, pt->inter);
    int wrong = 0;
    for (int j = 0; rc == MPI_SUCCESS && kind != 'm' && j < pt->remote; j++)
        for (int i = 0; i < rcount; i++)
            wrong += rbuf[block_at(kind, pt->remote, rcount, j) + i] != pattern(j, call, i);
    if (wrong > 0)
        TEST_FAIL("call %d (%c): world rank %d returned MPI_SUCCESS with %d wrong ints", call, kind, pt->wrank,
                  wrong);
    free(sbuf);
    free(rbuf);
    free(counts);
    free(displs);
    return rc != MPI_SUCCESS;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    test_datatype_errors_return();
    if (argc < 4)
        TEST_FAIL("usage: nomem LEFT COUNT KINDS");
    party pt = { .count = atoi(argv[2]) };
    MPI_Comm_rank(MPI_COMM_WORLD, &pt.wrank);
    pt.inter = test_intercomm(atoi(argv[1]), &pt.is_left);
    MPI_Comm_set_errhandler(pt.inter, MPI_ERRORS_RETURN);
    MPI_Comm_rank(pt.inter, &pt.rank);
    MPI_Comm_remote_size(pt.inter, &pt.remote);
    int in_error = 0, total = 0, call = 0;
    for (const char *k = argv[3]; *k != '\0'; k++) {
        if (strchr("hrfvm", *k) == NULL)
            TEST_FAIL("unknown call kind '%c'", *k);
        for (int twice = 0; twice < 2; twice++)
            in_error += one_call(&pt, *k, call++);
    }
    MPI_Reduce(&in_error, &total, 1, MPI_INT, MPI_SUM, 0, MPI_COMM_WORLD);
    MPI_Comm_free(&pt.inter);
    if (pt.wrank == 0)
        printf("calls-in-error=%d\nPASS nomem\n", total);
    MPI_Finalize();
    return 0;
}
