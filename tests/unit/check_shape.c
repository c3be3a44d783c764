/*
 * Unit tests: the shape of a call (shape.h), pure.
 *
 * Processes are simulated: each has the block size it sends, what it
 * expects from the other group, whether its send type overlaps, and its
 * own fallback reason.  MPI_Allgather's MAX-allreduce and MPI_Allgatherv's
 * allgather of records are carried out here, and the resulting shape is
 * compared with one derived process by process from the specification:
 *   AGREE        every receiver expects exactly what each sender sends;
 *   EXPECT_MORE  not that, but nothing would be truncated and (MPI_Allgather)
 *                the senders of each group agree;
 *   TRUNCATE     some receiver expects less than a sender sends, or
 *                (MPI_Allgather) the senders of a group differ.
 * Exhaustively for small groups, and on random shapes (fixed seed).
 */
#include "shape.h"

#include "check_runner.h"

#include <check.h>
#include <inttypes.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_N 8

typedef struct {
    int64_t send;
    int64_t expect[MAX_N]; /* from each process of the other group; MPI_Allgather: expect[0] for all */
    int overlaps;
    ig_fallback reason;
} proc;

typedef struct {
    int n[2];
    proc procs[2 * MAX_N]; /* merged order: group 0 first */
} world;

static proc *member(world *w, int g, int i)
{
    return &w->procs[g == 0 ? i : w->n[0] + i];
}

static const char *world_text(const world *w, int uniform)
{
    static char buf[4096];
    int len = snprintf(buf, sizeof buf, "\n  n=(%d,%d)", w->n[0], w->n[1]);
    for (int r = 0; r < w->n[0] + w->n[1] && len < (int)sizeof buf - 200; r++) {
        const proc *p = &w->procs[r];
        int g = r >= w->n[0], m = uniform ? 1 : w->n[1 - g];
        len += snprintf(buf + len, sizeof buf - (size_t)len, "\n  group %d #%d: send=%" PRId64 " ov=%d reason=%d expect=",
                        g, g ? r - w->n[0] : r, p->send, p->overlaps, (int)p->reason);
        for (int j = 0; j < m; j++)
            len += snprintf(buf + len, sizeof buf - (size_t)len, "%s%" PRId64, j ? "," : "", p->expect[j]);
    }
    return buf;
}

/* ---- the specification, process by process ----------------------------------- */

/* The verdict: `uniform` reads expect[0] as every block's expectation. */
static ig_sizes_verdict want_verdict(const world *w, int uniform)
{
    int differ = 0, truncate = 0;
    for (int g = 0; g < 2; g++) {
        world *ww = (world *)w;
        for (int i = 0; i < w->n[g]; i++) {
            const proc *s = member(ww, g, i);
            if (uniform && s->send != member(ww, g, 0)->send)
                truncate = 1; /* one count on the receiving side cannot match both */
            for (int r = 0; r < w->n[1 - g]; r++) {
                int64_t e = member(ww, 1 - g, r)->expect[uniform ? 0 : i];
                if (e < s->send)
                    truncate = 1;
                if (e != s->send)
                    differ = 1;
            }
        }
    }
    return truncate ? IG_SIZES_TRUNCATE : differ ? IG_SIZES_EXPECT_MORE : IG_SIZES_AGREE;
}

/* Everything but the verdict and the expectation ranges. */
static void want_common(const world *w, ig_shape *sh, uint64_t true_total[2], int *senders_agree)
{
    memset(sh, 0, sizeof *sh);
    sh->reason = IG_FALLBACK_NONE;
    for (int g = 0; g < 2; g++) {
        world *ww = (world *)w;
        sh->n[g] = w->n[g];
        sh->send_min[g] = INT64_MAX;
        sh->send_max[g] = INT64_MIN;
        true_total[g] = 0;
        senders_agree[g] = 1;
        for (int i = 0; i < w->n[g]; i++) {
            const proc *p = member(ww, g, i);
            sh->send_min[g] = p->send < sh->send_min[g] ? p->send : sh->send_min[g];
            sh->send_max[g] = p->send > sh->send_max[g] ? p->send : sh->send_max[g];
            sh->max_block[g] = (uint64_t)sh->send_max[g];
            true_total[g] += (uint64_t)p->send;
            sh->send_overlaps[g] |= p->overlaps;
            senders_agree[g] &= p->send == member(ww, g, 0)->send;
        }
    }
    for (int r = 0; r < w->n[0] + w->n[1]; r++)
        if (w->procs[r].reason > sh->reason)
            sh->reason = w->procs[r].reason;
}

#define REQUIRE_FIELD(got, want, what, ctx)                                                                   \
    REQUIRE((got) == (want), "%s: got %" PRId64 ", want %" PRId64 "%s", what, (int64_t)(got), (int64_t)(want), \
            ctx)

/* ---- MPI_Allgather ------------------------------------------------------------ */

/* The MAX-allreduce over every process's contribution, in rank order. */
static void allreduce_uniform(const world *w, int64_t v[IG_UNIFORM_LEN])
{
    for (int r = 0; r < w->n[0] + w->n[1]; r++) {
        const proc *p = &w->procs[r];
        int64_t mine[IG_UNIFORM_LEN];
        ig_shape_uniform_contribution(r >= w->n[0], p->send, p->expect[0], p->overlaps, p->reason, mine);
        for (int i = 0; i < IG_UNIFORM_LEN; i++)
            v[i] = r == 0 || mine[i] > v[i] ? mine[i] : v[i];
    }
}

static long verdicts_uniform[3], verdicts_records[3];

static void check_uniform(const world *w)
{
    int64_t v[IG_UNIFORM_LEN];
    ig_shape got, want;
    uint64_t true_total[2];
    int agree[2];
    allreduce_uniform(w, v);
    ig_shape_from_uniform(v, w->n[0], w->n[1], &got);
    want_common(w, &want, true_total, agree);
    want.sizes = want_verdict(w, 1);
#define CTX world_text(w, 1)
    REQUIRE_FIELD(got.sizes, want.sizes, "uniform verdict", CTX);
    REQUIRE_FIELD(got.reason, want.reason, "uniform reason", CTX);
    for (int g = 0; g < 2; g++) {
        world *ww = (world *)w;
        int64_t emin = INT64_MAX, emax = INT64_MIN;
        for (int r = 0; r < w->n[1 - g]; r++) {
            int64_t e = member(ww, 1 - g, r)->expect[0];
            emin = e < emin ? e : emin;
            emax = e > emax ? e : emax;
        }
        REQUIRE_FIELD(got.n[g], want.n[g], "n", CTX);
        REQUIRE_FIELD(got.max_block[g], want.max_block[g], "max_block", CTX);
        REQUIRE_FIELD(got.send_overlaps[g], want.send_overlaps[g], "send_overlaps", CTX);
        REQUIRE_FIELD(got.send_min[g], want.send_min[g], "send_min", CTX);
        REQUIRE_FIELD(got.send_max[g], want.send_max[g], "send_max", CTX);
        REQUIRE_FIELD(got.expect_min[g], emin, "expect_min", CTX);
        REQUIRE_FIELD(got.expect_max[g], emax, "expect_max", CTX);
        /* The total is what the group sends when its senders agree (when
         * they do not, the call is TRUNCATE and the total unused). */
        if (agree[g])
            REQUIRE_FIELD(got.total[g], true_total[g], "total", CTX);
    }
#undef CTX
    verdicts_uniform[got.sizes]++;
}

/* ---- MPI_Allgatherv ------------------------------------------------------------ */

static int64_t digest_of(const int64_t *sizes, int n)
{
    int64_t h = IG_DIGEST_SEED;
    for (int i = 0; i < n; i++)
        h = ig_digest_add(h, i, sizes[i]);
    return h;
}

static void gather_records(const world *w, int64_t *records)
{
    for (int r = 0; r < w->n[0] + w->n[1]; r++) {
        const proc *p = &w->procs[r];
        int g = r >= w->n[0];
        ig_shape_record(p->send, digest_of(p->expect, w->n[1 - g]), p->overlaps, 0, p->reason,
                        records + (size_t)r * IG_RECORD_LEN);
    }
}

/* Some receiver's expectation vector differs from the sizes sent to it. */
static int want_disagree(const world *w)
{
    for (int g = 0; g < 2; g++)
        for (int r = 0; r < w->n[1 - g]; r++)
            for (int i = 0; i < w->n[g]; i++)
                if (member((world *)w, 1 - g, r)->expect[i] != member((world *)w, g, i)->send)
                    return 1;
    return 0;
}

/* What agree.c reduces: some receiver expects less than is sent to it. */
static int want_truncates(const world *w)
{
    for (int g = 0; g < 2; g++)
        for (int r = 0; r < w->n[1 - g]; r++)
            for (int i = 0; i < w->n[g]; i++)
                if (member((world *)w, 1 - g, r)->expect[i] < member((world *)w, g, i)->send)
                    return 1;
    return 0;
}

static void check_records(const world *w)
{
    int64_t records[2 * MAX_N * IG_RECORD_LEN];
    ig_shape want;
    uint64_t true_total[2];
    int agree[2];
#define CTX world_text(w, 0)
    gather_records(w, records);
    int disagree = want_disagree(w);
    REQUIRE_FIELD(ig_records_disagree(records, w->n[0], w->n[1]), disagree, "records_disagree", CTX);
    want_common(w, &want, true_total, agree);
    int truncates = want_truncates(w);
    for (int t = 0; t < 2; t++) {
        ig_shape got;
        ig_shape_from_records(records, w->n[0], w->n[1], t, &got);
        ig_sizes_verdict verdict = !disagree ? IG_SIZES_AGREE : t ? IG_SIZES_TRUNCATE : IG_SIZES_EXPECT_MORE;
        REQUIRE_FIELD(got.sizes, verdict, t ? "records verdict (truncates=1)" : "records verdict (truncates=0)",
                      CTX);
        REQUIRE_FIELD(got.reason, want.reason, "records reason", CTX);
        REQUIRE_FIELD(got.scattered, 0, "records scattered", CTX);
        for (int g = 0; g < 2; g++) {
            REQUIRE_FIELD(got.n[g], want.n[g], "n", CTX);
            REQUIRE_FIELD(got.total[g], true_total[g], "total", CTX);
            REQUIRE_FIELD(got.max_block[g], want.max_block[g], "max_block", CTX);
            REQUIRE_FIELD(got.send_overlaps[g], want.send_overlaps[g], "send_overlaps", CTX);
            REQUIRE_FIELD(got.send_min[g], want.send_min[g], "send_min", CTX);
            REQUIRE_FIELD(got.send_max[g], want.send_max[g], "send_max", CTX);
        }
        /* With the truncation flag agree.c computes: the verdict of the spec. */
        if (t == truncates) {
            REQUIRE_FIELD(got.sizes, want_verdict(w, 0), "records verdict (spec)", CTX);
            verdicts_records[got.sizes]++;
        }
    }
#undef CTX
}

/* ---- exhaustive small worlds ---------------------------------------------------- */

static const int64_t small_values[] = { 0, 4, 8 };
#define N_SMALL 3

START_TEST(uniform_exhaustive)
{
    memset(verdicts_uniform, 0, sizeof verdicts_uniform);
    world w;
    /* Per process: send, expect (3 x 3) and overlaps: 18 states. */
    for (int total = 2; total <= 4; total++)
        for (int n0 = 1; n0 < total; n0++) {
            memset(&w, 0, sizeof w);
            w.n[0] = n0;
            w.n[1] = total - n0;
            long combos = 1;
            for (int r = 0; r < total; r++)
                combos *= 18;
            for (long c = 0; c < combos; c++) {
                long x = c;
                for (int r = 0; r < total; r++, x /= 18) {
                    int state = (int)(x % 18);
                    w.procs[r].send = small_values[state % 3];
                    w.procs[r].expect[0] = small_values[state / 3 % 3];
                    w.procs[r].overlaps = state / 9;
                    w.procs[r].reason = (ig_fallback)((c + r) % 7 == 0 ? (c + r) % IG_FALLBACK_COUNT : 0);
                }
                check_uniform(&w);
            }
        }
    for (int v = 0; v < 3; v++)
        REQUIRE(verdicts_uniform[v] > 0, "verdict %d never reached", v);
}
END_TEST

START_TEST(records_exhaustive)
{
    memset(verdicts_records, 0, sizeof verdicts_records);
    static const int sizes[][2] = { { 1, 1 }, { 1, 2 }, { 2, 1 }, { 2, 2 } };
    world w;
    for (size_t k = 0; k < sizeof sizes / sizeof sizes[0]; k++) {
        memset(&w, 0, sizeof w);
        w.n[0] = sizes[k][0];
        w.n[1] = sizes[k][1];
        int total = w.n[0] + w.n[1];
        /* Digits: each process's send, then each entry of its expectation vector. */
        int digits = 0;
        for (int r = 0; r < total; r++)
            digits += 1 + w.n[r < w.n[0]];
        long combos = 1;
        for (int d = 0; d < digits; d++)
            combos *= N_SMALL;
        for (long c = 0; c < combos; c++) {
            long x = c;
            for (int r = 0; r < total; r++) {
                proc *p = &w.procs[r];
                p->send = small_values[x % N_SMALL];
                x /= N_SMALL;
                for (int j = 0; j < w.n[r < w.n[0]]; j++, x /= N_SMALL)
                    p->expect[j] = small_values[x % N_SMALL];
                p->overlaps = (int)((c >> r) & 1) && c % 5 == 0;
                p->reason = (ig_fallback)(c % 11 == (long)r ? (c + r) % IG_FALLBACK_COUNT : 0);
            }
            check_records(&w);
        }
    }
    for (int v = 0; v < 3; v++)
        REQUIRE(verdicts_records[v] > 0, "verdict %d never reached", v);
}
END_TEST

/* ---- random worlds --------------------------------------------------------------- */

/* A correct call, then a few mistakes: a receiver expecting a different
 * size, a sender sending a different one. */
static void random_world(world *w, int uniform)
{
    static const int64_t sizes[] = { 0, 1, 8, 4096, 65536, 1 << 20, (int64_t)1 << 31, (int64_t)1 << 33 };
    memset(w, 0, sizeof *w);
    w->n[0] = 1 + rand() % MAX_N;
    w->n[1] = 1 + rand() % MAX_N;
    for (int g = 0; g < 2; g++) {
        int64_t k = sizes[rand() % 8];
        for (int i = 0; i < w->n[g]; i++)
            member(w, g, i)->send = uniform ? k : (rand() % 3 ? k : sizes[rand() % 8]);
    }
    int mistakes = rand() % 4 == 0 ? 0 : rand() % 3;
    for (int g = 0; g < 2; g++)
        for (int r = 0; r < w->n[g]; r++) {
            proc *p = member(w, g, r);
            int m = uniform ? 1 : w->n[1 - g];
            for (int j = 0; j < m; j++)
                p->expect[j] = member(w, 1 - g, j)->send;
            p->overlaps = rand() % 4 == 0;
            p->reason = rand() % 6 == 0 ? (ig_fallback)(rand() % IG_FALLBACK_COUNT) : IG_FALLBACK_NONE;
        }
    for (int k = 0; k < mistakes; k++) {
        int g = rand() % 2, i = rand() % w->n[g];
        proc *p = member(w, g, i);
        int delta = rand() % 2 ? 1 : -1;
        switch (rand() % 3) {
        case 0: /* an expectation off by one block size or more */
            p->expect[uniform ? 0 : rand() % w->n[1 - g]] += delta * (1 + rand() % 100);
            break;
        case 1: /* a receive count used as an upper bound, every entry */
            for (int j = 0; j < (uniform ? 1 : w->n[1 - g]); j++)
                p->expect[j] += 1 + rand() % 1000;
            break;
        default: /* a sender that sends something else */
            p->send = p->send + delta * (1 + rand() % 100);
            if (p->send < 0)
                p->send = 0;
            break;
        }
    }
}

START_TEST(uniform_random)
{
    memset(verdicts_uniform, 0, sizeof verdicts_uniform);
    srand(12345);
    world w;
    for (int i = 0; i < 20000; i++) {
        random_world(&w, 1);
        check_uniform(&w);
    }
    for (int v = 0; v < 3; v++)
        REQUIRE(verdicts_uniform[v] > 1000, "verdict %d reached %ld times", v, verdicts_uniform[v]);
}
END_TEST

START_TEST(records_random)
{
    memset(verdicts_records, 0, sizeof verdicts_records);
    srand(54321);
    world w;
    for (int i = 0; i < 20000; i++) {
        random_world(&w, 0);
        check_records(&w);
    }
    for (int v = 0; v < 3; v++)
        REQUIRE(verdicts_records[v] > 1000, "verdict %d reached %ld times", v, verdicts_records[v]);
}
END_TEST

/* ---- pieces and examples ---------------------------------------------------------- */

START_TEST(uniform_contribution_layout)
{
    for (int g = 0; g < 2; g++) {
        int64_t v[IG_UNIFORM_LEN];
        ig_shape_uniform_contribution(g, 24, 40, 1, IG_FALLBACK_ARGUMENTS, v);
        int mine = g * IG_UNIFORM_PER_GROUP, theirs = (1 - g) * IG_UNIFORM_PER_GROUP;
        ck_assert_int_eq(v[mine + IG_UNIFORM_SEND_MAX], 24);
        ck_assert_int_eq(v[mine + IG_UNIFORM_SEND_NEG_MIN], -24);
        ck_assert_int_eq(v[theirs + IG_UNIFORM_EXPECT_MAX], 40);
        ck_assert_int_eq(v[theirs + IG_UNIFORM_EXPECT_NEG_MIN], -40);
        ck_assert_int_eq(v[IG_UNIFORM_REASON], IG_FALLBACK_ARGUMENTS);
        ck_assert_int_eq(v[IG_UNIFORM_OVERLAPS + g], 1);
        /* No view: MAX's identity. */
        ck_assert(v[mine + IG_UNIFORM_EXPECT_MAX] == INT64_MIN);
        ck_assert(v[mine + IG_UNIFORM_EXPECT_NEG_MIN] == INT64_MIN);
        ck_assert(v[theirs + IG_UNIFORM_SEND_MAX] == INT64_MIN);
        ck_assert(v[theirs + IG_UNIFORM_SEND_NEG_MIN] == INT64_MIN);
        ck_assert(v[IG_UNIFORM_OVERLAPS + 1 - g] == INT64_MIN);
    }
}
END_TEST

static ig_shape uniform_of(int n0, int64_t send0, int64_t expect0, int n1, int64_t send1, int64_t expect1)
{
    world w;
    memset(&w, 0, sizeof w);
    w.n[0] = n0;
    w.n[1] = n1;
    for (int r = 0; r < n0 + n1; r++) {
        w.procs[r].send = r < n0 ? send0 : send1;
        w.procs[r].expect[0] = r < n0 ? expect0 : expect1;
    }
    int64_t v[IG_UNIFORM_LEN];
    allreduce_uniform(&w, v);
    ig_shape sh;
    ig_shape_from_uniform(v, n0, n1, &sh);
    return sh;
}

START_TEST(uniform_examples)
{
    /* Correct: 3 low processes send 8 bytes, 2 high ones 16. */
    ig_shape sh = uniform_of(3, 8, 16, 2, 16, 8);
    ck_assert_int_eq(sh.sizes, IG_SIZES_AGREE);
    ck_assert_int_eq(sh.total[0], 24);
    ck_assert_int_eq(sh.total[1], 32);
    ck_assert_int_eq(sh.max_block[1], 16);
    /* Half duplex: the high group sends nothing, the low group expects nothing. */
    sh = uniform_of(3, 8, 0, 2, 0, 8);
    ck_assert_int_eq(sh.sizes, IG_SIZES_AGREE);
    ck_assert_int_eq(sh.total[1], 0);
    /* A receive count used as an upper bound. */
    sh = uniform_of(3, 8, 16, 2, 16, 100);
    ck_assert_int_eq(sh.sizes, IG_SIZES_EXPECT_MORE);
    /* A group sending nothing while the other expects n bytes each. */
    sh = uniform_of(3, 8, 16, 2, 0, 8);
    ck_assert_int_eq(sh.sizes, IG_SIZES_EXPECT_MORE);
    ck_assert_int_eq(sh.total[1], 0);
    /* Receivers expecting less than is sent. */
    sh = uniform_of(3, 8, 16, 2, 16, 4);
    ck_assert_int_eq(sh.sizes, IG_SIZES_TRUNCATE);
    /* One direction expects more, the other less: TRUNCATE wins. */
    sh = uniform_of(3, 8, 4, 2, 16, 100);
    ck_assert_int_eq(sh.sizes, IG_SIZES_TRUNCATE);
    sh = uniform_of(3, 8, 100, 2, 16, 4);
    ck_assert_int_eq(sh.sizes, IG_SIZES_TRUNCATE);
}
END_TEST

START_TEST(digest_properties)
{
    int64_t a[3] = { 8, 16, 8 }, b[3] = { 16, 8, 8 }, c[3] = { 8, 16, 9 };
    ck_assert(digest_of(a, 0) == IG_DIGEST_SEED);
    ck_assert(digest_of(a, 3) == digest_of(a, 3));
    ck_assert(digest_of(a, 3) != digest_of(b, 3)); /* order counts */
    ck_assert(digest_of(a, 3) != digest_of(c, 3));
    ck_assert(digest_of(a, 2) != digest_of(a, 3)); /* length counts */
    int64_t zeros[2] = { 0, 0 };
    ck_assert(digest_of(zeros, 1) != digest_of(zeros, 2));
    ck_assert(digest_of(zeros, 1) != IG_DIGEST_SEED);
    /* Varying sizes that receivers expect exactly: agree. */
    world w;
    memset(&w, 0, sizeof w);
    w.n[0] = 3;
    w.n[1] = 2;
    int64_t s0[3] = { 5, 0, 7 }, s1[2] = { 1 << 20, 3 };
    for (int i = 0; i < 3; i++) {
        member(&w, 0, i)->send = s0[i];
        memcpy(member(&w, 0, i)->expect, s1, sizeof s1);
    }
    for (int i = 0; i < 2; i++) {
        member(&w, 1, i)->send = s1[i];
        memcpy(member(&w, 1, i)->expect, s0, sizeof s0);
    }
    int64_t records[5 * IG_RECORD_LEN];
    gather_records(&w, records);
    ck_assert_int_eq(ig_records_disagree(records, 3, 2), 0);
    ig_shape sh;
    ig_shape_from_records(records, 3, 2, 1, &sh);
    ck_assert_int_eq(sh.sizes, IG_SIZES_AGREE);
    ck_assert_int_eq(sh.total[0], 12);
    ck_assert_int_eq(sh.max_block[0], 7);
    ck_assert_int_eq(sh.total[1], (1 << 20) + 3);
    /* One high receiver expects the low blocks in another order. */
    int64_t swapped[3] = { 7, 0, 5 };
    memcpy(member(&w, 1, 1)->expect, swapped, sizeof swapped);
    gather_records(&w, records);
    ck_assert_int_eq(ig_records_disagree(records, 3, 2), 1);
    ck_assert_int_eq(want_truncates(&w), 1);
    /* Random vectors: equal digests exactly for equal vectors. */
    srand(777);
    for (int i = 0; i < 20000; i++) {
        int64_t x[4], y[4];
        int n = 1 + rand() % 4;
        for (int j = 0; j < n; j++)
            x[j] = y[j] = rand() % 3 == 0 ? 0 : (int64_t)(rand() % 100000);
        if (rand() % 2)
            y[rand() % n] += 1 + rand() % 5;
        int same = memcmp(x, y, (size_t)n * sizeof x[0]) == 0;
        REQUIRE(same == (digest_of(x, n) == digest_of(y, n)), "digest of n=%d vectors: same=%d", n, same);
    }
}
END_TEST

static int same_shape(const ig_shape *a, const ig_shape *b)
{
    int same = a->reason == b->reason && a->sizes == b->sizes && a->nodes == b->nodes && a->scattered == b->scattered &&
               a->sparse == b->sparse;
    for (int g = 0; g < 2; g++)
        same = same && a->n[g] == b->n[g] && a->max_block[g] == b->max_block[g] && a->total[g] == b->total[g] &&
               a->send_overlaps[g] == b->send_overlaps[g] && a->send_min[g] == b->send_min[g] &&
               a->send_max[g] == b->send_max[g] && a->expect_min[g] == b->expect_min[g] &&
               a->expect_max[g] == b->expect_max[g];
    return same;
}

/* In a correct program, the shape a process guesses from its own arguments
 * (for posting early, speculate.h) is the agreed shape, from either group,
 * when every block has this process's layout and the other group's send
 * type can be received into (the guess cannot know otherwise; a wrong
 * guess only costs a withdrawal). */
START_TEST(guess_is_agreed_shape)
{
    const int64_t sizes[] = { 0, 1, 8, 4096, (int64_t)1 << 33 };
    for (int n0 = 1; n0 <= 4; n0++)
        for (int n1 = 1; n1 <= 4; n1++)
            for (int a = 0; a < 5; a++)
                for (int b = 0; b < 5; b++)
                    for (int flags = 0; flags < 4; flags++)
                        for (int g = 0; g < 2; g++) {
                            int overlaps = flags & 1, scattered = flags >> 1;
                            int64_t send[2] = { sizes[a], sizes[b] }, v[IG_UNIFORM_LEN], w[IG_UNIFORM_LEN];
                            for (int i = 0; i < IG_UNIFORM_LEN; i++)
                                v[i] = INT64_MIN;
                            for (int h = 0; h < 2; h++) {
                                ig_shape_uniform_contribution(h, send[h], send[1 - h], h == g && overlaps,
                                                              IG_FALLBACK_NONE, w);
                                ig_shape_uniform_mark_layout(scattered, 0, w);
                                for (int i = 0; i < IG_UNIFORM_LEN; i++)
                                    v[i] = w[i] > v[i] ? w[i] : v[i];
                            }
                            ig_shape agreed, guess;
                            ig_shape_from_uniform(v, n0, n1, &agreed);
                            ig_shape_guess_uniform(g, send[g], send[1 - g], overlaps, scattered, n0, n1, 3, 0, &guess);
                            REQUIRE(guess.nodes == 3, "nodes");
                            guess.nodes = agreed.nodes;
                            REQUIRE(same_shape(&guess, &agreed),
                                    "n %d+%d, sends %lld/%lld, flags %d: group %d's guess differs", n0, n1,
                                    (long long)send[0], (long long)send[1], flags, g);
                        }
}
END_TEST

/* The sparse rule (shape.h): a span of more than IG_SPARSE_SPAN_BYTES
 * that is more than twice the data. */
START_TEST(receive_sparse_rule)
{
    const double mib = 1024.0 * 1024.0;
    ck_assert(!ig_shape_span_sparse(3, 8, 8));                   /* dense and small */
    ck_assert(ig_shape_span_sparse(3, 256 * mib, 8));            /* test_large_total.sh's wide layout */
    ck_assert(!ig_shape_span_sparse(3, 64 * mib, 8));            /* gaps, but a 192 MiB span */
    ck_assert(!ig_shape_span_sparse(1, 256 * mib, 0));           /* exactly the bound */
    ck_assert(ig_shape_span_sparse(1, 256 * mib + 1, 0));
    ck_assert(!ig_shape_span_sparse(100, 4 * mib, 4 * mib));     /* 400 MiB, all data */
    ck_assert(!ig_shape_span_sparse(100, 4 * mib, 2 * mib));     /* half data: not more than twice */
    ck_assert(ig_shape_span_sparse(100, 4 * mib, 2 * mib - 1));
    ck_assert(!ig_shape_span_sparse(0, 1e18, 0));                /* no remote block */
    ck_assert(!ig_shape_span_sparse(3, -256 * mib, 8));          /* blocks laid out downwards */
    ck_assert(ig_shape_span_sparse(1 << 30, 1e9, 0));            /* no overflow */
    ck_assert(!ig_shape_span_sparse(1 << 30, 1e9, 5e8));         /* half data at 2^30 blocks: in doubles */
}
END_TEST

/* One process's sparse buffer makes the call's shape sparse; nothing
 * else changes.  A guess never says sparse (shape.h), nor an
 * MPI_Allgatherv's records. */
START_TEST(sparse_is_any_process)
{
    for (int who = -1; who < 4; who++) { /* -1: no process */
        int64_t v[IG_UNIFORM_LEN], w[IG_UNIFORM_LEN];
        for (int r = 0; r < 4; r++) {
            ig_shape_uniform_contribution(r >= 2, 8, 8, 0, IG_FALLBACK_NONE, w);
            ig_shape_uniform_mark_layout(0, r == who, w);
            for (int i = 0; i < IG_UNIFORM_LEN; i++)
                v[i] = r == 0 || w[i] > v[i] ? w[i] : v[i];
        }
        ig_shape sh, dense = uniform_of(2, 8, 8, 2, 8, 8);
        ig_shape_from_uniform(v, 2, 2, &sh);
        ck_assert_int_eq(sh.sparse, who >= 0);
        sh.sparse = 0;
        ck_assert(same_shape(&sh, &dense));
        ck_assert_int_eq(dense.sparse, 0);
    }
    ig_shape guess;
    ig_shape_guess_uniform(0, 8, 8, 0, 1, 2, 2, 1, 0, &guess);
    ck_assert_int_eq(guess.sparse, 0);
    int64_t records[4 * IG_RECORD_LEN];
    for (int r = 0; r < 4; r++)
        ig_shape_record(8, 0, 0, 0, IG_FALLBACK_NONE, records + r * IG_RECORD_LEN);
    ig_shape_from_records(records, 2, 2, 0, &guess);
    ck_assert_int_eq(guess.sparse, 0);
}
END_TEST

/* MPI_Allgatherv: blocks are scattered when any one process, of either
 * group, says its own are (the relay needs every block contiguous on every
 * process). */
START_TEST(records_scattered_is_any_process)
{
    for (int who = -1; who < 5; who++) {
        int64_t records[5 * IG_RECORD_LEN];
        for (int r = 0; r < 5; r++)
            ig_shape_record(r < 2 ? 8 + r : 0, 0, 0, r == who, IG_FALLBACK_NONE, records + r * IG_RECORD_LEN);
        ig_shape sh;
        ig_shape_from_records(records, 2, 3, 0, &sh);
        ck_assert_int_eq(sh.scattered, who >= 0);
        ck_assert_int_eq(sh.max_block[0], 9);
    }
}
END_TEST

int main(void)
{
    Suite *s = suite_create("shape");
    TCase *tc = tcase_create("shape");
    tcase_set_timeout(tc, 300);
    tcase_add_test(tc, uniform_contribution_layout);
    tcase_add_test(tc, uniform_examples);
    tcase_add_test(tc, digest_properties);
    tcase_add_test(tc, guess_is_agreed_shape);
    tcase_add_test(tc, receive_sparse_rule);
    tcase_add_test(tc, sparse_is_any_process);
    tcase_add_test(tc, uniform_exhaustive);
    tcase_add_test(tc, records_exhaustive);
    tcase_add_test(tc, records_scattered_is_any_process);
    tcase_add_test(tc, uniform_random);
    tcase_add_test(tc, records_random);
    suite_add_tcase(s, tc);
    return ig_run_suite(s);
}
