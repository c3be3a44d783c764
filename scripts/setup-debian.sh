#!/bin/bash
# Install what a fresh Debian machine lacks to build and test intergather,
# then build it.  Safe to run again: installs only what is missing.
#   scripts/setup-debian.sh            install + configure + make
#   IG_CONFIGURE_FLAGS="--prefix=..."  extra flags for ./configure
#
# Installed: the build tools, check, Open MPI (the MPI this tree is built
# for) and MPICH (the second MPI: scripts/test-mpich.sh and the foreign-MPI
# test), gfortran (Open MPI's mpifort calls it: the Fortran tests; they
# would install it themselves, in the middle of make check), mandoc (man
# page lint), locales (a decimal-comma locale for the settings' unit
# test), and the two module systems the modulefile test uses (Lmod and
# Environment Modules: scripts/module-tools.sh).
#
# Debian's MPICH packages also register /usr/bin/mpicc and mpirun as
# alternatives.  Open MPI's rank higher (50 against 40 on amd64), so they
# stay Open MPI's unless an administrator chose otherwise; whatever they
# point to, this tree is configured with mpicc.openmpi (unless
# IG_CONFIGURE_FLAGS or MPICC names another wrapper), and configure picks
# the launcher of the same MPI.
set -euo pipefail
cd "$(dirname "$0")/.."

packages="build-essential autoconf automake libtool pkg-config check openmpi-bin libopenmpi-dev
          mpich libmpich-dev gfortran mandoc locales"
missing=""
for p in $packages; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
SUDO=""
[ "$(id -u)" = 0 ] || SUDO=sudo
if [ -n "$missing" ]; then
    echo "setup: installing$missing"
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
scripts/module-tools.sh install

mpi_flags=""
case " ${IG_CONFIGURE_FLAGS:-} ${MPICC:+MPICC} " in
    *" --with-mpicc"*|*" MPICC"*) ;;
    *) if command -v mpicc.openmpi >/dev/null; then mpi_flags="MPICC=$(command -v mpicc.openmpi)"; fi ;;
esac

if [ ! -x configure ] || [ configure.ac -nt configure ] || [ Makefile.am -nt configure ] \
   || [ -n "$(find m4 -name 'ig_*.m4' -newer configure)" ]; then
    autoreconf -fi >/dev/null
fi
if [ ! -f Makefile ] || [ configure -nt Makefile ] || ! grep -q '^#define IG_MPI_IMPL ' config.h 2>/dev/null; then
    # shellcheck disable=SC2086
    ./configure -q $mpi_flags ${IG_CONFIGURE_FLAGS:-}
fi
make -s -j"$(scripts/usable-cpus.sh)"
echo "setup: built src/.libs/libintergather.so for $(sed -n 's/^IG_MPI_NAME = //p' Makefile)" \
     "(MPICC=$(sed -n 's/^MPICC = //p' Makefile), tests launch with $(sed -n 's/^MPIRUN = //p' Makefile))"
