#include "shape.h"

#include <stddef.h>

static uint64_t max_u(uint64_t a, uint64_t b) { return a > b ? a : b; }

static void shape_clear(ig_shape *s, int n0, int n1)
{
    *s = (ig_shape){ .n = { n0, n1 }, .reason = IG_FALLBACK_NONE, .sizes = IG_SIZES_AGREE };
}

void ig_shape_uniform_contribution(int group, int64_t send_bytes, int64_t expect_bytes, int send_overlaps,
                                   ig_fallback reason, int64_t v[IG_UNIFORM_LEN])
{
    for (int i = 0; i < IG_UNIFORM_LEN; i++)
        v[i] = INT64_MIN;
    int mine = group * IG_UNIFORM_PER_GROUP, theirs = (1 - group) * IG_UNIFORM_PER_GROUP;
    v[mine + IG_UNIFORM_SEND_MAX] = send_bytes;
    v[mine + IG_UNIFORM_SEND_NEG_MIN] = -send_bytes;
    v[theirs + IG_UNIFORM_EXPECT_MAX] = expect_bytes;
    v[theirs + IG_UNIFORM_EXPECT_NEG_MIN] = -expect_bytes;
    v[IG_UNIFORM_REASON] = reason;
    v[IG_UNIFORM_OVERLAPS + group] = send_overlaps != 0;
}

void ig_shape_uniform_mark_layout(int scattered, int sparse, int64_t v[IG_UNIFORM_LEN])
{
    v[IG_UNIFORM_SCATTERED] = scattered != 0;
    v[IG_UNIFORM_SPARSE] = sparse != 0;
}

int ig_shape_span_sparse(int blocks, double spacing, double block_bytes)
{
    double span = blocks * spacing;
    return span > IG_SPARSE_SPAN_BYTES && span > 2.0 * blocks * block_bytes;
}

void ig_shape_from_uniform(const int64_t v[IG_UNIFORM_LEN], int n0, int n1, ig_shape *s)
{
    shape_clear(s, n0, n1);
    s->reason = (ig_fallback)v[IG_UNIFORM_REASON];
    s->scattered = v[IG_UNIFORM_SCATTERED] > 0;
    s->sparse = v[IG_UNIFORM_SPARSE] > 0;
    for (int g = 0; g < 2; g++) {
        const int64_t *w = v + g * IG_UNIFORM_PER_GROUP;
        s->send_max[g] = w[IG_UNIFORM_SEND_MAX];
        s->send_min[g] = -w[IG_UNIFORM_SEND_NEG_MIN];
        s->expect_max[g] = w[IG_UNIFORM_EXPECT_MAX];
        s->expect_min[g] = -w[IG_UNIFORM_EXPECT_NEG_MIN];
        s->send_overlaps[g] = v[IG_UNIFORM_OVERLAPS + g] > 0;
        s->max_block[g] = s->send_max[g] > 0 ? (uint64_t)s->send_max[g] : 0;
        s->total[g] = s->max_block[g] * (uint64_t)s->n[g];
        int exact = s->send_min[g] == s->send_max[g] && s->expect_min[g] == s->send_max[g] &&
                    s->expect_max[g] == s->send_max[g];
        if (exact)
            continue;
        /* Native MPI completes a call whose receivers expect more than one
         * group, all of whose processes send the same, sends; anything else
         * truncates somewhere. */
        int completes = s->send_min[g] == s->send_max[g] && s->expect_min[g] >= s->send_max[g];
        if (!completes)
            s->sizes = IG_SIZES_TRUNCATE;
        else if (s->sizes == IG_SIZES_AGREE)
            s->sizes = IG_SIZES_EXPECT_MORE;
    }
}

void ig_shape_guess_uniform(int group, int64_t send_bytes, int64_t expect_bytes, int send_overlaps, int scattered,
                            int n0, int n1, int nodes, int oversubscribed, ig_shape *s)
{
    int64_t mine[IG_UNIFORM_LEN], theirs[IG_UNIFORM_LEN];
    ig_shape_uniform_contribution(group, send_bytes, expect_bytes, send_overlaps, IG_FALLBACK_NONE, mine);
    ig_shape_uniform_contribution(1 - group, expect_bytes, send_bytes, 0, IG_FALLBACK_NONE, theirs);
    ig_shape_uniform_mark_layout(scattered, 0, mine);
    for (int i = 0; i < IG_UNIFORM_LEN; i++)
        mine[i] = mine[i] > theirs[i] ? mine[i] : theirs[i];
    ig_shape_from_uniform(mine, n0, n1, s);
    s->nodes = nodes;
    s->oversubscribed = oversubscribed;
}

/* FNV-1a over (index, bytes) pairs. */
int64_t ig_digest_add(int64_t digest, int index, int64_t bytes)
{
    uint64_t h = (uint64_t)digest, words[2] = { (uint64_t)index, (uint64_t)bytes };
    for (int w = 0; w < 2; w++) {
        for (int b = 0; b < 8; b++) {
            h ^= (words[w] >> (8 * b)) & 0xffu;
            h *= 1099511628211ULL;
        }
    }
    return (int64_t)h;
}

void ig_shape_record(int64_t send_bytes, int64_t expect_digest, int send_overlaps, int scattered,
                     ig_fallback reason, int64_t record[IG_RECORD_LEN])
{
    record[IG_RECORD_SEND] = send_bytes;
    record[IG_RECORD_EXPECT_DIGEST] = expect_digest;
    record[IG_RECORD_REASON] = reason;
    record[IG_RECORD_OVERLAPS] = send_overlaps != 0;
    record[IG_RECORD_SCATTERED] = scattered != 0;
}

static const int64_t *record_of(const int64_t *records, int i)
{
    return records + (size_t)i * IG_RECORD_LEN;
}

/* Digest of the actual block sizes of the n processes from record `first`. */
static int64_t group_digest(const int64_t *records, int first, int n)
{
    int64_t h = IG_DIGEST_SEED;
    for (int i = 0; i < n; i++)
        h = ig_digest_add(h, i, record_of(records, first + i)[IG_RECORD_SEND]);
    return h;
}

int ig_records_disagree(const int64_t *records, int n0, int n1)
{
    int first[2] = { 0, n0 }, n[2] = { n0, n1 };
    for (int g = 0; g < 2; g++) {
        int64_t actual = group_digest(records, first[g], n[g]);
        int other = 1 - g;
        for (int i = 0; i < n[other]; i++)
            if (record_of(records, first[other] + i)[IG_RECORD_EXPECT_DIGEST] != actual)
                return 1;
    }
    return 0;
}

void ig_shape_from_records(const int64_t *records, int n0, int n1, int truncates, ig_shape *s)
{
    int first[2] = { 0, n0 };
    shape_clear(s, n0, n1);
    for (int g = 0; g < 2; g++) {
        s->send_min[g] = INT64_MAX;
        s->send_max[g] = INT64_MIN;
        s->expect_min[g] = s->expect_max[g] = -1; /* only the receivers know theirs */
        for (int i = 0; i < s->n[g]; i++) {
            const int64_t *r = record_of(records, first[g] + i);
            int64_t bytes = r[IG_RECORD_SEND] > 0 ? r[IG_RECORD_SEND] : 0;
            s->send_min[g] = bytes < s->send_min[g] ? bytes : s->send_min[g];
            s->send_max[g] = bytes > s->send_max[g] ? bytes : s->send_max[g];
            s->max_block[g] = max_u(s->max_block[g], (uint64_t)bytes);
            s->total[g] += (uint64_t)bytes;
            s->send_overlaps[g] |= r[IG_RECORD_OVERLAPS] != 0;
            s->scattered |= r[IG_RECORD_SCATTERED] != 0;
            if (r[IG_RECORD_REASON] > (int64_t)s->reason)
                s->reason = (ig_fallback)r[IG_RECORD_REASON];
        }
    }
    if (ig_records_disagree(records, n0, n1))
        s->sizes = truncates ? IG_SIZES_TRUNCATE : IG_SIZES_EXPECT_MORE;
}
