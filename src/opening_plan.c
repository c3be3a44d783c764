#include "opening_plan.h"

/* A round-one tag, above IG_OPENING_TAG_FIRST: the expected bytes
 * (capped: a small process's are below the cap), or for a sender in
 * pieces, which expects nothing, its block's bytes (below the cap: it is
 * small), shifted left by three, and in the three low bits what the sender
 * is.  Hard processes are never small, only small ones send in pieces, and
 * whether a process expects data from some process of the receiver's group
 * (expects_any) needs saying only where the value cannot say it (an
 * MPI_Allgatherv's: the value is what it expects from the receiver alone),
 * so six kinds cover them all. */
enum {
    KIND_LARGE = 0,        /* not small: sent no block */
    KIND_LARGE_EXPECTS = 5, /* the same, an MPI_Allgatherv process expecting data from some process of the
                             * receiver's group */
    KIND_HARD = 1,         /* unusable arguments: sent no block, drops what comes */
    KIND_SMALL = 2,        /* sent its block; leaves early if it expects nothing */
    KIND_SMALL_STAYS = 3,  /* sent its block; never leaves early (MPI_Allgatherv); expects data from
                            * some process of the receiver's group */
    KIND_SMALL_STAYS_NONE = 4, /* the same, expecting nothing from any of them */
    KIND_SMALL_PIECES = 6, /* leaves early, its block in pieces (the value: the block's size) */
    KIND_BITS = 3
};

static int sends_in_pieces(const ig_opening_self *self, int64_t max_bytes)
{
    return self->pieces && ig_opening_self_leaves_early(self) && !self->hard && self->send > 0 &&
           self->send < max_bytes;
}

int64_t ig_opening_max_bytes(int64_t tag_ub)
{
    int64_t fits = (tag_ub - IG_OPENING_TAG_FIRST - 7) >> 3; /* IG_OPENING_TAG_FIRST + (value << 3 | 7) <= tag_ub */
    if (fits < 0)
        return 0;
    return fits < IG_OPENING_MAX_BYTES ? fits : IG_OPENING_MAX_BYTES;
}

int64_t ig_opening_named(int64_t bytes, int64_t max_bytes)
{
    return bytes > max_bytes ? max_bytes : bytes;
}

static int kind_of(const ig_opening_self *self, int pieces)
{
    if (self->hard)
        return KIND_HARD;
    if (!self->small)
        return self->stays && self->expects_any ? KIND_LARGE_EXPECTS : KIND_LARGE;
    if (pieces)
        return KIND_SMALL_PIECES;
    if (self->stays)
        return self->expects_any ? KIND_SMALL_STAYS : KIND_SMALL_STAYS_NONE;
    return KIND_SMALL;
}

int ig_opening_tag(const ig_opening_self *self, int64_t max_bytes)
{
    int pieces = sends_in_pieces(self, max_bytes);
    /* max_bytes is ig_opening_max_bytes's, 0 to IG_OPENING_MAX_BYTES: the tag fits an int. */
    int64_t value = ig_opening_named(pieces ? self->send : self->hard || self->expect < 0 ? 0 : self->expect, max_bytes);
    return IG_OPENING_TAG_FIRST + (int)((value << KIND_BITS) | kind_of(self, pieces));
}

ig_opening_heard ig_opening_heard_from(int tag, int64_t got, int truncated, int64_t room)
{
    int bits = tag - IG_OPENING_TAG_FIRST, kind = bits & ((1 << KIND_BITS) - 1);
    ig_opening_heard h = { .expect = bits >> KIND_BITS, .hard = kind == KIND_HARD, .got = got,
                           .truncated = truncated, .pieces = kind == KIND_SMALL_PIECES,
                           .stays = kind == KIND_SMALL_STAYS || kind == KIND_SMALL_STAYS_NONE };
    h.small = kind == KIND_SMALL || h.stays || h.pieces;
    /* An MPI_Allgather process expects what it names from every process. */
    h.expects_any = kind == KIND_SMALL_STAYS || kind == KIND_LARGE_EXPECTS ||
                    ((kind == KIND_SMALL || kind == KIND_LARGE) && h.expect > 0);
    if (h.pieces) {
        h.got = h.expect;
        h.expect = 0;
        h.truncated = h.got > room;
    }
    return h;
}

int64_t ig_opening_pieces_after(int tag)
{
    if (tag < IG_OPENING_TAG_FIRST)
        return 0;
    ig_opening_heard h = ig_opening_heard_from(tag, 0, 0, 0);
    return h.pieces ? ig_opening_piece_count(h.got) - 1 : 0;
}

int ig_opening_tag_small(int tag)
{
    return tag >= IG_OPENING_TAG_FIRST && ig_opening_heard_from(tag, 0, 0, 0).small;
}

int ig_opening_tag_leaves_early(int tag)
{
    if (tag < IG_OPENING_TAG_FIRST)
        return 1;
    ig_opening_heard h = ig_opening_heard_from(tag, 0, 0, 0);
    return ig_opening_peer_leaves_early(&h);
}

/* Both ends see the same four sizes: what each sends (the sender's own,
 * the receiver from the message) and what each expects (its own, the
 * other's from the tag, exact below the cap, which small sizes are). */
int ig_opening_pair_done(const ig_opening_self *self, const ig_opening_heard *peer)
{
    return self->small && peer->small && !peer->truncated && peer->got == self->expect &&
           peer->expect == self->send;
}

int ig_opening_verdict(const ig_opening_self *self, int own_pairs_done, int n_peers, const ig_opening_heard *peers)
{
    if (own_pairs_done > 0)
        return 0;
    for (int i = 0; i < n_peers; i++)
        if (peers[i].hard != self->hard || ig_opening_peer_leaves_early(&peers[i]))
            return 0;
    return 1;
}

int ig_opening_all_go_on(int own_verdict, int n_peers, const int64_t *peer_verdicts)
{
    if (!own_verdict)
        return 0;
    for (int i = 0; i < n_peers; i++)
        if (!peer_verdicts[i])
            return 0;
    return 1;
}

int ig_opening_tree_children(int n, int node, int *children)
{
    int count = 0, top = 1;
    while (top * 2 < n) /* the largest power of two below n */
        top *= 2;
    for (int step = top; step >= 1; step /= 2) {
        int below_lowest_bit = node == 0 || step < (node & -node);
        if (below_lowest_bit && node + step < n)
            children[count++] = node + step;
    }
    return count;
}

int ig_opening_tree_order(int rank, int p, int q, int *order)
{
    for (int i = 0; i < p; i++) { /* insertion by (depth, root): p is at most a few */
        int depth = ig_opening_tree_depth(ig_opening_tree_node_of_rank(rank, i, p, q)), at = i;
        while (at > 0 && ig_opening_tree_depth(ig_opening_tree_node_of_rank(rank, order[at - 1], p, q)) > depth) {
            order[at] = order[at - 1];
            at--;
        }
        order[at] = i;
    }
    return p;
}
