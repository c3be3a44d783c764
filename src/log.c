#include "log.h"

#include "c_locale.h"

#include <mpi.h>
#include <stdarg.h>
#include <stdio.h>

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

static void vlog(const char *fmt, va_list ap)
{
    /* Format into one buffer and write it with one call so lines from
     * different processes sharing a terminal do not interleave mid-line;
     * numbers with a decimal point, as the settings read them. */
    char line[1024];
    int n = ig_vsnprintf_c(line, sizeof line, fmt, ap);
    if (n < 0)
        return;
    fprintf(stderr, IG_LOG_PREFIX "%s\n", line);
    fflush(stderr);
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
