#!/bin/bash
# Shared memory on this machine: intergather (MPI_Allgather through the
# library, default settings) against every peer a user has -- native
# MPI_Allgather, MPI_Iallgather + MPI_Wait, MPI_Intercomm_merge + intra
# MPI_Allgatherv -- the issue "Fastest at every point"'s shared-memory target
# (docs/performance.md).
#
#   scripts/bench/shm_peers.sh            2+2 and 4+4, 1 KiB..4 MiB, half and
#                                         full duplex, 3 runs of 11 calls
#                                         (30 s to 5 minutes on 2 idle cores)
#   QUICK=1 scripts/bench/shm_peers.sh    a smoke run
#
# Each run is one intergather-bench job (one inter-communicator shared by
# every algorithm), with the algorithms interleaved (bench --interleave:
# each round calls each once, in orders balanced for carryover; INTERLEAVE=0 runs each
# algorithm's calls in a row, the method before the twenty-second session).
# The report takes, per point, the median over runs of each run's median of
# ITERS calls, and the paired ratio: the median over every round of
# intergather's time over each peer's in the same round.  On a 2-core
# machine 8 processes are oversubscribed: compare columns within a row, not
# with other machines.
# Output: docs/data/shm-peers.csv (every run), shm-peers-calls.csv (every
# timed call), a Markdown table on stdout.
# Environment: CONFIGS ("P:Q ..."), SIZES, DUPLEX, REPS, ITERS, INTERLEAVE,
# DATA, MPIRUN.
set -euo pipefail
. "$(dirname "$0")/env.sh"
if [ -n "${QUICK:-}" ]; then
    CONFIGS=${CONFIGS:-"2:2"}; SIZES=${SIZES:-1K,64K}; REPS=${REPS:-1}; ITERS=${ITERS:-3}
fi
CONFIGS=${CONFIGS:-"2:2 4:4"}
SIZES=${SIZES:-1K:4M}
DUPLEX=${DUPLEX:-"half full"}
REPS=${REPS:-3}
ITERS=${ITERS:-11}
INTERLEAVE=${INTERLEAVE:-1}
DATA=${DATA:-docs/data}
[ -n "${QUICK:-}" ] && DATA=${QUICK_DATA:-/tmp/ig-shm-quick}
mkdir -p "$DATA"
BENCH=bench/intergather-bench
LIB=src/.libs/libintergather.so
[ -x "$BENCH" ] && [ -f "$LIB" ] || { echo "shm_peers.sh: build first (make)" >&2; exit 1; }

out=$DATA/shm-peers.csv calls=$DATA/shm-peers-calls.csv raw=$(mktemp -d)
order=()
[ "$INTERLEAVE" = 1 ] && order=(--interleave)
# A run that stops half way leaves no partial CSV for the next to append to.
rm -f "$out.tmp" "$calls.tmp"
trap 'rm -rf "$raw" "$out.tmp" "$calls.tmp"' EXIT
echo "shm_peers: load average at start $(cut -d' ' -f1-3 /proc/loadavg)" >&2
for rep in $(seq 1 "$REPS"); do
    for c in $CONFIGS; do
        p=${c%:*} q=${c#*:}
        for d in $DUPLEX; do
            csv=$raw/$rep-$p-$q-$d.csv call_csv=$raw/$rep-$p-$q-$d-calls.csv
            "$MPIRUN" --oversubscribe -np $((p + q)) -x LD_PRELOAD="$top/$LIB" "$BENCH" -p "$p" --duplex "$d" \
                --sizes "$SIZES" --iters "$ITERS" --algos native,iallgather,merge-allgatherv,intergather \
                "${order[@]}" --csv "$csv" --calls "$call_csv" >"$raw/log" 2>&1 || { tail -20 "$raw/log" >&2; exit 1; }
            if grep -q 'did NOT match' "$raw/log"; then grep 'did NOT match' "$raw/log" >&2; exit 1; fi
            [ -s "$out.tmp" ] 2>/dev/null || sed -n '1s/^/rep,/p' "$csv" >"$out.tmp"
            sed -n "2,\$s/^/$rep,/p" "$csv" >>"$out.tmp"
            [ -s "$calls.tmp" ] 2>/dev/null || sed -n '1s/^/rep,/p' "$call_csv" >"$calls.tmp"
            sed -n "2,\$s/^/$rep,/p" "$call_csv" >>"$calls.tmp"
            echo "  run $rep: p=$p q=$q $d duplex done (load $(cut -d' ' -f1 /proc/loadavg))" >&2
        done
    done
done
mv "$out.tmp" "$out"
mv "$calls.tmp" "$calls"
echo "shm_peers: load average at end $(cut -d' ' -f1-3 /proc/loadavg)" >&2
python3 scripts/bench/shm_peers_report.py "$out" "$calls"
