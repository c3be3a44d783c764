#!/bin/bash
# Per-process timelines of small calls on the emulated cluster: which
# process enters and leaves each call when, for the library's MPI_Allgather,
# MPI_Iallgather + MPI_Wait and the opening round's messages written by hand
# (scripts/cluster/timeline.c), with, if asked, every PMPI call the library
# makes (scripts/cluster/pmpi_trace.c).  docs/performance.md, "Twenty-fifth
# session", shows what it found.
#
#   sudo scripts/cluster/timeline.sh [P Q BYTES ROUNDS DUPLEX]   (default 4 4 4096 192 half)
#
# Environment: LIB (the library to preload, default this build's
# src/.libs/libintergather.so), TRACE=1 (trace the library's PMPI calls),
# SPIN_US (the hand+spin variant's busy work, default 7), VARIANT3=rank
# (the fourth variant sends by hand in rank order instead; also ranklow,
# rankhigh, converge, chunked with CHUNK and WINDOW: timeline.c), OUT (default
# /tmp/igc-timeline: timeline.csv, trace.RANK, report.txt), RATE as run.sh.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
p=${1:-4} q=${2:-4} bytes=${3:-4096} rounds=${4:-192} duplex=${5:-half}
LIB=${LIB:-$top/src/.libs/libintergather.so}
OUT=${OUT:-/tmp/igc-timeline}
mkdir -p "$OUT"
rm -f "$OUT"/trace.*
mpicc -std=c11 -O2 -Wall -Wextra "$here/timeline.c" -o "$OUT/timeline" || exit 1
preload=$LIB
if [ "${TRACE:-0}" = 1 ]; then
    mpicc -std=gnu11 -O2 -Wall -Wextra -shared -fPIC "$here/pmpi_trace.c" -o "$OUT/pmpi_trace.so" -ldl || exit 1
    preload=$OUT/pmpi_trace.so:$LIB
fi
IGC_LIB=1 source "$here/run.sh"
start_cluster $((p + q)) || exit 1
cluster_mpirun $((p + q)) -x LD_PRELOAD="$preload" -x CHUNK="${CHUNK:-262144}" -x WINDOW="${WINDOW:-4}" -x PMPI_TRACE_DIR="$OUT" -- \
    "$OUT/timeline" "$p" "$bytes" "$rounds" "$duplex" "${SPIN_US:-7}" "${VARIANT3:-spin}" >"$OUT/timeline.csv" || exit 1
/usr/bin/python3 "$here/timeline_report.py" "$OUT" "$p" "${VARIANT3:-spin}" | tee "$OUT/report.txt"
