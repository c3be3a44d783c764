/*
 * The decision (pure, no MPI): which algorithm serves a call, with every
 * parameter it needs.  The one place where settings, sizes and the
 * topology hint turn into a choice; dispatch (serve.c) only carries the
 * choice out, and the algorithms read no setting.
 *
 * Every function here that chooses a call's path takes only inputs that
 * every process of both groups holds alike: the settings (checked equal
 * on every process when the communicator's cache is built) and the call's
 * shape (shape.h, computed from numbers the processes exchanged).  So
 * every process takes the same path, whatever its own arguments look
 * like.  Unit-tested by enumeration: tests/unit/check_decide.c.  The exceptions are the questions asked
 * before the agreement, with a process's own sizes (the opening round's
 * ig_decide_opening_sends(_v), _pieces and _learnt_early, early posting's
 * guessed shape): their answers only choose what a process offers first,
 * and the opening's tags and the agreement make every process go on alike
 * whatever each answered (opening_plan.h, speculate.h).  The call's
 * algorithm is decide.c's; the opening round's choices (ig_decide_opening_*)
 * are decide_opening.c's; the room each step needs (ig_decide_*_room) is
 * decide_room.c's, from the windows and budgets both share
 * (decide_limits.h).
 */
#ifndef IG_DECIDE_H
#define IG_DECIDE_H

#include "algorithms.h"
#include "settings.h"
#include "opening_plan.h"
#include "shape.h"

typedef enum {
    IG_DECISION_NATIVE = 0, /* hand the call to the MPI library, unchanged (reason below) */
    IG_DECISION_EMPTY,      /* neither group sends: nothing to move */
    IG_DECISION_SERVE,      /* run steps[0..nsteps-1] in order */
    IG_DECISION_ERRONEOUS   /* the groups' sizes disagree: steps[0] is the direct algorithm both ways */
} ig_decision_kind;

typedef struct {
    ig_decision_kind kind;
    ig_fallback native_reason; /* IG_DECISION_NATIVE */
    ig_topology served_as;     /* IG_DECISION_SERVE: the family of the algorithm that runs (ring or fully connected), for the summary */
    int nsteps;                /* 1, or 2: full duplex as two half-duplex passes, group 0's data first */
    ig_step steps[2];
} ig_choice;

/* Before any exchange: IG_FALLBACK_NONE when intergather acts on the
 * communicator's calls at all, otherwise why not. */
ig_fallback ig_decide_active(int settings_agree, const ig_settings *s);

/* Whether the cost model can change any choice under these settings (the
 * model chooses only with INTERGATHER_ALGORITHM=auto and the
 * fully-connected topology, or sizes the forced chain's segments and the
 * forced relay's parts, and only while the shim is on): where it cannot,
 * no communicator measures one. */
int ig_decide_uses_model(const ig_settings *s);

/* Whether the communicator counts as oversubscribed: as
 * INTERGATHER_OVERSUBSCRIBED says, and with "auto" where some node has
 * more processes than CPUs (`nodes_over`, counted over every process:
 * comm_cache.c). */
int ig_decide_oversubscribed(const ig_settings *s, int nodes_over);

/* Whether every call the model would decide is served by the direct
 * algorithm instead: all processes on one node that has more of them than
 * CPUs (INTERGATHER_OVERSUBSCRIBED), with INTERGATHER_ALGORITHM=auto and
 * the fully-connected topology.  From agreed inputs, so alike everywhere. */
int ig_decide_oversubscribed_direct(const ig_settings *s, int nodes, int oversubscribed);

/* The choice for a call of operation `allgatherv` (0: MPI_Allgather) and
 * this shape. */
void ig_decide(const ig_shape *shape, int allgatherv, const ig_settings *s, ig_choice *choice);

/* Whether the model weighs the direct algorithm both ways at once for
 * this full-duplex shape (within a node always, between nodes for small
 * blocks: decide.c says why). */
int ig_decide_direct_full_weighed(const ig_shape *shape);

/* The full-duplex algorithm's step for this shape (both groups send), for
 * an MPI_Allgatherv call or not (its ring stage moves MPI_Allgather's
 * blocks in parts, never MPI_Allgatherv's). */
ig_step ig_decide_one_exchange(const ig_shape *shape, int allgatherv, const ig_settings *s);

/* The choice c (ig_decide's, for a call in which both groups may send)
 * made runnable on one pair, whose first group sends in every half-duplex
 * step (the pair API, api.c, has no pair for the other direction): two
 * passes, or one pass from the second group (the first sends nothing),
 * become one exchange both ways, a group's blocks possibly empty. */
/* (The pair API serves MPI_Allgather only.) */
void ig_decide_on_one_pair(const ig_shape *shape, const ig_settings *s, ig_choice *c);

/* The room a pair of p and q processes reserves when it is built
 * (pair.h): the most requests and ints an algorithm the model can choose
 * for it holds at once, so that those calls allocate nothing and need no
 * more room. */
void ig_decide_pair_room(int p, int q, int *requests, int *ints);

/* The room `step` needs on a pair whose first group has p processes and
 * second q: the most requests and ints any process of the pair holds at
 * once while running it.  The pair's own room (ig_decide_pair_room) for
 * every step the model chooses; more only for a forced chain's segments
 * and a forced relay beyond the messages the model weighs it for, which
 * the pair then grows jointly before the step (ig_pair_fit_room).  A need
 * beyond INT_MAX comes back as INT_MAX, which no pair can reserve.
 * ig_decide and ig_decide_on_one_pair write it into every step they
 * choose (step->room_requests, room_ints), so that dispatch reads it
 * there and never calls back into the decision. */
void ig_decide_step_room(const ig_step *step, int p, int q, int *requests, int *ints);

/* ---- Speculation (speculate.h): steps posted before the agreement ------ */

/* What a process that posted `step` before the agreement tells the others
 * (0 stands for "posted nothing"): only the direct algorithm and the
 * star's first round are posted early, and which algorithm and which
 * groups send is all that decides their messages. */
int64_t ig_decide_posted_code(const ig_step *step);

/* The step a posted code stands for (algorithm and sender only): 1, or 0
 * where the code is none (0, or not a code). */
int ig_decide_posted_step(int64_t code, ig_step *step);

/* Whether the steps posted early (posted[r], one per process, merged order)
 * are what the agreed choice runs: then every process completes the agreed
 * step, the early ones included; otherwise every early message is
 * withdrawn first.  The same answer on every process. */
int ig_decide_posted_stand(const int64_t *posted, int nprocs, const ig_choice *agreed);

/* ---- The opening round (opening_plan.h) --------------------------------- */

/* Processes of both groups in all up to which the opening applies: its
 * requests and what it learns live on the stack. */
#define IG_OPENING_MAX_PROCS 32

/* Whether every MPI_Allgather and MPI_Allgatherv on a communicator of
 * n0 + n1 processes starts with the opening round (unless
 * ig_decide_opening_predict_skip predicts a skip from the last calls):
 * from the settings, the group sizes and the MPI library (whether a
 * truncated receive returns, mpi_identity.h), the same on every process. */
int ig_decide_opening_applies(const ig_settings *s, int n0, int n1, int truncated_receive_returns);

/* The opening's trees (opening_plan.h, "The tree"): at most this many
 * roots (the smaller group), and at least IG_OPENING_TREE_MIN_OTHERS
 * processes of the other group per root.  Whether the trees apply is
 * fixed per communicator (every process must know it before the round,
 * from the group sizes), so it serves calls in both directions, and the
 * trees cost where the roots receive: the other group's processes pass
 * the roots' round-one messages on, so they wait for the roots to arrive,
 * where without the trees a small sender leaves as soon as its block is
 * sent (not the trees' depth: with each root's tag sent straight to every
 * process, and down the tree only a block, the cost stayed, 0.22 ms at
 * 4+1).  On the emulated cluster, 4 KiB blocks, A/B
 * (docs/performance.md, seventy-fourth session): where the roots receive
 * the trees took 4+1 from 0.08 to 0.22 ms, 8+2 from 0.94 to 1.08 and 12+3
 * from 2.41 to 2.65 (1.0x to 1.14x the faster of native and
 * MPI_Iallgather, where the senders that left gave 0.43x to 0.97x);
 * with two others a root (tried) they made 2+4 and 2+6 2x faster where
 * the roots send (0.29 against 0.58 ms, 0.63 against 1.32) and 4+2, 3+1
 * and 2+1 2x to 2.5x slower where they receive (0.37 against 0.15 ms at
 * 4+2, now 1.05x MPI_Iallgather; 0.13 against 0.07 at 2+1, 1.5x native).
 * Four others a root: where the roots send, the trees made 4 KiB calls
 * 1.8x to 2.7x faster (1+7, 1+15, 2+14: seventy-third session), more
 * than they cost where the roots receive; at four others a root itself
 * (A/B against five, seventy-fifth session) they saved 0.25 to 0.69 ms
 * where the roots send (1+4, 2+8, 3+12) and cost 0.14 to 0.17 ms where
 * they receive (4+1, 8+2, 12+3). */
#define IG_OPENING_TREE_MAX_ROOTS 3
#define IG_OPENING_TREE_MIN_OTHERS 4

/* With two or three roots, blocks of at most this many bytes go down the
 * trees (one root: up to an eager message).  A tree relays whole blocks,
 * one after another, log2(q + 1) hops deep, where fc's p < q plan
 * broadcasts to q / p receivers (MPI_Bcast, which cuts large messages)
 * and then exchanges among p: on the emulated cluster two roots' trees
 * beat fc with its agreement at 2+14 up to 8 KiB (2.4 against 3.3 ms) and
 * lost at 16 KiB (7.7 against 5.3); three roots were level with it at 8
 * and 16 KiB (docs/performance.md, seventy-third session).  Measured on
 * 100 Mbit/s links, where a 16 KiB hop costs 1.3 ms: a faster network
 * moves the crossover up, which this bound does not follow. */
#define IG_OPENING_TREE_MULTI_BYTES 8192

/* Whether an MPI_Allgather (not v: there a process's tag names what it
 * expects from each peer, which one message down a tree cannot) on a
 * communicator of groups of n0 and n1 processes spanning `nodes` nodes
 * sends the smaller group's round-one messages down the trees: one group
 * of 1 to IG_OPENING_TREE_MAX_ROOTS processes, the other of at least
 * IG_OPENING_TREE_MIN_OTHERS per root, between nodes (within a node only
 * where the settings say tree, for tests: there the direct messages are
 * memory copies).  From shared facts alone: every process answers
 * alike. */
int ig_decide_opening_tree(int allgatherv, int n0, int n1, int nodes, const ig_settings *s);

/* Whether a process of `group` that sends send_bytes and expects
 * expect_bytes from each remote process is "small" in the opening: both
 * sizes below max_bytes (what the communicator's tags name exactly,
 * ig_opening_max_bytes), and the decision serves exactly these sizes with
 * the direct algorithm alone, all sends posted at once; or, where the
 * trees apply, with fc (or the star) alone, the roots its senders, and a
 * block of at most IG_OPENING_PIECE_BYTES (the trees then carry what
 * fc's broadcasts would).  In a correct call every process answers alike
 * (the same sizes, seen from either group). */
int ig_decide_opening_sends(int group, int64_t send_bytes, int64_t expect_bytes, int n0, int n1, int nodes,
                            int oversubscribed, int64_t max_bytes, const ig_settings *s);

/* The same for an MPI_Allgatherv process, whose receive counts give the
 * other group's blocks exactly: the largest, expect_max, and their sum,
 * expect_total (its own group's it guesses as its own block, send_bytes,
 * each).  In a half-duplex call every receiver so judges the agreed shape
 * itself, and all alike: blocks of different sizes that the decision
 * serves otherwise (the relay, say, where the direct algorithm's largest
 * sender would carry the most) are not small, though uniform blocks of the
 * largest size would be. */
int ig_decide_opening_sends_v(int group, int64_t send_bytes, int64_t expect_max, int64_t expect_total, int n0,
                              int n1, int nodes, int oversubscribed, int64_t max_bytes, const ig_settings *s);

/* Whether a process that leaves the round early (opening_plan.h) with a
 * block of send_bytes sends it in eager pieces of IG_OPENING_PIECE_BYTES:
 * a block larger than one piece, between nodes (within a node Open MPI's
 * eager limit is far smaller, and the pieces would only add messages)
 * unless the settings ask for pieces everywhere.  The process's own
 * choice: its round-one tag names it, so every peer receives accordingly.
 * The caller also needs the block's bytes in order in memory. */
int ig_decide_opening_pieces(int64_t send_bytes, int nodes, const ig_settings *s);

/* An MPI_Allgatherv sender that expects nothing stays in the round
 * (opening_plan.h, "stays") unless it has learnt that its receivers are
 * small with its block: every receiver was small in the last
 * IG_OPENING_EARLY_AFTER calls in a row with a block of that size
 * (decide_opening.c says why that many).  What it saw: observed after each
 * such call, heard in round one when it stayed, read from the settled
 * round-one messages when it left.  Its own choice too: its tag then names what it expects,
 * nothing, and every peer reads it. */
typedef struct {
    int64_t send; /* the block size of the streak; -1: none yet */
    int streak;   /* calls in a row with it in which every receiver was small */
} ig_opening_receivers_seen;

void ig_decide_opening_observe_receivers(ig_opening_receivers_seen *seen, int64_t send, int all_small);

/* Whether the process `self` (an MPI_Allgatherv sender that expects
 * nothing, with a block below max_bytes) has learnt to leave early, and to
 * send its block in round one: its receivers, which see every block of its
 * group, judged such calls the direct algorithm's, whatever its own guess
 * of its group says. */
int ig_decide_opening_learnt_early(const ig_opening_receivers_seen *seen, const ig_opening_self *self,
                                   int64_t max_bytes);

/* Whether the call just agreed on a communicator where the opening
 * applies, of shape sh (an MPI_Allgatherv's where allgatherv), is "large":
 * one the round would not have ended (its sizes, without the layout flags,
 * are not the direct algorithm's alone, nor the tree's fc: ig_decide_opening_sends),
 * so that a next call of the same
 * sizes would pay the round and its verdicts for nothing (on the emulated
 * cluster, 1.7 of 2.9 ms at 4+12 with 4 KiB blocks).  A call whose shape
 * the round would end, an erroneous one, one the MPI library serves for a
 * reason of its arguments, or an empty one is "small".  From the agreed
 * shape, the agreed settings and the communicator's max_bytes only: every
 * process that finished the agreement answers alike.  This is one call's
 * class ("large" where it answers yes); what the next call does is
 * ig_decide_opening_predict_skip's prediction from the classes of the last
 * calls, below. */
int ig_decide_opening_call_is_large(const ig_shape *sh, int allgatherv, int64_t max_bytes, const ig_settings *s);

/* Whether the next MPI_Allgather(v) skips the opening round, predicted from
 * the communicator's last calls where the round applies.  Each such call
 * is "large" where the round would not have ended it
 * (ig_decide_opening_call_is_large of its agreed shape) and "small" otherwise
 * (it ended in the round, or its agreed shape is one the round ends, or it
 * is erroneous, empty, or has a process that cannot be served).  The next
 * call is predicted unlike the last one only where, the last three times
 * the same two classes came, the call after them was unlike the last one
 * each time; otherwise like the last call (the history starts as if
 * after two small calls).  So a program that calls with the same sizes
 * again skips from its second large call on, and one that
 * alternates small and large calls (a header and its data, say), or
 * repeats any other pattern of period 2 or 3, learns it within four
 * periods: its small calls then run in the round and its large ones go
 * straight to the agreement, where "like the last call" ran every small
 * call on the agreed path and every large one through the round.  A wrong
 * guess costs what it cost before (a small call on the agreed path, or a
 * large call through the round); with runs of random lengths the rule
 * guesses wrong at most a few per cent more often than "like the last
 * call" (simulated; the three times are why).  Every process observes the
 * same classes (a call ends in the round or goes on alike on every
 * process; the agreed shape is the same everywhere), so every process
 * predicts alike. */
typedef struct {
    unsigned last_two; /* the last two classes, the newest in bit 0 (1: large) */
    /* Per last_two, whether the call after them was unlike the last one,
     * the last three times they came (bit 0 the latest). */
    unsigned char changed[4];
} ig_opening_history; /* all zero: nothing seen yet */

void ig_decide_opening_observe(ig_opening_history *h, int large);
int ig_decide_opening_predict_skip(const ig_opening_history *h);

#endif
