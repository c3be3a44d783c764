/*
 * Baselines the benchmark compares the library against, rebuilt here so
 * that they also run where no inter-communicator exists (SimGrid SMPI) and
 * on the same buffers as the library's algorithms.  Not part of the
 * library.  On `comm`, ranks 0..p-1 send one block of `bytes` bytes each
 * and ranks p.. receive the p blocks, in order, at rbuf; `side` is this
 * process's own group (senders or receivers).
 */
#ifndef BENCH_BASELINES_H
#define BENCH_BASELINES_H

#include <mpi.h>

/* What Open MPI's coll/inter and MPICH do for an inter-communicator
 * allgather (the paper's section III-A): gather to sender 0, send to
 * receiver 0, broadcast among the receivers. */
int bench_root_gathering(MPI_Comm comm, MPI_Comm side, int p, const void *sbuf, void *rbuf, int bytes);

/* The paper's baseline on a ring: an intra-group ring allgather over all
 * p + q processes (p + q - 1 neighbour steps), receivers contributing a
 * dummy block. */
int bench_intra_ring(MPI_Comm comm, int p, const void *sbuf, void *rbuf, int bytes);

#endif
