#include "classify.h"

#include "algorithms.h"
#include "comm_cache.h"
#include "fd_plan.h"
#include "log.h"
#include "mpi_identity.h"
#include "runtime.h"
#include "settings.h"

#include <limits.h>
#include <stdlib.h>

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

static ig_duplex duplex_of(int local_sends, int remote_sends)
{
    if (local_sends && remote_sends)
        return IG_DUPLEX_FULL;
    return local_sends || remote_sends ? IG_DUPLEX_HALF : IG_DUPLEX_EMPTY;
}

/* MPI_Allgather: each group's block size is known to both groups. */
static int classify_uniform(ig_call *c)
{
    MPI_Count recv_bytes = described_bytes(c->rcount, c->rtype);
    if (recv_bytes < 0)
        return 0;
    c->remote_max_bytes = recv_bytes;
    c->remote_total_bytes = recv_bytes * c->remote_size;
    c->local_sends = c->send_bytes > 0;
    c->duplex = duplex_of(c->local_sends, recv_bytes > 0);
    return 1;
}

/* MPI_Allgatherv: the receive counts describe the remote group completely;
 * the local group's share is settled by the exchange in dispatch. */
static int classify_varying(ig_call *c)
{
    long long max_count = 0, total_count = 0;
    if (c->rcounts == NULL || c->rdispls == NULL)
        return 0;
    for (int i = 0; i < c->remote_size; i++) {
        if (c->rcounts[i] < 0)
            return 0;
        max_count = c->rcounts[i] > max_count ? c->rcounts[i] : max_count;
        total_count += c->rcounts[i];
    }
    MPI_Count elem = total_count > 0 ? described_bytes(1, c->rtype) : 0;
    if (elem < 0)
        return 0;
    c->remote_max_bytes = max_count * elem;
    c->remote_total_bytes = total_count * elem;
    c->duplex = IG_DUPLEX_UNKNOWN;
    return 1;
}

int ig_call_classify(ig_call *c)
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
    PMPI_Comm_remote_size(c->comm, &c->remote_size);
    c->send_bytes = described_bytes(c->scount, c->stype);
    if (c->send_bytes < 0)
        return go_native(IG_FALLBACK_ARGUMENTS);
    int ok = c->op == IG_OP_ALLGATHER ? classify_uniform(c) : classify_varying(c);
    return ok ? 1 : go_native(IG_FALLBACK_ARGUMENTS);
}

/* Internal failures are reported through the user's communicator, so the
 * error handler the user installed there decides what happens. */
static int report_error(MPI_Comm comm, int rc)
{
    if (rc != MPI_SUCCESS)
        PMPI_Comm_call_errhandler(comm, rc);
    return rc;
}

/* What a call needs beyond its arguments once the group has agreed. */
typedef struct {
    MPI_Count *group_bytes; /* MPI_Allgatherv: every local process's block, in bytes */
    MPI_Count local_max_bytes, local_total_bytes;
} call_sizes;

/* MPI_Allgatherv: the local group's send sizes, one small allgather on a
 * private communicator of the local group. */
static int exchange_send_sizes(ig_call *c, ig_comm_cache *cache, call_sizes *z)
{
    int n = ig_comm_cache_local_size(cache);
    MPI_Comm group;
    long long mine = c->send_bytes, *all = malloc((size_t)n * sizeof(long long));
    z->group_bytes = malloc((size_t)n * sizeof(MPI_Count));
    if (all == NULL || z->group_bytes == NULL) {
        free(all);
        return MPI_ERR_NO_MEM;
    }
    int rc = ig_comm_cache_local_group(cache, &group);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Allgather(&mine, 1, MPI_LONG_LONG, all, 1, MPI_LONG_LONG, group);
    for (int i = 0; i < n && rc == MPI_SUCCESS; i++) {
        z->group_bytes[i] = all[i];
        z->local_max_bytes = all[i] > z->local_max_bytes ? all[i] : z->local_max_bytes;
        z->local_total_bytes += all[i];
    }
    free(all);
    c->local_sends = z->local_total_bytes > 0;
    c->duplex = duplex_of(c->local_sends, c->remote_total_bytes > 0);
    return rc;
}

static ig_ring_kind ring_kind(const ig_settings *s)
{
    return s->ring_schedule == IG_RING_SCHEDULE_PAPER ? IG_RING_PAPER : IG_RING_OPTIMAL;
}

/* One direction on its pair, with the configured topology. */
static int run_half(const ig_xfer *x, const ig_settings *s, ig_pair *pair)
{
    if (s->topology == IG_TOPOLOGY_RING)
        return ig_ring_run(pair, ring_kind(s), x);
    return ig_fc_run(pair, x);
}

/* Full duplex as two half-duplex passes, the low group's data first (every
 * process must run the passes in the same order). */
static int run_two_halves(const ig_xfer *x, const ig_settings *s, ig_comm_cache *cache)
{
    int low = ig_comm_cache_local_is_low(cache);
    for (int pass = 0; pass < 2; pass++) {
        ig_pair *pair;
        int rc = ig_comm_cache_pair(cache, pass == 0 ? low : !low, &pair);
        if (rc == MPI_SUCCESS)
            rc = run_half(x, s, pair);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    return MPI_SUCCESS;
}

/* Full duplex, fully connected: the one-exchange algorithm when the cost
 * model predicts it faster than two half-duplex passes (it nearly always
 * does; see fd_plan.h).  The model sees average block sizes, which both
 * groups compute alike, and is symmetric, so both groups choose alike.  The
 * ring runs its schedule once per direction. */
static int run_full(const ig_call *c, const call_sizes *z, const ig_xfer *x, const ig_settings *s,
                    ig_comm_cache *cache)
{
    int n_local = ig_comm_cache_local_size(cache), n_remote = c->remote_size;
    double local_avg = (double)z->local_total_bytes / n_local;
    double remote_avg = (double)c->remote_total_bytes / n_remote;
    if (s->topology == IG_TOPOLOGY_FULLY_CONNECTED &&
        ig_fd_preferred(n_local, local_avg, n_remote, remote_avg, &ig_cost_default)) {
        ig_pair *pair;
        int rc = ig_comm_cache_pair(cache, ig_comm_cache_local_is_low(cache), &pair);
        return rc != MPI_SUCCESS ? rc : ig_fd_run(pair, x);
    }
    return run_two_halves(x, s, cache);
}

static void count_served(const ig_call *c, const ig_settings *s)
{
    ig_stats_served(s->topology == IG_TOPOLOGY_RING ? IG_ALGO_RING : IG_ALGO_FULLY_CONNECTED);
    ig_stats_kind(c->duplex == IG_DUPLEX_FULL ? IG_KIND_FULL_DUPLEX : IG_KIND_HALF_DUPLEX);
    if (c->op == IG_OP_ALLGATHERV)
        ig_stats_kind(IG_KIND_ALLGATHERV);
    if (c->from_fortran)
        ig_stats_kind(IG_KIND_FORTRAN);
}

static int run_algorithm(const ig_call *c, const call_sizes *z, const ig_settings *s, ig_comm_cache *cache)
{
    ig_xfer x;
    ig_block rblk = { MPI_DATATYPE_NULL, 0, 0, 0 };
    int rc = MPI_SUCCESS;
    if (c->op == IG_OP_ALLGATHER) {
        rc = ig_xfer_uniform_make(&x, &rblk, c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype);
    } else {
        MPI_Aint lb = 0, extent = 0;
        if (c->remote_total_bytes > 0)
            rc = PMPI_Type_get_extent(c->rtype, &lb, &extent);
        ig_xfer v = { c->sbuf, c->scount, c->stype, c->rbuf, c->rtype, extent, c->rcounts, c->rdispls,
                      z->group_bytes };
        x = v;
    }
    if (rc != MPI_SUCCESS)
        return rc;
    count_served(c, s);
    if (c->duplex == IG_DUPLEX_FULL) {
        rc = run_full(c, z, &x, s, cache);
    } else {
        ig_pair *pair;
        rc = ig_comm_cache_pair(cache, c->local_sends, &pair);
        if (rc == MPI_SUCCESS)
            rc = run_half(&x, s, pair);
    }
    ig_block_free(&rblk);
    return rc;
}

/* Decisions that need the cache (settings agreement, the Allgatherv size
 * exchange).  Returns 1 with *rc set when served, 0 for native. */
static int dispatch_agreed(ig_call *c, ig_comm_cache *cache, call_sizes *z, int *rc)
{
    const ig_settings *s = ig_settings_get();
    if (!ig_comm_cache_settings_agree(cache))
        return go_native(IG_FALLBACK_SETTINGS_DIFFER);
    if (s->topology == IG_TOPOLOGY_NATIVE)
        return go_native(IG_FALLBACK_DISABLED);
    if (c->op == IG_OP_ALLGATHERV) {
        *rc = exchange_send_sizes(c, cache, z);
        if (*rc != MPI_SUCCESS)
            return 1;
    } else {
        z->local_max_bytes = c->send_bytes;
        z->local_total_bytes = c->send_bytes * ig_comm_cache_local_size(cache);
    }
    if (c->duplex == IG_DUPLEX_EMPTY) {
        ig_stats_served(IG_ALGO_EMPTY);
        *rc = MPI_SUCCESS;
        return 1;
    }
    /* Both groups see the same two maxima, swapped. */
    MPI_Count largest = z->local_max_bytes > c->remote_max_bytes ? z->local_max_bytes : c->remote_max_bytes;
    if ((uint64_t)largest < s->min_bytes)
        return go_native(IG_FALLBACK_SMALL);
    /* Ring relays of MPI_Allgatherv blocks are counted in bytes (MPI_PACKED). */
    if (c->op == IG_OP_ALLGATHERV && s->topology == IG_TOPOLOGY_RING && largest > INT_MAX)
        return go_native(IG_FALLBACK_ARGUMENTS);
    if (ig_comm_cache_is_spokesperson(cache))
        ig_runtime_announce(ig_topology_name(s->topology));
    *rc = run_algorithm(c, z, s, cache);
    return 1;
}

int ig_call_dispatch(ig_call *c, int *rc)
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
    call_sizes z = { NULL, 0, 0 };
    int served = dispatch_agreed(c, cache, &z, rc);
    free(z.group_bytes);
    if (served)
        report_error(c->comm, *rc);
    return served;
}
