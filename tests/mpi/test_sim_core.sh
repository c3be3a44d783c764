#!/bin/bash
# The SimGrid build's core (scripts/simgrid/build.sh: every source file of
# the library except the interception glue, linked with the benchmark
# driver alone) must link and run: each new file that the glue calls, or
# that calls the glue, must be listed on the right side, or the simulation
# scripts break where SimGrid is installed (the seventeenth and eighteenth
# sessions' opening round did, unnoticed, until this test).  SimGrid is not
# needed: build.sh takes any MPI compiler (SMPICC=$MPICC, without the
# SMPI-only copy shim), and the binary then runs every algorithm on
# MPI_COMM_WORLD with real MPI, each result checked against root gathering
# (--verify).
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
build=$(mktemp -d "${TMPDIR:-/tmp}/ig-sim-core.XXXXXX")
trap 'rm -rf "$build" "$IG_OUT"' EXIT
if ! SMPICC="${MPICC:-mpicc}" IG_SIM_SHIM=0 IG_SIM_BUILD="$build" CFLAGS=-O0 \
    "$IG_TOP_SRCDIR/scripts/simgrid/build.sh" >"$build/build.log" 2>&1; then
    cat "$build/build.log" >&2
    echo "FAIL: the SimGrid core does not build with ${MPICC:-mpicc}" >&2
    exit 1
fi
for split in "2 2" "3 2"; do
    set -- $split
    ig_launch $(($1 + $2)) -- "$build/intergather-bench" --intra -p "$1" --iters 1 --warmup 0 --sizes 1K,64K --verify
    if grep -q 'MISMATCH\|did NOT match' "$IG_OUT" || [ "$(grep -c 'verified=yes' "$IG_OUT")" -lt 10 ]; then
        cat "$IG_OUT" >&2
        echo "FAIL: the SimGrid core's algorithms, p=$1 q=$2: a result differs or is missing" >&2
        exit 1
    fi
    echo "ok: SimGrid core, p=$1 q=$2: $(grep -c 'verified=yes' "$IG_OUT") results verified"
done
