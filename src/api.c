/*
 * The internal API of include/intergather.h: MPI_Allgather-style calls on a
 * pair, for the benchmark and the simulator.  The shim's dispatcher calls
 * the same algorithm functions (algorithms.h).
 */
#include "algorithms.h"

int ig_xfer_uniform_make(ig_xfer *x, ig_block *rblk, const void *sbuf, int scount, MPI_Datatype stype,
                         void *rbuf, int rcount, MPI_Datatype rtype)
{
    rblk->type = MPI_DATATYPE_NULL;
    rblk->extent = 0;
    if (rcount > 0) {
        int rc = ig_block_make(rcount, rtype, rblk);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    ig_xfer u = { sbuf, scount, stype, rbuf, rblk->type, rblk->extent, NULL, NULL, NULL };
    *x = u;
    return MPI_SUCCESS;
}

typedef enum { RUN_FC, RUN_FD, RUN_RING_OPTIMAL, RUN_RING_PAPER } run_kind;

static int run_uniform(ig_pair *pair, run_kind kind, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                       int rcount, MPI_Datatype rtype)
{
    ig_xfer x;
    ig_block rblk;
    int rc = ig_xfer_uniform_make(&x, &rblk, sbuf, scount, stype, rbuf, rcount, rtype);
    if (rc != MPI_SUCCESS)
        return rc;
    switch (kind) {
    case RUN_FC: rc = ig_fc_run(pair, &x); break;
    case RUN_FD: rc = ig_fd_run(pair, &x); break;
    case RUN_RING_OPTIMAL: rc = ig_ring_run(pair, IG_RING_OPTIMAL, &x); break;
    case RUN_RING_PAPER: rc = ig_ring_run(pair, IG_RING_PAPER, &x); break;
    }
    ig_block_free(&rblk);
    return rc;
}

int ig_pair_allgather_fc(ig_pair *pair, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype)
{
    return run_uniform(pair, RUN_FC, sbuf, scount, stype, rbuf, rcount, rtype);
}

int ig_pair_allgather_fd(ig_pair *pair, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype)
{
    return run_uniform(pair, RUN_FD, sbuf, scount, stype, rbuf, rcount, rtype);
}

int ig_pair_allgather_ring(ig_pair *pair, ig_ring_kind kind, const void *sbuf, int scount, MPI_Datatype stype,
                           void *rbuf, int rcount, MPI_Datatype rtype)
{
    return run_uniform(pair, kind == IG_RING_PAPER ? RUN_RING_PAPER : RUN_RING_OPTIMAL, sbuf, scount, stype, rbuf,
                       rcount, rtype);
}
