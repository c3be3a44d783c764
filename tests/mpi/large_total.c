/*
 * More than 2^31 bytes in total: p = 2 senders of 1.125 GiB each (2.25 GiB for
 * the receiver), so every byte count past the first block overflows an int.
 * The result is checked against the known pattern each sender wrote
 * (test_fill): exactly what native MPI delivers, without running native's
 * root gathering of 2.25 GiB, which made the test too slow for a loaded
 * machine.  The receive buffer is prefilled with another pattern so a byte
 * the library failed to write is caught too.
 * usage: large_total   (run with 3 processes: 2 senders + 1 receiver, the
 * least data that still passes 2^31 bytes in one receive buffer)
 */
#include "testlib.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_DOUBLES ((int)(1.125 * (1 << 30) / sizeof(double))) /* 1.125 GiB */

/* A word at a time: the buffers are GiB long and the test must stay fast on
 * a loaded machine (n is a multiple of 8). */
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int is_left, wrank, rsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm inter = test_intercomm(2, &is_left);
    MPI_Comm_remote_size(inter, &rsize);
    size_t block = (size_t)BLOCK_DOUBLES * sizeof(double);
    size_t total = block * (size_t)rsize;
    double *sbuf = NULL;
    unsigned char *rbuf = NULL;

    if (is_left) {
        sbuf = malloc(block);
        if (!sbuf)
            TEST_FAIL("out of memory");
        test_fill(sbuf, block, (unsigned)wrank + 11);
        MPI_Allgather(sbuf, BLOCK_DOUBLES, MPI_DOUBLE, NULL, 0, MPI_DOUBLE, inter);
    } else {
        rbuf = malloc(total);
        unsigned char *expected = malloc(block);
        if (!rbuf || !expected)
            TEST_FAIL("out of memory");
        memset(rbuf, 0x22, total);
        MPI_Allgather(NULL, 0, MPI_DOUBLE, rbuf, BLOCK_DOUBLES, MPI_DOUBLE, inter);
        for (int i = 0; i < rsize; i++) { /* sender i is world rank i */
            test_fill(expected, block, (unsigned)i + 11);
            if (memcmp(expected, rbuf + (size_t)i * block, block) != 0)
                TEST_FAIL("block %d of %zu bytes differs from what its sender wrote", i, block);
        }
        free(expected);
    }
    free(sbuf);
    free(rbuf);
    if (wrank == 0)
        printf("expect served moved=1\nPASS large_total (%zu bytes per receiver)\n", total);
    MPI_Comm_free(&inter);
    MPI_Finalize();
    return 0;
}
