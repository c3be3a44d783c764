/*
 * Full-duplex plan and the cost model (pure, no MPI).
 *
 * Full duplex (both groups send; Kang, Traff et al., EuroMPI'18): each
 * group's concatenated blocks are divided evenly over the other group's
 * processes in contiguous ranges.  Destination d of a group of n_dst
 * processes owns source blocks [ig_fd_first(n_src, n_dst, d),
 * ig_fd_first(n_src, n_dst, d + 1)).  Stage 1: every process sends its own
 * block to the remote process that owns it and receives the remote blocks it
 * owns, all at once; stage 2: each group runs one allgatherv (in place) to
 * assemble the remote group's blocks.  Splitting at block (not byte)
 * granularity keeps every block one derived-datatype element, so any
 * datatype works; a destination owns at most ceil(n_src / n_dst) blocks.
 */
#ifndef IG_FD_PLAN_H
#define IG_FD_PLAN_H

int ig_fd_first(int n_src, int n_dst, int d);
int ig_fd_owner(int n_src, int n_dst, int block);

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
