#include "lifecycle.h"

#include "comm_cache.h"
#include "intergather.h"
#include "log.h"
#include "mpi_identity.h"
#include "p2p.h"
#include "pair.h"
#include "settings.h"
#include "stats.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stddef.h>

static pthread_mutex_t start_lock = PTHREAD_MUTEX_INITIALIZER;
static atomic_int started;
static atomic_int announced;
static atomic_int finished;
static int finalize_keyval = MPI_KEYVAL_INVALID;
static MPI_Comm probe_comm = MPI_COMM_NULL;

/* MPI_Finalize deletes MPI_COMM_SELF's attributes before anything else
 * (MPI-3.1 section 8.7.1), whichever language called it, so this is the one
 * place that sees the end of every program, C or Fortran. */
static int on_finalize(MPI_Comm comm, int keyval, void *value, void *extra)
{
    const ig_settings *s = ig_settings_get();
    int rank = ig_world_rank();
    atomic_store(&finished, 1);
    ig_private_comm_free(&probe_comm);
    /* First, so that what settling finds is in the summary. */
    ig_comm_cache_shutdown();
    ig_sink_end(); /* after the cache: settling drops messages into the sink */
    if (s->verbose >= 2 || (s->verbose >= 1 && rank <= 0))
        ig_stats_report(rank);
    PMPI_Comm_free_keyval(&finalize_keyval);
    return MPI_SUCCESS;
}

/* A model setting as the user would write it. */
static const char *model_text(int measure, const ig_cost_params *m, char *buf, size_t len)
{
    return measure ? "measure" : ig_format_model(m, buf, len);
}

static void print_configuration(void)
{
    const ig_settings *s = ig_settings_get();
    char net[96], shm[96];
    ig_log("active: %s=%s %s=%s %s=%llu %s=%s %s=%s %s=%s %s=%s %s=%s %s=%s %s=%s %s=%d", IG_ENV_TOPOLOGY,
           ig_topology_name(s->topology), IG_ENV_ALGORITHM, ig_algorithm_setting_name(s->algorithm),
           IG_ENV_MIN_BYTES, (unsigned long long)s->min_bytes, IG_ENV_RING_SCHEDULE,
           ig_ring_schedule_name(s->ring_schedule), IG_ENV_GROUP_ALLGATHER, ig_group_stage_name(s->group_stage),
           IG_ENV_MANY_SENDERS, ig_many_senders_name(s->many_senders), IG_ENV_NET_MODEL,
           model_text(s->net_measure, &s->net_model, net, sizeof net), IG_ENV_SHM_MODEL,
           model_text(s->shm_measure, &s->shm_model, shm, sizeof shm), IG_ENV_OPENING, ig_opening_name(s->opening),
           IG_ENV_OVERSUBSCRIBED, ig_oversubscribed_name(s->oversubscribed), IG_ENV_VERBOSE, s->verbose);
}

static int start_locked(void)
{
    const ig_settings *s = ig_settings_get();
    /* First: a failure after the hook is set would set it again on retry. */
    int rc = ig_sink_start();
    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_finalize, &finalize_keyval, NULL);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_set_attr(MPI_COMM_SELF, finalize_keyval, NULL);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Comm_dup(MPI_COMM_SELF, &probe_comm);
    if (rc == MPI_SUCCESS)
        rc = ig_private_comm_setup(probe_comm);
    if (rc == MPI_SUCCESS && s->verbose >= 2)
        print_configuration();
    return rc;
}

int ig_lifecycle_start(void)
{
    if (atomic_load(&started))
        return MPI_SUCCESS;
    pthread_mutex_lock(&start_lock);
    int rc = MPI_SUCCESS;
    if (!atomic_load(&started)) {
        rc = start_locked();
        atomic_store(&started, rc == MPI_SUCCESS);
    }
    pthread_mutex_unlock(&start_lock);
    return rc;
}

MPI_Comm ig_lifecycle_probe_comm(void)
{
    return probe_comm;
}

int ig_lifecycle_finished(void)
{
    return atomic_load(&finished);
}

int ig_lifecycle_running(void)
{
    return atomic_load(&started) && !atomic_load(&finished);
}

/* World rank 0 only, as the summary: one line per job. */
void ig_lifecycle_announce(const char *what)
{
    if (ig_settings_get()->verbose < 1 || atomic_load(&announced) || ig_world_rank() != 0 ||
        atomic_exchange(&announced, 1))
        return;
    ig_log("active, first call served by the %s algorithm (world rank %d)", what, ig_world_rank());
}

/* Start-up hooks: so the finalize summary appears even in programs whose
 * first collective is not an allgather. */
INTERGATHER_API int MPI_Init(int *argc, char ***argv)
{
    int ours = ig_mpi_identity_matches(); /* before anything else: no handles otherwise */
    int rc = PMPI_Init(argc, argv);
    if (ours && rc == MPI_SUCCESS)
        ig_lifecycle_start();
    return rc;
}

INTERGATHER_API int MPI_Init_thread(int *argc, char ***argv, int required, int *provided)
{
    int ours = ig_mpi_identity_matches(); /* before anything else: no handles otherwise */
    int rc = PMPI_Init_thread(argc, argv, required, provided);
    if (ours && rc == MPI_SUCCESS)
        ig_lifecycle_start();
    return rc;
}
