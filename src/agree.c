#include "agree.h"

#include <stdlib.h>

typedef struct {
    int group;     /* 0: this process is in the low group, 1: the high one */
    int n[2];      /* sizes of the low and high groups */
    MPI_Comm merged;
} sides;

static sides sides_of(const ig_call *c, ig_comm_cache *cache)
{
    sides s;
    int local = ig_comm_cache_local_size(cache);
    s.group = ig_comm_cache_local_is_low(cache) ? 0 : 1;
    s.n[s.group] = local;
    s.n[1 - s.group] = c->remote_size;
    s.merged = ig_comm_cache_merged(cache);
    return s;
}

int ig_agree_carries_posted(ig_op op, int n0, int n1)
{
    return op == IG_OP_ALLGATHER && n0 + n1 <= IG_AGREE_MAX_POSTED;
}

/* The shape's vector, then one entry per process of what it posted early
 * (MAX: each entry has one writer, every other process gives 0). */
static int agree_uniform(const ig_call *c, const sides *s, int64_t posted_code, ig_shape *shape,
                         ig_posted *posted)
{
    int64_t mine[IG_UNIFORM_LEN + IG_AGREE_MAX_POSTED] = { 0 }, all[IG_UNIFORM_LEN + IG_AGREE_MAX_POSTED];
    int merged_rank = 0;
    posted->n = ig_agree_carries_posted(c->op, s->n[0], s->n[1]) ? s->n[0] + s->n[1] : 0;
    ig_shape_uniform_contribution(s->group, c->send_bytes, c->expect_bytes, c->send_overlaps, c->local_reason,
                                  mine);
    ig_shape_uniform_mark_scattered(c->scattered, mine);
    int rc = PMPI_Comm_rank(s->merged, &merged_rank);
    if (posted->n > 0)
        mine[IG_UNIFORM_LEN + merged_rank] = posted_code;
    /* Every process takes part, even one whose rank query failed. */
    int arc = PMPI_Allreduce(mine, all, IG_UNIFORM_LEN + posted->n, MPI_INT64_T, MPI_MAX, s->merged);
    if (rc == MPI_SUCCESS)
        rc = arc;
    if (rc != MPI_SUCCESS)
        return rc;
    ig_shape_from_uniform(all, s->n[0], s->n[1], shape);
    for (int r = 0; r < posted->n; r++)
        posted->code[r] = all[IG_UNIFORM_LEN + r];
    return MPI_SUCCESS;
}

/* Whether this process would receive fewer bytes from some remote process
 * than it sends (records of the remote group start at `first`). */
static int would_truncate(const ig_call *c, const int64_t *records, int first)
{
    for (int i = 0; i < c->remote_size; i++)
        if (ig_call_expected_from(c, i) < records[(size_t)(first + i) * IG_RECORD_LEN + IG_RECORD_SEND])
            return 1;
    return 0;
}

static int agree_varying(const ig_call *c, const sides *s, ig_shape *shape)
{
    int64_t mine[IG_RECORD_LEN], digest = IG_DIGEST_SEED, truncates = 0;
    int total = s->n[0] + s->n[1], rc;
    if (c->local_reason == IG_FALLBACK_NONE)
        for (int i = 0; i < c->remote_size; i++)
            digest = ig_digest_add(digest, i, ig_call_expected_from(c, i));
    ig_shape_record(c->send_bytes, digest, c->send_overlaps, c->local_reason, mine);
    int64_t *records = malloc((size_t)total * IG_RECORD_LEN * sizeof *records);
    if (records == NULL)
        return MPI_ERR_NO_MEM;
    rc = PMPI_Allgather(mine, IG_RECORD_LEN, MPI_INT64_T, records, IG_RECORD_LEN, MPI_INT64_T, s->merged);
    /* Taken by every process or by none: all hold the same records. */
    if (rc == MPI_SUCCESS && ig_records_disagree(records, s->n[0], s->n[1])) {
        int64_t local = c->local_reason == IG_FALLBACK_NONE && would_truncate(c, records, s->group ? 0 : s->n[0]);
        rc = PMPI_Allreduce(&local, &truncates, 1, MPI_INT64_T, MPI_MAX, s->merged);
    }
    if (rc == MPI_SUCCESS)
        ig_shape_from_records(records, s->n[0], s->n[1], truncates != 0, shape);
    free(records);
    return rc;
}

int ig_agree(const ig_call *c, ig_comm_cache *cache, int64_t posted_code, ig_shape *shape, ig_posted *posted)
{
    sides s = sides_of(c, cache);
    posted->n = 0;
    int rc = c->op == IG_OP_ALLGATHER ? agree_uniform(c, &s, posted_code, shape, posted)
                                      : agree_varying(c, &s, shape);
    shape->nodes = ig_comm_cache_nodes(cache);
    return rc;
}
