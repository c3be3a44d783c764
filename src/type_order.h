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

/* Everything a call's classification asks about one datatype. */
typedef struct {
    ig_type_layout layout;
    int in_order; /* ig_type_in_order */
} ig_type_facts;

/* The facts of a predefined (MPI_COMBINER_NAMED) type kept by
 * ig_type_facts_keep: 1 with *f filled, 0 for any other handle.  A named
 * type's handle and answers never change while MPI runs, so a call with
 * MPI_BYTE or MPI_INT asks the MPI library once, not five times per call
 * (on shared memory those questions cost about as much as a 1 KiB
 * message).  Thread-safe, lock-free. */
int ig_type_facts_kept(MPI_Datatype type, ig_type_facts *f);

/* Keep the facts of `type` if it is a named type (checked here) and there
 * is room (16 types; beyond them the facts are asked for each call, as
 * for derived types).  The caller has checked that the type is usable. */
void ig_type_facts_keep(MPI_Datatype type, const ig_type_facts *f);

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
