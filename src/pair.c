#include "pair.h"

#include "p2p.h"
#include "stats.h"

#include <assert.h>
#include <limits.h>
#include <stdint.h>
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

static void drop_room(ig_pair *pair)
{
    free(pair->room_requests);
    free(pair->room_ints);
    pair->room_requests = NULL;
    pair->room_ints = NULL;
}

/* The room, allocated; 0 when out of memory (nothing kept). */
static int reserve_room(ig_pair *pair, int requests, int ints)
{
    pair->room_requests = malloc((size_t)(requests > 0 ? requests : 1) * sizeof *pair->room_requests);
    pair->room_ints = malloc((size_t)(ints > 0 ? ints : 1) * sizeof *pair->room_ints);
    if (pair->room_requests == NULL || pair->room_ints == NULL) {
        drop_room(pair);
        return 0;
    }
    pair->room_requests_n = requests;
    pair->room_ints_n = ints;
    return 1;
}

int ig_pair_adopt(MPI_Comm comm, int p, int requests, int ints, ig_pair *pair)
{
    int size, ok = 0, all_ok = 0;
    if (pair != NULL) {
        *pair = (ig_pair){ .comm = comm, .p = p, .fc_bcast = MPI_COMM_NULL, .fc_gather = MPI_COMM_NULL,
                           .side = MPI_COMM_NULL };
        PMPI_Comm_size(comm, &size);
        PMPI_Comm_rank(comm, &pair->rank);
        pair->q = size - p;
        ok = reserve_room(pair, requests, ints);
    }
    /* MPICH's errflag, once per pair: a process short of memory here
     * makes the pair fail for all instead of running without it alone. */
    int rc = PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
    if (rc == MPI_SUCCESS && all_ok)
        return MPI_SUCCESS;
    if (ok)
        drop_room(pair);
    return rc != MPI_SUCCESS ? rc : MPI_ERR_NO_MEM;
}

/* An array of n elements of `size` bytes made to hold `need`: a new array
 * in *grown (NULL when the old one holds them); 0 when out of memory. */
static int grow(int n, int need, size_t size, void **grown)
{
    *grown = NULL;
    if (need <= n)
        return 1;
    /* INT_MAX stands for a need beyond an int (decide.h); a size_t may be
     * too narrow for the bytes on a 32-bit system. */
    *grown = need < INT_MAX && (size_t)need <= SIZE_MAX / size ? malloc((size_t)need * size) : NULL;
    return *grown != NULL;
}

int ig_pair_fit_room(ig_pair *pair, int requests, int ints)
{
    if (requests <= pair->room_requests_n && ints <= pair->room_ints_n)
        return MPI_SUCCESS;
    /* Never while an algorithm holds the room: its arrays would be freed. */
    assert(!pair->room_requests_busy && !pair->room_ints_busy);
    /* Every process of the pair gets here together: the need and the room
     * are the same on all of them.  The old room stays until all have the
     * new one, so a failure leaves every process as it was. */
    void *more_requests, *more_ints;
    int ok = grow(pair->room_requests_n, requests, sizeof *pair->room_requests, &more_requests);
    ok &= grow(pair->room_ints_n, ints, sizeof *pair->room_ints, &more_ints);
    int all_ok = 0, rc = PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, pair->comm);
    if (rc == MPI_SUCCESS && all_ok) {
        if (more_requests != NULL) {
            free(pair->room_requests);
            pair->room_requests = more_requests;
            pair->room_requests_n = requests;
        }
        if (more_ints != NULL) {
            free(pair->room_ints);
            pair->room_ints = more_ints;
            pair->room_ints_n = ints;
        }
        return MPI_SUCCESS;
    }
    free(more_requests);
    free(more_ints);
    return rc != MPI_SUCCESS ? rc : MPI_ERR_NO_MEM;
}

int ig_pair_release(ig_pair *pair)
{
    ig_private_comm_free(&pair->fc_bcast);
    ig_private_comm_free(&pair->fc_gather);
    ig_private_comm_free(&pair->side);
    drop_room(pair);
    return ig_private_comm_free(&pair->comm);
}

/* n elements of `size` bytes: `room` (of room_n) if n fits and it is not
 * busy, else newly allocated (counted; NULL when out of memory). */
static void *take(void *room, int room_n, int *busy, int n, size_t size)
{
    if (n <= room_n && !*busy) {
        *busy = 1;
        return room;
    }
    ig_stats_arrays_allocated();
    return malloc((size_t)(n > 0 ? n : 1) * size);
}

static void give_back(void *room, int *busy, void *taken)
{
    if (taken == room)
        *busy = 0;
    else
        free(taken);
}

MPI_Request *ig_pair_requests(ig_pair *pair, int n)
{
    MPI_Request *reqs = take(pair->room_requests, pair->room_requests_n, &pair->room_requests_busy, n, sizeof *reqs);
    for (int i = 0; reqs != NULL && i < n; i++)
        reqs[i] = MPI_REQUEST_NULL;
    return reqs;
}

void ig_pair_requests_done(ig_pair *pair, MPI_Request *reqs)
{
    give_back(pair->room_requests, &pair->room_requests_busy, reqs);
}

int *ig_pair_ints(ig_pair *pair, int n)
{
    return take(pair->room_ints, pair->room_ints_n, &pair->room_ints_busy, n, sizeof(int));
}

void ig_pair_ints_done(ig_pair *pair, int *ints)
{
    give_back(pair->room_ints, &pair->room_ints_busy, ints);
}

int ig_pair_senders(const ig_pair *pair) { return pair->p; }
int ig_pair_receivers(const ig_pair *pair) { return pair->q; }

int ig_private_comm_split(MPI_Comm parent, int color, int key, MPI_Comm *out)
{
    int rc = PMPI_Comm_split(parent, color, key, out);
    if (rc != MPI_SUCCESS)
        *out = MPI_COMM_NULL; /* undefined after an error: nothing to free */
    else
        rc = ig_private_comm_setup(*out);
    return rc;
}

static int split_or_null(MPI_Comm parent, int color, int key, MPI_Comm *out)
{
    return ig_private_comm_split(parent, color == IG_FC_NONE ? MPI_UNDEFINED : color, key, out);
}

int ig_pair_fc_prepare(ig_pair *pair)
{
    if (pair->fc_ready)
        return MPI_SUCCESS;
    ig_fc_plan(pair->p, pair->q, pair->rank, &pair->fc);
    /* Both splits on every process, whatever the first gave, and then
     * joint: a process without one of them would not run the steps on it
     * that its peers wait in. */
    int rc = split_or_null(pair->comm, pair->fc.bcast_color, pair->fc.bcast_key, &pair->fc_bcast);
    ig_err_keep(&rc, split_or_null(pair->comm, pair->fc.gather_color, pair->fc.gather_key, &pair->fc_gather));
    rc = ig_err_joint(pair->comm, rc);
    pair->fc_ready = rc == MPI_SUCCESS;
    if (!pair->fc_ready) { /* the next call splits again: nothing of this one kept */
        ig_private_comm_free(&pair->fc_bcast);
        ig_private_comm_free(&pair->fc_gather);
    }
    return rc;
}

int ig_pair_side_prepare(ig_pair *pair)
{
    if (pair->side != MPI_COMM_NULL)
        return MPI_SUCCESS;
    int rc = ig_err_joint(pair->comm, split_or_null(pair->comm, ig_pair_is_sender(pair) ? 0 : 1, pair->rank,
                                                    &pair->side));
    if (rc != MPI_SUCCESS) /* the next call splits again */
        ig_private_comm_free(&pair->side);
    return rc;
}
