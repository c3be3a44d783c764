#include "pair.h"

#include "stats.h"

#include <stdlib.h>

int ig_private_comm_free(MPI_Comm *comm)
{
    if (*comm == MPI_COMM_NULL)
        return MPI_SUCCESS;
    ig_stats_comm_freed(1);
    return PMPI_Comm_free(comm);
}

/* Internal communicators report errors to us; the entry point hands them to
 * the user's communicator, whose error handler the user chose. */
int ig_private_comm_setup(MPI_Comm comm)
{
    if (comm == MPI_COMM_NULL)
        return MPI_SUCCESS;
    ig_stats_comm_created(1);
    return PMPI_Comm_set_errhandler(comm, MPI_ERRORS_RETURN);
}

int ig_pair_adopt(MPI_Comm comm, int p, ig_pair **out)
{
    ig_pair *pair = calloc(1, sizeof *pair);
    if (pair == NULL)
        return MPI_ERR_NO_MEM;
    int size;
    pair->comm = comm;
    pair->fc_bcast = pair->fc_gather = pair->side = MPI_COMM_NULL;
    PMPI_Comm_size(comm, &size);
    PMPI_Comm_rank(comm, &pair->rank);
    pair->p = p;
    pair->q = size - p;
    *out = pair;
    return MPI_SUCCESS;
}

int ig_pair_create(MPI_Comm comm, int p, ig_pair **out)
{
    int size;
    MPI_Comm dup;
    int rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    if (p < 1 || p >= size)
        return MPI_ERR_ARG;
    rc = PMPI_Comm_dup(comm, &dup);
    if (rc == MPI_SUCCESS)
        rc = ig_private_comm_setup(dup);
    if (rc != MPI_SUCCESS)
        return rc;
    return ig_pair_adopt(dup, p, out);
}

int ig_pair_free(ig_pair **pair)
{
    ig_pair *pr = *pair;
    if (pr == NULL)
        return MPI_SUCCESS;
    ig_private_comm_free(&pr->fc_bcast);
    ig_private_comm_free(&pr->fc_gather);
    ig_private_comm_free(&pr->side);
    int rc = ig_private_comm_free(&pr->comm);
    free(pr);
    *pair = NULL;
    return rc;
}

int ig_pair_senders(const ig_pair *pair) { return pair->p; }
int ig_pair_receivers(const ig_pair *pair) { return pair->q; }

static int split_or_null(MPI_Comm parent, int color, int key, MPI_Comm *out)
{
    int rc = PMPI_Comm_split(parent, color == IG_FC_NONE ? MPI_UNDEFINED : color, key, out);
    if (rc == MPI_SUCCESS)
        rc = ig_private_comm_setup(*out);
    return rc;
}

int ig_pair_fc_prepare(ig_pair *pair)
{
    if (pair->fc_ready)
        return MPI_SUCCESS;
    ig_fc_plan(pair->p, pair->q, pair->rank, &pair->fc);
    int rc = split_or_null(pair->comm, pair->fc.bcast_color, pair->fc.bcast_key, &pair->fc_bcast);
    if (rc == MPI_SUCCESS)
        rc = split_or_null(pair->comm, pair->fc.gather_color, pair->fc.gather_key, &pair->fc_gather);
    pair->fc_ready = rc == MPI_SUCCESS;
    return rc;
}

int ig_pair_side_prepare(ig_pair *pair)
{
    if (pair->side != MPI_COMM_NULL)
        return MPI_SUCCESS;
    return split_or_null(pair->comm, ig_pair_is_sender(pair) ? 0 : 1, pair->rank, &pair->side);
}
