#include "stats.h"

#include "algorithms.h"
#include "intergather.h"
#include "log.h"
#include "settings.h"

#include <stdatomic.h>
#include <stdio.h>

static atomic_ulong served[2], empty, erroneous, posted_early, withdrawn, sent_on_early, arrays_allocated, paced_sends;
static atomic_ulong algorithms[IG_ALG_COUNT];
static atomic_ulong fallbacks[IG_FALLBACK_COUNT];
static atomic_ulong kinds[IG_KIND_COUNT];
static atomic_ulong stages[IG_GROUP_STAGE_COUNT];
static atomic_ulong openings[IG_OPENING_STAT_COUNT];
static atomic_long comms_live;
static atomic_long comms_peak;
static atomic_ulong comms_created;

void ig_stats_served(int ran_ring) { atomic_fetch_add(&served[ran_ring != 0], 1); }
void ig_stats_empty(void) { atomic_fetch_add(&empty, 1); }
void ig_stats_erroneous(void) { atomic_fetch_add(&erroneous, 1); }
void ig_stats_posted_early(void) { atomic_fetch_add(&posted_early, 1); }
void ig_stats_withdrawn(void) { atomic_fetch_add(&withdrawn, 1); }
void ig_stats_sent_on_early(void) { atomic_fetch_add(&sent_on_early, 1); }
void ig_stats_arrays_allocated(void) { atomic_fetch_add(&arrays_allocated, 1); }
void ig_stats_paced_send(void) { atomic_fetch_add(&paced_sends, 1); }
void ig_stats_algorithm(int algorithm) { atomic_fetch_add(&algorithms[algorithm], 1); }
void ig_stats_fallback(ig_fallback why) { atomic_fetch_add(&fallbacks[why], 1); }
void ig_stats_kind(ig_kind kind) { atomic_fetch_add(&kinds[kind], 1); }

void ig_stats_kinds(int full_duplex, int allgatherv, int from_fortran)
{
    ig_stats_kind(full_duplex ? IG_KIND_FULL_DUPLEX : IG_KIND_HALF_DUPLEX);
    if (allgatherv)
        ig_stats_kind(IG_KIND_ALLGATHERV);
    if (from_fortran)
        ig_stats_kind(IG_KIND_FORTRAN);
}
void ig_stats_group_stage(int stage) { atomic_fetch_add(&stages[stage], 1); }
void ig_stats_opening(ig_opening_stat what) { atomic_fetch_add(&openings[what], 1); }

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

static const char *kind_name(ig_kind k)
{
    static const char *names[IG_KIND_COUNT] = { "half-duplex-calls", "full-duplex-calls", "allgatherv-calls",
                                                "fortran-calls" };
    return names[k];
}

const char *ig_fallback_name(ig_fallback f)
{
    static const char *names[IG_FALLBACK_COUNT] = {
        "none", "intra-communicator", "comm-null", "not-initialized", "in-place", "arguments",
        "small", "disabled", "settings-differ", "model", "no-memory",
    };
    return names[f];
}

/* Appends while there is room (snprintf returns what it would have
 * written: n may pass the end, and then nothing more is written). */
#define APPEND(...) \
    ((size_t)n < sizeof line ? (n += snprintf(line + n, sizeof line - (size_t)n, __VA_ARGS__)) : n)

void ig_stats_report(int world_rank)
{
    char line[1024];
    int n = 0;
    APPEND("summary (world rank %d): served fully-connected=%lu ring=%lu empty=%lu erroneous-sizes=%lu", world_rank,
           atomic_load(&served[0]), atomic_load(&served[1]), atomic_load(&empty), atomic_load(&erroneous));
    for (int k = 0; k < IG_KIND_COUNT; k++)
        APPEND(" %s=%lu", kind_name((ig_kind)k), atomic_load(&kinds[k]));
    APPEND("; algorithms");
    for (int a = 0; a < IG_ALG_COUNT; a++)
        APPEND(" alg-%s=%lu", ig_algorithm_info_of((ig_algorithm)a)->name, atomic_load(&algorithms[a]));
    APPEND(" group-%s=%lu group-%s=%lu; native", ig_group_stage_name(IG_GROUP_STAGE_MPI),
           atomic_load(&stages[IG_GROUP_STAGE_MPI]), ig_group_stage_name(IG_GROUP_STAGE_RING),
           atomic_load(&stages[IG_GROUP_STAGE_RING]));
    for (int f = IG_FALLBACK_NONE + 1; f < IG_FALLBACK_COUNT; f++)
        APPEND(" %s=%lu", ig_fallback_name((ig_fallback)f), atomic_load(&fallbacks[f]));
    APPEND("; internal-comms created=%lu live=%ld peak=%ld", atomic_load(&comms_created), atomic_load(&comms_live),
           atomic_load(&comms_peak));
    APPEND("; posted-early=%lu withdrawn=%lu sent-on-early=%lu", atomic_load(&posted_early), atomic_load(&withdrawn),
           atomic_load(&sent_on_early));
    APPEND("; arrays-allocated=%lu paced-sends=%lu", atomic_load(&arrays_allocated), atomic_load(&paced_sends));
    APPEND("; opening ended=%lu pair-by-pair=%lu went-on=%lu in-pieces=%lu taken-later=%lu skipped=%lu learnt-early=%lu"
           " tree=%lu",
           atomic_load(&openings[IG_OPENING_STAT_ENDED]), atomic_load(&openings[IG_OPENING_STAT_PAIR_BY_PAIR]),
           atomic_load(&openings[IG_OPENING_STAT_WENT_ON]), atomic_load(&openings[IG_OPENING_STAT_IN_PIECES]),
           atomic_load(&openings[IG_OPENING_STAT_TAKEN_LATER]), atomic_load(&openings[IG_OPENING_STAT_SKIPPED]),
           atomic_load(&openings[IG_OPENING_STAT_LEARNT_EARLY]), atomic_load(&openings[IG_OPENING_STAT_TREE]));
    ig_log("%s", line);
}
