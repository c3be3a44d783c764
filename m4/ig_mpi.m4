# IG_PROG_MPICC
# -------------
# Choose the MPI C compiler wrapper and make it the compiler for everything.
# Order of preference: --with-mpicc=PATH, then $MPICC, then mpicc on PATH.
# A missing wrapper is a hard error: the library is meaningless without MPI.
AC_DEFUN([IG_PROG_MPICC], [
  AC_ARG_WITH([mpicc],
    [AS_HELP_STRING([--with-mpicc=PATH],
                    [MPI C compiler wrapper to build with (default: $MPICC, else mpicc)])],
    [MPICC="$withval"])
  AC_ARG_VAR([MPICC], [MPI C compiler wrapper])
  AS_IF([test -z "$MPICC"], [AC_PATH_PROG([MPICC], [mpicc])])
  AS_IF([test -z "$MPICC"],
    [AC_MSG_ERROR([no MPI C compiler wrapper found.
    Install one (Debian: apt-get install openmpi-bin libopenmpi-dev)
    or point to it with MPICC=/path/to/mpicc or --with-mpicc=/path/to/mpicc.])])
  AS_IF([! command -v "$MPICC" >/dev/null 2>&1 && test ! -x "$MPICC"],
    [AC_MSG_ERROR([MPI C compiler wrapper '$MPICC' does not exist or is not executable])])
  CC="$MPICC"
])

# IG_CHECK_MPI_WORKS
# ------------------
# Verify that the chosen compiler really compiles and links an MPI program and
# record which MPI implementation it is, so the library can refuse to act when
# it is loaded into a process that uses a different MPI.
AC_DEFUN([IG_CHECK_MPI_WORKS], [
  AC_MSG_CHECKING([whether $CC builds MPI programs])
  AC_LINK_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>]],
                                  [[int f; MPI_Initialized(&f); return PMPI_Allgather == 0;]])],
    [AC_MSG_RESULT([yes])],
    [AC_MSG_RESULT([no])
     AC_MSG_ERROR([$CC cannot compile and link an MPI program (is the MPI development package installed?)])])
  AC_MSG_CHECKING([which MPI implementation])
  AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>
#ifndef OPEN_MPI
#error not Open MPI
#endif]], [])], [ig_mpi_impl=openmpi],
   [AC_COMPILE_IFELSE([AC_LANG_PROGRAM([[#include <mpi.h>
#ifndef MPICH_VERSION
#error not MPICH
#endif]], [])], [ig_mpi_impl=mpich], [ig_mpi_impl=unknown])])
  AC_MSG_RESULT([$ig_mpi_impl])
  AC_SUBST([IG_MPI_IMPL], [$ig_mpi_impl])
])
