/*
 * Whether a datatype's elements lie in memory order (and its layout, the
 * size and bounds every check starts from).  Size, extent and true
 * extent cannot tell: a type that lists two ints in reverse order, or one
 * int twice and the next one not at all, has the size and true extent of
 * two or three ints in order, and moving its block as raw bytes (the
 * relay's pieces and the chain's segments) or receiving into it (the join
 * plan) would not give what MPI gives.  The type's constructors tell
 * (MPI_Type_get_envelope / MPI_Type_get_contents).
 */
#ifndef IG_TYPE_ORDER_H
#define IG_TYPE_ORDER_H

#include <mpi.h>

/* A datatype's size, bounds and true bounds. */
typedef struct {
    MPI_Count size;
    MPI_Aint lb, extent, true_lb, true_extent;
} ig_type_layout;

/* 1 with *l filled; 0 if MPI cannot give them or the size overflows a count. */
int ig_type_layout_of(MPI_Datatype type, ig_type_layout *l);

/* 1 when every element of the type's type map starts at or after the end of
 * the element before it: no byte is read twice, none out of order.  0 also
 * where it cannot tell (constructors it does not decode -- subarray, darray,
 * the deprecated Fortran-integer variants -- or a failed query): that only
 * keeps a call off the plans that need the answer 1. */
int ig_type_in_order(MPI_Datatype type);

/* Whether count elements of a type with this layout and order answer are
 * exactly count * size contiguous bytes from the true lower bound on: the
 * bounds rule out gaps (the data fill the true extent) and, for several
 * elements, spacing other than back to back; the order rules out bytes read
 * twice or out of order, which have the same bounds. */
static inline int ig_layout_contiguous(int count, const ig_type_layout *l, int in_order)
{
    return count == 0 || l->size == 0 ||
           (l->true_extent == (MPI_Aint)l->size && (count == 1 || l->extent == l->true_extent) && in_order);
}

#endif
