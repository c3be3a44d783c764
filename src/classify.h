/*
 * Call classification and dispatch, shared by the C and Fortran entry points
 * of MPI_Allgather and MPI_Allgatherv (one path, so a call is judged the same
 * way whatever language or function made it).
 *
 * Every process of both groups must reach the same decision.  MPI_Allgather:
 * the byte counts alone decide it, and the standard makes them consistent
 * (every process of a group sends the same type signature, and a receive
 * signature equals the remote group's send signature), so no communication
 * is needed.  MPI_Allgatherv: a process knows what the remote group sends
 * (its receive counts) but only its own share of what its group sends, so
 * the group exchanges its send sizes (one small allgather per call on a
 * private communicator) before deciding; nothing is cached across calls.
 */
#ifndef IG_CLASSIFY_H
#define IG_CLASSIFY_H

#include "stats.h"

#include <mpi.h>

typedef enum { IG_OP_ALLGATHER = 0, IG_OP_ALLGATHERV } ig_op;

typedef enum {
    IG_DUPLEX_UNKNOWN = 0, /* MPI_Allgatherv before the size exchange */
    IG_DUPLEX_EMPTY,       /* neither group sends anything */
    IG_DUPLEX_HALF,        /* one group sends, the other receives */
    IG_DUPLEX_FULL         /* both groups send */
} ig_duplex;

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
    /* Filled by classification. */
    ig_duplex duplex;
    int local_sends;             /* some process of this group sends */
    int remote_size;
    MPI_Count send_bytes;        /* this process's block */
    MPI_Count remote_max_bytes;  /* largest block the remote group sends */
    MPI_Count remote_total_bytes;
} ig_call;

/* Returns 1 when the shim may serve the call, 0 when it must go native (the
 * reason is counted). */
int ig_call_classify(ig_call *call);

/* Serve a classified call.  Returns 1 and sets *rc when served; returns 0 when
 * the call must go native after all (settings, size; the reason is counted). */
int ig_call_dispatch(ig_call *call, int *rc);

#endif
