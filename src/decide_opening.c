/*
 * The opening round's choices (src/opening.c carries them out; the
 * round itself: opening_plan.h).  Half of the decision, apart from the
 * call's algorithm in decide.c: whether the round applies, what a process
 * offers in it from its own sizes, whether a block goes in eager pieces,
 * when an MPI_Allgatherv sender has learnt to leave early, and whether the
 * next call skips the round.  Each rule says which of its inputs every
 * process shares and how the others learn the rest (the round's tags).
 */
#include "decide.h"

#include "opening_plan.h"

int ig_decide_opening_applies(const ig_settings *s, int n0, int n1, int truncated_receive_returns)
{
    /* Only where the decision can choose the direct algorithm (otherwise
     * no pair is ever done and the round is pure cost), and only where a
     * receive that an erroneous call truncates returns an error instead of
     * aborting the job: in the opening every process receives whatever
     * its peers send. */
    int direct_possible = s->algorithm == IG_ALG_DIRECT ||
                          (s->algorithm == IG_ALGORITHM_AUTO && s->topology == IG_TOPOLOGY_FULLY_CONNECTED);
    return s->opening && truncated_receive_returns && direct_possible && s->min_bytes == 0 &&
           n0 + n1 <= IG_OPENING_MAX_PROCS;
}

int ig_decide_opening_tree(int allgatherv, int n0, int n1, int nodes, const ig_settings *s)
{
    int fewer = n0 < n1 ? n0 : n1, more = n0 < n1 ? n1 : n0;
    return !allgatherv && fewer >= 1 && fewer <= IG_OPENING_TREE_MAX_ROOTS &&
           more >= IG_OPENING_TREE_MIN_OTHERS * fewer && (nodes > 1 || s->opening == IG_OPENING_TREE);
}

/* The roots' group (the smaller one) of a shape where the trees apply. */
static int roots_of(const ig_shape *sh)
{
    return sh->n[0] < sh->n[1] ? 0 : 1;
}

/* The largest block the trees carry in place of fc (decide.h): one eager
 * message from a single root, IG_OPENING_TREE_MULTI_BYTES from two or
 * three.  (Where the direct algorithm alone serves a call, one eager
 * message from any root: served_by_round_one.) */
static uint64_t tree_bytes(const ig_shape *sh)
{
    return sh->n[roots_of(sh)] == 1 ? (uint64_t)IG_OPENING_PIECE_BYTES : (uint64_t)IG_OPENING_TREE_MULTI_BYTES;
}

/* Where the trees apply (the caller asks ig_decide_opening_tree):
 * whether the choice is fc (or the star) alone with the roots as its
 * senders (the other group sends nothing).  fc's
 * plan for one sender is a broadcast tree from it (fc_plan.h), and for a
 * few a broadcast from each to some receivers, then an exchange among
 * them; the trees carry each root's block to every receiver in as many
 * hops, without the agreement before them. */
static int served_by_tree(const ig_shape *sh, const ig_choice *ch)
{
    int roots = roots_of(sh);
    return sh->max_block[1 - roots] == 0 && sh->max_block[roots] > 0 && sh->max_block[roots] <= tree_bytes(sh) &&
           ch->nsteps == 1 &&
           (ch->steps[0].algorithm == IG_ALG_FC || ch->steps[0].algorithm == IG_ALG_STAR);
}

/* Whether the decision serves a shape of block sizes below max_bytes
 * with what the opening's round one carries alone: the direct algorithm,
 * every send posted at once, or where the trees apply fc (or the star)
 * from their roots.  Sizes alone: the agreement's layout flags could change the
 * choice (they take the byte-cutting algorithms away and, under
 * INTERGATHER_MANY_SENDERS=join with p > q, an overlapping send type turns
 * the join plan into spread, which may cost less than direct), but that
 * changes only which algorithm the agreed path would have run; a call the
 * round ends has all its blocks either way. */
static int served_by_round_one(const ig_shape *sh, int allgatherv, int64_t max_bytes, const ig_settings *s)
{
    ig_choice ch;
    if (sh->max_block[0] >= (uint64_t)max_bytes || sh->max_block[1] >= (uint64_t)max_bytes)
        return 0;
    /* The trees pass on only what fits one eager message (they relay
     * whole messages, and a relay keeps a mismatched one on its stack:
     * opening_tree.c). */
    int trees = ig_decide_opening_tree(allgatherv, sh->n[0], sh->n[1], sh->nodes, s);
    if (trees && sh->max_block[roots_of(sh)] > (uint64_t)IG_OPENING_PIECE_BYTES)
        return 0;
    ig_decide(sh, allgatherv, s, &ch);
    if (ch.kind != IG_DECISION_SERVE)
        return 0;
    if (trees && served_by_tree(sh, &ch))
        return 1;
    if (ch.nsteps != 1 || ch.steps[0].algorithm != IG_ALG_DIRECT)
        return 0;
    /* The opening posts every send at once: only where the direct step
     * would too, in either group (the larger group's count, so that both
     * groups answer alike: a 20 + 4 call is small for neither). */
    return (sh->n[0] > sh->n[1] ? sh->n[0] : sh->n[1]) <= ch.steps[0].window;
}

int ig_decide_opening_sends(int group, int64_t send_bytes, int64_t expect_bytes, int n0, int n1, int nodes,
                            int oversubscribed, int64_t max_bytes, const ig_settings *s)
{
    ig_shape guess;
    if (send_bytes < 0 || expect_bytes < 0)
        return 0;
    /* What every process reads alike: its own sizes, its peers' from the
     * round's tags. */
    ig_shape_guess_uniform(group, send_bytes, expect_bytes, 0, 0, n0, n1, nodes, oversubscribed, &guess);
    return served_by_round_one(&guess, 0, max_bytes, s);
}

int ig_decide_opening_sends_v(int group, int64_t send_bytes, int64_t expect_max, int64_t expect_total, int n0,
                              int n1, int nodes, int oversubscribed, int64_t max_bytes, const ig_settings *s)
{
    ig_shape guess;
    if (send_bytes < 0 || expect_max < 0 || expect_total < expect_max)
        return 0;
    ig_shape_guess_uniform(group, send_bytes, expect_max, 0, 0, n0, n1, nodes, oversubscribed, &guess);
    guess.total[1 - group] = (uint64_t)expect_total; /* the other group's blocks exactly, its largest as above */
    return served_by_round_one(&guess, 1, max_bytes, s);
}

int ig_decide_opening_call_is_large(const ig_shape *sh, int allgatherv, int64_t max_bytes, const ig_settings *s)
{
    if (sh->reason != IG_FALLBACK_NONE || sh->sizes != IG_SIZES_AGREE || (sh->total[0] == 0 && sh->total[1] == 0))
        return 0;
    ig_shape sizes_alone = *sh;
    sizes_alone.send_overlaps[0] = sizes_alone.send_overlaps[1] = 0;
    sizes_alone.scattered = sizes_alone.sparse = 0;
    return !served_by_round_one(&sizes_alone, allgatherv, max_bytes, s);
}

int ig_decide_opening_pieces(int64_t send_bytes, int nodes, const ig_settings *s)
{
    return send_bytes > IG_OPENING_PIECE_BYTES && (nodes > 1 || s->opening == IG_OPENING_PIECES);
}

/* Calls in a row, with a block of one size, in which an MPI_Allgatherv
 * sender that expects nothing saw every receiver small, before it leaves
 * early with a block of that size.  Two, not one: a program that
 * alternates calls with and without a large block elsewhere in the group
 * never has two such calls in a row, so its senders stay, and its large
 * calls go on to the agreement (the relay, say) instead of finishing pair
 * by pair after a wrong guess. */
enum { IG_OPENING_EARLY_AFTER = 2 };

void ig_decide_opening_observe_receivers(ig_opening_receivers_seen *seen, int64_t send, int all_small)
{
    if (seen->send != send) {
        seen->send = send;
        seen->streak = 0;
    }
    seen->streak = !all_small ? 0 : seen->streak < IG_OPENING_EARLY_AFTER ? seen->streak + 1 : seen->streak;
}

int ig_decide_opening_learnt_early(const ig_opening_receivers_seen *seen, const ig_opening_self *self,
                                   int64_t max_bytes)
{
    return self->stays && self->expect == 0 && self->send > 0 && self->send < max_bytes && seen->send == self->send &&
           seen->streak >= IG_OPENING_EARLY_AFTER;
}

/* The last three times, as three bits (decide.h). */
enum { IG_OPENING_CHANGES_SEEN = 7 };

void ig_decide_opening_observe(ig_opening_history *h, int large)
{
    unsigned bit = large ? 1u : 0u, changed = bit != (h->last_two & 1u);
    h->changed[h->last_two] = (unsigned char)(((h->changed[h->last_two] << 1) | changed) & IG_OPENING_CHANGES_SEEN);
    h->last_two = ((h->last_two << 1) | bit) & 3u;
}

int ig_decide_opening_predict_skip(const ig_opening_history *h)
{
    return (int)((h->last_two & 1u) ^ (h->changed[h->last_two] == IG_OPENING_CHANGES_SEEN));
}
