/*
 * The group stage, by one of two runners (the decision picks, decide.c):
 *
 *   mpi   the MPI library's tuned MPI_Allgather(v), as the paper.
 *   ring  intergather's neighbour ring: n - 1 Sendrecv steps, each member
 *         forwarding to its right what it got from its left.  Every link
 *         carries (n - 1) k once, so the stage runs at link rate on any
 *         network; Open MPI's default choice for large blocks ran at about
 *         half the link rate on the emulated cluster (docs/performance.md).
 *
 * Deviation from the paper, which runs this stage as MPI_Allgather: the
 * default (INTERGATHER_GROUP_ALLGATHER=auto) hands large blocks to the
 * ring, because the paper's bandwidth term (p - 1) k t_w for this stage
 * assumes an allgather that keeps every link busy.
 */
#include "group_allgather.h"

#include "blocks.h"
#include "stats.h"
#include "tags.h"

#include <stddef.h>

static void *member_ptr(void *buf, const int *displs, MPI_Aint extent, int k)
{
    return ig_offset(buf, displs == NULL ? k : displs[k], extent);
}

static int member_count(const int *counts, int k)
{
    return counts == NULL ? 1 : counts[k];
}

/* Step t: send what arrived in step t - 1 (own block at t = 0) to the
 * right, receive the next one from the left.  A failed step does not stop
 * the ring (the others would wait for the rest of it). */
static int ring_in_place(void *buf, const int *counts, const int *displs, MPI_Datatype type, MPI_Aint extent,
                         MPI_Comm comm)
{
    int n, me, first_error = MPI_SUCCESS;
    PMPI_Comm_size(comm, &n);
    PMPI_Comm_rank(comm, &me);
    int right = (me + 1) % n, left = (me + n - 1) % n;
    for (int t = 0; t < n - 1; t++) {
        int out = (me - t + n) % n, in = (me - t - 1 + n) % n;
        int rc = PMPI_Sendrecv(member_ptr(buf, displs, extent, out), member_count(counts, out), type, right,
                               IG_TAG_GATHER, member_ptr(buf, displs, extent, in), member_count(counts, in), type,
                               left, IG_TAG_GATHER, comm, MPI_STATUS_IGNORE);
        if (first_error == MPI_SUCCESS)
            first_error = rc;
    }
    return first_error;
}

int ig_group_allgatherv(void *buf, const int *counts, const int *displs, MPI_Datatype type, MPI_Aint extent,
                        MPI_Comm comm, ig_group_stage stage)
{
    ig_stats_group_stage(stage);
    if (stage == IG_GROUP_STAGE_RING)
        return ring_in_place(buf, counts, displs, type, extent, comm);
    if (counts == NULL)
        return PMPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 1, type, comm);
    return PMPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, counts, displs, type, comm);
}
