#include "fc_plan.h"

static void role_clear(ig_fc_role *r)
{
    r->direct_peer = r->direct_block = IG_FC_NONE;
    r->bcast_color = r->bcast_key = r->bcast_block = IG_FC_NONE;
    r->gather_color = r->gather_key = IG_FC_NONE;
    r->gather_size = 0;
}

static void join_gather(ig_fc_role *r, int color, int key, int size)
{
    if (size < 2)
        return; /* an allgather over one process moves nothing */
    r->gather_color = color;
    r->gather_key = key;
    r->gather_size = size;
}

/* p >= q: the paper's first two cases. */
static void plan_senders_not_fewer(int p, int q, int rank, ig_fc_role *r)
{
    if (rank < p) {
        int i = rank;
        if (i < q) {
            r->direct_peer = p + i;
            r->direct_block = i;
        } else {
            join_gather(r, 0, i, p);
        }
    } else {
        int j = rank - p;
        r->direct_peer = j;
        r->direct_block = j;
        join_gather(r, 0, j, p);
    }
}

/* Members of gather group g when p < q: p regular receivers plus the
 * leftover receivers u < r with u mod s == g. */
static int gather_group_size(int p, int s, int r, int g)
{
    int extras = g < r ? (r - 1 - g) / s + 1 : 0;
    return p + extras;
}

/* p < q: broadcast groups, then gather groups (section III, third case). */
static void plan_senders_fewer(int p, int q, int rank, ig_fc_role *r)
{
    int s = q / p, rest = q % p;
    if (rank < p) {
        r->bcast_color = rank;
        r->bcast_key = 0;
        r->bcast_block = rank;
        return;
    }
    int j = rank - p;
    if (j < s * p) {
        int g = j / p, t = j % p;
        r->bcast_color = t;
        r->bcast_key = g + 1;
        r->bcast_block = t;
        join_gather(r, g, t, gather_group_size(p, s, rest, g));
    } else {
        int u = j - s * p, g = u % s;
        join_gather(r, g, p + u / s, gather_group_size(p, s, rest, g));
    }
}

void ig_fc_plan(int p, int q, int rank, ig_fc_role *role)
{
    role_clear(role);
    if (p >= q)
        plan_senders_not_fewer(p, q, rank, role);
    else
        plan_senders_fewer(p, q, rank, role);
}

int ig_fc_gather_block(int p, int key)
{
    return key < p ? key : IG_FC_NONE;
}
