/*
 * Classification: what one MPI_Allgather(v) call is, from this process's
 * arguments alone (no communication).
 *
 * Two outcomes.  A call that every process of the communicator necessarily
 * classifies alike (MPI not running, MPI_COMM_NULL, an intra-communicator,
 * another MPI library's handles) goes native at once.  Every other call --
 * any call on an inter-communicator -- enters the collective path
 * (serve.h), where the processes first agree on what the call is
 * (agree.h); this file only records this process's view of it, including
 * any reason this process cannot be served (local_reason), so that the
 * choice to go native is taken jointly, never by one process alone.
 */
#ifndef IG_CALL_H
#define IG_CALL_H

#include "stats.h"

#include <mpi.h>
#include <stdint.h>

typedef enum { IG_OP_ALLGATHER = 0, IG_OP_ALLGATHERV } ig_op;

typedef struct {
    ig_op op;
    const void *sbuf;
    int scount;
    MPI_Datatype stype;
    void *rbuf;
    int rcount;          /* MPI_Allgather */
    const int *rcounts;  /* MPI_Allgatherv */
    const int *rdispls;
    MPI_Datatype rtype;
    MPI_Comm comm;
    int from_fortran;

    /* This process's view, filled by ig_call_classify. */
    int remote_size;
    int64_t send_bytes;      /* this process's block */
    int64_t rtype_size;      /* bytes of one element of the receive type */
    MPI_Aint rtype_extent;   /* its extent (MPI_Allgather places remote block j at j rcount extents) */
    int64_t expect_bytes;    /* MPI_Allgather: bytes of each remote block */
    int send_overlaps;       /* the send type cannot be received into (overlapping or non-positive extent),
                              * or p blocks of it would be sparse scratch (call.c) */
    int scattered;           /* this process's send or receive block is not one contiguous piece of memory */
    int sparse_receive;      /* MPI_Allgather: its receive buffer is sparse (shape.h, ig_shape_span_sparse) */
    ig_fallback local_reason;/* why this process cannot be served, or IG_FALLBACK_NONE */
    /* The error class of arguments that cannot be used point to point at
     * all (MPI_IN_PLACE, a negative count, an unusable type), as the MPI
     * library reports them, or MPI_ERR_NO_MEM where a receive type never
     * committed could not be duplicated (call.c); MPI_SUCCESS when they
     * can, even if the call is left to the MPI library (a NULL buffer may
     * be MPI_BOTTOM). */
    int hard_error;
    /* When rtype_is_copy, rtype is a committed duplicate of the program's
     * receive type, program_rtype, made by ig_call_classify; ig_call_release
     * frees it and puts program_rtype back (call.c says why). */
    int rtype_is_copy;
    MPI_Datatype program_rtype;
} ig_call;

/* Returns 1 when the call enters the collective path (an inter-communicator
 * with MPI running), 0 when it goes native at once (the reason is counted).
 */
int ig_call_classify(ig_call *call);

/* Free what ig_call_classify made for the call (after it is served or
 * handed to the MPI library). */
void ig_call_release(ig_call *call);

/* Bytes this process expects from remote process i (in an MPI_Allgather
 * the same from every one). */
static inline int64_t ig_call_expected_from(const ig_call *call, int i)
{
    return call->op == IG_OP_ALLGATHER ? call->expect_bytes : (int64_t)call->rcounts[i] * call->rtype_size;
}

#endif
