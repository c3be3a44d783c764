/*
 * The opening round (pure, no MPI): who does what after it.  The MPI side
 * is opening.c; unit-tested by simulating every layout of small groups:
 * tests/unit/check_opening.c.
 *
 * Every MPI_Allgather and MPI_Allgatherv on a communicator where it
 * applies (decide.h: ig_decide_opening_applies) starts with one message
 * from every process to every process of the other group, and nothing
 * else: the direct algorithm's messages.  Each carries the sender's block
 * when the sender's own sizes are ones the model serves with the direct
 * algorithm alone ("small": ig_decide_opening_sends; in the tree, below,
 * also fc or the star from the roots), otherwise nothing;
 * its tag says what the sender expects from the receiver (in an
 * MPI_Allgather the same from every process of the other group; in an
 * MPI_Allgatherv each receive count gives its own, and each peer's tag
 * names that peer's), and whether it sent its block.  A receiver sees the
 * block's size in the message itself.  So after the one round each end of
 * a pair knows the same four numbers about the pair (what each sends,
 * what each expects from the other), and both ends judge the pair alike:
 * *done* when both are small and each gets exactly what the other
 * expects.
 *
 *   - A process whose every pair is done leaves: its data are in place,
 *     and it waited for nobody of its own group (Iallgather's cost).
 *   - A small process of an MPI_Allgather that expects nothing (the
 *     sending group of a half-duplex call) leaves as soon as its blocks
 *     are sent, without
 *     waiting for its peers' messages, as a sender of root gathering does:
 *     their receives are left to complete on their own (what they bring
 *     can only be an empty block, or in an erroneous call one that is
 *     dropped: opening.c takes them into a sink, p2p.h).  Its peers read
 *     from its tag that it "leaves early": they count its pair as done or
 *     not as before, but exchange no verdict and no late block with it,
 *     and a call with such a process never goes on to the agreement.
 *     Where its block is larger than an eager message (between nodes,
 *     IG_OPENING_PIECE_BYTES) it sends it in pieces that each fit one
 *     (below), so that its sends complete before its receivers arrive.
 *     A process of an MPI_Allgatherv "stays" (said in its tag): it does
 *     not leave early.  A sender knows its own block, not its group's
 *     others, and a large block elsewhere in its group, or blocks of
 *     different sizes that the decision serves otherwise (the relay),
 *     make the receivers not small, which judge the blocks as they are
 *     (decide.h: ig_decide_opening_sends_v); a sender that had left would
 *     hold the call to finishing pair by pair (the direct algorithm), where
 *     without it every process goes on to the agreement and the
 *     decision's choice (the relay, say, 1.4x to 2.4x faster there:
 *     docs/performance.md, thirty-seventh session).  It waits for its
 *     receivers' round-one messages instead, and learns from them: after
 *     two calls in a row with a block of one size in which they were all
 *     small, it sends that block in round one and leaves early, as an
 *     MPI_Allgather's sender (opening.c, what_it_brings; where it was
 *     wrong, its receivers' messages, read when it settles them, say so
 *     and it stays again).  A process that
 *     expects something from any peer always stays: its tag to a peer
 *     names what it expects from that peer only, which may be nothing.
 *   - Any other process exchanges one more small message (the verdict)
 *     with each peer whose pair is not done -- the same pairs seen from
 *     both ends -- saying whether none of its own pairs is done (and
 *     whether it and its peers are alike in "hard", below).  After it,
 *     every such process knows whether *no* pair of the whole call is
 *     done (its own pairs, and through the verdicts every pair of its
 *     peers, which is every pair): then nobody left, and all go on to the
 *     agreement and the decision (agree.h), as without the opening.
 *     Otherwise some processes may have left, and the rest finish the
 *     direct algorithm pair by pair: every process that did not send its
 *     block in the opening sends it now to every peer, which receives it.
 *
 * Pieces: above the MPI library's eager limit a send does not complete
 * before its receive is posted (rendezvous), so a sender that leaves early
 * would wait for its latest receiver after all (root gathering's senders
 * wait only for their own root: it won the arrival runs at 256 KiB; eager
 * sends made intergather 2.4x faster there, docs/performance.md).  Such a
 * sender's round-one message is then the first piece, and its tag carries
 * the block's size instead of what the sender expects (which is nothing);
 * the other pieces follow with IG_OPENING_TAG_PIECE.  A receiver reads the
 * size from the tag, so it receives exactly as many pieces as come, also
 * in an erroneous call, and judges the pair with the block's whole size.
 * Whether to cut is the sender's own choice: its receivers read it from
 * the tag, so nobody else has to take it alike.
 * A receiver that leaves early (it expects nothing: the call is
 * erroneous) does not read the tag in the call; it settles the pieces
 * before its next round one on the communicator (opening_left.h).
 *
 * The tree: on a communicator where one group has one to three processes
 * (the roots) and the other at least four times as many, between nodes
 * (decide.h: ig_decide_opening_tree, from the group sizes, the nodes and
 * the settings, which every process holds alike), an MPI_Allgather's root
 * sends its round-one message not to every process of the other group but
 * down a binomial tree over them (one tree per root, below), and each of
 * them passes on exactly what it received, tag and bytes, to its own
 * children in that tree before it reads it: so every one of them hears
 * the same message as by the direct message, and judges its pair as
 * above, while a root's link carries log2(q + 1) blocks instead of q (a
 * manager sending small blocks to its workers: root gathering runs a
 * broadcast tree there, and the direct message cost 2.7x that at 1+15
 * with 4 KiB blocks on the emulated cluster; going on to the agreement
 * and fc's own tree cost 1.8x: docs/performance.md, seventy-third
 * session).  A process of the larger group takes the roots' messages
 * tree by tree, and passes each on before it takes the next, in the order
 * of its depth in the trees, shallowest first (ties: the root's rank):
 * where it has the same parent in two trees, the parent is one level
 * higher in both and so took them in the same order, and its messages
 * come in that order, each told apart by its place; and nobody waits on a
 * message that waits on it (every wait is for a message of a shallower
 * tree of its own, or from a parent one level up).  The roots' order
 * instead made a process deep in one tree hold the message of a tree in
 * which it is shallow (2+14 with 16 KiB blocks took 7.3 ms on the
 * emulated cluster where fc took 5.3).
 * Everything else goes straight, as without the tree: the other
 * processes' round-one messages to the roots, the verdicts, the late
 * blocks.  A process that passes a message on must receive it first,
 * whatever its own arguments say, so in the tree the processes of the
 * larger group never leave early (they "stay", as an MPI_Allgatherv's
 * do; a relay that had left would strand its children in an erroneous
 * call, and only a root could send them its message instead, which where
 * it sends leaves before it hears who left: docs/performance.md,
 * seventy-fifth session); a root still may, and never cuts its block
 * into pieces (the tree passes whole messages).  A root's message is
 * small only where the decision serves the sizes with fc (or the star)
 * alone, the roots its senders (fc's plan for one sender is a broadcast
 * tree from it), or with the direct algorithm alone, with a block of at
 * most one eager message (ig_decide_opening_sends).  Not in the paper.
 *
 * Why this never strands a process: every message of the opening has a
 * receiver that posts it (round one: all pairs; the verdict: pairs both
 * ends judge not done; the late blocks: the receiver reads from the tag
 * that none came), and the choice between "go on together" and "finish
 * pair by pair" is the same for every process that makes it
 * (check_opening.c proves both by enumeration).  A correct MPI_Allgather
 * with small sizes ends after the first round on every process; one with
 * larger sizes has no done pair and goes on together.  Only erroneous
 * calls, calls where some process's arguments cannot be sent point to
 * point at all ("hard": MPI_IN_PLACE, negative counts, unusable types),
 * and correct MPI_Allgatherv calls whose processes judged their sizes
 * differently (a sender that learnt to leave early while a large block
 * elsewhere makes the receivers not small; a sender not small by its own
 * guess of its group while the receivers, who see its blocks, are small:
 * each happens once, then the sender learns, opening.c) end pair by pair;
 * there receivers report MPI_ERR_TRUNCATE where a block exceeds what they
 * expect, as the MPI library does.
 */
#ifndef IG_OPENING_PLAN_H
#define IG_OPENING_PLAN_H

#include "byte_pieces.h"

#include <stdint.h>

/* Tags of the opening's messages on the communicator's private copy of
 * the inter-communicator (comm_cache.h).  Round-one tags are
 * IG_OPENING_TAG_FIRST and above; the later messages (a verdict, a late
 * block, a block's pieces after its first) have their own. */
enum { IG_OPENING_TAG_VERDICT = 1, IG_OPENING_TAG_LATE = 2, IG_OPENING_TAG_PIECE = 3, IG_OPENING_TAG_FIRST = 16 };

/* The largest block size a round-one tag names exactly (its tags then stay
 * below 2^29 + 16); a small process sends and expects less (so every size
 * in a done pair is exact).  Where the MPI library's tags end lower, so
 * does this size: ig_opening_max_bytes. */
#define IG_OPENING_MAX_BYTES ((int64_t)((1 << 26) - 1))

/* The largest block size a round-one tag names exactly where tags end at
 * tag_ub: IG_OPENING_MAX_BYTES, or less where tag_ub is below 2^29 + 15.
 * MPI_TAG_UB is the MPI library's, not the standard's: 2^31 - 1 with Open
 * MPI's ob1 layer, 2^23 - 1 with its UCX layer (the usual one on
 * InfiniBand), at least 32767 anywhere.  tag_ub must be the same on every
 * process of the communicator (comm_cache.c takes the smallest over both
 * groups), and so is the result: sizes at or above it are never small,
 * and their tags say only "this size or more". */
int64_t ig_opening_max_bytes(int64_t tag_ub);

/* The size of a piece (above): one eager message (byte_pieces.h). */
#define IG_OPENING_PIECE_BYTES ((int64_t)IG_EAGER_PART_BYTES)

/* How many pieces a block of `bytes` bytes travels in (at least one). */
static inline int64_t ig_opening_piece_count(int64_t bytes)
{
    return bytes <= 0 ? 1 : ig_byte_part_count((uint64_t)bytes, IG_OPENING_PIECE_BYTES);
}

/* How many messages tagged IG_OPENING_TAG_PIECE follow a round-one
 * message with this tag from the same sender: the pieces after the
 * first where the tag announces a block in pieces, otherwise none. */
int64_t ig_opening_pieces_after(int tag);

/* Whether the sender of a round-one message with this tag leaves early,
 * so that it takes no pieces in the call: a sender in pieces then leaves
 * its pieces for it to take when it settles them (opening_left.h).  A tag
 * below the round-one tags (-1: the receive failed, nothing is known)
 * counts as leaving, so that nobody waits on what it cannot know. */
int ig_opening_tag_leaves_early(int tag);

/* Whether the sender of a round-one message with this tag was small (a
 * tag below the round-one tags: nothing is known, not small). */
int ig_opening_tag_small(int tag);

/* What a process brings to the opening, as one peer sees it: `expect` is
 * what it expects from that peer (in an MPI_Allgatherv, per peer:
 * opening.c builds this view for each). */
typedef struct {
    int64_t send;   /* bytes of its block */
    int64_t expect; /* bytes it expects from the peer that sees this view (an MPI_Allgather's: from each) */
    int small;      /* its own sizes are served by what round one carries (the direct algorithm alone, or
                     * in the trees fc or the star from the roots): it sends its block now */
    int hard;       /* its arguments cannot be used point to point: it sends only empty messages and
                     * drops what it receives */
    int pieces;     /* it leaves early and sends its block in pieces (only then: ig_opening_tag) */
    int stays;      /* it does not leave early, whatever it expects (an MPI_Allgatherv's, until it has
                     * learnt: above) */
    int expects_any;/* it expects data from some process of the other group (said in a staying
                     * process's tag, so that a process that sends nothing learns whether its group
                     * sends: what the summary counts, not what the round does) */
} ig_opening_self;

/* What it learned from one peer in round one. */
typedef struct {
    int64_t expect; /* what the peer expects from this process's group (exact when small) */
    int small, hard;
    int64_t got;    /* bytes of the peer's block received (when small; in pieces, the whole block's) */
    int truncated;  /* the peer's block exceeded what this process expects */
    int pieces;     /* the peer sends its block in pieces: more follow the first */
    int stays;      /* the peer never leaves early */
    int expects_any;/* the peer expects data from some process of this process's group */
} ig_opening_heard;

/* The tag of a process's round-one messages, on a communicator whose tags
 * name sizes below max_bytes exactly (ig_opening_max_bytes): at most
 * IG_OPENING_TAG_FIRST + 8 max_bytes + 7. */
int ig_opening_tag(const ig_opening_self *self, int64_t max_bytes);
/* What a process's block of `send` bytes looks like in a peer's tag that
 * names what the peer expects: the same size, or max_bytes for "this or
 * more" (so a pair whose sizes both reach the cap does not differ). */
int64_t ig_opening_named(int64_t bytes, int64_t max_bytes);
/* What a receiver that expects `room` bytes learns from a round-one
 * message with this tag, `got` bytes received, truncated or not. */
ig_opening_heard ig_opening_heard_from(int tag, int64_t got, int truncated, int64_t room);

/* Whether a process leaves early (above): small, expects nothing, and
 * does not stay. */
static inline int ig_opening_self_leaves_early(const ig_opening_self *self)
{
    return self->small && self->expect == 0 && !self->stays;
}

static inline int ig_opening_peer_leaves_early(const ig_opening_heard *peer)
{
    return peer->small && peer->expect == 0 && !peer->stays;
}

/* Whether a process that has not left exchanges a verdict with this peer
 * (and, pair by pair, may send it a late block): the pair is not done
 * and the peer did not leave early. */
static inline int ig_opening_talks_on(int pair_done, const ig_opening_heard *peer)
{
    return !pair_done && !ig_opening_peer_leaves_early(peer);
}

/* Whether the pair is done after round one; both ends answer alike. */
int ig_opening_pair_done(const ig_opening_self *self, const ig_opening_heard *peer);

/* A process's verdict, sent to every peer it talks on with: whether it
 * would go on -- none of its pairs is done, no peer left early, and it and its peers are
 * alike in whether their arguments are usable (all or none "hard": a call
 * in which every process's arguments are unusable goes on, to the MPI
 * library, which reports them as it does without intergather; one in
 * which only some are would leave the others waiting there). */
int ig_opening_verdict(const ig_opening_self *self, int own_pairs_done, int n_peers, const ig_opening_heard *peers);

/* After the verdicts: whether every process goes on to the agreement (its
 * own verdict and every peer's say so; then no pair of the whole call is
 * done and every process is alike in hardness); otherwise the call ends
 * pair by pair. */
int ig_opening_all_go_on(int own_verdict, int n_peers, const int64_t *peer_verdicts);

/* Pair by pair: whether a process sends its block after the verdicts to a
 * peer (it did not in round one and can, and the peer is still there), and
 * whether it receives one from a peer. */
static inline int ig_opening_sends_late(const ig_opening_self *self, const ig_opening_heard *peer)
{
    return !self->small && !self->hard && !ig_opening_peer_leaves_early(peer);
}

static inline int ig_opening_receives_late(const ig_opening_heard *peer)
{
    return !peer->small && !peer->hard;
}

/* The opening's trees (above): tree t (0 <= t < p, one per root) has
 * nodes 0 .. q, node 0 root t, node v >= 1 the other group's process of
 * rank (v - 1 + t q / p) mod q (rotated, so that the trees' inner nodes,
 * which pass messages on, are different processes).  A binomial tree:
 * node v's parent is v with its lowest set bit cleared; its children are
 * v + 2^k for every 2^k below v's lowest set bit (every 2^k for node 0)
 * with v + 2^k <= q, the largest first, so that the deepest subtree
 * starts first.  Depth ceil(log2 (q + 1)). */
static inline int ig_opening_tree_parent(int node)
{
    return node & (node - 1);
}

static inline int ig_opening_tree_rank_of_node(int node, int t, int p, int q)
{
    return (int)((node - 1 + (int64_t)t * q / p) % q);
}

static inline int ig_opening_tree_node_of_rank(int rank, int t, int p, int q)
{
    return (int)(((rank - (int64_t)t * q / p) % q + q) % q) + 1;
}

/* A node's depth in its tree: one level per set bit. */
static inline int ig_opening_tree_depth(int node)
{
    int depth = 0;
    for (; node != 0; node = ig_opening_tree_parent(node))
        depth++;
    return depth;
}

/* The trees (0 .. p - 1) in the order the other group's process of rank
 * `rank` takes their messages: by its depth in each, shallowest first,
 * then by root.  Returns p. */
int ig_opening_tree_order(int rank, int p, int q, int *order);

/* Node `node`'s children in a tree of n nodes, largest subtree first, into
 * children[] (room for at least ceil(log2 n) of them); returns how many. */
int ig_opening_tree_children(int n, int node, int *children);

#endif
