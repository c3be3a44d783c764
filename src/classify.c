#include "classify.h"

#include "comm_cache.h"
#include "fd_plan.h"
#include "log.h"
#include "mpi_identity.h"
#include "runtime.h"
#include "settings.h"


static int go_native(ig_fallback why)
{
    ig_stats_fallback(why);
    return 0;
}

static int mpi_is_running(void)
{
    int initialized = 0, finalized = 0;
    PMPI_Initialized(&initialized);
    PMPI_Finalized(&finalized);
    return initialized && !finalized;
}

/* Bytes described by (count, type), or -1 if the shim should not touch it:
 * an invalid handle or a type whose layout the algorithm cannot space out
 * (non-positive extent with data in it). */
static MPI_Count described_bytes(int count, MPI_Datatype type)
{
    MPI_Count size;
    MPI_Aint lb, extent;
    if (count < 0 || type == MPI_DATATYPE_NULL)
        return -1;
    if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS || size < 0)
        return -1;
    if (count == 0 || size == 0)
        return 0;
    if (PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS || extent <= 0)
        return -1;
    return (MPI_Count)count * size;
}

int ig_allgather_classify(ig_allgather_call *c)
{
    int inter = 0;
    if (!ig_mpi_identity_matches())
        return 0; /* another MPI's handles: touch nothing, count nothing */
    if (!mpi_is_running())
        return go_native(IG_FALLBACK_NOT_INITIALIZED);
    ig_runtime_start();
    if (c->comm == MPI_COMM_NULL)
        return go_native(IG_FALLBACK_COMM_NULL);
    if (PMPI_Comm_test_inter(c->comm, &inter) != MPI_SUCCESS || !inter)
        return go_native(IG_FALLBACK_INTRA);
    if (c->sbuf == MPI_IN_PLACE || c->rbuf == MPI_IN_PLACE)
        return go_native(IG_FALLBACK_IN_PLACE);
    MPI_Count send_bytes = described_bytes(c->scount, c->stype);
    MPI_Count recv_bytes = described_bytes(c->rcount, c->rtype);
    if (send_bytes < 0 || recv_bytes < 0)
        return go_native(IG_FALLBACK_ARGUMENTS);
    c->send_bytes = send_bytes;
    c->recv_bytes = recv_bytes;
    c->local_sends = send_bytes > 0;
    c->duplex = send_bytes > 0 && recv_bytes > 0 ? IG_DUPLEX_FULL
                : send_bytes > 0 || recv_bytes > 0 ? IG_DUPLEX_HALF
                                                   : IG_DUPLEX_EMPTY;
    return 1;
}

/* Internal failures are reported through the user's communicator, so the
 * error handler the user installed there decides what happens. */
static int report_error(MPI_Comm comm, int rc)
{
    if (rc != MPI_SUCCESS)
        PMPI_Comm_call_errhandler(comm, rc);
    return rc;
}

static ig_ring_kind ring_kind(const ig_settings *s)
{
    return s->ring_schedule == IG_RING_SCHEDULE_PAPER ? IG_RING_PAPER : IG_RING_OPTIMAL;
}

/* One direction on its pair, with the configured topology. */
static int run_half(const ig_allgather_call *c, const ig_settings *s, ig_pair *pair)
{
    if (s->topology == IG_TOPOLOGY_RING)
        return ig_pair_allgather_ring(pair, ring_kind(s), c->sbuf, c->scount, c->stype, c->rbuf, c->rcount,
                                      c->rtype);
    return ig_pair_allgather_fc(pair, c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype);
}

/* Full duplex as two half-duplex passes, the low group's data first (every
 * process must run the passes in the same order). */
static int run_two_halves(const ig_allgather_call *c, const ig_settings *s, ig_comm_cache *cache)
{
    int low = ig_comm_cache_local_is_low(cache);
    ig_pair *pair;
    for (int pass = 0; pass < 2; pass++) {
        int local_sends = pass == 0 ? low : !low;
        int rc = ig_comm_cache_pair(cache, local_sends, &pair);
        if (rc == MPI_SUCCESS)
            rc = run_half(c, s, pair);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* Full duplex, fully connected: the one-exchange algorithm when the cost
 * model predicts it faster than two half-duplex passes (it nearly always
 * does; see fd_plan.h).  The model's inputs are symmetric, so both groups
 * choose alike.  The ring runs its schedule once per direction. */
static int run_full(const ig_allgather_call *c, const ig_settings *s, ig_comm_cache *cache)
{
    int low = ig_comm_cache_local_is_low(cache);
    int n_local = ig_comm_cache_local_size(cache), n_remote = ig_comm_cache_remote_size(cache);
    if (s->topology == IG_TOPOLOGY_FULLY_CONNECTED &&
        ig_fd_preferred(n_local, (double)c->send_bytes, n_remote, (double)c->recv_bytes, &ig_cost_default)) {
        ig_pair *pair;
        int rc = ig_comm_cache_pair(cache, low, &pair);
        return rc != MPI_SUCCESS ? rc
                                 : ig_pair_allgather_fd(pair, c->sbuf, c->scount, c->stype, c->rbuf, c->rcount,
                                                        c->rtype);
    }
    return run_two_halves(c, s, cache);
}

static int run_algorithm(const ig_allgather_call *c, const ig_settings *s, ig_comm_cache *cache)
{
    ig_stats_served(s->topology == IG_TOPOLOGY_RING ? IG_ALGO_RING : IG_ALGO_FULLY_CONNECTED);
    ig_stats_kind(c->duplex == IG_DUPLEX_FULL ? IG_KIND_FULL_DUPLEX : IG_KIND_HALF_DUPLEX);
    if (c->duplex == IG_DUPLEX_FULL)
        return run_full(c, s, cache);
    ig_pair *pair;
    int rc = ig_comm_cache_pair(cache, c->local_sends, &pair);
    return rc != MPI_SUCCESS ? rc : run_half(c, s, pair);
}

int ig_allgather_dispatch(const ig_allgather_call *c, int *rc)
{
    if (c->duplex == IG_DUPLEX_EMPTY) {
        ig_stats_served(IG_ALGO_EMPTY);
        *rc = MPI_SUCCESS;
        return 1;
    }
    /* The cache is built before any setting is consulted: settings may differ
     * between processes, and only the cache's agreement check makes acting on
     * them safe. */
    ig_comm_cache *cache;
    *rc = ig_comm_cache_get(c->comm, &cache);
    if (*rc != MPI_SUCCESS) {
        report_error(c->comm, *rc);
        return 1;
    }
    if (!ig_comm_cache_settings_agree(cache))
        return go_native(IG_FALLBACK_SETTINGS_DIFFER);
    const ig_settings *s = ig_settings_get();
    if (s->topology == IG_TOPOLOGY_NATIVE)
        return go_native(IG_FALLBACK_DISABLED);
    /* Both groups see the same pair {send_bytes, recv_bytes}, swapped. */
    MPI_Count largest = c->send_bytes > c->recv_bytes ? c->send_bytes : c->recv_bytes;
    if ((uint64_t)largest < s->min_bytes)
        return go_native(IG_FALLBACK_SMALL);
    if (ig_comm_cache_is_spokesperson(cache))
        ig_runtime_announce(ig_topology_name(s->topology));
    *rc = run_algorithm(c, s, cache);
    report_error(c->comm, *rc);
    return 1;
}
