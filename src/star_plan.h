/*
 * The star algorithm's plan (pure, no MPI; algo_star.c runs it): who
 * sends which whole block to whom, for p < q, in two rounds.
 *
 * Senders 0..p-1 each hold one block; receivers 0..q-1, with
 * q = s p + r (s >= 1, 0 <= r < p).  The first s p receivers form s teams
 * of p: team g is receivers g p .. g p + p - 1, and its member at place t
 * owns block t.
 *
 *   round 1  sender i sends its block to the member at place i of every
 *            team (s messages);
 *   round 2  every team member sends the block it owns to the other
 *            p - 1 members of its team and to its team's extras.
 *
 * The r leftover receivers (s p + u, u < r) are extras of team u mod s:
 * they take all p blocks from that team's members and send nothing (fc's
 * take them from the senders instead, fc_plan.h: there a sender's link
 * carries one block per team, here s already).
 *
 * Each receiver's link takes its p blocks, the bound p K; a sender's
 * carries s K (direct's: q K); a member sends p - 1 + e K, e its team's
 * extras (at most ceil(r / s)).  It is the paper's p < q plan (section
 * III, fc_plan.h) with its two collective stages, a broadcast to s
 * receivers and an allgather among p, each done in one round of messages
 * posted at once instead of log-depth trees: log p + 2 log(s + 1) rounds
 * become two, at the price of more messages from one process at once (s
 * from a sender, p - 1 + e from a member), which is what small blocks can
 * afford (decide.c weighs it).  Not in the paper.
 */
#ifndef IG_STAR_PLAN_H
#define IG_STAR_PLAN_H

/* Teams: q / p (p < q). */
int ig_star_teams(int p, int q);

/* The receiver sender `sender` sends its block to in its n-th message
 * (0 <= n < ig_star_teams), counted from 0 among the receivers.  A sender
 * starts at team sender mod s and walks round, so that the teams'
 * members do not all wait for their senders' last message. */
int ig_star_sender_target(int p, int q, int sender, int n);

/* The block receiver `receiver` owns (sends on in round 2), or -1 for an
 * extra. */
int ig_star_owned_block(int p, int q, int receiver);

/* The team receiver `receiver` belongs to (as member or extra). */
int ig_star_team_of(int p, int q, int receiver);

/* Where receiver `receiver` takes block `block` from: the sender (as its
 * index among the senders) when *from_sender is set, else a receiver. */
int ig_star_block_source(int p, int q, int receiver, int block, int *from_sender);

/* How many receivers a team member sends its block on to in round 2:
 * p - 1 plus its team's extras; 0 for an extra. */
int ig_star_forward_count(int p, int q, int receiver);

/* The receiver a team member's n-th round-2 message goes to
 * (0 <= n < ig_star_forward_count): the team's other members from the
 * next place on, walking round, then its extras. */
int ig_star_forward_target(int p, int q, int receiver, int n);

#endif
