#!/bin/bash
# Preloaded into a program of an MPI it was not built for, the library must
# step aside: one warning for the whole job, no summary, and results
# identical to native MPI (the test program compares every call with
# PMPI_Allgather).  The program is tests/mpi/allgather_matrix.c built with
# the other MPI's wrapper and started by its launcher, configure's
# IG_OTHER_MPICC and IG_OTHER_MPIRUN (mpicc.mpich/mpirun.mpich for an Open
# MPI build, mpicc.openmpi/mpirun.openmpi for an MPICH build).
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
if [ -z "${IG_OTHER_MPICC:-}" ] || [ -z "${IG_OTHER_MPIRUN:-}" ]; then
    # Visible as SKIP in `make check`; scripts/test-all.sh fails on any SKIP.
    echo "SKIP: configure found no second MPI (IG_OTHER_MPICC, IG_OTHER_MPIRUN);" \
         "scripts/setup-debian.sh installs MPICH next to Open MPI"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work" "$IG_OUT"' EXIT
src=${IG_TOP_SRCDIR:-.}/tests/mpi
"$IG_OTHER_MPICC" -I"$src" -o "$work/allgather_matrix" "$src/allgather_matrix.c" "$src/testlib.c"

MPIRUN=$IG_OTHER_MPIRUN
export INTERGATHER_VERBOSE=1 INTERGATHER_MIN_BYTES=0
for np_left in "4 2" "5 1"; do
    set -- $np_left
    run_preloaded "$1" "$work/allgather_matrix" "$2" 1000
    expect_pass allgather_matrix
    n=$(grep -c '^intergather: warning: this program runs on .* but this libintergather.so was built for' "$IG_OUT" || true)
    [ "$n" = 1 ] || { echo "expected exactly one warning, got $n:" >&2; cat "$IG_OUT" >&2; exit 1; }
    if grep -v '^intergather: warning: this program runs on' "$IG_OUT" | grep -q 'intergather:'; then
        echo "the library did more than warn:" >&2; cat "$IG_OUT" >&2; exit 1
    fi
    echo "ok: $1 processes of $IG_OTHER_MPICC's MPI under the $IG_MPI_IMPL build: native results, one warning"
done
grep '^intergather: warning' "$IG_OUT"
