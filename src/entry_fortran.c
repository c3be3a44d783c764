/*
 * Fortran entry points of MPI_Allgather and MPI_Allgatherv, and of
 * MPI_INIT and MPI_INIT_THREAD (so that the finalize hook is set at
 * start-up, lifecycle.c).  Open MPI's Fortran bindings (mpif.h, `use mpi`,
 * `use mpi_f08`) call PMPI_Allgather directly, so a C-only shim would miss
 * every Fortran program.  These entry points convert the handles with the
 * _f2c functions, map Fortran's MPI_IN_PLACE / MPI_BOTTOM sentinels to C's,
 * and go through the same classification and dispatch as the C entry point
 * (one path).  The fallback is PMPI_Allgather, never the C MPI_Allgather, so
 * a call is never handled twice, whatever the MPI library's own Fortran
 * bindings would have called.  Loaded into a program of another MPI
 * library (mpi_identity.h), every entry point hands the call to that
 * library's own binding of the same name instead (next_binding).
 *
 * Symbol names: gfortran and most compilers append one underscore
 * (mpi_allgather_), g77-style two for names with an underscore
 * (mpi_allgather__), some none (mpi_allgather), some upper case
 * (MPI_ALLGATHER); Open MPI's mpi_f08 module calls mpi_allgather_f08_.  All
 * take every argument by reference.  The mpi_f08 handles are derived types
 * whose only component is the integer handle, so they arrive as MPI_Fint *;
 * its ierror is OPTIONAL and arrives as NULL when omitted.
 */
#define _GNU_SOURCE /* RTLD_NEXT */
#include "call.h"
#include "errors.h"
#include "intergather.h"
#include "lifecycle.h"
#include "mpi_identity.h"
#include "serve.h"

#include <dlfcn.h>
#include <mpi.h>
#include <stddef.h>
#include <stdlib.h>

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

/* Serve a converted call through the shared path; 0 when it must go native. */
static int serve(ig_call *call, MPI_Fint *ierror)
{
    int rc;
    if (!ig_serve_entry(call, &rc))
        return 0;
    set_ierror(ierror, rc);
    return 1;
}

typedef void (*fortran_allgather_fn)(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *, MPI_Fint *, MPI_Fint *,
                                     MPI_Fint *);
typedef void (*fortran_allgatherv_fn)(void *, MPI_Fint *, MPI_Fint *, void *, MPI_Fint *, MPI_Fint *, MPI_Fint *,
                                      MPI_Fint *, MPI_Fint *);

/* Loaded into a program of another MPI library (mpi_identity.h): our
 * handle conversions and sentinels would be wrong, so hand the call to that
 * library's own Fortran binding of the same name. */
static void *next_binding(const char *name)
{
    return dlsym(RTLD_NEXT, name);
}

/* Assumes: Fortran arguments as the MPI standard's language bindings define
 * them.  Guarantees: the same as the C MPI_Allgather wrapper. */
static void fortran_allgather(const char *name, void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype,
                              void *recvbuf, MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *comm,
                              MPI_Fint *ierror)
{
    if (!ig_mpi_identity_matches()) {
        fortran_allgather_fn next = (fortran_allgather_fn)next_binding(name);
        if (next != NULL)
            next(sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierror);
        return;
    }
    ig_call call = { .op = IG_OP_ALLGATHER, .sbuf = c_buffer(sendbuf), .scount = (int)*sendcount,
                     .stype = PMPI_Type_f2c(*sendtype), .rbuf = c_buffer(recvbuf), .rcount = (int)*recvcount,
                     .rtype = PMPI_Type_f2c(*recvtype), .comm = PMPI_Comm_f2c(*comm), .from_fortran = 1 };
    if (!serve(&call, ierror))
        set_ierror(ierror, PMPI_Allgather(call.sbuf, call.scount, call.stype, call.rbuf, call.rcount, call.rtype,
                                          call.comm));
}

/* Fortran INTEGER arrays are MPI_Fint; the C functions take int. */
static int *c_ints(const MPI_Fint *f, int n)
{
    if (sizeof(MPI_Fint) == sizeof(int))
        return (int *)f;
    int *c = malloc((size_t)(n > 0 ? n : 1) * sizeof(int));
    for (int i = 0; c != NULL && i < n; i++)
        c[i] = (int)f[i];
    return c;
}

/* Assumes and guarantees as fortran_allgather, for MPI_Allgatherv. */
static void fortran_allgatherv(const char *name, void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype,
                               void *recvbuf, MPI_Fint *recvcounts, MPI_Fint *displs, MPI_Fint *recvtype,
                               MPI_Fint *comm, MPI_Fint *ierror)
{
    if (!ig_mpi_identity_matches()) {
        fortran_allgatherv_fn next = (fortran_allgatherv_fn)next_binding(name);
        if (next != NULL)
            next(sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm, ierror);
        return;
    }
    MPI_Comm c_comm = PMPI_Comm_f2c(*comm);
    int remote = 0, inter = 0;
    /* The arrays have one entry per process the call receives from. */
    if (PMPI_Comm_test_inter(c_comm, &inter) == MPI_SUCCESS)
        inter ? PMPI_Comm_remote_size(c_comm, &remote) : PMPI_Comm_size(c_comm, &remote);
    int *counts = c_ints(recvcounts, remote), *c_displs = c_ints(displs, remote);
    if (counts == NULL || c_displs == NULL) { /* never hand the MPI library a NULL array */
        set_ierror(ierror, ig_error_report(c_comm, "MPI_Allgatherv", MPI_ERR_NO_MEM));
        if ((void *)counts != (void *)recvcounts) {
            free(counts);
            free(c_displs);
        }
        return;
    }
    ig_call call = { .op = IG_OP_ALLGATHERV, .sbuf = c_buffer(sendbuf), .scount = (int)*sendcount,
                     .stype = PMPI_Type_f2c(*sendtype), .rbuf = c_buffer(recvbuf), .rcounts = counts,
                     .rdispls = c_displs, .rtype = PMPI_Type_f2c(*recvtype), .comm = c_comm, .from_fortran = 1 };
    if (!serve(&call, ierror))
        set_ierror(ierror, PMPI_Allgatherv(call.sbuf, call.scount, call.stype, call.rbuf, counts, c_displs,
                                           call.rtype, call.comm));
    if ((void *)counts != (void *)recvcounts) {
        free(counts);
        free(c_displs);
    }
}

typedef void (*fortran_init_fn)(MPI_Fint *);
typedef void (*fortran_init_thread_fn)(MPI_Fint *, MPI_Fint *, MPI_Fint *);

/* MPI_INIT and MPI_INIT_THREAD from Fortran.  Open MPI's bindings call
 * PMPI_Init, not the C MPI_Init wrapper (lifecycle.c), so without these
 * the finalize hook would be set only at the first inter-communicator
 * call, after any MPI_COMM_SELF attribute the program set before it, and
 * MPI, which deletes those newest first, would release intergather's
 * state before the program's callbacks ran (one calling MPI_Allgather
 * there then failed: lifecycle.h).  The MPI library's own binding of the
 * same name does the work; PMPI_Init(_thread) where there is none. */
static void start_if_initialized(int ours)
{
    int initialized = 0;
    if (ours && PMPI_Initialized(&initialized) == MPI_SUCCESS && initialized)
        ig_lifecycle_start();
}

static void fortran_init(const char *name, MPI_Fint *ierror)
{
    int ours = ig_mpi_identity_matches(); /* before anything else, as in MPI_Init */
    fortran_init_fn next = (fortran_init_fn)next_binding(name);
    if (next != NULL)
        next(ierror);
    else
        set_ierror(ierror, PMPI_Init(NULL, NULL));
    start_if_initialized(ours);
}

static void fortran_init_thread(const char *name, MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror)
{
    int ours = ig_mpi_identity_matches();
    fortran_init_thread_fn next = (fortran_init_thread_fn)next_binding(name);
    if (next != NULL) {
        next(required, provided, ierror);
    } else {
        int c_provided = 0;
        set_ierror(ierror, PMPI_Init_thread(NULL, NULL, (int)*required, &c_provided));
        *provided = (MPI_Fint)c_provided;
    }
    start_if_initialized(ours);
}

#define IG_FORTRAN_INIT(name)                                                                                 \
    INTERGATHER_API void name(MPI_Fint *ierror);                                                              \
    void name(MPI_Fint *ierror) { fortran_init(#name, ierror); }

#define IG_FORTRAN_INIT_THREAD(name)                                                                          \
    INTERGATHER_API void name(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror);                      \
    void name(MPI_Fint *required, MPI_Fint *provided, MPI_Fint *ierror)                                       \
    {                                                                                                         \
        fortran_init_thread(#name, required, provided, ierror);                                               \
    }

#define IG_FORTRAN_ALLGATHER(name)                                                                            \
    INTERGATHER_API void name(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,          \
                              MPI_Fint *recvcount, MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierror);     \
    void name(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcount,     \
              MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierror)                                           \
    {                                                                                                         \
        fortran_allgather(#name, sendbuf, sendcount, sendtype, recvbuf, recvcount, recvtype, comm, ierror);   \
    }

#define IG_FORTRAN_ALLGATHERV(name)                                                                           \
    INTERGATHER_API void name(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf,          \
                              MPI_Fint *recvcounts, MPI_Fint *displs, MPI_Fint *recvtype, MPI_Fint *comm,     \
                              MPI_Fint *ierror);                                                              \
    void name(void *sendbuf, MPI_Fint *sendcount, MPI_Fint *sendtype, void *recvbuf, MPI_Fint *recvcounts,    \
              MPI_Fint *displs, MPI_Fint *recvtype, MPI_Fint *comm, MPI_Fint *ierror)                         \
    {                                                                                                         \
        fortran_allgatherv(#name, sendbuf, sendcount, sendtype, recvbuf, recvcounts, displs, recvtype, comm,  \
                           ierror);                                                                           \
    }

IG_FORTRAN_ALLGATHER(mpi_allgather)
IG_FORTRAN_ALLGATHER(mpi_allgather_)
IG_FORTRAN_ALLGATHER(mpi_allgather__)
IG_FORTRAN_ALLGATHER(MPI_ALLGATHER)
IG_FORTRAN_ALLGATHER(mpi_allgather_f08_)
IG_FORTRAN_ALLGATHERV(mpi_allgatherv)
IG_FORTRAN_ALLGATHERV(mpi_allgatherv_)
IG_FORTRAN_ALLGATHERV(mpi_allgatherv__)
IG_FORTRAN_ALLGATHERV(MPI_ALLGATHERV)
IG_FORTRAN_ALLGATHERV(mpi_allgatherv_f08_)
IG_FORTRAN_INIT(mpi_init)
IG_FORTRAN_INIT(mpi_init_)
IG_FORTRAN_INIT(mpi_init__)
IG_FORTRAN_INIT(MPI_INIT)
IG_FORTRAN_INIT(mpi_init_f08_)
IG_FORTRAN_INIT_THREAD(mpi_init_thread)
IG_FORTRAN_INIT_THREAD(mpi_init_thread_)
IG_FORTRAN_INIT_THREAD(mpi_init_thread__)
IG_FORTRAN_INIT_THREAD(MPI_INIT_THREAD)
IG_FORTRAN_INIT_THREAD(mpi_init_thread_f08_)
