# Site installation: the launcher matching the chosen MPI, another MPI for
# the foreign-MPI test, modulefile directories.

# IG_LAUNCHER_IMPL(PATH, VAR)
# ---------------------------
# Set VAR to openmpi, mpich or unknown from what launcher PATH says it is.
AC_DEFUN([IG_LAUNCHER_IMPL], [
  ig_launcher_version=`"$1" --version 2>&1 | sed 20q`
  AS_CASE([$ig_launcher_version],
    [*"Open MPI"*|*OpenRTE*|*"Open RTE"*|*PRRTE*], [$2=openmpi],
    [*HYDRA*|*MPICH*], [$2=mpich],
    [$2=unknown])
])

# IG_PROG_MPIRUN
# --------------
# The launcher the tests use: $MPIRUN if set, else the first of these that
# belongs to the same MPI as $MPICC (checked with --version): mpirun and
# mpiexec with the wrapper's suffix (mpicc.mpich -> mpirun.mpich) next to
# the wrapper, then on PATH; the implementation's Debian names; plain
# mpirun/mpiexec.  On a machine with both Open MPI and MPICH, the plain
# `mpirun` may belong to either (Debian alternatives): this keeps the tests
# on the launcher of the MPI the library is built for.
AC_DEFUN([IG_PROG_MPIRUN], [
  AC_ARG_VAR([MPIRUN], [MPI launcher for the tests (default: the one of the same MPI as MPICC)])
  ig_mpicc_path=`command -v "$MPICC" 2>/dev/null || echo "$MPICC"`
  ig_mpicc_dir=`AS_DIRNAME(["$ig_mpicc_path"])`
  ig_mpicc_suffix=`echo "$ig_mpicc_path" | sed -n 's|.*/mpicc||p'`
  AC_SUBST([IG_MPICC_PATH], [$ig_mpicc_path])
  AC_MSG_CHECKING([for the MPI launcher that goes with $MPICC])
  AS_IF([test -z "$MPIRUN"], [
    ig_names="mpirun$ig_mpicc_suffix mpiexec$ig_mpicc_suffix"
    AS_CASE([$IG_MPI_IMPL],
      [openmpi], [ig_names="$ig_names mpirun.openmpi mpiexec.openmpi"],
      [mpich], [ig_names="$ig_names mpirun.mpich mpiexec.mpich mpiexec.hydra"])
    ig_names="$ig_names mpirun mpiexec"
    ig_fallback=
    for ig_name in $ig_names; do
      for ig_dir in "$ig_mpicc_dir" `echo "$PATH" | tr "$PATH_SEPARATOR" ' '`; do
        test -x "$ig_dir/$ig_name" || continue
        test -n "$ig_fallback" || ig_fallback="$ig_dir/$ig_name"
        IG_LAUNCHER_IMPL(["$ig_dir/$ig_name"], [ig_impl])
        AS_IF([test "$ig_impl" = "$IG_MPI_IMPL" || test "$IG_MPI_IMPL" = unknown],
          [MPIRUN="$ig_dir/$ig_name"; break 2])
      done
    done
    AS_IF([test -z "$MPIRUN" && test -n "$ig_fallback"], [
      MPIRUN="$ig_fallback"
      AC_MSG_RESULT([$MPIRUN])
      AC_MSG_WARN([$MPIRUN does not look like a launcher of $IG_MPI_IMPL: set MPIRUN=/path/to/its/mpirun for the tests])
    ], [AC_MSG_RESULT([${MPIRUN:-none}])])
  ], [AC_MSG_RESULT([$MPIRUN (from MPIRUN)])])
  AS_IF([test -z "$MPIRUN"], [AC_MSG_WARN([mpirun not found: MPI integration tests will fail])])
  AC_SUBST([MPIRUN])
  # The Fortran wrapper of the same MPI, for the Fortran tests (they fall
  # back to mpifort next to the launcher, which may be another MPI's).
  AC_ARG_VAR([MPIFORT], [MPI Fortran wrapper for the tests (default: the one of the same MPI as MPICC)])
  AS_IF([test -z "$MPIFORT"], [
    for ig_name in "mpifort$ig_mpicc_suffix" "mpif90$ig_mpicc_suffix"; do
      AS_IF([test -x "$ig_mpicc_dir/$ig_name"], [MPIFORT="$ig_mpicc_dir/$ig_name"; break])
    done
  ])
])

# IG_OTHER_MPI
# ------------
# A second MPI on the machine (Debian's names: mpicc.mpich/mpirun.mpich for an
# Open MPI build, mpicc.openmpi/mpirun.openmpi for an MPICH build), used by
# the test that runs a program of that MPI under this build's library.
# Override with IG_OTHER_MPICC and IG_OTHER_MPIRUN; the test is skipped
# (visibly) when there is none.
AC_DEFUN([IG_OTHER_MPI], [
  AC_ARG_VAR([IG_OTHER_MPICC], [wrapper of a different MPI, for the foreign-MPI test])
  AC_ARG_VAR([IG_OTHER_MPIRUN], [launcher of that different MPI])
  AS_CASE([$IG_MPI_IMPL],
    [openmpi], [ig_other_cc="mpicc.mpich"; ig_other_run="mpirun.mpich mpiexec.mpich mpiexec.hydra"],
    [mpich], [ig_other_cc="mpicc.openmpi"; ig_other_run="mpirun.openmpi mpiexec.openmpi"],
    [ig_other_cc=; ig_other_run=])
  AS_IF([test -n "$ig_other_cc"], [
    AC_PATH_PROGS([IG_OTHER_MPICC], [$ig_other_cc])
    AC_PATH_PROGS([IG_OTHER_MPIRUN], [$ig_other_run])
  ])
])

# IG_MODULE_DIRS
# --------------
# Where `make install` puts the environment modulefiles.
AC_DEFUN([IG_MODULE_DIRS], [
  AC_ARG_WITH([moduledir],
    [AS_HELP_STRING([--with-moduledir=DIR],
      [install the Lmod (Lua) modulefile as DIR/intergather/VERSION.lua; --without-moduledir: do not
       install it (default: DATADIR/modulefiles)])],
    [ig_moduledir="$withval"], [ig_moduledir='${datadir}/modulefiles'])
  AC_ARG_WITH([tcl-moduledir],
    [AS_HELP_STRING([--with-tcl-moduledir=DIR],
      [install the Environment Modules (Tcl) modulefile as DIR/intergather/VERSION;
       --without-tcl-moduledir: do not install it (default: DATADIR/modulefiles-tcl)])],
    [ig_tcl_moduledir="$withval"], [ig_tcl_moduledir='${datadir}/modulefiles-tcl'])
  AS_IF([test "x$ig_moduledir" = xyes], [ig_moduledir='${datadir}/modulefiles'])
  AS_IF([test "x$ig_tcl_moduledir" = xyes], [ig_tcl_moduledir='${datadir}/modulefiles-tcl'])
  AM_CONDITIONAL([IG_INSTALL_LMOD], [test "x$ig_moduledir" != xno])
  AM_CONDITIONAL([IG_INSTALL_TCL_MODULE], [test "x$ig_tcl_moduledir" != xno])
  AC_SUBST([IG_MODULEDIR], [$ig_moduledir])
  AC_SUBST([IG_TCL_MODULEDIR], [$ig_tcl_moduledir])
])

# IG_DESCRIBE_MPI
# ---------------
# IG_MPI_NAME: a readable name and version of the MPI built for, for the
# modulefiles, the pkg-config file and configure's closing line
# ("Open MPI 4.1.4", "MPICH 4.0.2").  After IG_CHECK_MPI_WORKS.
AC_DEFUN([IG_DESCRIBE_MPI], [
  ig_v1=; ig_v2=; ig_v3=
  AS_CASE([$IG_MPI_IMPL],
    [openmpi], [ig_mpi_name="Open MPI"
      AC_COMPUTE_INT([ig_v1], [OMPI_MAJOR_VERSION], [[#include <mpi.h>]])
      AC_COMPUTE_INT([ig_v2], [OMPI_MINOR_VERSION], [[#include <mpi.h>]])
      AC_COMPUTE_INT([ig_v3], [OMPI_RELEASE_VERSION], [[#include <mpi.h>]])],
    [mpich], [ig_mpi_name="MPICH"
      AC_COMPUTE_INT([ig_v1], [MPICH_NUMVERSION / 10000000], [[#include <mpi.h>]])
      AC_COMPUTE_INT([ig_v2], [MPICH_NUMVERSION / 100000 % 100], [[#include <mpi.h>]])
      AC_COMPUTE_INT([ig_v3], [MPICH_NUMVERSION / 1000 % 100], [[#include <mpi.h>]])],
    [ig_mpi_name="an unknown MPI"])
  AS_IF([test -n "$ig_v1" && test -n "$ig_v2" && test -n "$ig_v3"],
    [ig_mpi_name="$ig_mpi_name $ig_v1.$ig_v2.$ig_v3"])
  AC_SUBST([IG_MPI_NAME], [$ig_mpi_name])
])
