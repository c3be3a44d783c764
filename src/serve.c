#include "serve.h"

#include "agree.h"
#include "algorithms.h"
#include "comm_cache.h"
#include "decide.h"
#include "errors.h"
#include "lifecycle.h"
#include "log.h"
#include "opening.h"
#include "p2p.h"
#include "settings.h"
#include "speculate.h"

#include <stdatomic.h>
#include <stdio.h>

static const char *function_name(const ig_call *c)
{
    return c->op == IG_OP_ALLGATHER ? "MPI_Allgather" : "MPI_Allgatherv";
}

static int go_native(ig_fallback why)
{
    ig_stats_fallback(why);
    return 0;
}

/* An erroneous call (sizes that disagree) is explained once per process,
 * by the process that speaks for the communicator. */
static void explain_sizes(const ig_call *c, const ig_shape *sh, ig_comm_cache *cache, const char *outcome)
{
    static atomic_int told;
    char name[MPI_MAX_OBJECT_NAME];
    int len = 0;
    if (!ig_comm_cache_is_spokesperson(cache) || atomic_exchange(&told, 1))
        return;
    if (PMPI_Comm_get_name(c->comm, name, &len) != MPI_SUCCESS || len == 0)
        snprintf(name, sizeof name, "an inter-communicator");
    for (int g = 0; g < 2; g++) {
        char expect[96] = "per the receivers' counts, which differ";
        if (sh->expect_min[g] >= 0)
            snprintf(expect, sizeof expect, "%lld..%lld bytes", (long long)sh->expect_min[g],
                     (long long)sh->expect_max[g]);
        ig_log("%s on %s: the %s group (%d processes) sends %lld..%lld bytes per process; "
               "the other group expects %s",
               function_name(c), name, g == 0 ? "low" : "high", sh->n[g], (long long)sh->send_min[g],
               (long long)sh->send_max[g], expect);
    }
    ig_log("%s on %s: the groups' sizes disagree (an erroneous program): %s (world rank %d, low group, reporting)",
           function_name(c), name, outcome, ig_world_rank());
}

static void count_served(const ig_call *c, const ig_choice *ch, int full_duplex)
{
    ig_stats_served(ch->served_as == IG_TOPOLOGY_RING);
    for (int i = 0; i < ch->nsteps; i++)
        ig_stats_algorithm(ch->steps[i].algorithm);
    ig_stats_kinds(full_duplex, c->op == IG_OP_ALLGATHERV, c->from_fortran);
}

/* The call's buffers, as every algorithm takes them. */
static int xfer_of(const ig_call *c, ig_xfer *x, ig_block *rblk)
{
    rblk->type = MPI_DATATYPE_NULL;
    if (c->op == IG_OP_ALLGATHER)
        return ig_xfer_uniform_make(x, rblk, c->sbuf, c->scount, c->stype, c->rbuf, c->rcount, c->rtype);
    return ig_xfer_varying_make(x, c->sbuf, c->scount, c->stype, c->rbuf, c->rcounts, c->rdispls, c->rtype, 1);
}

/* Carry out the decided steps (or complete the one posted early, which is
 * the decided step when it stands).  A step that failed does not stop the
 * next one: the other processes take part in it too. */
static int execute(const ig_xfer *x, const ig_choice *ch, ig_comm_cache *cache, ig_speculation *early)
{
    if (ig_speculate_stands(early))
        return ig_speculate_finish(early);
    int rc = MPI_SUCCESS, my_group = ig_comm_cache_local_is_low(cache) ? 0 : 1;
    for (int i = 0; i < ch->nsteps; i++) {
        const ig_step *st = &ch->steps[i];
        ig_pair *pair;
        int step_rc = ig_comm_cache_pair(cache, ig_step_local_first(st, my_group), &pair);
        if (step_rc == MPI_SUCCESS)
            step_rc = ig_algorithm_run(pair, x, st);
        ig_err_keep(&rc, step_rc);
    }
    return rc;
}

/* The agreement, the decision and the steps, on the call's buffers x
 * (built before the agreement; see ig_serve), in this order:
 *   1. early posting readies its guess (speculate.c) and the agreement
 *      starts (agree.c);
 *   2. where a process's own arguments lead to the direct algorithm, it
 *      posts that step while the agreement runs;
 *   3. the agreement ends: every process holds the same shape (shape.h);
 *   4. the opening round learns the agreed shape (opening.c), and the
 *      decision chooses from it (decide.c);
 *   5. every process settles early posting jointly: kept or withdrawn;
 *   6. a call that skipped the opening round but has a process that
 *      cannot be served goes through the round now;
 *   7. the choice is carried out: native, empty, erroneous (served point
 *      to point) or served by its steps.
 * Returns 1 where intergather handled the call (its outcome, an error
 * included, in *rc), 0 where the caller hands it to the MPI library. */
static int serve_agreed(const ig_call *c, const ig_xfer *x, ig_comm_cache *cache, const ig_settings *s,
                        int skipped_opening, int *rc)
{
    ig_shape shape;
    ig_choice choice;
    ig_speculation early;
    ig_agreement agreement;
    ig_side_wait side;
    ig_posted posted;
    ig_speculate_prepare(c, x, cache, s, &early);
    ig_agree_start(c, cache, early.code, &agreement);
    ig_speculate_post(&early);
    ig_speculate_side(&early, &side);
    *rc = ig_agree_finish(&agreement, &side, &shape, &posted);
    if (*rc != MPI_SUCCESS) {
        ig_speculate_abandon(&early);
        return ig_error_report(c->comm, function_name(c), *rc), 1;
    }
    ig_opening_agreed(c, cache, s, &shape);
    ig_decide(&shape, c->op == IG_OP_ALLGATHERV, s, &choice);
    /* Every process settles, whatever the choice: withdrawing is joint.  On
     * the native path the MPI library's own outcome is what the program
     * sees (the native call still runs, so no peer is stranded). */
    int settled = ig_speculate_settle(&early, cache, &posted, &choice);
    /* A call that skipped the opening round in which some process cannot
     * be served: every process knows it now, and the round serves it. */
    int opening_rc;
    if (skipped_opening && ig_opening_after_all(c, cache, s, &shape, &opening_rc) == IG_OPENING_ENDED) {
        *rc = ig_error_report(c->comm, function_name(c), opening_rc);
        return 1;
    }
    switch (choice.kind) {
    case IG_DECISION_NATIVE:
        return go_native(choice.native_reason);
    case IG_DECISION_EMPTY:
        ig_stats_empty();
        *rc = ig_error_report(c->comm, function_name(c), settled);
        return 1;
    case IG_DECISION_ERRONEOUS:
        explain_sizes(c, &shape, cache,
                      shape.sizes == IG_SIZES_TRUNCATE
                          ? "served point to point; receives that expect less than is sent fail with MPI_ERR_TRUNCATE"
                          : "served point to point; receivers expect more than is sent and get what is sent");
        ig_stats_erroneous();
        ig_err_keep(&settled, execute(x, &choice, cache, &early));
        *rc = ig_error_report(c->comm, function_name(c), settled);
        return 1;
    case IG_DECISION_SERVE:
        break;
    }
    count_served(c, &choice, shape.total[0] > 0 && shape.total[1] > 0);
    ig_lifecycle_announce(ig_algorithm_info_of(choice.steps[0].algorithm)->name);
    ig_err_keep(&settled, execute(x, &choice, cache, &early));
    *rc = ig_error_report(c->comm, function_name(c), settled);
    return 1;
}

int ig_serve(const ig_call *c, int *rc)
{
    ig_comm_cache *cache;
    /* The cache is built before any setting is consulted: settings may
     * differ between processes, and only its agreement check makes acting
     * on them safe. */
    *rc = ig_comm_cache_get(c->comm, &cache);
    if (*rc != MPI_SUCCESS)
        return ig_error_report(c->comm, function_name(c), *rc), 1;
    const ig_settings *s = ig_comm_cache_settings(cache);
    ig_fallback inactive = ig_decide_active(ig_comm_cache_settings_agree(cache), s);
    if (inactive != IG_FALLBACK_NONE)
        return go_native(inactive);
    /* A correct call with small sizes ends in the opening round; one that
     * goes on (no pair ended there) is agreed and decided as if it had not
     * been tried. */
    int skipped = 0;
    if (ig_opening_applies(c, cache, s)) {
        int opening_rc;
        ig_opening_outcome o = ig_opening_run(c, cache, s, &opening_rc);
        if (o == IG_OPENING_ENDED)
            return *rc = ig_error_report(c->comm, function_name(c), opening_rc), 1;
        skipped = o == IG_OPENING_SKIPPED;
    }
    /* The call's buffers are built before the agreement, not after it: a
     * process whose MPI library cannot build its receive type (out of
     * memory) says so in the agreement, and every process leaves the call
     * to the MPI library together, where after the decision it alone would
     * have dropped out of the steps its peers run. */
    ig_call call = *c;
    ig_xfer x = { 0 };
    ig_block rblk = { .type = MPI_DATATYPE_NULL };
    if (call.local_reason == IG_FALLBACK_NONE && xfer_of(c, &x, &rblk) != MPI_SUCCESS)
        call.local_reason = IG_FALLBACK_NO_MEMORY;
    int served = serve_agreed(&call, &x, cache, s, skipped, rc);
    ig_block_free(&rblk);
    return served;
}

int ig_serve_entry(ig_call *call, int *rc)
{
    int served = ig_call_classify(call) && ig_serve(call, rc);
    ig_call_release(call);
    return served;
}
