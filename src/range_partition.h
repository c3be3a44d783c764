/*
 * Range partition (pure, no MPI): n_src blocks divided over n_dst
 * processes in contiguous ranges.  Destination d owns blocks
 * [ig_range_first(n_src, n_dst, d), ig_range_first(n_src, n_dst, d + 1)),
 * at most ceil(n_src / n_dst) of them.  Used by the full-duplex and spread
 * algorithms (Kang, Traff et al., EuroMPI'18, at block rather than byte
 * granularity so that every block stays one derived-datatype element).
 */
#ifndef IG_RANGE_PARTITION_H
#define IG_RANGE_PARTITION_H

int ig_range_first(int n_src, int n_dst, int d);
int ig_range_owner(int n_src, int n_dst, int block);

/* Full duplex (both groups' blocks divided over the other group): the
 * turn t that rotates the second group's block owners, so that block b
 * of the second group goes to first-group process (ig_range_owner(n_second,
 * n_first, b) + t) mod n_first, and first-group process a owns the range
 * of index (a - t) mod n_first.  It makes as few pairs as possible trade
 * blocks both ways in the exchange: over Open MPI's TCP transport two large
 * messages crossing between the same two processes went one after the
 * other (4 MiB: 2.1 link times, against 1.2 to 1.4 when each process
 * sends to one peer and receives from another; docs/performance.md,
 * forty-second session).  0 or 1: for every split checked (up to 149 +
 * 149) one of them leaves no pair crossing, except where a group has one
 * process or a first group of two faces an odd number, where one pair must
 * whatever the turn (check_cost_model compares with every turn up to 80 +
 * 80).  From the two sizes alone, so both groups agree.  O(n_second). */
int ig_range_turn(int n_first, int n_second);
/* Second-group processes whose block owner sends its own block back to
 * them, with turn t. */
int ig_range_crossings(int n_first, int n_second, int turn);

#endif
