/*
 * The relay algorithm's plan (pure, no MPI; algo_relay.c runs it): who
 * sends which piece of which block to whom, and in which order.
 *
 * Senders 0..p-1 each hold one block (of K bytes with MPI_Allgather; of
 * its own size with MPI_Allgatherv); receivers 0..q-1.  Every block is cut
 * into q byte ranges ("pieces") by its own size; piece j of every block
 * goes from its sender to receiver j, its owner, who relays it to the
 * other q - 1 receivers.  Each receiver's link then takes exactly the sum
 * of the blocks, p K (p pieces from the senders, (q - 1) p from the other
 * owners), each sender's its block, each owner's about p K (q - 1) / q:
 * the receiver-link bound p K t_w in two hops, for any p and q.
 *
 * Overlap: sender i sends its pieces one after another, starting at owner
 * floor(i q / p) and walking round, so that owners get their first piece
 * early and at different moments, and each owner relays a piece as soon as
 * it has it.  An owner relays in the order its pieces are due to arrive
 * (ig_relay_arrival_order), which every receiver computes alike, so the
 * messages on each link match in MPI's non-overtaking order with one tag.
 */
#ifndef IG_RELAY_PLAN_H
#define IG_RELAY_PLAN_H

#include <stdint.h>

typedef struct {
    uint64_t offset, length; /* bytes into the block */
} ig_piece;

/* Piece j (0 <= j < q) of a block of `block_bytes`: the q pieces are
 * disjoint, cover the block in order, and differ in length by at most one. */
ig_piece ig_relay_piece(uint64_t block_bytes, int q, int j);

/* Parts: a piece travels, from its sender to its owner and from its owner
 * on, in messages of at most `part_bytes` bytes (0: the whole piece in one
 * message), so that an owner relays the first part while the rest still
 * arrive.  The number of parts of a piece of `piece_bytes` (at least 1),
 * and part u of it (0 <= u < that number): disjoint, in order, covering
 * the piece, each but the last exactly `part_bytes` long. */
int ig_relay_part_count(uint64_t piece_bytes, uint64_t part_bytes);
ig_piece ig_relay_part(ig_piece piece, uint64_t part_bytes, int u);

/* The owner sender `sender` sends its t-th piece to (0 <= t < q). */
int ig_relay_owner_at(int p, int q, int sender, int t);

/* order[0..p): the senders in the order their pieces reach `owner` (by
 * their place t in the senders' walks, then by sender). */
void ig_relay_arrival_order(int p, int q, int owner, int *order);

#endif
