#include "log.h"

#include "c_locale.h"

#include <errno.h>
#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int ig_mpi_is_running(void)
{
    int initialized = 0, finalized = 0;
    PMPI_Initialized(&initialized);
    PMPI_Finalized(&finalized);
    return initialized && !finalized;
}

int ig_world_rank(void)
{
    int rank = -1;
    if (ig_mpi_is_running())
        PMPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
}

/* All of buf to fd, resuming after a partial write or a signal. */
static void write_whole(int fd, const char *buf, size_t len)
{
    while (len > 0) {
        ssize_t written = write(fd, buf, len);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return;
        buf += written;
        len -= (size_t)written;
    }
}

static void vlog(const char *fmt, va_list ap)
{
    /* The whole line, prefix and newline included, formatted into one
     * buffer and written with one write(2), so that lines from processes
     * sharing a terminal or a launcher's pipe do not interleave mid-line
     * (a pipe takes up to PIPE_BUF bytes whole).  Not fprintf: on an
     * unbuffered stderr glibc 2.37 and later write its output in pieces of
     * 128 bytes, and under Open MPI 5 another process's line then came
     * between two pieces of a summary.  Numbers with a decimal point, as
     * the settings read them; a line longer than the buffer is cut. */
    char line[1024 + sizeof IG_LOG_PREFIX];
    const size_t prefix = sizeof IG_LOG_PREFIX - 1, room = sizeof line - prefix - 1; /* - 1: the newline */
    memcpy(line, IG_LOG_PREFIX, prefix);
    int n = ig_vsnprintf_c(line + prefix, room, fmt, ap);
    if (n < 0)
        return;
    size_t len = prefix + ((size_t)n < room ? (size_t)n : room - 1);
    line[len++] = '\n';
    fflush(stderr); /* what the program wrote to stderr before comes first */
    write_whole(STDERR_FILENO, line, len);
}

void ig_log(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}

void ig_log_rank0(const char *fmt, ...)
{
    if (ig_world_rank() > 0)
        return;
    va_list ap;
    va_start(ap, fmt);
    vlog(fmt, ap);
    va_end(ap);
}
