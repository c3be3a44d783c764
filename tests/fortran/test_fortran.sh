#!/bin/bash
# Fortran callers (mpif.h and mpi_f08) of MPI_Allgather and MPI_Allgatherv
# under LD_PRELOAD, both topologies and every algorithm forced:
# results against native, and proof in the summary that the Fortran entry
# points took the shim's path.  Open MPI's Fortran wrapper compiler is
# required: if it is missing, this script installs it; it never skips.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
src="${IG_TOP_SRCDIR:-.}/tests/fortran"
out="$IG_TOP_BUILDDIR/tests/fortran"
mkdir -p "$out"

MPIFORT=${MPIFORT:-$(dirname "$(command -v "$MPIRUN")")/mpifort}
if ! "$MPIFORT" --version >/dev/null 2>&1; then
    echo "installing the Fortran compiler for $MPIFORT"
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq gfortran >/dev/null
fi
# mpif.h has no interfaces; gfortran >= 10 rejects its buffer arguments of
# different ranks unless told they are deliberate.  Both programs use
# gapped_layout.f90 (its module file goes to the build directory).
"$MPIFORT" -J "$out" -fallow-argument-mismatch -w -o "$out/allgather_f77" "$src/gapped_layout.f90" "$src/allgather_f77.f90"
"$MPIFORT" -J "$out" -o "$out/allgather_f08" "$src/gapped_layout.f90" "$src/allgather_f08.f90"

export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1
for topology in fully-connected ring; do
    for prog in allgather_f77 allgather_f08; do
        INTERGATHER_TOPOLOGY=$topology run_preloaded 5 "$out/$prog"
        expect_pass "$prog"
        expect_summary "$topology" "$(expected_moved)"
        expect_summary fortran-calls "$(expected_moved)"
        expect_summary full-duplex-calls 1
        expect_summary half-duplex-calls "$(($(expected_moved) - 1))"
        expect_summary allgatherv-calls 1
        expect_summary intra-communicator 2 # MPI_IN_PLACE's MPI_Allgather, MPI_Allgatherv
        expect_summary arguments 2 # the two MPI_BOTTOM calls, native on every process
        echo "ok $prog ($topology)"
    done
done
# Every algorithm of the fully connected topology forced, through the
# Fortran entry points: results against native, and the summaries show it
# ran.  The relay (the model weighs it between nodes only, so by default it
# never runs on one machine) serves MPI_Allgather in both directions and in
# full duplex as two passes; spread the direction with more senders;
# full-duplex the calls in which both groups send.
for algorithm in direct fc spread chain relay full-duplex; do
    for prog in allgather_f77 allgather_f08; do
        INTERGATHER_ALGORITHM=$algorithm run_preloaded 5 "$out/$prog"
        expect_pass "$prog"
        expect_summary fortran-calls "$(expected_moved)"
        expect_total "alg-$algorithm" -gt 0
        echo "ok $prog ($algorithm: $(summary_total "alg-$algorithm") calls)"
    done
done

# An MPI_Allgather in a delete callback of the program's own MPI_COMM_SELF
# attribute, set before its first inter-communicator call, in a program
# that initialised from Fortran: MPI runs the callback at finalize, before
# intergather's hook only if the hook was set in MPI_INIT (src/lifecycle.h;
# before the Fortran MPI_INIT wrappers the call aborted with MPI_ERR_COMM).
"$MPIFORT" -J "$out" -o "$out/finalize_hook" "$src/finalize_hook.f90"  # its module file there too
run_preloaded 4 "$out/finalize_hook"
expect_pass finalize_hook
expect_summary fortran-calls 2
echo "ok finalize_hook (the callback's call served: fortran-calls 2)"
