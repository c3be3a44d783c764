/*
 * Unit tests: the decision (decide.h), pure, by enumeration.
 *
 * For every operation, duplex case, 1 <= p, q <= 8, block sizes and totals
 * around every threshold (min_bytes, IG_GROUP_RING_MIN_BYTES, INT_MAX) and
 * every combination of settings, the choice is compared with one derived
 * here from the specification in the headers (decide.h, algorithms.h,
 * settings.h), field by field, and with the choice for the same shape with
 * the groups swapped, which must be its mirror image: both groups decide
 * on their own, and must agree.
 */
#include "decide.h"

#include "cost_model.h"

#include "check_runner.h"

#include <check.h>
#include <inttypes.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_N 8
#define RING_MIN IG_GROUP_RING_MIN_BYTES
#define BIG ((uint64_t)INT_MAX + 1)

/* ---- settings ------------------------------------------------------------ */

#define MAX_SETTINGS 256
static ig_settings all_settings[MAX_SETTINGS];
static int n_settings;

static const uint64_t min_bytes_values[] = { 0, 4096, IG_DEFAULT_MIN_BYTES };
#define N_MIN_BYTES ((int)(sizeof min_bytes_values / sizeof min_bytes_values[0]))

/* Every combination; the native topology only when `with_native`. */
static void build_settings(int with_native)
{
    n_settings = 0;
    for (int t = 0; t <= (with_native ? IG_TOPOLOGY_NATIVE : IG_TOPOLOGY_RING); t++)
        for (int m = 0; m < 2; m++)
            for (int g = 0; g < IG_GROUP_STAGE_COUNT; g++)
                for (int r = 0; r < 2; r++)
                    for (int b = 0; b < N_MIN_BYTES; b++) {
                        ig_settings *s = &all_settings[n_settings++];
                        ig_settings_defaults(s);
                        s->topology = (ig_topology)t;
                        s->many_senders = m ? IG_MANY_SENDERS_JOIN : IG_MANY_SENDERS_SPREAD;
                        s->group_stage = (ig_group_stage)g;
                        s->ring_schedule = r ? IG_RING_PAPER : IG_RING_OPTIMAL;
                        s->min_bytes = min_bytes_values[b];
                    }
}

/* ---- the case under test, printed only when something fails ------------------ */

typedef struct {
    const ig_shape *shape;
    int allgatherv;
    const ig_settings *s;
    const ig_choice *got;
} test_case;

static const char *case_text(const test_case *t)
{
    static char buf[1024];
    const ig_shape *sh = t->shape;
    const ig_settings *s = t->s;
    int len = snprintf(buf, sizeof buf,
                       "\n  op=%s n=(%d,%d) max_block=(%" PRIu64 ",%" PRIu64 ") total=(%" PRIu64 ",%" PRIu64
                       ") overlaps=(%d,%d) reason=%d sizes=%d"
                       "\n  settings: topology=%d min_bytes=%" PRIu64 " ring_schedule=%d group_stage=%d many_senders=%d"
                       "\n  got: kind=%d native_reason=%d served_as=%d nsteps=%d",
                       t->allgatherv ? "allgatherv" : "allgather", sh->n[0], sh->n[1], sh->max_block[0],
                       sh->max_block[1], sh->total[0], sh->total[1], sh->send_overlaps[0], sh->send_overlaps[1],
                       (int)sh->reason, (int)sh->sizes, (int)s->topology, s->min_bytes, (int)s->ring_schedule,
                       (int)s->group_stage, (int)s->many_senders, (int)t->got->kind, (int)t->got->native_reason,
                       (int)t->got->served_as, t->got->nsteps);
    for (int i = 0; i < 2 && i < t->got->nsteps && len < (int)sizeof buf; i++) {
        const ig_step *st = &t->got->steps[i];
        len += snprintf(buf + len, sizeof buf - (size_t)len,
                        "\n  step %d: algorithm=%d sender=%d ring_schedule=%d stage=(%d,%d) relay_bytes=%" PRIu64, i,
                        (int)st->algorithm, st->sender, (int)st->ring_schedule, (int)st->stage[0],
                        (int)st->stage[1], st->relay_bytes);
    }
    return buf;
}

/* ---- the specification --------------------------------------------------- */

/* With AUTO, the ring runs the stage exactly when the members' average
 * contribution, total / members (a real number), reaches RING_MIN. */
static ig_group_stage want_stage(ig_group_stage setting, uint64_t total, int members)
{
    if (setting != IG_GROUP_STAGE_AUTO)
        return setting;
    return total >= RING_MIN * (uint64_t)members ? IG_GROUP_STAGE_RING : IG_GROUP_STAGE_MPI;
}

/* What the spec says of a half-duplex step from group `sender`. */
static ig_step want_half(const ig_shape *sh, int sender, int allgatherv, const ig_settings *s)
{
    ig_step st;
    memset(&st, 0, sizeof st);
    int p = sh->n[sender], q = sh->n[1 - sender];
    st.sender = sender;
    if (s->topology == IG_TOPOLOGY_RING) {
        st.algorithm = IG_ALG_RING;
        st.ring_schedule = s->ring_schedule;
        st.relay_bytes = sh->max_block[sender];
        return st;
    }
    int join_allowed = s->many_senders == IG_MANY_SENDERS_JOIN && !allgatherv && !sh->send_overlaps[sender];
    if (p <= q || join_allowed) {
        st.algorithm = IG_ALG_FC;
        st.stage[1] = want_stage(s->group_stage, sh->total[sender], p);
    } else {
        st.algorithm = IG_ALG_SPREAD;
        st.stage[1] = want_stage(s->group_stage, sh->total[sender], q);
    }
    return st;
}

static ig_step want_one_exchange(const ig_shape *sh, const ig_settings *s)
{
    ig_step st;
    memset(&st, 0, sizeof st);
    st.algorithm = IG_ALG_FULL_DUPLEX;
    st.sender = -1;
    st.stage[0] = want_stage(s->group_stage, sh->total[1], sh->n[0]);
    st.stage[1] = want_stage(s->group_stage, sh->total[0], sh->n[1]);
    return st;
}

static void want_native(ig_choice *w, ig_fallback why)
{
    w->kind = IG_DECISION_NATIVE;
    w->native_reason = why;
}

static void want_choice(const ig_shape *sh, int allgatherv, const ig_settings *s, ig_choice *w)
{
    memset(w, 0, sizeof *w);
    if (sh->reason != IG_FALLBACK_NONE)
        return want_native(w, sh->reason);
    if (sh->sizes == IG_SIZES_TRUNCATE) {
        w->kind = IG_DECISION_TRUNCATE;
        return;
    }
    if (sh->sizes == IG_SIZES_EXPECT_MORE)
        return want_native(w, IG_FALLBACK_SIZES_DIFFER);
    if (sh->total[0] == 0 && sh->total[1] == 0) {
        w->kind = IG_DECISION_EMPTY;
        return;
    }
    if (sh->max_block[0] < s->min_bytes && sh->max_block[1] < s->min_bytes)
        return want_native(w, IG_FALLBACK_SMALL);
    if (s->topology == IG_TOPOLOGY_RING && (sh->max_block[0] > INT_MAX || sh->max_block[1] > INT_MAX))
        return want_native(w, IG_FALLBACK_ARGUMENTS);
    w->kind = IG_DECISION_SERVE;
    w->served_as = s->topology;
    if (sh->total[0] > 0 && sh->total[1] > 0) {
        double avg0 = (double)sh->total[0] / sh->n[0], avg1 = (double)sh->total[1] / sh->n[1];
        if (s->topology == IG_TOPOLOGY_FULLY_CONNECTED &&
            ig_fd_preferred(sh->n[0], avg0, sh->n[1], avg1, &ig_cost_default)) {
            w->nsteps = 1;
            w->steps[0] = want_one_exchange(sh, s);
        } else {
            w->nsteps = 2;
            w->steps[0] = want_half(sh, 0, allgatherv, s);
            w->steps[1] = want_half(sh, 1, allgatherv, s);
        }
        return;
    }
    w->nsteps = 1;
    w->steps[0] = want_half(sh, sh->total[0] > 0 ? 0 : 1, allgatherv, s);
}

static int stage_valid(ig_group_stage g)
{
    return g == IG_GROUP_STAGE_MPI || g == IG_GROUP_STAGE_RING;
}

static void compare_step(const test_case *t, int i, const ig_step *w)
{
    const ig_step *g = &t->got->steps[i];
    REQUIRE(g->algorithm == w->algorithm, "step %d: algorithm %d, want %d%s", i, g->algorithm, w->algorithm,
            case_text(t));
    REQUIRE(g->sender == w->sender, "step %d: sender %d, want %d%s", i, g->sender, w->sender, case_text(t));
    REQUIRE(stage_valid(g->stage[0]) && stage_valid(g->stage[1]), "step %d: stage is AUTO or invalid%s", i,
            case_text(t));
    switch (w->algorithm) {
    case IG_ALG_RING:
        REQUIRE(g->ring_schedule == w->ring_schedule, "step %d: ring_schedule %d, want %d%s", i, g->ring_schedule,
                w->ring_schedule, case_text(t));
        REQUIRE(g->relay_bytes == w->relay_bytes, "step %d: relay_bytes %" PRIu64 ", want %" PRIu64 "%s", i,
                g->relay_bytes, w->relay_bytes, case_text(t));
        break;
    case IG_ALG_FULL_DUPLEX:
        REQUIRE(g->stage[0] == w->stage[0], "step %d: stage[0] %d, want %d%s", i, g->stage[0], w->stage[0],
                case_text(t));
        /* fall through */
    default:
        REQUIRE(g->stage[1] == w->stage[1], "step %d: stage[1] %d, want %d%s", i, g->stage[1], w->stage[1],
                case_text(t));
        break;
    }
}

static void compare_choice(const test_case *t, const ig_choice *w)
{
    const ig_choice *g = t->got;
    REQUIRE(g->kind == w->kind, "kind %d, want %d%s", g->kind, w->kind, case_text(t));
    if (w->kind == IG_DECISION_NATIVE)
        REQUIRE(g->native_reason == w->native_reason, "native_reason %d, want %d%s", g->native_reason,
                w->native_reason, case_text(t));
    if (w->kind != IG_DECISION_SERVE)
        return;
    REQUIRE(g->served_as == w->served_as, "served_as %d, want %d%s", g->served_as, w->served_as, case_text(t));
    REQUIRE(g->nsteps == w->nsteps, "nsteps %d, want %d%s", g->nsteps, w->nsteps, case_text(t));
    for (int i = 0; i < w->nsteps; i++)
        compare_step(t, i, &w->steps[i]);
}

/* ---- symmetry ---------------------------------------------------------------- */

static void swap_groups(const ig_shape *a, ig_shape *b)
{
    *b = *a;
    for (int g = 0; g < 2; g++) {
        b->n[g] = a->n[1 - g];
        b->max_block[g] = a->max_block[1 - g];
        b->total[g] = a->total[1 - g];
        b->send_overlaps[g] = a->send_overlaps[1 - g];
        b->send_min[g] = a->send_min[1 - g];
        b->send_max[g] = a->send_max[1 - g];
        b->expect_min[g] = a->expect_min[1 - g];
        b->expect_max[g] = a->expect_max[1 - g];
    }
}

/* Step `a` of the original as seen with the groups swapped must equal `m`. */
static void require_mirror_step(const test_case *t, const ig_step *a, const ig_step *m)
{
    REQUIRE(a->algorithm == m->algorithm, "mirror: algorithm %d vs %d%s", a->algorithm, m->algorithm,
            case_text(t));
    REQUIRE(m->sender == (a->sender < 0 ? -1 : 1 - a->sender), "mirror: sender %d vs %d%s", a->sender, m->sender,
            case_text(t));
    REQUIRE(a->ring_schedule == m->ring_schedule, "mirror: ring_schedule%s", case_text(t));
    REQUIRE(a->relay_bytes == m->relay_bytes, "mirror: relay_bytes%s", case_text(t));
    /* Half duplex: the pair's first group is the senders either way; full
     * duplex: it is the low group, so the stages trade places. */
    int swap = a->sender < 0;
    REQUIRE(m->stage[0] == a->stage[swap] && m->stage[1] == a->stage[1 - swap], "mirror: stages (%d,%d) vs (%d,%d)%s",
            a->stage[0], a->stage[1], m->stage[0], m->stage[1], case_text(t));
}

static void require_mirror(const test_case *t, const ig_choice *m)
{
    const ig_choice *a = t->got;
    REQUIRE(a->kind == m->kind, "mirror: kind %d vs %d%s", a->kind, m->kind, case_text(t));
    REQUIRE(a->native_reason == m->native_reason, "mirror: native_reason %d vs %d%s", a->native_reason,
            m->native_reason, case_text(t));
    if (a->kind != IG_DECISION_SERVE)
        return;
    REQUIRE(a->served_as == m->served_as && a->nsteps == m->nsteps, "mirror: served_as/nsteps%s", case_text(t));
    if (a->nsteps == 1) {
        require_mirror_step(t, &a->steps[0], &m->steps[0]);
    } else {
        /* Group 0's data first: the swapped order runs the same passes reversed. */
        require_mirror_step(t, &a->steps[0], &m->steps[1]);
        require_mirror_step(t, &a->steps[1], &m->steps[0]);
    }
}

/* ---- outcome counters: every branch of the spec is reached ------------------------ */

enum {
    SEEN_EMPTY, SEEN_SMALL, SEEN_ARGS, SEEN_FC, SEEN_SPREAD, SEEN_FD, SEEN_TWO_FC_HALVES, SEEN_RING1, SEEN_RING2,
    SEEN_STAGE_RING, SEEN_STAGE_MPI, SEEN_JOIN_FC, SEEN_COUNT
};
static long seen[SEEN_COUNT];

static void count(const ig_choice *c, const ig_shape *sh)
{
    switch (c->kind) {
    case IG_DECISION_EMPTY:
        seen[SEEN_EMPTY]++;
        return;
    case IG_DECISION_NATIVE:
        seen[c->native_reason == IG_FALLBACK_SMALL ? SEEN_SMALL : SEEN_ARGS]++;
        return;
    default:
        break;
    }
    for (int i = 0; i < c->nsteps; i++) {
        const ig_step *st = &c->steps[i];
        switch (st->algorithm) {
        case IG_ALG_FC:
            seen[SEEN_FC]++;
            if (sh->n[st->sender] > sh->n[1 - st->sender])
                seen[SEEN_JOIN_FC]++;
            break;
        case IG_ALG_SPREAD:
            seen[SEEN_SPREAD]++;
            break;
        case IG_ALG_FULL_DUPLEX:
            seen[SEEN_FD]++;
            break;
        default:
            break;
        }
        if (st->algorithm != IG_ALG_RING)
            seen[st->stage[1] == IG_GROUP_STAGE_RING ? SEEN_STAGE_RING : SEEN_STAGE_MPI]++;
    }
    if (c->steps[0].algorithm == IG_ALG_RING)
        seen[c->nsteps == 1 ? SEEN_RING1 : SEEN_RING2]++;
    else if (c->nsteps == 2)
        seen[SEEN_TWO_FC_HALVES]++;
}

/* ---- one shape: every setting, both operations, against spec and mirror ---------- */

static void check_shape_all_settings(const ig_shape *sh, int allgatherv)
{
    ig_shape mirrored;
    swap_groups(sh, &mirrored);
    for (int i = 0; i < n_settings; i++) {
        const ig_settings *s = &all_settings[i];
        ig_choice got, want, mirror;
        ig_decide(sh, allgatherv, s, &got);
        test_case t = { sh, allgatherv, s, &got };
        want_choice(sh, allgatherv, s, &want);
        compare_choice(&t, &want);
        ig_decide(&mirrored, allgatherv, s, &mirror);
        require_mirror(&t, &mirror);
        count(&got, sh);
    }
}

/* Block sizes around every threshold. */
static const uint64_t blocks[] = {
    0, 1, 4095, 4096, 4097, RING_MIN - 1, RING_MIN, RING_MIN + 1, (uint64_t)1 << 20, INT_MAX, BIG,
    (uint64_t)1 << 33
};
#define N_BLOCKS ((int)(sizeof blocks / sizeof blocks[0]))

/* The totals group g may send with largest block b: all blocks b (as
 * MPI_Allgather always has), a single block of b, and the totals on either
 * side of the AUTO threshold for the divisors the spec uses (p, q). */
static int totals_for(uint64_t b, int n, int p, int q, uint64_t *out)
{
    int k = 0;
    if (b == 0) {
        out[k++] = 0;
        return k;
    }
    uint64_t cand[6] = { b * (uint64_t)n, b, RING_MIN * (uint64_t)p - 1, RING_MIN * (uint64_t)p,
                         RING_MIN * (uint64_t)q - 1, RING_MIN * (uint64_t)q };
    for (int c = 0; c < 6; c++) {
        if (cand[c] < b || cand[c] > b * (uint64_t)n)
            continue;
        int dup = 0;
        for (int j = 0; j < k; j++)
            dup |= out[j] == cand[c];
        if (!dup)
            out[k++] = cand[c];
    }
    return k;
}

static ig_shape served_shape(int p, int q)
{
    ig_shape sh;
    memset(&sh, 0, sizeof sh);
    sh.n[0] = p;
    sh.n[1] = q;
    sh.reason = IG_FALLBACK_NONE;
    sh.sizes = IG_SIZES_AGREE;
    return sh;
}

START_TEST(decide_matches_spec_and_mirror)
{
    build_settings(0);
    memset(seen, 0, sizeof seen);
    long cases = 0;
    for (int op = 0; op < 2; op++)
        for (int p = 1; p <= MAX_N; p++)
            for (int q = 1; q <= MAX_N; q++)
                for (int b0 = 0; b0 < N_BLOCKS; b0++) {
                    uint64_t t0[6], t1[6];
                    int nt0 = totals_for(blocks[b0], p, p, q, t0);
                    for (int b1 = 0; b1 < N_BLOCKS; b1++) {
                        int nt1 = totals_for(blocks[b1], q, p, q, t1);
                        for (int i0 = 0; i0 < nt0; i0++)
                            for (int i1 = 0; i1 < nt1; i1++)
                                for (int ov = 0; ov < 4; ov++) {
                                    ig_shape sh = served_shape(p, q);
                                    sh.max_block[0] = blocks[b0];
                                    sh.max_block[1] = blocks[b1];
                                    sh.total[0] = t0[i0];
                                    sh.total[1] = t1[i1];
                                    sh.send_overlaps[0] = ov & 1;
                                    sh.send_overlaps[1] = ov >> 1;
                                    check_shape_all_settings(&sh, op);
                                    cases += n_settings;
                                }
                    }
                }
    /* Every branch of the specification was taken somewhere. */
    static const char *names[SEEN_COUNT] = { "empty", "small", "arguments", "fc", "spread", "full-duplex",
                                             "two fc halves", "ring half", "ring full", "stage ring",
                                             "stage mpi", "fc with p > q (join)" };
    for (int i = 0; i < SEEN_COUNT; i++)
        REQUIRE(seen[i] > 0, "outcome '%s' never reached in %ld cases", names[i], cases);
}
END_TEST

/* A shape that is not served for its own reason: the reason, then the
 * sizes verdict, take precedence over everything after them. */
START_TEST(decide_reason_and_sizes_first)
{
    build_settings(0);
    static const int ns[] = { 1, 3, 8 };
    static const uint64_t bs[] = { 0, 1, RING_MIN, BIG };
    for (int op = 0; op < 2; op++)
        for (int reason = 0; reason < IG_FALLBACK_COUNT; reason++)
            for (int sizes = IG_SIZES_AGREE; sizes <= IG_SIZES_TRUNCATE; sizes++)
                for (int ip = 0; ip < 3; ip++)
                    for (int iq = 0; iq < 3; iq++)
                        for (int b0 = 0; b0 < 4; b0++)
                            for (int b1 = 0; b1 < 4; b1++) {
                                ig_shape sh = served_shape(ns[ip], ns[iq]);
                                sh.reason = (ig_fallback)reason;
                                sh.sizes = (ig_sizes_verdict)sizes;
                                sh.max_block[0] = bs[b0];
                                sh.max_block[1] = bs[b1];
                                sh.total[0] = bs[b0] * (uint64_t)ns[ip];
                                sh.total[1] = bs[b1] * (uint64_t)ns[iq];
                                check_shape_all_settings(&sh, op);
                                /* And explicitly, independent of want_choice. */
                                ig_choice c;
                                ig_decide(&sh, op, &all_settings[0], &c);
                                if (reason != IG_FALLBACK_NONE) {
                                    REQUIRE_EQ(c.kind, IG_DECISION_NATIVE);
                                    REQUIRE_EQ((int)c.native_reason, reason);
                                } else if (sizes == IG_SIZES_TRUNCATE) {
                                    REQUIRE_EQ(c.kind, IG_DECISION_TRUNCATE);
                                } else if (sizes == IG_SIZES_EXPECT_MORE) {
                                    REQUIRE_EQ(c.kind, IG_DECISION_NATIVE);
                                    REQUIRE_EQ(c.native_reason, IG_FALLBACK_SIZES_DIFFER);
                                }
                            }
}
END_TEST

START_TEST(decide_active)
{
    build_settings(1);
    int natives = 0;
    for (int agree = 0; agree < 2; agree++)
        for (int i = 0; i < n_settings; i++) {
            const ig_settings *s = &all_settings[i];
            ig_fallback f = ig_decide_active(agree, s);
            /* Settings that differ come first: a process whose own setting
             * says native must still take the path its peers take. */
            ig_fallback want = !agree ? IG_FALLBACK_SETTINGS_DIFFER
                               : s->topology == IG_TOPOLOGY_NATIVE ? IG_FALLBACK_DISABLED
                                                                   : IG_FALLBACK_NONE;
            REQUIRE(f == want, "agree=%d topology=%d: %d, want %d", agree, s->topology, f, want);
            natives += s->topology == IG_TOPOLOGY_NATIVE;
        }
    ck_assert_int_gt(natives, 0);
}
END_TEST

/* The full-duplex step alone: group g's stage from the other group's total
 * over n[g]. */
START_TEST(decide_one_exchange)
{
    build_settings(0);
    for (int n0 = 1; n0 <= MAX_N; n0++)
        for (int n1 = 1; n1 <= MAX_N; n1++)
            for (int d0 = -1; d0 <= 1; d0++)
                for (int d1 = -1; d1 <= 1; d1++)
                    for (int i = 0; i < n_settings; i++) {
                        const ig_settings *s = &all_settings[i];
                        ig_shape sh = served_shape(n0, n1);
                        /* Group 1 assembles group 0's total, over n1 members. */
                        sh.total[0] = RING_MIN * (uint64_t)n1 + (uint64_t)d0;
                        sh.total[1] = RING_MIN * (uint64_t)n0 + (uint64_t)d1;
                        sh.max_block[0] = sh.total[0];
                        sh.max_block[1] = sh.total[1];
                        ig_step st = ig_decide_one_exchange(&sh, s);
                        REQUIRE_EQ(st.algorithm, IG_ALG_FULL_DUPLEX);
                        REQUIRE_EQ(st.sender, -1);
                        ig_group_stage w0 = s->group_stage == IG_GROUP_STAGE_AUTO
                                                ? (d1 >= 0 ? IG_GROUP_STAGE_RING : IG_GROUP_STAGE_MPI)
                                                : s->group_stage;
                        ig_group_stage w1 = s->group_stage == IG_GROUP_STAGE_AUTO
                                                ? (d0 >= 0 ? IG_GROUP_STAGE_RING : IG_GROUP_STAGE_MPI)
                                                : s->group_stage;
                        REQUIRE(st.stage[0] == w0 && st.stage[1] == w1,
                                "n=(%d,%d) d=(%d,%d) group_stage=%d: stages (%d,%d), want (%d,%d)", n0, n1, d0, d1,
                                s->group_stage, st.stage[0], st.stage[1], w0, w1);
                    }
}
END_TEST

/* A few cases written out by hand. */
START_TEST(decide_examples)
{
    ig_settings s;
    ig_settings_defaults(&s);
    ig_choice c;

    /* 4 low processes send 1 MiB each to 2: spread by default, receivers'
     * members average 2 MiB: the ring stage. */
    ig_shape sh = served_shape(4, 2);
    sh.max_block[0] = 1 << 20;
    sh.total[0] = 4 << 20;
    ig_decide(&sh, 0, &s, &c);
    ck_assert_int_eq(c.kind, IG_DECISION_SERVE);
    ck_assert_int_eq(c.nsteps, 1);
    ck_assert_int_eq(c.steps[0].algorithm, IG_ALG_SPREAD);
    ck_assert_int_eq(c.steps[0].sender, 0);
    ck_assert_int_eq(c.steps[0].stage[1], IG_GROUP_STAGE_RING);

    /* The paper's join for MPI_Allgather only, and not with overlapping send types. */
    s.many_senders = IG_MANY_SENDERS_JOIN;
    ig_decide(&sh, 0, &s, &c);
    ck_assert_int_eq(c.steps[0].algorithm, IG_ALG_FC);
    ig_decide(&sh, 1, &s, &c);
    ck_assert_int_eq(c.steps[0].algorithm, IG_ALG_SPREAD);
    sh.send_overlaps[0] = 1;
    ig_decide(&sh, 0, &s, &c);
    ck_assert_int_eq(c.steps[0].algorithm, IG_ALG_SPREAD);
    sh.send_overlaps[0] = 0;

    /* The high group sends instead: the same, mirrored. */
    ig_shape hi = served_shape(2, 4);
    hi.max_block[1] = 1 << 20;
    hi.total[1] = 4 << 20;
    ig_decide(&hi, 0, &s, &c);
    ck_assert_int_eq(c.steps[0].algorithm, IG_ALG_FC);
    ck_assert_int_eq(c.steps[0].sender, 1);

    /* 64 KiB - 1 per member on average: the MPI stage; 64 KiB: the ring. */
    s.many_senders = IG_MANY_SENDERS_SPREAD;
    ig_shape eq = served_shape(3, 3);
    eq.max_block[0] = RING_MIN;
    eq.total[0] = 3 * RING_MIN - 1;
    ig_decide(&eq, 1, &s, &c);
    ck_assert_int_eq(c.steps[0].algorithm, IG_ALG_FC);
    ck_assert_int_eq(c.steps[0].stage[1], IG_GROUP_STAGE_MPI);
    eq.total[0] = 3 * RING_MIN;
    ig_decide(&eq, 1, &s, &c);
    ck_assert_int_eq(c.steps[0].stage[1], IG_GROUP_STAGE_RING);

    /* Below min_bytes: native; at it: served. */
    eq.max_block[0] = IG_DEFAULT_MIN_BYTES - 1;
    eq.total[0] = 3 * eq.max_block[0];
    ig_decide(&eq, 0, &s, &c);
    ck_assert_int_eq(c.kind, IG_DECISION_NATIVE);
    ck_assert_int_eq(c.native_reason, IG_FALLBACK_SMALL);
    s.min_bytes = 0;
    ig_decide(&eq, 0, &s, &c);
    ck_assert_int_eq(c.kind, IG_DECISION_SERVE);

    /* Blocks over INT_MAX: fully connected serves them, the ring cannot. */
    ig_shape big = served_shape(2, 2);
    big.max_block[0] = big.max_block[1] = BIG;
    big.total[0] = big.total[1] = 2 * BIG;
    ig_decide(&big, 0, &s, &c);
    ck_assert_int_eq(c.kind, IG_DECISION_SERVE);
    ck_assert_int_eq(c.steps[0].algorithm, IG_ALG_FULL_DUPLEX);
    s.topology = IG_TOPOLOGY_RING;
    ig_decide(&big, 0, &s, &c);
    ck_assert_int_eq(c.kind, IG_DECISION_NATIVE);
    ck_assert_int_eq(c.native_reason, IG_FALLBACK_ARGUMENTS);

    /* Ring, full duplex: one pass per direction, group 0's data first,
     * each relaying its senders' largest block. */
    big.max_block[0] = 100000;
    big.max_block[1] = 200000;
    big.total[0] = 150000;
    big.total[1] = 400000;
    s.ring_schedule = IG_RING_PAPER;
    ig_decide(&big, 1, &s, &c);
    ck_assert_int_eq(c.kind, IG_DECISION_SERVE);
    ck_assert_int_eq(c.served_as, IG_TOPOLOGY_RING);
    ck_assert_int_eq(c.nsteps, 2);
    ck_assert_int_eq(c.steps[0].algorithm, IG_ALG_RING);
    ck_assert_int_eq(c.steps[0].sender, 0);
    ck_assert_int_eq(c.steps[0].relay_bytes, 100000);
    ck_assert_int_eq(c.steps[0].ring_schedule, IG_RING_PAPER);
    ck_assert_int_eq(c.steps[1].sender, 1);
    ck_assert_int_eq(c.steps[1].relay_bytes, 200000);

    /* Nothing sent: empty, whatever min_bytes says. */
    ig_shape none = served_shape(5, 7);
    s.min_bytes = IG_DEFAULT_MIN_BYTES;
    ig_decide(&none, 0, &s, &c);
    ck_assert_int_eq(c.kind, IG_DECISION_EMPTY);
}
END_TEST

/* Random shapes (fixed seed), including ones that no real call produces:
 * spec and mirror still hold. */
START_TEST(decide_random_shapes)
{
    build_settings(0);
    srand(20240611);
    for (int i = 0; i < 4000; i++) {
        ig_shape sh = served_shape(1 + rand() % 16, 1 + rand() % 16);
        for (int g = 0; g < 2; g++) {
            int kind = rand() % 4;
            uint64_t b = kind == 0 ? 0 : kind == 1 ? (uint64_t)(rand() % 200000) : kind == 2 ? (uint64_t)rand()
                                                                                         : (uint64_t)rand() << 3;
            sh.max_block[g] = b;
            sh.total[g] = b == 0 ? 0 : b + (uint64_t)(rand() % sh.n[g]) * (b / (1 + (uint64_t)(rand() % 4)));
            sh.send_overlaps[g] = rand() % 3 == 0;
        }
        if (rand() % 8 == 0)
            sh.reason = (ig_fallback)(rand() % IG_FALLBACK_COUNT);
        if (rand() % 8 == 0)
            sh.sizes = (ig_sizes_verdict)(rand() % 3);
        check_shape_all_settings(&sh, rand() % 2);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("decide");
    TCase *tc = tcase_create("decide");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, decide_active);
    tcase_add_test(tc, decide_examples);
    tcase_add_test(tc, decide_one_exchange);
    tcase_add_test(tc, decide_reason_and_sizes_first);
    tcase_add_test(tc, decide_matches_spec_and_mirror);
    tcase_add_test(tc, decide_random_shapes);
    suite_add_tcase(s, tc);
    return ig_run_suite(s);
}
