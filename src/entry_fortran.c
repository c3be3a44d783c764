/*
 * Fortran entry points.  Open MPI's Fortran bindings (mpif.h, `use mpi`,
 * `use mpi_f08`) call PMPI_Allgather directly, so a C-only shim would miss
 * every Fortran program.  These entry points convert the handles with the
 * _f2c functions, map Fortran's MPI_IN_PLACE / MPI_BOTTOM sentinels to C's,
 * and go through the same classification and dispatch as the C entry point
 * (one path).  The fallback is PMPI_Allgather, never the C MPI_Allgather, so
 * a call is never handled twice, whatever the MPI library's own Fortran
 * bindings would have called.
 *
 * Symbol names: gfortran and most compilers append one underscore
 * (mpi_allgather_), g77-style two for names with an underscore
 * (mpi_allgather__), some none (mpi_allgather), some upper case
 * (MPI_ALLGATHER); Open MPI's mpi_f08 module calls mpi_allgather_f08_.  All
 * take every argument by reference.  The mpi_f08 handles are derived types
 * whose only component is the integer handle, so they arrive as MPI_Fint *;
 * its ierror is OPTIONAL and arrives as NULL when omitted.
 */
#include "classify.h"
#include "stats.h"

#include <mpi.h>
#include <stddef.h>

/* Fortran's MPI_IN_PLACE and MPI_BOTTOM are variables whose addresses are
 * the sentinels.  Weak references: whichever of them the MPI library (or the
 * program, for common blocks) defines is non-NULL. */
#ifdef OPEN_MPI
extern int mpi_fortran_in_place, mpi_fortran_in_place_, mpi_fortran_in_place__, MPI_FORTRAN_IN_PLACE;
extern int mpi_fortran_bottom, mpi_fortran_bottom_, mpi_fortran_bottom__, MPI_FORTRAN_BOTTOM;
#pragma weak mpi_fortran_in_place
#pragma weak mpi_fortran_in_place_
#pragma weak mpi_fortran_in_place__
#pragma weak MPI_FORTRAN_IN_PLACE
#pragma weak mpi_fortran_bottom
#pragma weak mpi_fortran_bottom_
#pragma weak mpi_fortran_bottom__
#pragma weak MPI_FORTRAN_BOTTOM

static int is_fortran_in_place(const void *p)
{
    return p != NULL && (p == &mpi_fortran_in_place || p == &mpi_fortran_in_place_ ||
                         p == &mpi_fortran_in_place__ || p == &MPI_FORTRAN_IN_PLACE);
}

static int is_fortran_bottom(const void *p)
{
    return p != NULL && (p == &mpi_fortran_bottom || p == &mpi_fortran_bottom_ || p == &mpi_fortran_bottom__ ||
                         p == &MPI_FORTRAN_BOTTOM);
}
#else
/* MPICH: the C library records the Fortran sentinels' addresses here when
 * the Fortran bindings initialise. */
extern void *MPIR_F_MPI_IN_PLACE, *MPIR_F_MPI_BOTTOM;
#pragma weak MPIR_F_MPI_IN_PLACE
#pragma weak MPIR_F_MPI_BOTTOM

static int is_fortran_in_place(const void *p)
{
    return &MPIR_F_MPI_IN_PLACE != NULL && p != NULL && p == MPIR_F_MPI_IN_PLACE;
}

static int is_fortran_bottom(const void *p)
{
    return &MPIR_F_MPI_BOTTOM != NULL && p != NULL && p == MPIR_F_MPI_BOTTOM;
}
#endif

static void *c_buffer(void *fortran_buffer)
{
    if (is_fortran_in_place(fortran_buffer))
        return MPI_IN_PLACE;
    if (is_fortran_bottom(fortran_buffer))
        return MPI_BOTTOM;
    return fortran_buffer;
}

static void set_ierror(MPI_Fint *ierror, int rc)
{
    if (ierror != NULL)
        *ierror = (MPI_Fint)rc;
}

/* Assumes: Fortran arguments as the MPI standard's language bindings define
 * them.  Guarantees: the same as the C MPI_Allgather wrapper. */
static void fortran_allgather(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,
                              MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierror)
{
    ig_allgather_call call = { c_buffer(sendbuf), (int)*sendcount, PMPI_Type_f2c(*sendtype),
                               c_buffer(recvbuf), (int)*recvcount, PMPI_Type_f2c(*recvtype),
                               PMPI_Comm_f2c(*comm), IG_DUPLEX_EMPTY, 0, 0, 0 };
    int rc;
    if (!ig_allgather_classify(&call))
        goto fallback;
    if (!ig_allgather_dispatch(&call, &rc))
        goto fallback;
    ig_stats_kind(IG_KIND_FORTRAN);
    set_ierror(ierror, rc);
    return;
fallback:
    set_ierror(ierror, PMPI_Allgather(call.sbuf, call.scount, call.stype, call.rbuf, call.rcount, call.rtype,
                                      call.comm));
}

#define IG_FORTRAN_ALLGATHER(name)                                                                            \
    void name(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcount,     \
              MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierror);                                          \
    void name(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcount,     \
              MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierror)                                           \
    {                                                                                                         \
        fortran_allgather(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierror);          \
    }

IG_FORTRAN_ALLGATHER(mpi_allgather)
IG_FORTRAN_ALLGATHER(mpi_allgather_)
IG_FORTRAN_ALLGATHER(mpi_allgather__)
IG_FORTRAN_ALLGATHER(MPI_ALLGATHER)
IG_FORTRAN_ALLGATHER(mpi_allgather_f08_)
