#!/bin/bash
# `make install` into a temporary prefix and check the installed tree
# (tests/install/check_installed.sh: files, the installed demo under the
# installed library, a program built with the installed intergather.pc, the
# modulefiles under Lmod and Environment Modules).
# The build of this tree (Open MPI) goes to PREFIX/openmpi; if
# scripts/test-mpich.sh has left an MPICH build in _build/mpich, it is
# installed next to it in PREFIX/mpich and checked the same way, with both
# installed at once (the side-by-side layout of docs/site-install.md).
set -euo pipefail
cd "$(dirname "$0")/.."
top=$(mktemp -d)
trap 'rm -rf "$top"' EXIT
builds=". openmpi"
[ -f _build/mpich/Makefile ] && builds="$builds _build/mpich mpich"
set -- $builds
while [ $# -gt 0 ]; do
    dir=$1 name=$2; shift 2
    make -s -C "$dir" install prefix="$top/$name" >/dev/null
done
set -- $builds
while [ $# -gt 0 ]; do
    dir=$1 name=$2; shift 2
    mpirun=$(sed -n 's/^MPIRUN = //p' "$dir/Makefile")
    impl=$(sed -n 's/^IG_MPI_IMPL = //p' "$dir/Makefile")
    echo "check-install: $impl build of $dir in $top/$name (tests launch with $mpirun)"
    MPIRUN=$mpirun IG_VERSION=$(sed -n 's/^VERSION = //p' "$dir/Makefile") \
        tests/install/check_installed.sh "$top/$name"
done
echo "check-install: passed for:$(printf ' %s' $builds | awk '{for (i = 2; i <= NF; i += 2) printf " %s", $i}')"
