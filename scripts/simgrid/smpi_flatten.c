/*
 * Simulation-only shim: linked by scripts/simgrid/build.sh with
 * -Wl,--wrap=<each PMPI function below>; never part of the library.  It
 * changes how much host CPU and memory a simulation costs, not what is
 * simulated (scripts/simgrid/check_shim.sh compares the simulated times with
 * and without it: they must be identical).
 *
 * Why: SimGrid 3.32 SMPI treats every MPI_Type_contiguous type as a
 * non-contiguous "derived" type: for each message it allocates a private
 * buffer of the message size and memcpy's the payload through it on both
 * sides (Request::Request, Datatype::copy), even between SMPI_SHARED_MALLOC
 * buffers, which are otherwise never copied.  intergather moves every block
 * as one contiguous derived type (src/blocks.c), so the 1024-process panels
 * would copy terabytes of host memory and hold gigabytes of private buffers.
 * With smpi/simulate-computation:no that copying takes no simulated time.
 *
 * What: a call whose datatype is MPI_Type_contiguous(c, T) with a predefined
 * T, sent n at a time, is passed on as n * c elements of T: the same bytes at
 * the same addresses, the same message sizes, and the same collective
 * algorithm choices (SMPI decides by bytes).  When n * c (or a count or
 * displacement of MPI_Allgatherv) would not fit in an int, the call is passed
 * on unchanged.  Point-to-point and the collectives the core calls are
 * covered: Send, Recv, Isend, Irecv, Sendrecv, Bcast, Gather, Allgather,
 * Allgatherv.
 */
#include <limits.h>
#include <mpi.h>
#include <stdlib.h>

/* Element type and multiplier of a contiguous-of-predefined type, or 0. */
static int flat_factor(MPI_Datatype type, MPI_Datatype *elem)
{
    int ni, na, nd, combiner, c;
    MPI_Aint unused;
    MPI_Datatype old;
    if (type == MPI_DATATYPE_NULL)
        return 0;
    if (PMPI_Type_get_envelope(type, &ni, &na, &nd, &combiner) != MPI_SUCCESS ||
        combiner != MPI_COMBINER_CONTIGUOUS || ni != 1 || na != 0 || nd != 1)
        return 0;
    if (PMPI_Type_get_contents(type, 1, 0, 1, &c, &unused, &old) != MPI_SUCCESS)
        return 0;
    if (PMPI_Type_get_envelope(old, &ni, &na, &nd, &combiner) != MPI_SUCCESS || combiner != MPI_COMBINER_NAMED)
        return 0;
    *elem = old;
    return c;
}

/* (count, type) -> (count * c, elem) when that is representable. */
static void flatten(int *count, MPI_Datatype *type)
{
    MPI_Datatype elem;
    int c = flat_factor(*type, &elem);
    if (c <= 0 || (long long)*count * c > INT_MAX)
        return;
    *count *= c;
    *type = elem;
}

#define REAL(name) __real_##name
#define WRAP(name) __wrap_##name

int REAL(PMPI_Send)(const void *, int, MPI_Datatype, int, int, MPI_Comm);
int REAL(PMPI_Recv)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Status *);
int REAL(PMPI_Isend)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
int REAL(PMPI_Irecv)(void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *);
int REAL(PMPI_Sendrecv)(const void *, int, MPI_Datatype, int, int, void *, int, MPI_Datatype, int, int, MPI_Comm,
                        MPI_Status *);
int REAL(PMPI_Bcast)(void *, int, MPI_Datatype, int, MPI_Comm);
int REAL(PMPI_Gather)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, int, MPI_Comm);
int REAL(PMPI_Allgather)(const void *, int, MPI_Datatype, void *, int, MPI_Datatype, MPI_Comm);
int REAL(PMPI_Allgatherv)(const void *, int, MPI_Datatype, void *, const int *, const int *, MPI_Datatype, MPI_Comm);

int WRAP(PMPI_Send)(const void *buf, int n, MPI_Datatype t, int dst, int tag, MPI_Comm comm)
{
    flatten(&n, &t);
    return REAL(PMPI_Send)(buf, n, t, dst, tag, comm);
}

int WRAP(PMPI_Recv)(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Status *st)
{
    flatten(&n, &t);
    return REAL(PMPI_Recv)(buf, n, t, src, tag, comm, st);
}

int WRAP(PMPI_Isend)(const void *buf, int n, MPI_Datatype t, int dst, int tag, MPI_Comm comm, MPI_Request *req)
{
    flatten(&n, &t);
    return REAL(PMPI_Isend)(buf, n, t, dst, tag, comm, req);
}

int WRAP(PMPI_Irecv)(void *buf, int n, MPI_Datatype t, int src, int tag, MPI_Comm comm, MPI_Request *req)
{
    flatten(&n, &t);
    return REAL(PMPI_Irecv)(buf, n, t, src, tag, comm, req);
}

int WRAP(PMPI_Sendrecv)(const void *sbuf, int sn, MPI_Datatype st, int dst, int stag, void *rbuf, int rn,
                        MPI_Datatype rt, int src, int rtag, MPI_Comm comm, MPI_Status *status)
{
    flatten(&sn, &st);
    flatten(&rn, &rt);
    return REAL(PMPI_Sendrecv)(sbuf, sn, st, dst, stag, rbuf, rn, rt, src, rtag, comm, status);
}

int WRAP(PMPI_Bcast)(void *buf, int n, MPI_Datatype t, int root, MPI_Comm comm)
{
    flatten(&n, &t);
    return REAL(PMPI_Bcast)(buf, n, t, root, comm);
}

int WRAP(PMPI_Gather)(const void *sbuf, int sn, MPI_Datatype st, void *rbuf, int rn, MPI_Datatype rt, int root,
                      MPI_Comm comm)
{
    if (sbuf != MPI_IN_PLACE)
        flatten(&sn, &st);
    flatten(&rn, &rt);
    return REAL(PMPI_Gather)(sbuf, sn, st, rbuf, rn, rt, root, comm);
}

int WRAP(PMPI_Allgather)(const void *sbuf, int sn, MPI_Datatype st, void *rbuf, int rn, MPI_Datatype rt,
                         MPI_Comm comm)
{
    if (sbuf != MPI_IN_PLACE)
        flatten(&sn, &st);
    flatten(&rn, &rt);
    return REAL(PMPI_Allgather)(sbuf, sn, st, rbuf, rn, rt, comm);
}

int WRAP(PMPI_Allgatherv)(const void *sbuf, int sn, MPI_Datatype st, void *rbuf, const int *rcounts,
                          const int *displs, MPI_Datatype rt, MPI_Comm comm)
{
    MPI_Datatype elem;
    int c = flat_factor(rt, &elem), size, rc;
    if (sbuf != MPI_IN_PLACE)
        flatten(&sn, &st);
    if (c <= 0 || PMPI_Comm_size(comm, &size) != MPI_SUCCESS)
        return REAL(PMPI_Allgatherv)(sbuf, sn, st, rbuf, rcounts, displs, rt, comm);
    int *fc = malloc(2 * (size_t)size * sizeof *fc), ok = fc != NULL;
    for (int i = 0; ok && i < size; i++) {
        ok = (long long)rcounts[i] * c <= INT_MAX && (long long)displs[i] * c <= INT_MAX &&
             (long long)displs[i] * c >= INT_MIN;
        if (ok) {
            fc[i] = rcounts[i] * c;
            fc[size + i] = displs[i] * c;
        }
    }
    if (ok)
        rc = REAL(PMPI_Allgatherv)(sbuf, sn, st, rbuf, fc, fc + size, elem, comm);
    else
        rc = REAL(PMPI_Allgatherv)(sbuf, sn, st, rbuf, rcounts, displs, rt, comm);
    free(fc);
    return rc;
}
