/*
 * The decision's windows and message budgets (internal to the decision):
 * what the choice of a step sets (decide.c) and what the room a step needs
 * is computed from (decide_room.c), defined once for both.  Each says why
 * it has its value.
 */
#ifndef IG_DECIDE_LIMITS_H
#define IG_DECIDE_LIMITS_H

#include <stdint.h>

/* Sends the direct algorithm keeps in flight per process: enough to keep a
 * link busy (Open MPI's linear exchange posts them all and reaches 92-95 %
 * of a TCP link), few enough that a large group does not flood one
 * receiver: with the staggered order of algo_direct.c a receiver sees about
 * this many senders at a time.  Fewer in flight (one or two whole blocks at
 * a time, a shift schedule) measured 4 % slower at 4 MiB on the emulated
 * cluster (docs/performance.md, twenty-seventh session). */
#define IG_DIRECT_WINDOW 16

/* Where the model weighs the relay: between nodes, with pieces (k / q) of
 * at least IG_RELAY_MIN_PIECE bytes, and up to IG_RELAY_MAX_MESSAGES
 * messages per receiver (p q, each a request held at once).  The relay
 * moves p q (q - 1) messages in all, where direct moves p q: on the
 * emulated cluster (4+12, docs/performance.md) it was 1.1x to 2x faster
 * than fc from 32 KiB blocks (2.7 KiB pieces) up, but up to 1.6x slower at
 * 16 KiB and 2.8x to 6.5x at 4 and 8 KiB (pieces of 1.4 KiB and less), a
 * cost per message of the whole host's network stack that the measured t_o
 * (one pair of processes, the rest idle) does not see.  Within a node
 * copies, not links, are the bottleneck and the relay copies every byte
 * twice: at 2+6 on the 2-core machine it was 1.15x slower than fc at 1 MiB
 * and 3.2x at 64 KiB. */
#define IG_RELAY_MIN_PIECE 2048
#define IG_RELAY_MAX_MESSAGES 4096

/* The relay's parts (algo_relay.c): a piece larger than IG_EAGER_PART_BYTES
 * (byte_pieces.h) travels in parts of at most that size, each one message,
 * so that its owner relays the first while the rest still arrive, each
 * without a handshake.
 * At 4+12 on the emulated cluster, with 1 and 4 MiB blocks (pieces of 87
 * and 350 KiB), parts of 60 KiB made the relay about 10 % faster than
 * whole pieces (70 % of the receiver-link bound to 77-80 %), parts of 16
 * KiB about 7 % (docs/performance.md, fortieth session).  At most
 * IG_RELAY_MAX_PARTS parts a piece, and fewer where p q is large, so that
 * a receiver's p q pieces stay within IG_RELAY_MAX_MESSAGES messages once
 * groups are that large (beyond that, larger parts). */
#define IG_RELAY_MAX_PARTS 8

/* The full-duplex algorithm's ring stage in parts (group_allgather.h): each
 * block cut into parts of at most IG_EAGER_PART_BYTES (one eager message
 * each), at most IG_STAGE_WINDOW sends in flight, and at most half
 * IG_RELAY_MAX_MESSAGES receives a member (beyond that, larger parts);
 * the exchange brings the blocks in the same parts (algo_full_duplex.c).
 * On the emulated cluster two rings of four nodes at once, 4 MiB a member
 * (scripts: docs/performance.md, forty-second session), took 1.06-1.21 s
 * in parts of 60 KiB with 4 sends in flight, 1.22-1.45 s by Sendrecv steps
 * (bound 1.01 s): a Sendrecv step's link idles while the next step's
 * message starts, where parts stream from the left link to the right one.
 * Windows of 2, 8 and 16 and parts of 30 and 256 KiB were no better. */
#define IG_STAGE_WINDOW 4

/* The most parts a piece is cut into on a pair of p and q processes. */
static inline int ig_relay_parts_cap(int p, int q)
{
    int64_t pq = (int64_t)p * q, cap = IG_RELAY_MAX_MESSAGES / (pq > 1 ? pq : 1);
    return cap < 1 ? 1 : cap > IG_RELAY_MAX_PARTS ? IG_RELAY_MAX_PARTS : (int)cap;
}

/* Pieces a block is cut into: one per receiver, or one per member. */
static inline int ig_relay_pieces(int q, int members)
{
    return members > 0 ? members : q;
}

/* The most parts each of n_blocks blocks is cut into in full duplex's
 * ring stage: a member's receives (n_blocks blocks' parts) and its own
 * block's sends (the other group's parts) stay within
 * IG_RELAY_MAX_MESSAGES, half each. */
static inline int ig_stage_parts_cap(int n_blocks)
{
    return n_blocks > 0 ? IG_RELAY_MAX_MESSAGES / 2 / n_blocks : 0;
}

#endif
