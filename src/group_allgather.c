/*
 * The intra-group allgather stage of the fully connected algorithms, in
 * place: every member's contribution already sits at its displacement in
 * the buffer.  INTERGATHER_GROUP_ALLGATHER chooses who runs it:
 *
 *   auto  (default) ring when the members contribute IG_GROUP_RING_MIN_BYTES
 *         or more on average, mpi below (settings.h says why).
 *   mpi   the MPI library's tuned MPI_Allgather(v), as the paper.
 *   ring  intergather's neighbour ring: n - 1 Sendrecv steps, each member
 *         forwarding to its right what it got from its left.  Every link
 *         carries (n - 1) k once, so the stage runs at link rate on any
 *         network; Open MPI's default choice for large blocks ran at about
 *         half the link rate on the emulated cluster (docs/performance.md).
 *
 * Deviation from the paper, which runs this stage as MPI_Allgather: `auto`
 * hands large blocks to the ring, because the paper's bandwidth term
 * (p - 1) k t_w for this stage assumes an allgather that keeps every link
 * busy, and the MPI library's choice did not.
 */
#include "group_allgather.h"

#include "blocks.h"
#include "settings.h"
#include "stats.h"

static void *member_ptr(void *buf, const int *displs, MPI_Aint extent, int k)
{
    return (char *)buf + (MPI_Aint)(displs == NULL ? k : displs[k]) * extent;
}

static int ring_in_place(void *buf, const int *counts, const int *displs, MPI_Datatype type, MPI_Aint extent,
                         MPI_Comm comm)
{
    int n, me, rc = MPI_SUCCESS;
    PMPI_Comm_size(comm, &n);
    PMPI_Comm_rank(comm, &me);
    int right = (me + 1) % n, left = (me + n - 1) % n;
    for (int t = 0; t < n - 1 && rc == MPI_SUCCESS; t++) {
        int out = (me - t + n) % n, in = (me - t - 1 + n) % n;
        rc = PMPI_Sendrecv(member_ptr(buf, displs, extent, out), counts == NULL ? 1 : counts[out], type, right,
                           IG_TAG_GATHER, member_ptr(buf, displs, extent, in), counts == NULL ? 1 : counts[in],
                           type, left, IG_TAG_GATHER, comm, MPI_STATUS_IGNORE);
    }
    return rc;
}

/* The stage to run: the same answer on every member, since the counts and
 * the type signature are common to the group. */
static ig_group_allgather stage_for(const int *counts, MPI_Datatype type, MPI_Comm comm)
{
    int n;
    MPI_Count type_bytes;
    PMPI_Comm_size(comm, &n);
    PMPI_Type_size_x(type, &type_bytes);
    uint64_t elements = 0;
    for (int k = 0; k < n; k++)
        elements += counts == NULL ? 1u : (uint64_t)counts[k];
    return ig_group_allgather_resolve(ig_settings_get()->group_allgather, elements * (uint64_t)type_bytes, n);
}

int ig_group_allgatherv(void *buf, const int *counts, const int *displs, MPI_Datatype type, MPI_Aint extent,
                        MPI_Comm comm)
{
    if (stage_for(counts, type, comm) == IG_GROUP_ALLGATHER_RING) {
        ig_stats_group_stage(IG_STAGE_RING);
        return ring_in_place(buf, counts, displs, type, extent, comm);
    }
    ig_stats_group_stage(IG_STAGE_MPI);
    if (counts == NULL)
        return PMPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, 1, type, comm);
    return PMPI_Allgatherv(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, buf, counts, displs, type, comm);
}
