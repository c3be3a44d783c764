/*
 * Spread: a sending group's blocks are divided over the other group's
 * processes in contiguous ranges (fd_plan.h); each process receives its
 * range straight from the senders, then the receiving group assembles every
 * block with in-place allgatherv on its own communicator.
 *
 *   ig_fd_run      both groups send at once: the full-duplex algorithm
 *                  (Kang, Traff et al., EuroMPI'18), ranks 0..p-1 one
 *                  group, p.. the other.
 *   ig_spread_run  only ranks 0..p-1 send (MPI_Allgatherv with p > q).
 */
#ifndef IG_SPREAD_H
#define IG_SPREAD_H

#include "pair.h"
#include "xfer.h"

int ig_fd_run(ig_pair *pair, const ig_xfer *x);
int ig_spread_run(ig_pair *pair, const ig_xfer *x);

#endif
