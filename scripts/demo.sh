#!/bin/bash
# The demonstration: an unmodified MPI program (demo/intergather-demo) whose
# simulation group publishes data to an analysis group with MPI_Allgather on
# an inter-communicator, run natively and then under the shim.  Shows both
# timings and whether the received data are identical.
#   scripts/demo.sh [SIM_PROCS ANALYSIS_PROCS [BYTES_PER_BLOCK]]
set -euo pipefail
cd "$(dirname "$0")/.."
p=${1:-4}; q=${2:-4}; bytes=${3:-4194304}
lib="$PWD/src/.libs/libintergather.so"
[ -f "$lib" ] || { echo "build first: scripts/setup-debian.sh" >&2; exit 1; }

. scripts/openmpi-env.sh
run() { mpirun --oversubscribe -np $((p + q)) "$@" demo/intergather-demo -p "$p" -b "$bytes" -n 30; }

echo "== native MPI_Allgather (Open MPI's root gathering)"
native=$(run)
echo "$native"
echo "== the same binary under LD_PRELOAD=$lib"
shim=$(run -x LD_PRELOAD="$lib" -x INTERGATHER_VERBOSE=1 2>&1)
echo "$shim"

digest() { sed -n 's/.*digest=\([0-9a-f]*\).*/\1/p' <<<"$1"; }
median() { sed -n 's/.*median=\([0-9.]*\) ms.*/\1/p' <<<"$1" | head -1; }
echo
if [ "$(digest "$native")" = "$(digest "$shim")" ]; then
    echo "results: identical (digest $(digest "$native"))"
else
    echo "results: DIFFERENT ($(digest "$native") vs $(digest "$shim"))"; exit 1
fi
awk -v a="$(median "$native")" -v b="$(median "$shim")" \
    'BEGIN { printf "median time per call: native %.3f ms, intergather %.3f ms (%.2fx)\n", a, b, a / b }'
echo "(${p}+${q} processes on $(nproc) cores: oversubscribed, so absolute times are noisy; see docs/performance.md)"
