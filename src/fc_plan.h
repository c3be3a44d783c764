/*
 * Fully connected plan (pure, no MPI): which process sends what to whom in
 * the paper's section III algorithm, for any p >= 1 senders and q >= 1
 * receivers.
 *
 * Ranks: senders 0..p-1 (sender i holds block i), receivers p..p+q-1
 * (receiver j is rank p+j).  Every process runs up to three stages:
 *
 *   direct  one point-to-point block from a sender to a receiver
 *   bcast   a broadcast group: a sender (key 0, the root) and receivers
 *   gather  an intra-group allgather(v): members with key k < p contribute
 *           block k (already held); members with key >= p contribute nothing
 *           and only receive (the leftover receivers when p does not divide q)
 *
 *   p == q  direct a_i -> b_i; gather over all receivers.           (paper)
 *   p  > q  direct a_i -> b_i for i < q; gather over the q receivers
 *           plus senders a_q..a_{p-1}.                              (paper)
 *   p  < q  with q = s*p + r: bcast group i = {a_i, b_{i+p*g} : g < s};
 *           gather group g = {b_{g*p} .. b_{g*p+p-1}}.               (paper)
 *           Leftover receivers b_{s*p+u}, u < r (r > 0, the paper covers
 *           only r == 0): join gather group u mod s as extra members that
 *           contribute nothing.  Their cost: no broadcast stage, and one
 *           allgatherv over p + ceil(r/s) members, i.e. about
 *           log2(p + ceil(r/s)) t_s + p k t_w, the same bandwidth term as
 *           every other receiver; see README "How it works".
 */
#ifndef IG_FC_PLAN_H
#define IG_FC_PLAN_H

#define IG_FC_NONE (-1)

typedef struct {
    int direct_peer;  /* rank sent to (sender) or received from (receiver), or IG_FC_NONE */
    int direct_block; /* block carried by the direct step */
    int bcast_color;  /* broadcast group, or IG_FC_NONE */
    int bcast_key;    /* rank in the broadcast group; 0 is the root */
    int bcast_block;  /* block carried by the broadcast */
    int gather_color; /* gather group, or IG_FC_NONE (also when the group would have one member) */
    int gather_key;   /* rank in the gather group */
    int gather_size;  /* members of this process's gather group */
} ig_fc_role;

/* The role of `rank` (0 <= rank < p + q).  O(1). */
void ig_fc_plan(int p, int q, int rank, ig_fc_role *role);

/* Block contributed by the gather-group member with `key`, or IG_FC_NONE. */
int ig_fc_gather_block(int p, int key);

#endif
