/*
 * More than 2^31 bytes in total: p = 2 senders of 1.125 GiB each (2.25 GiB for
 * the receiver), so every byte count past the first block overflows an int.
 * The result is checked against the known pattern each sender wrote
 * (fill_words): exactly what native MPI delivers, without running native's
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
 *
 * large_total wide LEFT   (LEFT processes on the left, the rest on the
 * right; MPI_Allgather, then MPI_Allgatherv): one double per process received
 * with a type resized to a 256 MiB extent, so each receive buffer spans
 * 512 MiB of which 24 bytes are data; run with fail_malloc.c's
 * IG_TEST_MEMORY_LIMIT below that span, as on a machine with less memory
 * than the extent.  The fully connected algorithm's group stage must not
 * hand such a layout to an MPI allgather that allocates scratch by the
 * extent (Open MPI's Bruck): that failed in one process, which returned
 * MPI_ERR_INTERN while its peers returned MPI_SUCCESS with a missing block
 * (src/decide.c, call_stage_for).  Left to right, right to left, then both;
 * then MPI_Allgatherv, then MPI_Allgather sending in the wide type too,
 * whose p blocks would make the join plan's scratch as sparse (src/call.c,
 * join_scratch_sparse).
 */
#include "testlib.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#define BLOCK_DOUBLES ((int)(1.125 * (1 << 30) / sizeof(double))) /* 1.125 GiB */

#define WITHDRAW_DOUBLES ((1 << 28) + 1) /* 2 GiB + 8 bytes */

/* The buffers are GiB long.  Faulting them in 4 KiB pages cost most of the
 * test's time (about 17 s of system time for 2.25 GiB on a 2-core VM),
 * the call itself under a second: ask for transparent huge pages where the
 * kernel offers them on request (Debian's default, "madvise"); elsewhere
 * this is plain anonymous memory.  Fresh mappings read as zeros. */
static void *big_alloc(size_t bytes)
{
    void *p = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        TEST_FAIL("cannot map %zu bytes", bytes);
#ifdef MADV_HUGEPAGE
    (void)madvise(p, bytes, MADV_HUGEPAGE); /* a hint: without it the test is only slower */
#endif
    return p;
}

/* A sender's pattern, a word at a time (byte-wise test_fill took seconds a
 * GiB): word i of sender `seed` is a xorshift64* sequence, different for
 * every sender and every position.  `bytes` is a multiple of 8. */
static uint64_t pattern_start(unsigned seed)
{
    return 0x9e3779b97f4a7c15ull * (seed + 1);
}

static uint64_t pattern_next(uint64_t *x)
{
    *x ^= *x >> 12;
    *x ^= *x << 25;
    *x ^= *x >> 27;
    return *x * 2685821657736338717ull;
}

static void fill_words(void *buf, size_t bytes, unsigned seed)
{
    uint64_t x = pattern_start(seed), *w = buf;
    for (size_t i = 0; i < bytes / 8; i++)
        w[i] = pattern_next(&x);
}

/* The first byte of `buf` that differs from fill_words(seed), or -1. */
static long long first_difference(const void *buf, size_t bytes, unsigned seed)
{
    uint64_t x = pattern_start(seed), word;
    const unsigned char *b = buf;
    for (size_t i = 0; i < bytes / 8; i++) {
        uint64_t want = pattern_next(&x);
        memcpy(&word, b + 8 * i, 8);
        if (word != want)
            for (size_t j = 0; j < 8; j++)
                if (b[8 * i + j] != ((const unsigned char *)&want)[j])
                    return (long long)(8 * i + j);
    }
    return -1;
}

/* One small call, every value checked: 4 ints from the single sender. */
static void small_call(MPI_Comm inter, int is_left, const char *what)
{
    int sbuf[4] = { 11, 22, 33, 44 }, rbuf[4] = { 0 };
    MPI_Allgather(sbuf, is_left ? 4 : 0, MPI_INT, rbuf, is_left ? 0 : 4, MPI_INT, inter);
    if (!is_left && memcmp(sbuf, rbuf, sizeof sbuf) != 0)
        TEST_FAIL("%s: the small call received %d %d %d %d", what, rbuf[0], rbuf[1], rbuf[2], rbuf[3]);
}

/* The sender's block is mapped and never written: its pages stay the
 * shared zero page (touching 2 GiB costs seconds on a loaded machine).  The
 * receiver prefills with FILL, so a byte the call did not write is caught. */
#define FILL 0x5a

static int withdraw_large(void)
{
    int is_left, wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm inter = test_intercomm(1, &is_left);
    size_t block = (size_t)WITHDRAW_DOUBLES * sizeof(double);
    unsigned char *buf = big_alloc(block);
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
    munmap(buf, block);
    if (wrank == 0)
        printf("PASS large_total withdraw (%zu bytes, received at MPI_BOTTOM)\n", block);
    MPI_Comm_free(&inter);
    MPI_Finalize();
    return 0;
}

#define WIDE_EXTENT ((MPI_Aint)256 << 20)

/* What world rank `wrank` sends in call `call` of the wide test. */
static double wide_value(int wrank, int call)
{
    return 1000.0 * (call + 1) + wrank;
}

/* The three kinds of wide call: MPI_Allgather, MPI_Allgatherv, and
 * MPI_Allgather sending its one element in the wide type too (a block of 8
 * bytes whose extent is 256 MiB: the join plan's scratch would span p of
 * them, src/call.c). */
enum { WIDE_ALLGATHER, WIDE_ALLGATHERV, WIDE_SEND_TOO, WIDE_KINDS };

/* One wide call: every process of a sending group sends one double; a
 * receiving one gets them `WIDE_EXTENT` apart in a sparse mapping (only
 * the pages at the blocks are ever touched), each followed by a guard
 * double that must stay FILL. */
static void wide_call(MPI_Comm inter, int left, int is_left, MPI_Datatype wide, int call, int left_sends,
                      int right_sends, int kind)
{
    int wrank, rsize;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm_remote_size(inter, &rsize);
    int sends = is_left ? left_sends : right_sends, receives = is_left ? right_sends : left_sends;
    int first_remote = is_left ? left : 0; /* world rank of remote rank 0 */
    size_t span = (size_t)(rsize - 1) * (size_t)WIDE_EXTENT + 2 * sizeof(double);
    char *rbuf = mmap(NULL, span, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (rbuf == MAP_FAILED)
        TEST_FAIL("cannot map %zu bytes", span);
    double fill;
    memset(&fill, FILL, sizeof fill);
    for (int i = 0; i < rsize; i++) {
        memcpy(rbuf + (size_t)i * WIDE_EXTENT, &fill, sizeof fill);
        memcpy(rbuf + (size_t)i * WIDE_EXTENT + sizeof(double), &fill, sizeof fill);
    }
    double mine = wide_value(wrank, call);
    int rc;
    if (kind == WIDE_ALLGATHERV) {
        int *counts = malloc(sizeof(int) * (size_t)rsize), *displs = malloc(sizeof(int) * (size_t)rsize);
        for (int i = 0; i < rsize; i++)
            counts[i] = receives, displs[i] = i;
        rc = MPI_Allgatherv(&mine, sends, MPI_DOUBLE, rbuf, counts, displs, wide, inter);
        free(counts);
        free(displs);
    } else {
        rc = MPI_Allgather(&mine, sends, kind == WIDE_SEND_TOO ? wide : MPI_DOUBLE, rbuf, receives, wide, inter);
    }
    if (rc != MPI_SUCCESS)
        TEST_FAIL("wide call %d: the call returned error %d in world rank %d", call, rc, wrank);
    for (int i = 0; receives && i < rsize; i++) {
        double got, guard;
        memcpy(&got, rbuf + (size_t)i * WIDE_EXTENT, sizeof got);
        memcpy(&guard, rbuf + (size_t)i * WIDE_EXTENT + sizeof(double), sizeof guard);
        if (got != wide_value(first_remote + i, call) || memcmp(&guard, &fill, sizeof fill) != 0)
            TEST_FAIL("wide call %d: block %d is %g (want %g), its guard %s", call, i, got,
                      wide_value(first_remote + i, call), memcmp(&guard, &fill, sizeof fill) ? "written" : "intact");
    }
    munmap(rbuf, span);
}

static int wide_extent(int left)
{
    int is_left, wrank;
    MPI_Comm_rank(MPI_COMM_WORLD, &wrank);
    MPI_Comm inter = test_intercomm(left, &is_left);
    MPI_Comm_set_errhandler(inter, MPI_ERRORS_RETURN);
    MPI_Datatype wide;
    MPI_Type_create_resized(MPI_DOUBLE, 0, WIDE_EXTENT, &wide);
    MPI_Type_commit(&wide);
    for (int kind = 0; kind < WIDE_KINDS; kind++) {
        wide_call(inter, left, is_left, wide, 3 * kind, 1, 0, kind);
        wide_call(inter, left, is_left, wide, 3 * kind + 1, 0, 1, kind);
        wide_call(inter, left, is_left, wide, 3 * kind + 2, 1, 1, kind);
    }
    MPI_Type_free(&wide);
    if (wrank == 0)
        printf("expect served moved=%d\nPASS large_total wide (%d processes on the left; MPI_Allgather, "
               "MPI_Allgatherv and MPI_Allgather with the wide send type, 3 calls each, extent %lld bytes)\n",
               3 * WIDE_KINDS, left, (long long)WIDE_EXTENT);
    MPI_Comm_free(&inter);
    MPI_Finalize();
    return 0;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    if (argc > 1 && strcmp(argv[1], "withdraw") == 0)
        return withdraw_large();
    if (argc > 2 && strcmp(argv[1], "wide") == 0)
        return wide_extent(atoi(argv[2]));
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
    if (is_left) {
        double *sbuf = big_alloc(block);
        fill_words(sbuf, block, (unsigned)wrank);
        MPI_Allgather(sbuf, BLOCK_DOUBLES, MPI_DOUBLE, NULL, 0, MPI_DOUBLE, inter);
        munmap(sbuf, block);
    } else {
        unsigned char *rbuf = big_alloc(total);
        memset(rbuf, FILL, total);
        MPI_Allgather(NULL, 0, MPI_DOUBLE, rbuf, BLOCK_DOUBLES, MPI_DOUBLE, inter);
        for (int i = 0; i < nsenders; i++) { /* sender i is world rank i */
            long long at = first_difference(rbuf + (size_t)i * block, block, (unsigned)i);
            if (at >= 0)
                TEST_FAIL("block %d of %zu bytes: byte %lld differs from what its sender wrote", i, block, at);
        }
        munmap(rbuf, total);
    }
    if (wrank == 0)
        printf("expect served moved=1\nPASS large_total (%zu bytes per receiver)\n", total);
    MPI_Comm_free(&inter);
    MPI_Finalize();
    return 0;
}
