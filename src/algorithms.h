/*
 * The algorithms, on a pair (pair.h), for a call described by an ig_xfer
 * (xfer.h).  Each returns an MPI error code.  Which one runs is decided by
 * classify.c; include/intergather.h wraps them for direct use.
 */
#ifndef IG_ALGORITHMS_H
#define IG_ALGORITHMS_H

#include "blocks.h"
#include "intergather.h"
#include "pair.h"
#include "spread.h"
#include "xfer.h"

/* Half duplex, ranks 0..p-1 send: the paper's fully connected algorithm. */
int ig_fc_run(ig_pair *pair, const ig_xfer *x);
/* Half duplex, ranks 0..p-1 send: the paper's ring algorithm. */
int ig_ring_run(ig_pair *pair, ig_ring_kind kind, const ig_xfer *x);

/* An MPI_Allgather-style (uniform) description of a call.  *rblk holds the
 * receive block type (MPI_DATATYPE_NULL when this process receives nothing);
 * release it with ig_block_free. */
int ig_xfer_uniform_make(ig_xfer *x, ig_block *rblk, const void *sbuf, int scount, MPI_Datatype stype,
                         void *rbuf, int rcount, MPI_Datatype rtype);

#endif
