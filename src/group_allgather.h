/*
 * The intra-group allgather stage of the fully connected algorithms, in
 * place: every member's contribution already sits at its displacement.
 */
#ifndef IG_GROUP_ALLGATHER_H
#define IG_GROUP_ALLGATHER_H

#include "settings.h"

#include <mpi.h>

/* In-place allgather(v) over comm: member k's contribution is counts[k]
 * elements of type at buf + displs[k] * extent (counts == NULL: one element
 * at buf + k * extent for every member), run by `stage`
 * (IG_GROUP_STAGE_MPI or IG_GROUP_STAGE_RING; every member passes the
 * same).  All members use MPI_IN_PLACE (an intra-communicator collective
 * requires all or none of them to). */
int ig_group_allgatherv(void *buf, const int *counts, const int *displs, MPI_Datatype type, MPI_Aint extent,
                        MPI_Comm comm, ig_group_stage stage);

#endif
