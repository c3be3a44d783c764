/*
 * Spread (half duplex, p > q; not in the paper): the p blocks are divided
 * over the q receivers in contiguous ranges, each receiver takes its range
 * straight from the senders, and the receivers assemble every block with
 * one in-place allgatherv -- the full-duplex algorithm's exchange in one
 * direction (algo_full_duplex.c).  The same p k t_w at each receiver as the
 * paper's plan for p > q (algo_fc.c, where the p - q extra senders join the
 * receivers' allgather), but senders receive nothing: the paper's plan
 * copies p (p - 1) + q blocks where spreading copies about p q, which made
 * it slower than native on shared memory (docs/performance.md).  It is also
 * the plan for MPI_Allgatherv with p > q, whose senders could not describe
 * the others' blocks.
 */
#include "algorithms.h"

int ig_alg_spread(ig_pair *pair, const ig_xfer *x, const ig_step *step)
{
    return ig_range_exchange(pair, x, 1, 0, step);
}
