#!/bin/bash
# Build intergather-bench for SimGrid SMPI (--intra mode is implied there).
#
#   scripts/bench/build-smpi.sh [OUTPUT]     (default: build-smpi/intergather-bench)
#
# smpicc compiles the benchmark with the library's algorithm core (the pair
# API of include/intergather.h) straight from the sources; the PMPI entry
# points (entry_c.c, classify.c, comm_cache.c, runtime.c) are left out: SMPI
# has no inter-communicators for them to serve.  Run it with e.g.
#   smpirun -np 8 -platform P.xml -hostfile H --cfg=smpi/privatization:no \
#       OUTPUT --intra -p 4 --sizes 256K:4M --iters 3
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
out=${1:-build-smpi/intergather-bench}
command -v smpicc >/dev/null || { echo "smpicc not found (Debian: apt-get install libsimgrid-dev)" >&2; exit 1; }
mkdir -p "$(dirname "$out")"
core="pair blocks fc_exec ring_exec root_gathering fc_plan ring_schedule stats log settings settings_parse"
srcs=("$top/src/bench/intergather_bench.c")
for f in $core; do srcs+=("$top/src/$f.c"); done
smpicc -std=c11 -O2 -Wall -Wextra -Wno-unused-parameter -I"$top/include" -I"$top/src" "${srcs[@]}" -o "$out"
echo "built $out"
