#!/bin/bash
# A program that alternates small full-duplex and large half-duplex
# MPI_Allgather calls on one inter-communicator, on the emulated cluster
# (scripts/cluster/alternate.c), timed against MPI_Iallgather + MPI_Wait
# making the same calls.  docs/performance.md, "Twenty-eighth session",
# shows what it found.
#
#   sudo scripts/cluster/alternate.sh [P Q SMALL LARGE ROUNDS]   (default 4 12 4096 262144 40)
#
# The defaults are a split where the model serves the small calls with the
# direct algorithm alone (so the opening round ends them) and the large
# ones otherwise (so they go on to the agreement).  Environment: LIB (the
# library to preload, default this build's src/.libs/libintergather.so),
# WARMUP (rounds not reported, default 6), OUT (default /tmp/igc-alternate:
# alternate.csv, summary.txt, report.txt), RATE as run.sh.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
p=${1:-4} q=${2:-12} small=${3:-4096} large=${4:-262144} rounds=${5:-40}
warmup=${WARMUP:-6} # read before run.sh, which has a WARMUP of its own
LIB=${LIB:-$top/src/.libs/libintergather.so}
OUT=${OUT:-/tmp/igc-alternate}
IGC_LIB=1 source "$here/run.sh"
program_cluster alternate $((p + q)) || exit 1
cluster_mpirun $((p + q)) -x LD_PRELOAD="$LIB" -x INTERGATHER_VERBOSE=2 -- \
    "$OUT/alternate" "$p" "$small" "$large" "$rounds" "$warmup" >"$OUT/alternate.csv" 2>"$OUT/stderr.txt" ||
    { cat "$OUT/stderr.txt" >&2; exit 1; }
# The library's own count of what the opening did, summed over the processes.
grep 'intergather: summary (world rank' "$OUT/stderr.txt" |
    sed -n 's/.*opening \(ended=[0-9]*\) .*\(went-on=[0-9]*\) .*\(skipped=[0-9]*\).*/\1 \2 \3/p' |
    awk '{ for (i = 1; i <= NF; i++) { split($i, kv, "="); t[kv[1]] += kv[2] } }
         END { printf "opening, summed over the processes: ended=%d went-on=%d skipped=%d\n", t["ended"], t["went-on"], t["skipped"] }' \
    >"$OUT/summary.txt"
{
    echo "alternate: p=$p q=$q, small $small bytes full duplex, large $large bytes half duplex, $rounds rounds after $warmup, library $LIB"
    cat "$OUT/summary.txt"
    /usr/bin/python3 - "$OUT/alternate.csv" <<'PY'
import csv, statistics, sys
t = {}
for row in csv.DictReader(open(sys.argv[1])):
    t.setdefault((row["variant"], row["call"]), {})[int(row["round"])] = float(row["seconds"])
for call in ("small", "large"):
    lib, ia = t[("library", call)], t[("iallgather", call)]
    paired = statistics.median(lib[r] / ia[r] for r in lib)
    print(f"{call}: library median {statistics.median(lib.values()) * 1e3:.3f} ms, "
          f"MPI_Iallgather {statistics.median(ia.values()) * 1e3:.3f} ms, paired library/iallgather {paired:.3f}")
PY
} | tee "$OUT/report.txt"
