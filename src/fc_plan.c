#include "fc_plan.h"

static void role_clear(ig_fc_role *r)
{
    r->direct_peer = r->direct_block = IG_FC_NONE;
    r->bcast_color = r->bcast_key = r->bcast_block = IG_FC_NONE;
    r->gather_color = r->gather_key = IG_FC_NONE;
    r->gather_size = 0;
    r->leftover_first = IG_FC_NONE;
    r->leftover_count = 0;
    r->from_every_sender = 0;
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

/* p < q: broadcast groups, gather groups of p (section III, third case),
 * then the leftover receivers, each served by every sender (fc_plan.h). */
static void plan_senders_fewer(int p, int q, int rank, ig_fc_role *r)
{
    int s = q / p, rest = q % p;
    if (rank < p) {
        r->bcast_color = rank;
        r->bcast_key = 0;
        r->bcast_block = rank;
        if (rest > 0) {
            r->leftover_first = p + s * p;
            r->leftover_count = rest;
        }
        return;
    }
    int j = rank - p;
    if (j < s * p) {
        int g = j / p, t = j % p;
        r->bcast_color = t;
        r->bcast_key = g + 1;
        r->bcast_block = t;
        join_gather(r, g, t, p);
    } else {
        r->from_every_sender = 1;
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
