#include "decide.h"

#include "cost_model.h"

#include <limits.h>

ig_fallback ig_decide_active(int settings_agree, const ig_settings *s)
{
    if (!settings_agree)
        return IG_FALLBACK_SETTINGS_DIFFER;
    if (s->topology == IG_TOPOLOGY_NATIVE)
        return IG_FALLBACK_DISABLED;
    return IG_FALLBACK_NONE;
}

static void decide_native(ig_choice *c, ig_fallback why)
{
    c->kind = IG_DECISION_NATIVE;
    c->native_reason = why;
}

/* The group stage for members that contribute `bytes_per_member` each on
 * average (settings.h, IG_GROUP_RING_MIN_BYTES, says why AUTO switches). */
static ig_group_stage stage_for(ig_group_stage setting, uint64_t bytes_per_member)
{
    if (setting != IG_GROUP_STAGE_AUTO)
        return setting;
    return bytes_per_member >= IG_GROUP_RING_MIN_BYTES ? IG_GROUP_STAGE_RING : IG_GROUP_STAGE_MPI;
}

static uint64_t per_member(uint64_t total, int members)
{
    return members > 0 ? total / (uint64_t)members : 0;
}

/* One direction: group `sender` sends to the other group. */
static ig_step half_step(const ig_shape *sh, int sender, int allgatherv, const ig_settings *s)
{
    int receiver = 1 - sender, p = sh->n[sender], q = sh->n[receiver];
    ig_step st = { .sender = sender, .ring_schedule = s->ring_schedule, .relay_bytes = sh->max_block[sender],
                   .stage = { IG_GROUP_STAGE_MPI, IG_GROUP_STAGE_MPI } };
    if (s->topology == IG_TOPOLOGY_RING) {
        st.algorithm = IG_ALG_RING;
        return st;
    }
    /* p > q: the paper's plan (join) has extra senders receive blocks into
     * scratch described by their own send type, which needs a type one can
     * receive into and, for MPI_Allgatherv, sizes they do not know; spread
     * needs neither.  Both groups know both facts (shape.h). */
    int join = s->many_senders == IG_MANY_SENDERS_JOIN && !allgatherv && !sh->send_overlaps[sender];
    if (p > q && !join) {
        st.algorithm = IG_ALG_SPREAD;
        st.stage[1] = stage_for(s->group_stage, per_member(sh->total[sender], q));
    } else {
        st.algorithm = IG_ALG_FC;
        st.stage[1] = stage_for(s->group_stage, per_member(sh->total[sender], p));
    }
    return st;
}

/* Both groups send: one exchange (full-duplex algorithm) when the cost
 * model predicts it faster than two half-duplex passes, which it nearly
 * always does; the ring runs its schedule once per direction. */
ig_step ig_decide_one_exchange(const ig_shape *sh, const ig_settings *s)
{
    ig_step st = { .algorithm = IG_ALG_FULL_DUPLEX, .sender = -1, .ring_schedule = s->ring_schedule };
    /* Group g assembles the other group's blocks among its own members. */
    for (int g = 0; g < 2; g++)
        st.stage[g] = stage_for(s->group_stage, per_member(sh->total[1 - g], sh->n[g]));
    return st;
}

static void decide_full(const ig_shape *sh, int allgatherv, const ig_settings *s, ig_choice *c)
{
    double avg0 = (double)sh->total[0] / sh->n[0], avg1 = (double)sh->total[1] / sh->n[1];
    if (s->topology == IG_TOPOLOGY_FULLY_CONNECTED &&
        ig_fd_preferred(sh->n[0], avg0, sh->n[1], avg1, &ig_cost_default)) {
        c->nsteps = 1;
        c->steps[0] = ig_decide_one_exchange(sh, s);
        return;
    }
    c->nsteps = 2;
    c->steps[0] = half_step(sh, 0, allgatherv, s);
    c->steps[1] = half_step(sh, 1, allgatherv, s);
}

void ig_decide(const ig_shape *sh, int allgatherv, const ig_settings *s, ig_choice *c)
{
    *c = (ig_choice){ .kind = IG_DECISION_SERVE, .native_reason = IG_FALLBACK_NONE, .served_as = s->topology };
    if (sh->reason != IG_FALLBACK_NONE)
        return decide_native(c, sh->reason);
    if (sh->sizes == IG_SIZES_TRUNCATE) {
        c->kind = IG_DECISION_TRUNCATE;
        return;
    }
    if (sh->sizes == IG_SIZES_EXPECT_MORE) /* erroneous, but native completes it */
        return decide_native(c, IG_FALLBACK_SIZES_DIFFER);
    int sends0 = sh->total[0] > 0, sends1 = sh->total[1] > 0;
    if (!sends0 && !sends1) {
        c->kind = IG_DECISION_EMPTY;
        return;
    }
    /* Both groups see the same two maxima. */
    uint64_t largest = sh->max_block[0] > sh->max_block[1] ? sh->max_block[0] : sh->max_block[1];
    if (largest < s->min_bytes)
        return decide_native(c, IG_FALLBACK_SMALL);
    /* Ring relays are counted in bytes (MPI_PACKED), in an int. */
    if (s->topology == IG_TOPOLOGY_RING && largest > INT_MAX)
        return decide_native(c, IG_FALLBACK_ARGUMENTS);
    if (sends0 && sends1)
        return decide_full(sh, allgatherv, s, c);
    c->nsteps = 1;
    c->steps[0] = half_step(sh, sends0 ? 0 : 1, allgatherv, s);
}
