/*
 * Whether a datatype's elements lie in memory order.  Size, extent and true
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

/* 1 when every element of the type's type map starts at or after the end of
 * the element before it: no byte is read twice, none out of order.  0 also
 * where it cannot tell (constructors it does not decode -- subarray, darray,
 * the deprecated Fortran-integer variants -- or a failed query): that only
 * keeps a call off the plans that need the answer 1. */
int ig_type_in_order(MPI_Datatype type);

#endif
