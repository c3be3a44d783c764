#define _GNU_SOURCE /* sched_getaffinity, CPU_COUNT */
#include "comm_cache.h"

#include "decide.h"
#include "log.h"
#include "net_measure.h"
#include "p2p.h"
#include "pair.h"
#include "settings.h"

#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct ig_comm_cache {
    MPI_Comm merged;  /* both groups, from MPI_Intercomm_merge; kept to build directions */
    MPI_Comm opening; /* a private copy of the inter-communicator: the opening round's (opening.c) */
    ig_opening_memo opening_memo;
    ig_opening_left opening_left; /* receives a process that left early did not wait for */
    ig_comm_cache *prev, *next;   /* the list of live caches, to settle them at finalize */
    int local_size, remote_size, local_rank;
    int local_is_low; /* the local group is the merged communicator's first */
    int settings_agree;
    int nodes; /* nodes both groups span */
    int other_node; /* the first merged rank not on merged rank 0's node; 1 if all share one */
    int oversubscribed; /* some node has more of these processes than CPUs to run them (count_nodes) */
    int64_t opening_max_bytes; /* from the smallest MPI_TAG_UB of both groups (opening_plan.h) */
    ig_settings settings; /* the process's, with the model this communicator measured */
    ig_pair *direction[2]; /* [1]: the local group sends; [0]: the remote group sends; once built */
    ig_pair pairs[2];      /* their storage, kept with the cache: building one allocates nothing here */
    int64_t *records;      /* room for every process's MPI_Allgatherv view (agree.c) */
    char *discard;         /* room for one early message to withdraw (speculate.c) */
};

/* An opening memo before any call: no sizes judged, no block seen
 * (comm_cache.h); the stand-in cache below and every built one start so. */
#define OPENING_MEMO_NONE_YET { .send = -1, .receivers = { .send = -1 } }

/* Attached to an inter-communicator for which a process could not
 * allocate its cache: that process took part in building the cache with
 * stand-in storage and made the settings check fail for everyone, so all
 * processes stay native on it together (settings_agree is 0 here). */
static ig_comm_cache without_memory = { .merged = MPI_COMM_NULL, .opening = MPI_COMM_NULL,
                                        .opening_memo = OPENING_MEMO_NONE_YET };

static int cache_keyval = MPI_KEYVAL_INVALID;
static pthread_mutex_t keyval_lock = PTHREAD_MUTEX_INITIALIZER;

/* The inter-communicator of the last call and its cache (under
 * keyval_lock).  A program calls on one communicator again and again, and
 * MPI's attribute lookup was a fifth of intergather's work before a small
 * call's first message, work that on the emulated cluster's oversubscribed
 * cores delays every process (docs/performance.md, twenty-fifth session).
 * Forgotten when that communicator is freed, before its cache is. */
static MPI_Comm last_comm = MPI_COMM_NULL;
static ig_comm_cache *last_cache;

static void remember_last(MPI_Comm comm, ig_comm_cache *cache)
{
    if (cache == &without_memory)
        return; /* its sizes are not the communicator's */
    pthread_mutex_lock(&keyval_lock);
    last_comm = comm;
    last_cache = cache;
    pthread_mutex_unlock(&keyval_lock);
}

static int recall_last(MPI_Comm comm, ig_comm_cache **cache)
{
    pthread_mutex_lock(&keyval_lock);
    int known = comm == last_comm;
    if (known)
        *cache = last_cache;
    pthread_mutex_unlock(&keyval_lock);
    return known;
}

/* Every cache built and not yet destroyed (under live_lock): at finalize
 * the receives left on communicators the program never freed are settled
 * (opening_left.h). */
static ig_comm_cache *live;
static pthread_mutex_t live_lock = PTHREAD_MUTEX_INITIALIZER;

static void live_add(ig_comm_cache *cache)
{
    pthread_mutex_lock(&live_lock);
    cache->prev = NULL;
    cache->next = live;
    if (live != NULL)
        live->prev = cache;
    live = cache;
    pthread_mutex_unlock(&live_lock);
}

static void live_remove(ig_comm_cache *cache)
{
    pthread_mutex_lock(&live_lock);
    if (cache->prev != NULL)
        cache->prev->next = cache->next;
    else if (live == cache)
        live = cache->next;
    if (cache->next != NULL)
        cache->next->prev = cache->prev;
    cache->prev = cache->next = NULL;
    pthread_mutex_unlock(&live_lock);
}

/* What the cache holds, not its storage. */
static void cache_clear(ig_comm_cache *cache)
{
    for (int d = 0; d < 2; d++)
        if (cache->direction[d] != NULL)
            ig_pair_release(cache->direction[d]);
    ig_opening_left_release(&cache->opening_left, cache->opening);
    ig_private_comm_free(&cache->opening);
    ig_private_comm_free(&cache->merged);
    free(cache->records);
    free(cache->discard);
}

static void cache_destroy(ig_comm_cache *cache)
{
    if (cache == &without_memory)
        return;
    live_remove(cache);
    cache_clear(cache);
    free(cache);
}

static int on_comm_delete(MPI_Comm comm, int keyval, void *value, void *extra)
{
    pthread_mutex_lock(&keyval_lock);
    if (comm == last_comm)
        last_comm = MPI_COMM_NULL;
    pthread_mutex_unlock(&keyval_lock);
    cache_destroy(value);
    return MPI_SUCCESS;
}

static int keyval_get(int *keyval)
{
    int rc = MPI_SUCCESS;
    pthread_mutex_lock(&keyval_lock);
    if (cache_keyval == MPI_KEYVAL_INVALID &&
        (rc = PMPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, on_comm_delete, &cache_keyval, NULL)) != MPI_SUCCESS)
        cache_keyval = MPI_KEYVAL_INVALID; /* tried again at the next first call */
    *keyval = cache_keyval;
    pthread_mutex_unlock(&keyval_lock);
    return rc;
}

void ig_comm_cache_shutdown(void)
{
    /* Every communicator's receives first: a peer's sends wait for them. */
    pthread_mutex_lock(&live_lock);
    for (ig_comm_cache *cache = live; cache != NULL; cache = cache->next)
        ig_opening_left_settle_receives(&cache->opening_left, cache->opening);
    for (ig_comm_cache *cache = live; cache != NULL; cache = cache->next)
        ig_opening_left_release(&cache->opening_left, cache->opening);
    pthread_mutex_unlock(&live_lock);
    pthread_mutex_lock(&keyval_lock);
    if (cache_keyval != MPI_KEYVAL_INVALID)
        PMPI_Comm_free_keyval(&cache_keyval);
    last_comm = MPI_COMM_NULL;
    pthread_mutex_unlock(&keyval_lock);
}

/* This process's largest legal tag (0 if its MPI does not say). */
static uint64_t tag_upper_bound(void)
{
    int *tag_ub = NULL, found = 0;
    if (PMPI_Comm_get_attr(MPI_COMM_WORLD, MPI_TAG_UB, &tag_ub, &found) != MPI_SUCCESS || !found || *tag_ub < 0)
        return 0;
    return (uint64_t)*tag_ub;
}

/* Settings decide which algorithm runs, so processes that disagree would run
 * different algorithms and hang.  One allreduce of the fingerprint and its
 * complement gives the minimum and the maximum in one call; the same
 * allreduce finds the smallest MPI_TAG_UB of both groups, which sets what
 * the opening's tags can name (under Open MPI's UCX layer 2^23 - 1, below
 * the 2^29 + 16 its tags reach for blocks of 64 MiB: opening_plan.h),
 * and whether every process built what comes before it (local_rc): if one
 * did not, every process returns an error (its own, or MPI_ERR_OTHER). */
static int check_settings_agree(ig_comm_cache *cache, int local_rc)
{
    uint64_t fp = ig_settings_fingerprint(&cache->settings, ig_build_identity());
    uint64_t mine[4] = { fp, ~fp, tag_upper_bound(), local_rc == MPI_SUCCESS }, all[4];
    /* A process that could not allocate the cache's room for the
     * agreement's records or for withdrawing an early message makes the
     * check fail for everyone, so that all stay native on this
     * communicator together instead of one process failing alone in a
     * later call. */
    if (cache->records == NULL || cache->discard == NULL)
        mine[0] = mine[1] = 0;
    int rc = PMPI_Allreduce(mine, all, 4, MPI_UINT64_T, MPI_MIN, cache->merged);
    /* A step before this one failed here (its error), or elsewhere only. */
    if (local_rc != MPI_SUCCESS || (rc == MPI_SUCCESS && all[3] == 0))
        return local_rc != MPI_SUCCESS ? local_rc : MPI_ERR_OTHER;
    cache->settings_agree = rc == MPI_SUCCESS && all[0] == ~all[1];
    cache->opening_max_bytes = rc == MPI_SUCCESS ? ig_opening_max_bytes((int64_t)all[2]) : 0;
    if (rc == MPI_SUCCESS && cache->opening_max_bytes < IG_OPENING_MAX_BYTES && cache->settings.verbose >= 2 &&
        ig_comm_cache_is_spokesperson(cache))
        ig_log("MPI_TAG_UB is %llu on this inter-communicator: its opening round ends calls of blocks below %lld "
               "bytes (larger ones go on to the agreement)",
               (unsigned long long)all[2], (long long)cache->opening_max_bytes);
    /* One line per process at most, from one process of the communicator:
     * a program that builds many communicators is told once, and the
     * summary counts the calls (settings-differ). */
    static atomic_int told;
    if (rc == MPI_SUCCESS && !cache->settings_agree && ig_comm_cache_is_spokesperson(cache) &&
        !atomic_exchange(&told, 1))
        ig_log("settings differ between the processes of an inter-communicator (a value some of them did "
               "not understand included; or the intergather version or CPU architecture does, or one of "
               "them had no memory for intergather's state); its MPI_Allgather calls stay native (set the "
               "INTERGATHER_* variables identically for the whole job, e.g. with mpirun -x, and load one "
               "intergather build)");
    return rc;
}

/* The CPUs the processes of one node may run on: the union of their
 * affinity masks (processes bound one to a core have as many CPUs as
 * processes; processes started on a node, or in a cpuset, with fewer
 * cores than processes have fewer).  Every process of the node takes part
 * in the reduction; one whose mask is unknown (sched_getaffinity failed,
 * e.g. on a kernel with more CPUs than a cpu_set_t holds) sets the last
 * word, and then the node counts as having CPUs enough (INT_MAX).  Without
 * affinity masks (not Linux), the node's online CPUs. */
static int node_cpus(MPI_Comm node, int *cpus)
{
#ifdef __linux__
    cpu_set_t mine, all;
    enum { WORDS = sizeof(cpu_set_t) / sizeof(unsigned long) };
    unsigned long bits[WORDS + 1] = { 0 }, union_bits[WORDS + 1];
    if (sched_getaffinity(0, sizeof mine, &mine) == 0)
        memcpy(bits, &mine, sizeof mine);
    else
        bits[WORDS] = 1;
    int rc = PMPI_Allreduce(bits, union_bits, WORDS + 1, MPI_UNSIGNED_LONG, MPI_BOR, node);
    memcpy(&all, union_bits, sizeof all);
    *cpus = rc != MPI_SUCCESS || union_bits[WORDS] != 0 ? INT_MAX : CPU_COUNT(&all);
    return rc;
#else
    long online = sysconf(_SC_NPROCESSORS_ONLN);
    *cpus = online > 0 && online < INT_MAX ? (int)online : INT_MAX;
    return MPI_SUCCESS;
#endif
}

/* Where the node split left this process: its rank and its node's size
 * (node rank 0 is the node's leader), and whether merged rank 0 shares
 * its node. */
typedef struct {
    int node_rank, node_size, with_rank_zero;
} node_place;

static node_place place_on_node(MPI_Comm merged, MPI_Comm node)
{
    MPI_Group merged_group, node_group;
    int zero = 0, zero_here = MPI_UNDEFINED;
    node_place at = { 0, 1, 0 };
    PMPI_Comm_rank(node, &at.node_rank);
    PMPI_Comm_size(node, &at.node_size);
    PMPI_Comm_group(merged, &merged_group);
    PMPI_Comm_group(node, &node_group);
    PMPI_Group_translate_ranks(merged_group, 1, &zero, node_group, &zero_here);
    PMPI_Group_free(&merged_group);
    PMPI_Group_free(&node_group);
    at.with_rank_zero = zero_here != MPI_UNDEFINED;
    return at;
}

/* Which processes share a node, asked once per communicator: the cost
 * model has one set of parameters between nodes and one within.  Every
 * process gets the same count and the same first process off rank 0's
 * node, so the decision that reads them stays joint.  (On
 * the emulated cluster each network namespace must be its own node: there
 * the launcher starts one process per host name.)
 *
 * Every process takes part in every step whatever failed before it
 * (MPICH's errflag): a process whose node split failed still joins both
 * reductions over the merged communicator and says so in the first, and
 * then no process reduces over its node (whose communicator might then
 * lack a member), and all return an error together; where one returned
 * early, its peers waited in the reduction while it went on to its next
 * call. */
static int count_nodes(ig_comm_cache *cache)
{
    MPI_Comm node = MPI_COMM_NULL;
    int rank, cpus = INT_MAX;
    node_place at = { 0, 1, 0 };
    PMPI_Comm_rank(cache->merged, &rank);
    int rc = PMPI_Comm_split_type(cache->merged, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
    if (rc == MPI_SUCCESS)
        at = place_on_node(cache->merged, node);
    else
        node = MPI_COMM_NULL; /* undefined after an error */
    /* The first rank off rank 0's node and whether every split succeeded
     * (both minima); then, only if so, the node's CPUs. */
    int mins[2] = { at.with_rank_zero ? INT_MAX : rank, rc == MPI_SUCCESS }, minima[2] = { INT_MAX, 0 };
    ig_err_keep(&rc, PMPI_Allreduce(mins, minima, 2, MPI_INT, MPI_MIN, cache->merged));
    if (minima[1] == 1)
        ig_err_keep(&rc, node_cpus(node, &cpus));
    if (node != MPI_COMM_NULL)
        PMPI_Comm_free(&node);
    /* How many nodes and how many of them oversubscribed (sums over node
     * leaders) and how many processes failed so far (so that all fail
     * together: a process alone without its cache would leave its peers
     * waiting in the call). */
    int leader = at.node_rank == 0;
    int sums[3] = { leader, leader && at.node_size > cpus, rc != MPI_SUCCESS }, summed[3] = { 0, 0, 1 };
    ig_err_keep(&rc, PMPI_Allreduce(sums, summed, 3, MPI_INT, MPI_SUM, cache->merged));
    if (summed[2] > 0)
        ig_err_keep(&rc, MPI_ERR_OTHER);
    cache->nodes = summed[0];
    cache->other_node = minima[0] == INT_MAX ? 1 : minima[0];
    const ig_settings *s = &cache->settings;
    cache->oversubscribed = ig_decide_oversubscribed(s, summed[1]);
    int rule = ig_decide_oversubscribed_direct(s, cache->nodes, cache->oversubscribed);
    if (rc == MPI_SUCCESS && s->verbose >= 2 && ig_comm_cache_is_spokesperson(cache))
        ig_log("an inter-communicator of %d + %d processes spans %d node%s (cost model: %s%s)", cache->local_size,
               cache->remote_size, cache->nodes, cache->nodes == 1 ? "" : "s",
               cache->nodes == 1 ? "shared memory" : "network",
               rule ? "; oversubscribed: every call served by direct" : "");
    return rc;
}

/* The model of the communicator's kind of link in its settings, measured
 * if the setting says "measure": between merged rank 0 and the first
 * process on another node, or rank 1 when all share one node.  Every
 * process takes part and gets the same numbers. */
static int measure_model(ig_comm_cache *cache)
{
    int network = cache->nodes > 1;
    int measure = network ? cache->settings.net_measure : cache->settings.shm_measure;
    if (!cache->settings_agree || !measure || !ig_decide_uses_model(&cache->settings) ||
        ig_decide_oversubscribed_direct(&cache->settings, cache->nodes, cache->oversubscribed))
        return MPI_SUCCESS;
    ig_cost_params *model = network ? &cache->settings.net_model : &cache->settings.shm_model;
    int measured;
    int rc = ig_net_measure(cache->merged, 0, cache->other_node, model, &measured);
    if (rc == MPI_SUCCESS && cache->settings.verbose >= 2 && ig_comm_cache_is_spokesperson(cache)) {
        /* In the setting's own syntax (ig_format_model: commas, a decimal
         * point whatever the locale), so that it can be pasted back. */
        char text[96];
        ig_log("%s=measure: %s between merged ranks 0 and %d: %s", network ? IG_ENV_NET_MODEL : IG_ENV_SHM_MODEL,
               measured ? "measured" : "could not measure, model kept", cache->other_node,
               ig_format_model(model, text, sizeof text));
    }
    return rc;
}

/* Every private communicator a later call could need, built in the first
 * call on the inter-communicator instead of on first use.  Open MPI gives
 * a new communicator its id one creation at a time per process, creations
 * on older parents first: a creation inside a later MPI_Allgather waited
 * for any the program had pending on an older communicator (an
 * MPI_Comm_idup of MPI_COMM_WORLD, another thread's MPI_Comm_dup), and
 * hung where a peer starts its part of that only after the allgather,
 * which a native call, creating nothing, does not.  Built here, only the
 * first call is exposed (README, Limitations).  Both directions, the low
 * group's sending first on every process; a failure is left to the same
 * creation on first use, which reports it in that call as before. */
static void build_every_private_comm(ig_comm_cache *cache)
{
    ig_pair *pair;
    int low = ig_comm_cache_local_is_low(cache);
    for (int direction = 0; direction < 2; direction++)
        if (ig_comm_cache_pair(cache, direction == 0 ? low : !low, &pair) == MPI_SUCCESS) {
            ig_pair_fc_prepare(pair);
            ig_pair_side_prepare(pair);
        }
}

/* Whether a process of either group took no part in the opening's split
 * (cache_build: its merge failed): the new inter-communicator then lacks
 * it, or does not exist where that process was its group's only one
 * (MPI_Comm_split of an inter-communicator pairs the groups' processes of
 * one color; a color on one side only gives MPI_COMM_NULL). */
static int some_process_sat_out(const ig_comm_cache *cache)
{
    int local = 0, remote = 0;
    if (cache->opening == MPI_COMM_NULL)
        return 1;
    PMPI_Comm_size(cache->opening, &local);
    PMPI_Comm_remote_size(cache->opening, &remote);
    return local != cache->local_size || remote != cache->remote_size;
}

/* The cache, built collectively on every process of `inter` and attached
 * to it under `keyval` inside the build, so that attaching, which can fail
 * in one process alone, is checked jointly with the rest: a process that
 * failed to attach its cache, with its peers holding theirs, would go on
 * alone to build it again in its next call.  A process without the keyval
 * (keyval_rc, its creation's failure) builds too, its peers being already
 * in the merge, and its attaching fails with that error. */
static int cache_build(MPI_Comm inter, int keyval, int keyval_rc, ig_comm_cache **out)
{
    ig_comm_cache stand_in = { 0 }, *cache = calloc(1, sizeof *cache);
    if (cache == NULL)
        cache = &stand_in; /* without records: the settings check fails for all */
    cache->merged = cache->opening = MPI_COMM_NULL;
    cache->opening_memo = (ig_opening_memo)OPENING_MEMO_NONE_YET;
    PMPI_Comm_size(inter, &cache->local_size);
    PMPI_Comm_remote_size(inter, &cache->remote_size);
    PMPI_Comm_rank(inter, &cache->local_rank);
    /* The process's settings, for the communicator's life (the settings
     * check below tells whether every process has the same). */
    cache->settings = *ig_settings_get();
    if (cache != &stand_in) {
        cache->records = malloc((size_t)(cache->local_size + cache->remote_size) * IG_CACHE_RECORD_LEN *
                                sizeof(int64_t));
        cache->discard = malloc(IG_CACHE_DISCARD_BYTES);
    }
    int merged_rank = -1, attach_rc = MPI_ERR_OTHER, rc = PMPI_Intercomm_merge(inter, 0, &cache->merged);
    if (rc != MPI_SUCCESS)
        cache->merged = MPI_COMM_NULL;
    else
        rc = PMPI_Comm_rank(cache->merged, &merged_rank);
    cache->local_is_low = merged_rank == cache->local_rank; /* the high group starts at remote_size >= 1 */
    /* Every process splits the opening communicator off the
     * inter-communicator (a split, not a dup: a dup would run the
     * program's attribute copy callbacks on intergather's communicator),
     * one whose merge failed as a process that takes no part: the others
     * see it missing from the new communicator and leave with it, before
     * the settings check, which runs on the merged communicator it lacks. */
    int merged = rc == MPI_SUCCESS;
    int setup_rc = ig_private_comm_setup(cache->merged); /* counted as created wherever it exists */
    int split_rc = ig_private_comm_split(inter, merged ? 0 : MPI_UNDEFINED, cache->local_rank, &cache->opening);
    if (merged && split_rc == MPI_SUCCESS && some_process_sat_out(cache)) {
        rc = MPI_ERR_OTHER;
    } else if (merged) {
        /* From here on every process takes every step and the settings
         * check tells all whether one failed (a process that failed to
         * split alone would leave its peers in the check's reduction). */
        ig_err_keep(&rc, setup_rc);
        ig_err_keep(&rc, split_rc);
        /* What the attribute will hold: the stand-in is cleared below. */
        attach_rc = keyval_rc != MPI_SUCCESS
                        ? keyval_rc
                        : PMPI_Comm_set_attr(inter, keyval, cache == &stand_in ? &without_memory : cache);
        ig_err_keep(&rc, attach_rc);
        rc = check_settings_agree(cache, rc);
    }
    if (rc == MPI_SUCCESS)
        rc = count_nodes(cache);
    if (rc == MPI_SUCCESS)
        rc = measure_model(cache);
    if (cache == &stand_in) {
        cache_clear(&stand_in);
        cache = &without_memory;
    }
    if (rc != MPI_SUCCESS) {
        if (attach_rc == MPI_SUCCESS)
            PMPI_Comm_delete_attr(inter, keyval); /* on_comm_delete destroys it */
        else
            cache_destroy(cache);
        return rc;
    }
    if (cache != &without_memory)
        live_add(cache);
    if (ig_decide_active(cache->settings_agree, &cache->settings) == IG_FALLBACK_NONE)
        build_every_private_comm(cache);
    *out = cache;
    return MPI_SUCCESS;
}

int ig_comm_cache_recall_remote_size(MPI_Comm comm, int *remote_size)
{
    ig_comm_cache *cache;
    if (comm == MPI_COMM_NULL || !recall_last(comm, &cache))
        return 0;
    *remote_size = cache->remote_size;
    return 1;
}

int ig_comm_cache_get(MPI_Comm inter, ig_comm_cache **out)
{
    int keyval, found = 0;
    if (recall_last(inter, out))
        return MPI_SUCCESS;
    /* Without the keyval (its creation failed here, for want of memory)
     * this process has no state on any communicator, so none on this one
     * either, and neither have its peers: they build it, and so does it. */
    int keyval_rc = keyval_get(&keyval), rc = MPI_SUCCESS;
    if (keyval_rc == MPI_SUCCESS)
        rc = PMPI_Comm_get_attr(inter, keyval, out, &found);
    if (rc == MPI_SUCCESS && !found)
        rc = cache_build(inter, keyval, keyval_rc, out);
    if (rc == MPI_SUCCESS)
        remember_last(inter, *out);
    return rc;
}

int ig_comm_cache_is_spokesperson(const ig_comm_cache *cache)
{
    int rank;
    PMPI_Comm_rank(cache->merged, &rank);
    return rank == 0;
}

int ig_comm_cache_local_is_low(const ig_comm_cache *cache)
{
    return cache->local_is_low;
}

int ig_comm_cache_local_rank(const ig_comm_cache *cache)
{
    return cache->local_rank;
}

MPI_Comm ig_comm_cache_merged(const ig_comm_cache *cache) { return cache->merged; }

MPI_Comm ig_comm_cache_opening(const ig_comm_cache *cache) { return cache->opening; }

int64_t ig_comm_cache_opening_max_bytes(const ig_comm_cache *cache) { return cache->opening_max_bytes; }

ig_opening_memo *ig_comm_cache_opening_memo(ig_comm_cache *cache) { return &cache->opening_memo; }

ig_opening_left *ig_comm_cache_opening_left(ig_comm_cache *cache) { return &cache->opening_left; }

int ig_comm_cache_nodes(const ig_comm_cache *cache) { return cache->nodes; }
int ig_comm_cache_oversubscribed(const ig_comm_cache *cache) { return cache->oversubscribed; }

const ig_settings *ig_comm_cache_settings(const ig_comm_cache *cache) { return &cache->settings; }

int ig_comm_cache_group_sizes(const ig_comm_cache *cache, int n[2])
{
    int group = ig_comm_cache_local_is_low(cache) ? 0 : 1;
    n[group] = cache->local_size;
    n[1 - group] = cache->remote_size;
    return group;
}

int64_t *ig_comm_cache_records(ig_comm_cache *cache)
{
    return cache->records;
}

void *ig_comm_cache_discard_room(ig_comm_cache *cache)
{
    return cache->discard;
}

int ig_comm_cache_settings_agree(const ig_comm_cache *cache)
{
    return cache->settings_agree;
}

ig_pair *ig_comm_cache_pair_built(const ig_comm_cache *cache, int local_sends)
{
    return cache->direction[local_sends ? 1 : 0];
}

/* Reorder the merged communicator so the sending group comes first: the
 * pair's rank order (and the ring order) is senders 0..p-1, receivers p.. */
int ig_comm_cache_pair(ig_comm_cache *cache, int local_sends, ig_pair **out)
{
    int d = local_sends ? 1 : 0;
    ig_pair **slot = &cache->direction[d];
    if (*slot != NULL) {
        *out = *slot;
        return MPI_SUCCESS;
    }
    int p = local_sends ? cache->local_size : cache->remote_size;
    int q = cache->local_size + cache->remote_size - p;
    int key = local_sends ? cache->local_rank : p + cache->local_rank;
    int requests, ints;
    MPI_Comm ordered = MPI_COMM_NULL;
    ig_decide_pair_room(p, q, &requests, &ints);
    int rc = ig_private_comm_split(cache->merged, 0, key, &ordered);
    /* Joint before adopting the pair, which reduces over the new
     * communicator: a process without it would leave its peers there. */
    rc = ig_err_joint(cache->merged, rc);
    if (rc == MPI_SUCCESS)
        rc = ig_pair_adopt(ordered, p, requests, ints, &cache->pairs[d]);
    if (rc != MPI_SUCCESS) {
        ig_private_comm_free(&ordered);
        return rc;
    }
    *out = *slot = &cache->pairs[d];
    return MPI_SUCCESS;
}
