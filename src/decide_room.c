/*
 * The room a step needs (decide.h): the most requests and ints any
 * process of a pair holds at once while running an algorithm, so that a
 * pair reserves them once when it is built (pair.h) and its calls allocate
 * nothing.  Pure, no MPI; computed from the same limits as the choice
 * (decide_limits.h).  Unit-tested in tests/unit/check_decide.c.
 */
#include "decide.h"

#include "byte_pieces.h"
#include "decide_limits.h"

#include <limits.h>

static int max_int(int a, int b) { return a > b ? a : b; }

static int capped(int64_t n)
{
    return n > INT_MAX ? INT_MAX : (int)n;
}

/* The relay's receivers: four ints for each block of which they own a piece. */
static int relay_ints(int p)
{
    return capped(4 * (int64_t)p);
}

/* The requests a member of a group of n_own holds in the full-duplex
 * algorithm (algo_full_duplex.c) when the n_other remote blocks come in
 * `parts` parts (0: whole) and its own block leaves in `send_parts`: the
 * receives of its blocks, every part it receives and its ring's send
 * window where the blocks come in parts, and its block's sends. */
static int full_duplex_room(int n_own, int n_other, int parts, int send_parts)
{
    int64_t sends = send_parts >= 2 ? send_parts : 1;
    int64_t receives = parts >= 2 ? (int64_t)n_other * parts + IG_STAGE_WINDOW : (n_other + n_own - 1) / n_own;
    return capped(receives + sends);
}

/* Each algorithm's largest request array, on a process of either group:
 * direct, every remote block and a window of sends (n_remote + min(n_remote,
 * window)); spread and full duplex, the blocks a process owns and its send
 * (at most max(p, q) + 1); the chain without segments, its owned and
 * relayed blocks and a window (p + window); the relay's receivers, p q
 * pieces (p d with members, in up to q / d times the parts) and a window,
 * where the model weighs it; the star's team members (p < q), p blocks and
 * at most p - 1 + ceil((q mod p) / (q / p)) sends on, under 2 q.  Ints: fc's, spread's and full duplex's
 * counts and displacements (3 per process of a group), the chain's orders
 * (2 (p + 1)), the relay's runs (4 p). */
void ig_decide_pair_room(int p, int q, int *requests, int *ints)
{
    int64_t larger = max_int(p, q), wide = (int64_t)p + IG_DIRECT_WINDOW;
    *requests = capped(2 * larger > wide ? 2 * larger : wide); /* in 64 bits: groups of a billion stay defined */
    *ints = capped(3 * ((int64_t)p + q) + 2);
    if ((int64_t)p * q <= IG_RELAY_MAX_MESSAGES) {
        *requests = max_int(*requests, p * q * ig_relay_parts_cap(p, q) + IG_DIRECT_WINDOW);
        *ints = max_int(*ints, relay_ints(p));
    }
    int cap_p = ig_stage_parts_cap(p), cap_q = ig_stage_parts_cap(q);
    *requests = max_int(*requests, max_int(full_duplex_room(p, q, cap_q, cap_p), full_duplex_room(q, p, cap_p, cap_q)));
}

/* Beyond the pair's room: the chain's receivers hold every segment they
 * receive (at most p blocks of m segments) and a window of forwards; the
 * relay's receivers every piece (p q) and a window of relays, its senders
 * their window of pieces.  The other algorithms fit the pair's room. */
void ig_decide_step_room(const ig_step *step, int p, int q, int *requests, int *ints)
{
    ig_decide_pair_room(p, q, requests, ints);
    int64_t window = step->window > 0 ? step->window : 1, need = 0;
    if (step->algorithm == IG_ALG_CHAIN) {
        int64_t m = ig_step_chain_segments(step);
        need = m > INT_MAX ? INT_MAX : p * m + window;
    } else if (step->algorithm == IG_ALG_RELAY) {
        /* The largest piece's parts (every other piece has at most as many). */
        int pieces = ig_relay_pieces(q, step->relay_members);
        uint64_t piece = ig_byte_piece(step->max_block_bytes, pieces, 0).length;
        need = (int64_t)p * pieces * ig_byte_part_count(piece, step->relay_part_bytes) + window;
        *ints = max_int(*ints, relay_ints(p));
    } else if (step->algorithm == IG_ALG_FULL_DUPLEX) {
        /* Group 0 (the pair's first) gathers group 1's q blocks, and back. */
        need = max_int(full_duplex_room(p, q, step->stage_parts[0], step->stage_parts[1]),
                       full_duplex_room(q, p, step->stage_parts[1], step->stage_parts[0]));
    }
    *requests = max_int(max_int(*requests, capped(need)), step->piece_window);
}
