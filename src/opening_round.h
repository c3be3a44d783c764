/*
 * One process's opening round (opening_plan.h says what the round is), as
 * the round itself (opening.c) and the trees' relay (opening_tree.c) share
 * it.  Internal to those two files: the rest of the library sees the round
 * through opening.h only.
 */
#ifndef IG_OPENING_ROUND_H
#define IG_OPENING_ROUND_H

#include "call.h"
#include "comm_cache.h"
#include "decide.h"
#include "opening_plan.h"
#include "p2p.h"
#include "settings.h"

#include <mpi.h>
#include <stdint.h>

#define IG_OPENING_MAX_REMOTE (IG_OPENING_MAX_PROCS - 1)
/* Children of a node of the opening's tree: at most log2 of its nodes. */
#define IG_OPENING_TREE_MAX_CHILDREN 6
_Static_assert((1 << IG_OPENING_TREE_MAX_CHILDREN) >= IG_OPENING_MAX_PROCS, "a tree node's children fit");

/* This process's part in the opening's trees (opening_plan.h, "The tree"). */
typedef enum { IG_TREE_NONE = 0, IG_TREE_ROOT, IG_TREE_MEMBER } ig_tree_role;

/* One process's opening: what it brings, and what it learns per peer. */
typedef struct {
    const ig_call *c;
    MPI_Comm comm;
    int remote, local_rank;
    ig_opening_self self;
    int64_t max_bytes; /* the sizes the communicator's tags name exactly (ig_opening_max_bytes) */
    /* Per remote rank, in run_round's arrays: round_one writes every
     * peer's before any is read (not zeroed, a kilobyte a call). */
    ig_opening_heard *heard;
    char *done;
    int n_done, truncated, peer_hard, mismatch;
    char (*sink)[IG_SINK_BYTES]; /* per remote rank: where a process that cannot receive takes its peer's block (p2p.h) */
    const char *send_bytes_at; /* a sender in pieces: where its block's bytes start */
    ig_tree_role tree;
    int roots, others;    /* the trees' roots (the smaller group) and the processes they reach */
    MPI_Comm merged;      /* where the other group's processes pass the messages on */
    int merged_first;     /* merged rank of the other group's rank 0 (a member's own group) */
} ig_opening_round;

/* ---- opening.c ---------------------------------------------------------- */

/* What this process expects from peer j (nothing where its arguments are
 * unusable). */
int64_t ig_opening_expects_from(const ig_opening_round *o, int j);

/* Where peer j's block lands, and how many receive elements it takes. */
void *ig_opening_slot_of(const ig_opening_round *o, int j, int *count);

/* ---- opening_tree.c: the trees ---------------------------------------- */

/* Where the round sends the smaller group's messages down the trees
 * (ig_decide_opening_tree, from facts every process shares): this
 * process's part in them, set in o (o->tree stays IG_TREE_NONE
 * elsewhere).  A process of the larger group passes messages on, so it
 * never leaves early (and so, where the roots only receive, it waits for
 * them to arrive: decide.h, IG_OPENING_TREE_MIN_OTHERS). */
void ig_opening_join_tree(ig_opening_round *o, ig_comm_cache *cache, const ig_settings *s);

/* A root's round-one targets: its children in its own tree, as remote
 * ranks, in order.  Returns how many. */
int ig_opening_root_targets(const ig_opening_round *o, int *targets);

/* A member (o->tree == IG_TREE_MEMBER): every root's round-one message,
 * taken from its parent and passed on to its children, tree by tree in
 * ig_opening_tree_order's order.  heard[t] is what a direct receive of
 * root t's message would have said; the sends on are in fwd (at most
 * IG_OPENING_TREE_MAX_ROOTS * IG_OPENING_TREE_MAX_CHILDREN), *n_fwd of
 * them, for the caller to complete with its own requests. */
int ig_opening_relay_all(ig_opening_round *o, MPI_Request *fwd, int *n_fwd, MPI_Status *heard);

#endif
