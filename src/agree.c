#include "agree.h"

#include "p2p.h"
#include "tags.h"

typedef struct {
    int group;     /* 0: this process is in the low group, 1: the high one */
    int n[2];      /* sizes of the low and high groups */
    MPI_Comm merged;
    ig_comm_cache *cache;
} sides;

static sides sides_of(ig_comm_cache *cache)
{
    sides s;
    s.group = ig_comm_cache_group_sizes(cache, s.n);
    s.merged = ig_comm_cache_merged(cache);
    s.cache = cache;
    return s;
}

int ig_agree_carries_posted(ig_op op, int n0, int n1)
{
    return op == IG_OP_ALLGATHER && n0 + n1 <= IG_AGREE_MAX_POSTED;
}

/* This process's view of an MPI_Allgather: the shape's vector (shape.h). */
static void uniform_view(const ig_call *c, const sides *s, int64_t v[IG_UNIFORM_LEN])
{
    ig_shape_uniform_contribution(s->group, c->send_bytes, c->expect_bytes, c->send_overlaps, c->local_reason, v);
    ig_shape_uniform_mark_layout(c->scattered, c->sparse_receive, v);
}

/* The shape's vector, then one entry per process of what it posted early
 * (MAX: each entry has one writer, every other process gives 0). */
static int agree_uniform(const ig_call *c, const sides *s, int64_t posted_code, ig_side_wait *side,
                         ig_shape *shape, ig_posted *posted)
{
    int64_t mine[IG_UNIFORM_LEN + IG_AGREE_MAX_POSTED] = { 0 }, scratch[IG_UNIFORM_LEN + IG_AGREE_MAX_POSTED];
    int merged_rank = 0, len;
    posted->n = ig_agree_carries_posted(c->op, s->n[0], s->n[1]) ? s->n[0] + s->n[1] : 0;
    uniform_view(c, s, mine);
    int rc = PMPI_Comm_rank(s->merged, &merged_rank);
    if (posted->n > 0)
        mine[IG_UNIFORM_LEN + merged_rank] = posted_code;
    len = IG_UNIFORM_LEN + posted->n;
    /* Every process takes part, even one whose rank query failed (it
     * then says nothing of what it posted); the same way on all
     * (posted->n is the same on all). */
    if (posted->n > 0)
        ig_err_keep(&rc, ig_allmax(mine, scratch, len, IG_TAG_AGREE, s->merged, side));
    else
        ig_err_keep(&rc, PMPI_Allreduce(MPI_IN_PLACE, mine, len, MPI_INT64_T, MPI_MAX, s->merged));
    if (rc != MPI_SUCCESS)
        return rc;
    ig_shape_from_uniform(mine, s->n[0], s->n[1], shape);
    for (int r = 0; r < posted->n; r++)
        posted->code[r] = mine[IG_UNIFORM_LEN + r];
    return MPI_SUCCESS;
}

/* Small MPI_Allgather calls: every view straight to every other process,
 * all receives and sends posted at once (sends starting at the next rank,
 * so that not every process sends to rank 0 first). */
static void linear_start(ig_agreement *a, const sides *s)
{
    int64_t *mine = a->views[a->rank];
    uniform_view(a->call, s, mine);
    mine[IG_UNIFORM_LEN] = a->posted_code;
    for (int i = 0; i < 2 * a->nprocs; i++)
        a->reqs[i] = MPI_REQUEST_NULL;
    for (int r = 0; r < a->nprocs; r++)
        if (r != a->rank)
            ig_err_keep(&a->start_rc, PMPI_Irecv(a->views[r], IG_UNIFORM_LEN + 1, MPI_INT64_T, r, IG_TAG_AGREE,
                                                 s->merged, &a->reqs[r]));
    for (int j = 1; j < a->nprocs; j++) {
        int r = (a->rank + j) % a->nprocs;
        ig_err_keep(&a->start_rc, PMPI_Isend(mine, IG_UNIFORM_LEN + 1, MPI_INT64_T, r, IG_TAG_AGREE, s->merged,
                                             &a->reqs[a->nprocs + r]));
    }
}

_Static_assert(2 * IG_AGREE_MAX_LINEAR <= IG_BESIDE_MAX, "the linear exchange's requests are waited on beside");

static int linear_finish(ig_agreement *a, const sides *s, ig_side_wait *side, ig_shape *shape, ig_posted *posted)
{
    int64_t all[IG_UNIFORM_LEN];
    int rc = a->start_rc;
    ig_err_keep(&rc, ig_waitall_beside(2 * a->nprocs, a->reqs, side));
    if (rc != MPI_SUCCESS)
        return rc;
    for (int i = 0; i < IG_UNIFORM_LEN; i++) {
        all[i] = INT64_MIN;
        for (int r = 0; r < a->nprocs; r++)
            all[i] = a->views[r][i] > all[i] ? a->views[r][i] : all[i];
    }
    ig_shape_from_uniform(all, s->n[0], s->n[1], shape);
    posted->n = a->nprocs;
    for (int r = 0; r < a->nprocs; r++)
        posted->code[r] = a->views[r][IG_UNIFORM_LEN];
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

_Static_assert(IG_RECORD_LEN == IG_CACHE_RECORD_LEN, "the cache holds the agreement's records");

static int agree_varying(const ig_call *c, const sides *s, ig_shape *shape)
{
    int64_t mine[IG_RECORD_LEN], digest = IG_DIGEST_SEED, truncates = 0;
    int rc;
    if (c->local_reason == IG_FALLBACK_NONE)
        for (int i = 0; i < c->remote_size; i++)
            digest = ig_digest_add(digest, i, ig_call_expected_from(c, i));
    ig_shape_record(c->send_bytes, digest, c->send_overlaps, c->scattered, c->local_reason, mine);
    int64_t *records = ig_comm_cache_records(s->cache);
    rc = PMPI_Allgather(mine, IG_RECORD_LEN, MPI_INT64_T, records, IG_RECORD_LEN, MPI_INT64_T, s->merged);
    /* Taken by every process or by none: all hold the same records. */
    if (rc == MPI_SUCCESS && ig_records_disagree(records, s->n[0], s->n[1])) {
        int64_t local = c->local_reason == IG_FALLBACK_NONE && would_truncate(c, records, s->group ? 0 : s->n[0]);
        rc = PMPI_Allreduce(&local, &truncates, 1, MPI_INT64_T, MPI_MAX, s->merged);
    }
    if (rc == MPI_SUCCESS)
        ig_shape_from_records(records, s->n[0], s->n[1], truncates != 0, shape);
    return rc;
}

void ig_agree_start(const ig_call *c, ig_comm_cache *cache, int64_t posted_code, ig_agreement *a)
{
    sides s = sides_of(cache);
    a->call = c;
    a->cache = cache;
    a->posted_code = posted_code;
    a->nprocs = s.n[0] + s.n[1];
    a->start_rc = MPI_SUCCESS;
    /* The same on every process: the operation and the group sizes. */
    a->linear = c->op == IG_OP_ALLGATHER && a->nprocs <= IG_AGREE_MAX_LINEAR;
    a->rank = 0;
    if (!a->linear)
        return;
    a->start_rc = PMPI_Comm_rank(s.merged, &a->rank);
    linear_start(a, &s);
}

int ig_agree_finish(ig_agreement *a, ig_side_wait *side, ig_shape *shape, ig_posted *posted)
{
    const ig_call *c = a->call;
    sides s = sides_of(a->cache);
    int rc;
    posted->n = 0;
    if (a->linear)
        rc = linear_finish(a, &s, side, shape, posted);
    else if (c->op == IG_OP_ALLGATHER)
        rc = agree_uniform(c, &s, a->posted_code, side, shape, posted);
    else
        rc = agree_varying(c, &s, shape);
    shape->nodes = ig_comm_cache_nodes(a->cache);
    shape->oversubscribed = ig_comm_cache_oversubscribed(a->cache);
    return rc;
}
