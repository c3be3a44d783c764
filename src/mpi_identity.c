/*
 * The MPI library actually loaded, compared with the one configure found.
 *
 * Everything here must work when the loaded MPI is not the one whose mpi.h
 * we were compiled with, so it uses no MPI handle and no MPI constant (not
 * even MPI_MAX_LIBRARY_VERSION_STRING or MPI_SUCCESS): only
 * PMPI_Get_library_version(char *, int *), whose arguments are plain C types
 * in every MPI and which the standard allows before MPI_Init and after
 * MPI_Finalize.  The symbol resolves to the MPI the program was linked with,
 * because the program's libraries come before the preloaded library's own
 * dependencies in the dynamic linker's search order.
 */
#ifdef HAVE_CONFIG_H
#include <config.h>
#endif

#include "mpi_identity.h"
#include "log.h"

#include <mpi.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#ifndef IG_MPI_IMPL
#define IG_MPI_IMPL "unknown"
#endif

/* Larger than any MPI_MAX_LIBRARY_VERSION_STRING in use (Open MPI 256,
 * MPICH 8192): the compiled-in constant is the other MPI's when it matters. */
#define IG_VERSION_BUFFER 65536

static pthread_once_t identity_once = PTHREAD_ONCE_INIT;
static int identity_matches = 1;

const char *ig_mpi_identity_family(const char *v)
{
    if (v == NULL)
        return "unknown";
    if (strstr(v, "Open MPI") != NULL)
        return "openmpi";
    /* MPICH and the implementations of the MPICH ABI compatibility
     * initiative share mpi.h's handle representation. */
    if (strstr(v, "MPICH") != NULL || strstr(v, "MVAPICH") != NULL || strstr(v, "Intel(R) MPI") != NULL)
        return "mpich";
    return "unknown";
}

static const char *family_name(const char *family)
{
    return strcmp(family, "openmpi") == 0 ? "Open MPI" : strcmp(family, "mpich") == 0 ? "MPICH" : family;
}

/* One warning per job, not one per process: the launchers' rank variables
 * stand in for MPI_Comm_rank, which needs a handle.  A process that finds
 * none (a singleton) prints. */
static int first_process(void)
{
    static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK",
                                        "MV2_COMM_WORLD_RANK", "SLURM_PROCID" };
    for (size_t i = 0; i < sizeof vars / sizeof vars[0]; i++) {
        const char *v = getenv(vars[i]);
        if (v != NULL && *v != '\0')
            return strcmp(v, "0") == 0;
    }
    return 1;
}

static void identify(void)
{
    static char version[IG_VERSION_BUFFER];
    int len = 0;
    const char *built = IG_MPI_IMPL;
    if (strcmp(built, "openmpi") != 0 && strcmp(built, "mpich") != 0)
        return; /* built for an MPI we cannot recognise: nothing to compare */
    if (PMPI_Get_library_version(version, &len) != 0)
        return;
    version[sizeof version - 1] = '\0';
    const char *running = ig_mpi_identity_family(version);
    if (strcmp(running, "unknown") == 0 || strcmp(running, built) == 0)
        return;
    identity_matches = 0;
    if (!first_process())
        return;
    /* The first line of the version string, shortened, names what runs. */
    char first_line[96];
    size_t n = strcspn(version, "\r\n");
    if (n >= sizeof first_line)
        n = sizeof first_line - 1;
    memcpy(first_line, version, n);
    first_line[n] = '\0';
    for (char *t = first_line; *t != '\0'; t++)
        if (*t == '\t')
            *t = ' ';
    ig_log("warning: this program runs on %s (\"%s\") but this libintergather.so was built for %s; "
           "intergather stays out of the way (every MPI call goes straight to MPI). Preload the intergather "
           "build made for %s (see intergather(7)).",
           family_name(running), first_line, family_name(built), family_name(running));
}

int ig_mpi_identity_matches(void)
{
    pthread_once(&identity_once, identify);
    return identity_matches;
}

/* The facts below are known good for Open MPI only; any other build,
 * MPICH or one configure could not name, takes the safe side. */
static int built_for_open_mpi(void)
{
    return strcmp(IG_MPI_IMPL, "openmpi") == 0;
}

int ig_mpi_truncated_receive_returns(void)
{
    return built_for_open_mpi();
}

int ig_mpi_allgatherv_takes_mixed_types(void)
{
    return built_for_open_mpi();
}

int ig_mpi_collectives_check_receive_commit(void)
{
    return !built_for_open_mpi();
}
