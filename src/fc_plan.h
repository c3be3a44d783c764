/*
 * Fully connected plan (pure, no MPI): which process sends what to whom in
 * the paper's section III algorithm, for any p >= 1 senders and q >= 1
 * receivers.
 *
 * Ranks: senders 0..p-1 (sender i holds block i), receivers p..p+q-1
 * (receiver j is rank p+j).  Every process runs up to four stages:
 *
 *   direct  one point-to-point block from a sender to a receiver
 *   bcast   a broadcast group: a sender (key 0, the root) and receivers
 *   gather  an intra-group allgather(v): the member with key k contributes
 *           block k (already held); every group has p members
 *   leftover a sender's block straight to each leftover receiver (p < q)
 *
 *   p == q  direct a_i -> b_i; gather over all receivers.           (paper)
 *   p  > q  direct a_i -> b_i for i < q; gather over the q receivers
 *           plus senders a_q..a_{p-1}.                              (paper)
 *   p  < q  with q = s*p + r: bcast group i = {a_i, b_{i+p*g} : g < s};
 *           gather group g = {b_{g*p} .. b_{g*p+p-1}}.               (paper)
 *           Leftover receivers b_{s*p+u}, u < r (r > 0, the paper covers
 *           only r == 0): every sender sends its block straight to each of
 *           them (the "leftover" stage), after its broadcast.  Each
 *           leftover receives p blocks, the p k every receiver must; a
 *           sender's link carries r < p more blocks, while the gather
 *           groups' p - 1 blocks run.  Until the seventy-second session
 *           they joined gather group u mod s as members that contribute
 *           nothing: an allgatherv over p + ceil(r/s) members, whose ring
 *           runs one step of a whole block per member, so that at 6+10
 *           (s = 1: one group of 10 for 6 blocks) fc took 1.7x the model's
 *           time (docs/performance.md, "Seventy-second session").
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
    /* The leftover stage (p < q, r > 0): a sender sends its block to the
     * leftover_count receivers from rank leftover_first on; a leftover
     * receiver (from_every_sender) receives block i from sender i, every
     * i < p.  Otherwise leftover_first is IG_FC_NONE, the rest 0. */
    int leftover_first;
    int leftover_count;
    int from_every_sender;
} ig_fc_role;

/* The role of `rank` (0 <= rank < p + q).  O(1). */
void ig_fc_plan(int p, int q, int rank, ig_fc_role *role);

#endif
