/*
 * The cost model (pure, no MPI): the t_s + k t_w model of the seeds, one
 * function per algorithm, in seconds.  The decision (decide.c) compares
 * them; README "How it works" tabulates them.
 */
#ifndef IG_COST_MODEL_H
#define IG_COST_MODEL_H

/* Costs in seconds in the t_s + k t_w model (k in bytes).  log terms are
 * ceil(log2(n)), as tree-based collectives take. */
typedef struct {
    double ts; /* start-up latency per message, seconds */
    double tw; /* transfer time per byte, seconds */
} ig_cost_params;

/* Defaults for the per-call choice: 5 us and 10 GB/s, typical of an HPC
 * interconnect; only the ratio matters for the choice. */
extern const ig_cost_params ig_cost_default;

int ig_ceil_log2(int n);
/* Half duplex, p senders of k bytes each to q receivers (README table). */
double ig_cost_fc_half(int p, int q, double k, const ig_cost_params *c);
double ig_cost_root_gathering(int p, int q, double k, const ig_cost_params *c);
/* Full duplex: group A (na processes, ka bytes each) and B (nb, kb). */
double ig_cost_fd(int na, double ka, int nb, double kb, const ig_cost_params *c);
double ig_cost_two_halves(int na, double ka, int nb, double kb, const ig_cost_params *c);
double ig_cost_root_gathering_full(int na, double ka, int nb, double kb, const ig_cost_params *c);

/* 1 when the full-duplex algorithm is predicted faster than running the two
 * half-duplex directions one after the other.  Symmetric in (A, B), so both
 * groups reach the same choice. */
int ig_fd_preferred(int na, double ka, int nb, double kb, const ig_cost_params *c);

#endif
