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
 * early and at different moments, and each owner relays each part of a
 * piece as soon as it has it (algo_relay.c).
 *
 * Members (p < q, blocks of one size; ig_relay_members_for): in the plain
 * relay the senders' links carry 1 / p of the bound p K, and every owner's
 * carries nearly as much as its receiving link takes, so most flows cross
 * two full links (which TCP shares less well than one).  Instead sender i sends its whole block to
 * d receivers, its members (the first d of its walk); member t owns piece
 * t of d and relays it to the q - d receivers that are not members.  Each
 * sender's link carries d K, each receiver's at most
 * ceil(p d / q) K (q - d) / d: with d = p q / (p + q) both are q / (p + q)
 * of the bound p K where the plain relay loads the owners' to (q - 1) / q
 * (at 4+12, d = 3: 75 % against 92 %).  Not in the paper (nor is the relay).
 */
#ifndef IG_RELAY_PLAN_H
#define IG_RELAY_PLAN_H

#include "byte_pieces.h"

#include <stdint.h>

/* The owner sender `sender` sends its t-th piece to (0 <= t < q). */
int ig_relay_owner_at(int p, int q, int sender, int t);

/* Members: the place t (0 <= t < d) of receiver r among sender i's d
 * members (ig_relay_owner_at(p, q, i, t) for t < d), or -1 where r is not
 * one. */
int ig_relay_member_place(int p, int q, int d, int sender, int r);

/* The most blocks one receiver is a member of, for d members a block:
 * ceil(p d / q) (the walks start evenly spaced). */
int ig_relay_most_memberships(int p, int q, int d);

/* The members a block should have on a pair of p senders and q receivers
 * with blocks of one size: the d (1 <= d <= min(p, q - 1)) whose busiest
 * link carries the least (a sender's d K, a member's ceil(p d / q) K (q -
 * d) / d), where that is less than the plain relay's busiest (a sender's
 * K, an owner's p K (q - 1) / q); 0 (the plain relay) otherwise, and
 * always for p >= q, where it was not measured.  Exact: every process of
 * both groups computes the same d from p and q alone.  0 too where p q
 * exceeds INT_MAX (never weighed there, and the fractions would not fit). */
int ig_relay_members_for(int p, int q);

#endif
