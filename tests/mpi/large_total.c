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
 *
 * large_total withdraw   (2 processes: 1 sender + 1 receiver): one block of
 * more than 2^31 bytes, received at absolute addresses (MPI_BOTTOM, legal,
 * not served: every process goes native) after a small call has built the
 * pair, so the sender's own arguments would lead it to post the direct
 * algorithm early.  An early message that large could not be sized by its
 * withdrawing receiver (MPI_Get_count gives MPI_UNDEFINED past INT_MAX), and
 * both processes hung; it must not be posted (src/speculate.c).  A small
 * call follows, which would find a stray early message.
 */
#include "testlib.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BLOCK_DOUBLES ((int)(1.125 * (1 << 30) / sizeof(double))) /* 1.125 GiB */

#define WITHDRAW_DOUBLES ((1 << 28) + 1) /* 2 GiB + 8 bytes */

/* One small call, every value checked: 4 ints from the single sender. */
static void small_call(MPI_Comm inter, int is_left, const char *what)
{
    int sbuf[4] = { 11, 22, 33, 44 }, rbuf[4] = { 0 };
    MPI_Allgather(sbuf, is_left ? 4 : 0, MPI_INT, rbuf, is_left ? 0 : 4, MPI_INT, inter);
    if (!is_left && memcmp(sbuf, rbuf, sizeof sbuf) != 0)
        TEST_FAIL("%s: the small call received %d %d %d %d", what, rbuf[0], rbuf[1], rbuf[2], rbuf[3]);
}

/* The sender's block is calloc'ed and never written: its pages stay the
 * shared zero page (touching 2 GiB costs seconds on a loaded machine).  The
 * receiver prefills with FILL, so a byte the call did not write is caught. */
#define FILL 0x5a

static int withdraw_large(void)
{
    int is_left, wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm inter = test_intercomm(1, &is_left);
    size_t block = (size_t)WITHDRAW_DOUBLES * sizeof(double);
    unsigned char *buf = is_left ? calloc(block, 1) : malloc(block);
    if (!buf)
        TEST_FAIL("out of memory");
    small_call(inter, is_left, "before (builds the pair)");
    if (is_left) {
        MPI_Allgather(buf, WITHDRAW_DOUBLES, MPI_DOUBLE, NULL, 0, MPI_DOUBLE, inter);
    } else {
        memset(buf, FILL, block);
        MPI_Datatype absolute = test_absolute_type(buf, WITHDRAW_DOUBLES, MPI_DOUBLE);
        MPI_Allgather(NULL, 0, MPI_DOUBLE, MPI_BOTTOM, 1, absolute, inter);
        MPI_Type_free(&absolute);
        for (size_t i = 0; i < block; i++)
            if (buf[i] != 0)
                TEST_FAIL("byte %zu of the %zu-byte block is %d, not what its sender sent (0)", i, block, buf[i]);
    }
    small_call(inter, is_left, "after");
    free(buf);
    if (wrank == 0)
        printf("PASS large_total withdraw (%zu bytes, received at MPI_BOTTOM)\n", block);
    MPI_Comm_free(&inter);
    MPI_Finalize();
    return 0;
}

/* A word at a time: the buffers are GiB long and the test must stay fast on
 * a loaded machine (n is a multiple of 8). */
int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc > 1 && strcmp(argv[1], "withdraw") == 0)
        return withdraw_large();
    int is_left, wrank, rsize, nsenders;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm inter = test_intercomm(2, &is_left);
    MPI_Comm_remote_size(inter, &rsize);
    /* The senders are the left group: its size seen from either side. */
    if (is_left)
        MPI_Comm_size(inter, &nsenders);
    else
        nsenders = rsize;
    size_t block = (size_t)BLOCK_DOUBLES * sizeof(double);
    size_t total = block * (size_t)nsenders; /* what the receiver gets */
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
        for (int i = 0; i < nsenders; i++) { /* sender i is world rank i */
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
