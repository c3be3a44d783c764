/*
 * The cost model (pure, no MPI): the t_s + k t_w model of the seeds, one
 * function per algorithm, in seconds.  The decision (decide.c) compares
 * them; README "How it works" tabulates them.
 */
#ifndef IG_COST_MODEL_H
#define IG_COST_MODEL_H

/* Costs in seconds in the t_s + k t_w model (k in bytes), plus a
 * per-message cost t_o at an endpoint: a round of messages that depend on
 * each other costs t_s + t_o each, while messages posted together overlap
 * their latency and pay only t_o each (what makes the direct algorithm's
 * p q messages cheap at small p, q and dear at large ones).  log terms are
 * ceil(log2(n)), as tree-based collectives take. */
typedef struct {
    double ts; /* start-up latency of a message, seconds */
    double tw; /* transfer time per byte, seconds */
    double to; /* per-message cost at an endpoint, seconds */
    /* 1 within a node: the processor that pays a message's t_o also moves
     * its bytes (shared memory), so the costs of messages posted at once
     * add up.  0 (the default) over a network: the link carries one
     * message while the host readies the next, and the slower of the two
     * sets the pace. */
    int copies_on_host;
} ig_cost_params;

/* Between nodes: 5 us, 10 GB/s, 1 us per message, typical of an HPC
 * interconnect.  Within a node (shared memory): 1 us, 5 GB/s, 0.3 us.
 * Only their ratios matter for a choice; both can be overridden
 * (INTERGATHER_NET_MODEL, INTERGATHER_SHM_MODEL). */
extern const ig_cost_params ig_cost_default;
extern const ig_cost_params ig_cost_shared_memory;

/* Half duplex: every sender's block straight to every receiver, all posted
 * at once (algo_direct.c): t_s, then max(p, q) messages; over a network
 * their per-message costs t_o overlap the link time k t_w of the others,
 * max(p, q) max(t_o, k t_w) + min(t_o, k t_w), within a node they add up,
 * max(p, q) (t_o + k t_w). */
double ig_cost_direct_half(int p, int q, double k, const ig_cost_params *c);
/* The same with blocks of different sizes (MPI_Allgatherv), k their
 * average and k_max the largest: over a network the largest block's sender
 * sends it q times (q k_max on its link) while each receiver takes p k, so
 * the busier of the two links paces the call (within a node, where
 * receivers copy, max(p, q) k as above); with equal blocks, the function
 * above.
 * Measured on the emulated cluster at 8+8 with blocks of 1/8 to 8/8 of the
 * largest: direct reached 95 % of the largest sender's link and 54 % of
 * the receivers' (docs/performance.md, thirty-seventh session). */
double ig_cost_direct_half_blocks(int p, int q, double k, double k_max, const ig_cost_params *c);
/* Full duplex, the same in both directions at once. */
double ig_cost_direct_full(int na, double ka, int nb, double kb, const ig_cost_params *c);
/* Half duplex, pipelined chain (algo_chain.c) with segments of `seg` bytes
 * (0: whole blocks): every receiver's link carries p k, plus the q - 1
 * segments that fill the pipeline and two per-message costs per segment. */
double ig_cost_chain_half(int p, int q, double k, double seg, const ig_cost_params *c);
/* The segment size that balances those two terms, at least `floor` bytes
 * and at most k. */
double ig_chain_segment(int p, int q, double k, double floor, const ig_cost_params *c);

/* Half duplex, the relay (algo_relay.c): two dependent hops, the first
 * part of a piece (k / q bytes, or `part` where a piece travels in parts
 * of that many; 0: whole pieces) before anything is relayed, then every
 * receiver's link carries p k; a receiver handles p q pieces and sends
 * p (q - 1), each as many messages as a piece has parts. */
double ig_cost_relay_half(int p, int q, double k, double part, const ig_cost_params *c);

/* Half duplex, p > q: the blocks spread over the receivers in ranges
 * (ceil(p / q) messages posted at once, as direct's), then one allgatherv
 * among the receivers (algo_spread.c). */
double ig_cost_spread_half(int p, int q, double k, const ig_cost_params *c);

/* Half duplex, p < q, the star (algo_star.c): two rounds of messages
 * posted at once, each round paced as direct's: a sender's s = q / p whole
 * blocks, then a team member's p - 1 + e (e the most extras a team has,
 * ceil((q mod p) / s)) while its link takes the other p - 1 blocks; only
 * the last of a sender's messages waits behind the others, so the second
 * round starts after s k t_w at the latest.  HUGE_VAL where p >= q. */
double ig_cost_star_half(int p, int q, double k, const ig_cost_params *c);

/* The parameters from three timings and one difference of a ping-pong
 * (net_measure.c), in seconds, each a message (or messages) and a 1-byte
 * reply: round_trip, a 1-byte message; large, one of `bytes` bytes;
 * burst_extra, what `burst_count` pieces, posted at once as that many
 * messages, took beyond the same bytes as one message (timed side by side,
 * net_measure.c).  t_o is what each extra message of the burst adds: the
 * per-message cost that the transfer does not hide (counted with 1-byte
 * messages it would be mostly latency, and on the emulated cluster that
 * made the model prefer two-stage plans that measured up to 1.3x slower);
 * t_w is what each extra byte of the large message adds; t_s the rest of
 * a one-way message (t_s + t_o = half the round trip: one message of a
 * dependent round, as the costs here count it).  A negative difference
 * (noise) counts as zero, and t_o is at most half the round trip: a
 * message's own cost is part of its one-way time, so more is noise too (a
 * burst slowed by something else: on the emulated cluster one run measured
 * t_o = 0.95 ms where the others' round trips were 0.16 to 0.55 ms, and its
 * model chose fc over the relay at 64 KiB to 1 MiB, 1.4x to 1.6x slower:
 * docs/performance.md, sixty-ninth session). */
ig_cost_params ig_cost_fit(double round_trip, double large, double bytes, double burst_extra, int burst_count);

int ig_ceil_log2(int n);
/* Half duplex, p senders of k bytes each to q receivers (README table). */
double ig_cost_fc_half(int p, int q, double k, const ig_cost_params *c);
double ig_cost_root_gathering(int p, int q, double k, const ig_cost_params *c);
/* Full duplex: group A (na processes, ka bytes each) and B (nb, kb). */
double ig_cost_fd(int na, double ka, int nb, double kb, const ig_cost_params *c);
double ig_cost_root_gathering_full(int na, double ka, int nb, double kb, const ig_cost_params *c);

#endif
