/*
 * More than 2^31 bytes in total: p = 2 senders of 1.125 GiB each (2.25 GiB per
 * receiver), so every byte offset past the first block overflows an int.
 * To stay within memory the native result is reduced to a digest and freed
 * before the intercepted call runs into a fresh buffer of the same size.
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
static uint64_t digest(const unsigned char *b, size_t n)
{
    uint64_t h = 1469598103934665603ULL, w;
    for (size_t i = 0; i + sizeof w <= n; i += sizeof w) {
        memcpy(&w, b + i, sizeof w);
        h = (h ^ w) * 1099511628211ULL;
    }
    return h;
}

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
    uint64_t native = 0, shim = 0;

    if (is_left) {
        sbuf = malloc(block);
        if (!sbuf)
            TEST_FAIL("out of memory");
        test_fill(sbuf, block, (unsigned)wrank + 11);
        PMPI_Allgather(sbuf, BLOCK_DOUBLES, MPI_DOUBLE, NULL, 0, MPI_DOUBLE, inter);
        MPI_Allgather(sbuf, BLOCK_DOUBLES, MPI_DOUBLE, NULL, 0, MPI_DOUBLE, inter);
    } else {
        rbuf = malloc(total);
        if (!rbuf)
            TEST_FAIL("out of memory");
        memset(rbuf, 0x11, total);
        PMPI_Allgather(NULL, 0, MPI_DOUBLE, rbuf, BLOCK_DOUBLES, MPI_DOUBLE, inter);
        native = digest(rbuf, total);
        memset(rbuf, 0x22, total);
        MPI_Allgather(NULL, 0, MPI_DOUBLE, rbuf, BLOCK_DOUBLES, MPI_DOUBLE, inter);
        shim = digest(rbuf, total);
        if (native != shim)
            TEST_FAIL("digest of %zu bytes differs from native", total);
    }
    free(sbuf);
    free(rbuf);
    if (wrank == 0)
        printf("expect served moved=1\nPASS large_total (%zu bytes per receiver)\n", total);
    MPI_Comm_free(&inter);
    MPI_Finalize();
    return 0;
}
