/*
 * Byte pieces (pure, no MPI): a block cut into byte ranges, and a range
 * into parts of at most a given size, each part one message.  The relay
 * (relay_plan.h), the full-duplex algorithm's ring stage in parts
 * (group_allgather.c), paced sends (p2p.c) and the opening round's pieces
 * (opening_plan.h) all cut blocks this way, so that sender and receiver,
 * each from the block's size alone, cut it at the same offsets.
 */
#ifndef IG_BYTE_PIECES_H
#define IG_BYTE_PIECES_H

#include <stdint.h>

/* The largest part intergather sends as one message where it cuts a block
 * or a piece so that each part goes without a handshake between nodes:
 * below Open MPI's TCP eager limit (64 KiB with the message header).  The
 * relay's parts and the full-duplex ring stage's (decide.c) and the
 * opening round's pieces (opening_plan.h) all use it; where a site lowered
 * the limit, parts travel as the whole would, only in more messages. */
#define IG_EAGER_PART_BYTES 61440

typedef struct {
    uint64_t offset, length; /* bytes into the block */
} ig_piece;

/* Piece j (0 <= j < n) of a block of `block_bytes`: the n pieces are
 * disjoint, cover the block in order, and differ in length by at most one
 * (the relay's q pieces of a block, a group stage's parts of a member). */
ig_piece ig_byte_piece(uint64_t block_bytes, int n, int j);

/* Parts: a piece travels in messages of at most `part_bytes` bytes (0: the
 * whole piece in one message), so that whoever forwards it (the relay's
 * owners) sends the first part on while the rest still arrive.  The
 * number of parts of a piece of `piece_bytes` (at least 1), and part u of
 * it (0 <= u < that number): disjoint, in order, covering the piece, each
 * but the last exactly `part_bytes` long. */
int ig_byte_part_count(uint64_t piece_bytes, uint64_t part_bytes);
ig_piece ig_byte_part(ig_piece piece, uint64_t part_bytes, int u);

#endif
