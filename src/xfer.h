/*
 * One process's part in one call, for every algorithm and both MPI
 * functions: what it sends, and where each remote block lands.
 *
 * MPI_Allgather: the receive side is "uniform": block i is one element of a
 * block datatype (rcount elements of the user's type, see blocks.h) at
 * rbuf + i * extent.  MPI_Allgatherv: block i is rcounts[i] elements of the
 * user's type at rbuf + rdispls[i] * extent, with counts and displacements
 * exactly as the user passed them.
 */
#ifndef IG_XFER_H
#define IG_XFER_H

#include "blocks.h"

#include <mpi.h>
#include <stddef.h>

typedef struct {
    const void *sbuf; /* this process's block, if its group sends */
    int scount;
    MPI_Datatype stype;

    void *rbuf;          /* the remote blocks, if the remote group sends */
    MPI_Datatype rtype;  /* uniform: the block type; varying: the user's type */
    MPI_Aint rextent;
    int ucount;          /* uniform: blocks of rtype per remote process, 1 (or 0 when rcount is 0) */
    const int *rcounts;  /* NULL when uniform */
    const int *rdispls;
} ig_xfer;

/* An MPI_Allgather (uniform) call.  *rblk receives the block type
 * (MPI_DATATYPE_NULL when this process receives nothing); release it with
 * ig_block_free once the call is done. */
int ig_xfer_uniform_make(ig_xfer *x, ig_block *rblk, const void *sbuf, int scount, MPI_Datatype stype,
                         void *rbuf, int rcount, MPI_Datatype rtype);

/* An MPI_Allgatherv (varying) call: the user's counts and displacements. */
int ig_xfer_varying_make(ig_xfer *x, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                         const int *rcounts, const int *rdispls, MPI_Datatype rtype, int receives);

static inline int ig_xfer_uniform(const ig_xfer *x)
{
    return x->rcounts == NULL;
}

static inline void *ig_xfer_rptr(const ig_xfer *x, int block)
{
    return ig_offset(x->rbuf, x->rcounts == NULL ? block : x->rdispls[block], x->rextent);
}

static inline int ig_xfer_rcount(const ig_xfer *x, int block)
{
    return x->rcounts == NULL ? x->ucount : x->rcounts[block];
}

/* Allgatherv arguments for an in-place gather over `n` members where member
 * k contributes block blocks[k] (or nothing when blocks[k] < 0): counts and
 * displacements in the receive type's units. */
static inline void ig_xfer_gather_layout(const ig_xfer *x, int n, const int *blocks, int *counts, int *displs)
{
    for (int k = 0; k < n; k++) {
        int b = blocks[k];
        counts[k] = b < 0 ? 0 : ig_xfer_rcount(x, b);
        displs[k] = b < 0 ? 0 : x->rcounts == NULL ? b : x->rdispls[b];
    }
}

#endif
