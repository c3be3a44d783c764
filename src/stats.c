#include "stats.h"

#include "intergather.h"
#include "log.h"

#include <stdatomic.h>
#include <stdio.h>

static atomic_ulong served[IG_ALGO_COUNT];
static atomic_ulong fallbacks[IG_FALLBACK_COUNT];
static atomic_ulong kinds[IG_KIND_COUNT];
static atomic_ulong stages[IG_STAGE_COUNT];
static atomic_long comms_live;
static atomic_long comms_peak;
static atomic_ulong comms_created;

void ig_stats_served(ig_algo algo) { atomic_fetch_add(&served[algo], 1); }
void ig_stats_fallback(ig_fallback why) { atomic_fetch_add(&fallbacks[why], 1); }
void ig_stats_kind(ig_kind kind) { atomic_fetch_add(&kinds[kind], 1); }
void ig_stats_group_stage(ig_stage stage) { atomic_fetch_add(&stages[stage], 1); }

void ig_stats_comm_created(int n)
{
    atomic_fetch_add(&comms_created, (unsigned long)n);
    long live = atomic_fetch_add(&comms_live, n) + n;
    long peak = atomic_load(&comms_peak);
    while (live > peak && !atomic_compare_exchange_weak(&comms_peak, &peak, live))
        ;
}

void ig_stats_comm_freed(int n) { atomic_fetch_sub(&comms_live, n); }

long intergather_internal_comms_live(void) { return atomic_load(&comms_live); }

const char *ig_algo_name(ig_algo a)
{
    static const char *names[IG_ALGO_COUNT] = { "fully-connected", "ring", "empty" };
    return names[a];
}

static const char *ig_kind_name(ig_kind k)
{
    static const char *names[IG_KIND_COUNT] = { "half-duplex-calls", "full-duplex-calls", "allgatherv-calls",
                                                "fortran-calls" };
    return names[k];
}

const char *ig_fallback_name(ig_fallback f)
{
    static const char *names[IG_FALLBACK_COUNT] = {
        "intra-communicator", "comm-null", "not-initialized", "in-place", "arguments",
        "small", "disabled", "settings-differ",
    };
    return names[f];
}

void ig_stats_report(int world_rank)
{
    char line[768];
    int n = snprintf(line, sizeof line, "summary (world rank %d): served", world_rank);
    for (int a = 0; a < IG_ALGO_COUNT; a++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %s=%lu", ig_algo_name((ig_algo)a),
                      atomic_load(&served[a]));
    for (int k = 0; k < IG_KIND_COUNT; k++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %s=%lu", ig_kind_name((ig_kind)k),
                      atomic_load(&kinds[k]));
    n += snprintf(line + n, sizeof line - (size_t)n, " group-mpi=%lu group-ring=%lu; native",
                  atomic_load(&stages[IG_STAGE_MPI]), atomic_load(&stages[IG_STAGE_RING]));
    for (int f = 0; f < IG_FALLBACK_COUNT; f++)
        n += snprintf(line + n, sizeof line - (size_t)n, " %s=%lu", ig_fallback_name((ig_fallback)f),
                      atomic_load(&fallbacks[f]));
    snprintf(line + n, sizeof line - (size_t)n,
             "; internal-comms created=%lu live=%ld peak=%ld", atomic_load(&comms_created),
             atomic_load(&comms_live), atomic_load(&comms_peak));
    ig_log("%s", line);
}
