/*
 * Call classification and dispatch, shared by the C and Fortran entry points
 * (one path, so a call is judged the same way whatever language made it).
 *
 * Classification uses only what the MPI standard makes consistent across all
 * processes of both groups: the communicator, and the byte counts each group
 * sends (every process of a group sends the same type signature, and each
 * process's receive signature equals the remote group's send signature).  So
 * every process reaches the same decision without communicating.
 */
#ifndef IG_CLASSIFY_H
#define IG_CLASSIFY_H

#include "stats.h"

#include <mpi.h>

typedef enum {
    IG_DUPLEX_EMPTY = 0, /* neither group sends anything */
    IG_DUPLEX_HALF,      /* one group sends, the other receives */
    IG_DUPLEX_FULL       /* both groups send */
} ig_duplex;

typedef struct {
    const void *sbuf;
    int scount;
    MPI_Datatype stype;
    void *rbuf;
    int rcount;
    MPI_Datatype rtype;
    MPI_Comm comm;
    /* Filled by classification. */
    ig_duplex duplex;
    int local_sends;       /* half duplex: this process's group is the sending one */
    MPI_Count send_bytes;  /* bytes each process of this group sends */
    MPI_Count recv_bytes;  /* bytes each process of the remote group sends */
} ig_allgather_call;

/* Returns 1 when the shim may serve the call, 0 when it must go native (the
 * reason is counted). */
int ig_allgather_classify(ig_allgather_call *call);

/* Serve a classified call.  Returns 1 and sets *rc when served; returns 0 when
 * the call must go native after all (settings, size; the reason is counted). */
int ig_allgather_dispatch(const ig_allgather_call *call, int *rc);

#endif
