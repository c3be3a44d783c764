/*
 * Blocks: one process's contribution (count elements of a datatype) as a
 * single derived datatype, so every stage moves "1 block" and all offsets are
 * MPI_Aint multiples of the block extent: no int overflow however large the
 * total, and non-contiguous, resized or lower-bounded types work unchanged.
 */
#ifndef IG_BLOCKS_H
#define IG_BLOCKS_H

#include <mpi.h>
#include <stddef.h>

typedef struct {
    MPI_Datatype type; /* contiguous(count, elem), committed */
    MPI_Aint extent;   /* spacing of consecutive blocks, as native MPI uses */
    MPI_Aint true_lb, true_extent;
} ig_block;

/* On failure b->type is MPI_DATATYPE_NULL (ig_block_free does nothing). */
int ig_block_make(int count, MPI_Datatype elem, ig_block *b);
void ig_block_free(ig_block *b);

/* Whether count elements of the type are exactly count * size contiguous
 * bytes from the true lower bound on, in order (then a block can be cut
 * into byte ranges: the chain's segments, the relay's pieces); 0 if the MPI
 * library cannot tell. */
int ig_type_contiguous(int count, MPI_Datatype type);

/* Where count elements of elem start in memory, relative to the buffer:
 * the true lower bound of contiguous(count, elem), found without building
 * that type (nothing is allocated, so it cannot fail for want of memory). */
int ig_block_true_lb(int count, MPI_Datatype elem, MPI_Aint *true_lb);

/* Element `index` of an array whose elements are `extent` apart: the one
 * offset formula for every block and member buffer in intergather. */
static inline void *ig_offset(void *base, MPI_Aint index, MPI_Aint extent)
{
    return (char *)base + index * extent;
}

static inline void *ig_block_slot(void *base, const ig_block *b, int i)
{
    return ig_offset(base, i, b->extent);
}

/* Scratch space for n blocks; *base is what MPI calls take (it accounts for
 * a negative true lower bound), *raw is what ig_block_scratch_free takes. */
int ig_block_scratch(const ig_block *b, int n, void **base, void **raw);
void ig_block_scratch_free(void *raw);

/* Copy (scount, stype) at src into (rcount, rtype) at dst as a receive
 * would, locally: a send to self (rank `self`) on a private communicator. */
int ig_copy_to_self(const void *src, int scount, MPI_Datatype stype, void *dst, int rcount, MPI_Datatype rtype,
                    MPI_Comm private_comm, int self);

/* Copy one block between two buffers of the same layout, locally. */
int ig_block_copy(const void *src, void *dst, const ig_block *b, MPI_Comm private_comm, int self);

#endif
