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

#include <mpi.h>
#include <stddef.h>

typedef struct {
    const void *sbuf; /* this process's block, if its group sends */
    int scount;
    MPI_Datatype stype;

    void *rbuf;          /* the remote blocks, if the remote group sends */
    MPI_Datatype rtype;  /* uniform: the block type; varying: the user's type */
    MPI_Aint rextent;
    const int *rcounts;  /* NULL when uniform */
    const int *rdispls;

    /* Varying only: bytes of each block of the sending group, known to all
     * of its processes (exchanged per call) and to the receivers (from
     * rcounts); senders relaying others' blocks (ring) size buffers by it. */
    const MPI_Count *group_bytes;
} ig_xfer;

static inline int ig_xfer_uniform(const ig_xfer *x)
{
    return x->rcounts == NULL;
}

static inline void *ig_xfer_rptr(const ig_xfer *x, int block)
{
    MPI_Aint offset = x->rcounts == NULL ? (MPI_Aint)block : (MPI_Aint)x->rdispls[block];
    return (char *)x->rbuf + offset * x->rextent;
}

static inline int ig_xfer_rcount(const ig_xfer *x, int block)
{
    return x->rcounts == NULL ? 1 : x->rcounts[block];
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
