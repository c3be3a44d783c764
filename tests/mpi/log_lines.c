/*
 * Every line the library prints leaves in one write(2) (src/log.c), so
 * that the lines of processes sharing a terminal or a launcher's pipe
 * cannot interleave mid-line.
 *
 * This process's stderr becomes a SOCK_SEQPACKET socket, which keeps each
 * write a message of its own, and its stdio stream gets a 64-byte buffer
 * (setvbuf, as a program may set it): a line printed through that stream
 * would leave in 64-byte pieces, as it does in pieces of 128 bytes on
 * glibc 2.37 and later whatever the buffer.  Then one half-duplex and one
 * full-duplex MPI_Allgather on an inter-communicator of LEFT and the rest
 * of the world (the script sets INTERGATHER_VERBOSE), MPI_Finalize (the
 * summary line), and every message is read back: each that holds the
 * library's prefix must be one whole line that starts with it.  The
 * messages go on to the real stderr, so the test's log shows them.
 * Prints "PASS log_lines lines=N summaries=M".
 *
 * Usage: log_lines LEFT
 */
#define _GNU_SOURCE /* memmem */
#include "testlib.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define PREFIX "intergather: "
#define SUMMARY "summary (world rank"

static char stderr_buffer[64];

/* stderr into a message socket; returns the end to read from, and the
 * real stderr in *saved. */
static int capture_stderr(int *saved)
{
    int ends[2];
    if (socketpair(AF_UNIX, SOCK_SEQPACKET, 0, ends) != 0) {
        perror("log_lines: socketpair");
        exit(1);
    }
    *saved = dup(STDERR_FILENO);
    if (*saved < 0 || dup2(ends[0], STDERR_FILENO) < 0) {
        perror("log_lines: dup2");
        exit(1);
    }
    close(ends[0]);
    setvbuf(stderr, stderr_buffer, _IOFBF, sizeof stderr_buffer);
    fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK);
    return ends[1];
}

/* One message: whether it is one of the library's lines, whole. */
static int check_message(const char *msg, size_t len, int *lines, int *summaries)
{
    if (memmem(msg, len, PREFIX, strlen(PREFIX)) == NULL)
        return 1; /* not the library's (the MPI library's own output, say) */
    const char *newline = memchr(msg, '\n', len);
    if (strncmp(msg, PREFIX, strlen(PREFIX)) != 0 || newline != msg + len - 1) {
        printf("log_lines: a write held part of a line, or more than one: \"%.*s\"\n", (int)len, msg);
        return 0;
    }
    (*lines)++;
    if (memmem(msg, len, SUMMARY, strlen(SUMMARY)) != NULL)
        (*summaries)++;
    return 1;
}

int main(int argc, char **argv)
{
    int saved_stderr, source = capture_stderr(&saved_stderr);
    MPI_Init(&argc, &argv);
    int is_left, rank;
    MPI_Comm inter = test_intercomm(argc > 1 ? atoi(argv[1]) : 1, &is_left);
    MPI_Comm_rank(inter, &rank);
    int rsize;
    MPI_Comm_remote_size(inter, &rsize);
    enum { COUNT = 1000 };
    int *sbuf = calloc(COUNT, sizeof *sbuf), *rbuf = calloc((size_t)COUNT * rsize, sizeof *rbuf);
    for (int i = 0; i < COUNT; i++)
        sbuf[i] = rank * COUNT + i;
    /* Half duplex (the left group sends), then full duplex. */
    MPI_Allgather(sbuf, is_left ? COUNT : 0, MPI_INT, rbuf, is_left ? 0 : COUNT, MPI_INT, inter);
    MPI_Allgather(sbuf, COUNT, MPI_INT, rbuf, COUNT, MPI_INT, inter);
    for (int r = 0; r < rsize; r++)
        for (int i = 0; i < COUNT; i++)
            if (rbuf[(size_t)r * COUNT + i] != r * COUNT + i) {
                dup2(saved_stderr, STDERR_FILENO); /* so that the failure is seen */
                TEST_FAIL("block %d element %d: %d", r, i, rbuf[(size_t)r * COUNT + i]);
            }
    free(sbuf);
    free(rbuf);
    MPI_Comm_free(&inter);
    MPI_Finalize();

    fflush(stderr);
    dup2(saved_stderr, STDERR_FILENO);
    close(saved_stderr);
    int ok = 1, lines = 0, summaries = 0;
    static char msg[1 << 16];
    for (;;) {
        ssize_t len = recv(source, msg, sizeof msg, 0);
        if (len < 0 && errno == EINTR)
            continue;
        if (len <= 0)
            break; /* EAGAIN: every message read */
        if (write(STDERR_FILENO, msg, (size_t)len) < 0)
            perror("log_lines: write");
        ok &= check_message(msg, (size_t)len, &lines, &summaries);
    }
    close(source);
    if (ok)
        printf("PASS log_lines lines=%d summaries=%d\n", lines, summaries);
    return ok ? 0 : 1;
}
