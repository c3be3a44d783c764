#!/bin/bash
# Memory checks of the shim in real MPI jobs:
#  1. AddressSanitizer (+ LeakSanitizer): a separate build instrumented with
#     -fsanitize=address, preloaded after libasan, runs the allgather and
#     allgatherv matrices (both topologies), the communicator churn and the
#     Fortran-free fallbacks; any error or any leak from intergather's own
#     allocations fails.  Leaks inside the MPI library are suppressed (they
#     are Open MPI's, reported by every MPI program).
#  2. valgrind memcheck on a small job: no invalid reads or writes, no use
#     of uninitialised values in intergather's code.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

export OMPI_MCA_mpi_yield_when_idle=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1
MPIRUN=${MPIRUN:-mpirun}

# Run after a normal build (it uses its config.h and test programs).
[ -f config.h ] && [ -x tests/mpi/allgather_matrix ] || { echo "build and make check first" >&2; exit 1; }
echo "== AddressSanitizer build of the library"
mpicc=$(sed -n 's/^CC = //p' Makefile)
lib_sources=$(ls src/*.c)
$mpicc -shared -fPIC -O1 -g -fsanitize=address -fno-omit-frame-pointer -I. -Isrc -Iinclude -DHAVE_CONFIG_H \
    $lib_sources -o "$work/libintergather.so"
libasan=$(gcc -print-file-name=libasan.so)
cat >"$work/lsan.supp" <<'SUPP'
leak:libmpi.so
leak:libopen-pal.so
leak:libopen-rte.so
leak:libhwloc.so
leak:libevent
leak:libpmix.so
leak:mca_
leak:libgfortran
SUPP
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:halt_on_error=1
export LSAN_OPTIONS=suppressions=$work/lsan.supp:print_suppressions=0
asan_run() { # NP PROGRAM ARGS...
    local np=$1; shift
    if ! "$MPIRUN" --oversubscribe -np "$np" -x LD_PRELOAD="$libasan $work/libintergather.so" \
        -x ASAN_OPTIONS -x LSAN_OPTIONS -x INTERGATHER_MIN_BYTES -x INTERGATHER_VERBOSE -x INTERGATHER_TOPOLOGY \
        "$@" >"$work/out" 2>&1 || grep -q 'ERROR: \(Address\|Leak\)Sanitizer' "$work/out" \
        || ! grep -q 'intergather: summary' "$work/out"; then
        cat "$work/out" >&2
        echo "check-memory: AddressSanitizer run failed: $*" >&2
        exit 1
    fi
}
for topology in fully-connected ring; do
    export INTERGATHER_TOPOLOGY=$topology
    asan_run 5 "$top/tests/mpi/allgather_matrix" 2 1000
    asan_run 5 "$top/tests/mpi/allgatherv_matrix" 3 2000
    echo "ok asan $topology"
done
export INTERGATHER_TOPOLOGY=fully-connected
asan_run 4 "$top/tests/mpi/comm_churn"
INTERGATHER_MIN_BYTES=1024 asan_run 4 "$top/tests/mpi/fallbacks"
echo "ok asan: matrices, churn, fallbacks"

echo "== valgrind memcheck"
if ! command -v valgrind >/dev/null; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get install -y -qq valgrind >/dev/null
fi
supp=$(ls /usr/share/openmpi/openmpi-valgrind.supp 2>/dev/null || true)
# Errors are reported only when a stack frame is in intergather's own code:
# Open MPI's transports trip memcheck on their own.
"$MPIRUN" --oversubscribe -np 3 -x LD_PRELOAD="$top/src/.libs/libintergather.so" -x INTERGATHER_MIN_BYTES \
    -x INTERGATHER_VERBOSE valgrind -q --error-limit=no ${supp:+--suppressions=$supp} \
    --log-file="$work/vg.%p" "$top/tests/mpi/allgather_matrix" 1 1000 >"$work/out" 2>&1 \
    || { cat "$work/out" >&2; exit 1; }
grep -q 'PASS allgather_matrix' "$work/out" || { cat "$work/out" >&2; exit 1; }
if grep -l -E 'at 0x[0-9A-F]+: ig_|by 0x[0-9A-F]+: (ig_|MPI_Allgather|fc_|ring_|spread|exchange|assemble)' \
    "$work"/vg.* >/dev/null 2>&1; then
    grep -B3 -A20 -E ': (ig_|fc_|ring_|MPI_Allgather)' "$work"/vg.* >&2
    echo "check-memory: valgrind reports errors in intergather's code" >&2
    exit 1
fi
echo "ok valgrind: no errors in intergather's code"
