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

#endif
