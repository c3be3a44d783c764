#include "runtime.h"

#include "comm_cache.h"
#include "log.h"
#include "settings.h"
#include "stats.h"

#include <mpi.h>
#include <pthread.h>
#include <stdatomic.h>

static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int started;
static atomic_int announced;
static int finalize_keyval = MPI_KEYVAL_INVALID;

/* MPI_Finalize deletes MPI_COMM_SELF's attributes before anything else
 * (MPI-3.1 section 8.7.1), whichever language called it, so this is the one
 * place that sees the end of every program, C or Fortran. */
static int on_finalize(MPI_Comm comm, int keyval, void *value, void *extra)
{
    const ig_settings *s = ig_settings_get();
    int rank = ig_world_rank();
    if (s->verbose >= 2 || (s->verbose >= 1 && rank <= 0))
        ig_stats_report(rank);
    ig_comm_cache_shutdown();
    PMPI_Comm_free_keyval(&finalize_keyval);
    return MPI_SUCCESS;
}

static void print_configuration(void)
{
    const ig_settings *s = ig_settings_get();
    ig_log("active: %s=%s %s=%llu %s=%s %s=%s %s=%s %s=%d", IG_ENV_TOPOLOGY, ig_topology_name(s->topology),
           IG_ENV_MIN_BYTES, (unsigned long long)s->min_bytes, IG_ENV_RING_SCHEDULE,
           ig_ring_schedule_name(s->ring_schedule), IG_ENV_GROUP_ALLGATHER,
           ig_group_allgather_name(s->group_allgather), IG_ENV_MANY_SENDERS,
           ig_many_senders_name(s->many_senders), IG_ENV_VERBOSE, s->verbose);
}

int ig_runtime_start(void)
{
    if (atomic_load(&started))
        return MPI_SUCCESS;
    pthread_mutex_lock(&start_lock);
    int rc = MPI_SUCCESS;
    if (!atomic_load(&started)) {
        const ig_settings *s = ig_settings_get();
        rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_finalize, &finalize_keyval, NULL);
        if (rc == MPI_SUCCESS)
            rc = PMPI_Comm_set_attr(MPI_COMM_SELF, finalize_keyval, NULL);
        if (rc == MPI_SUCCESS && s->verbose >= 2)
            print_configuration();
        atomic_store(&started, rc == MPI_SUCCESS);
    }
    pthread_mutex_unlock(&start_lock);
    return rc;
}

void ig_runtime_announce(const char *what)
{
    if (ig_settings_get()->verbose < 1 || atomic_exchange(&announced, 1))
        return;
    ig_log("active, first call served by the %s algorithm (world rank %d)", what, ig_world_rank());
}
