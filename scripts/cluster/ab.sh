#!/bin/bash
# A/B on the emulated cluster: this tree's build ("new") and another
# commit's ("old") alternated in one cluster, so that both see the same
# links and the same host load.  Every "tried, not kept" comparison of
# docs/performance.md since the forty-fifth session was made this way.
#
#   sudo scripts/cluster/ab.sh OLD P Q BYTES DUPLEX ROUNDS CALLS [ALGOS]
#
# OLD: a commit (built in a git worktree under /tmp, reused if it is
# there; `git worktree remove` it when done) or the top directory of
# another built tree.  Each round runs the bench once per build (old
# first in odd rounds, new first in even ones, each run with the kernel's
# memory of earlier connections cleared), CALLS timed calls after one
# warm-up, interleaved, GAP seconds of idle network before each call
# (default 0.02, as in the sweeps; over a retransmission timeout, say 6,
# every call starts on restarted TCP windows: docs/performance.md,
# fifty-first session); ALGOS the
# bench's --algos (default
# intergather).  Prints every round's calls per build,
# then per build and algorithm the median, mean, min and max over all
# rounds.  Environment: OUT (default /tmp/igc-ab: one CSV of calls per
# build and round), GAP (above), RATE, BURST, GSO, CC, SLOW_START_AFTER_IDLE
# as run.sh.  The bench verifies
# every call byte for byte and exits non-zero on a mismatch, which stops
# the run with its log's tail.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
old=${1:?OLD (commit or built tree)} p=${2:?P} q=${3:?Q} bytes=${4:?BYTES} duplex=${5:?half or full}
rounds=${6:?ROUNDS} calls=${7:?CALLS} algos=${8:-intergather}
OUT=${OUT:-/tmp/igc-ab}
gap=${GAP:-0.02}
mkdir -p "$OUT"

# The old build: a directory as given, or a worktree of the commit.
if [ -d "$old" ]; then
    old_tree=$(cd "$old" && pwd)
else
    commit=$(git -C "$top" rev-parse --verify --short "$old^{commit}") || exit 1
    old_tree=/tmp/igc-ab-old-$commit
    if [ ! -x "$old_tree/bench/intergather-bench" ]; then
        [ -d "$old_tree" ] || git -C "$top" worktree add -q --detach "$old_tree" "$commit" || exit 1
        (cd "$old_tree" && autoreconf -fi >/dev/null 2>&1 && ./configure -q >/dev/null && make -s -j2 >/dev/null) ||
            { echo "ab.sh: building $commit in $old_tree failed" >&2; exit 1; }
    fi
fi
for tree in "$old_tree" "$top"; do
    [ -x "$tree/bench/intergather-bench" ] || { echo "ab.sh: no bench in $tree (build it first)" >&2; exit 1; }
done

IGC_LIB=1 source "$here/run.sh"
start_cluster $((p + q)) || exit 1
rm -f "$OUT"/old-*-calls.csv "$OUT"/new-*-calls.csv
# A job's TCP connections start from what the kernel remembers of the
# last ones to the same address (tcp_metrics: ssthresh, RTT), so a run can
# inherit the run before it: every run starts with that memory cleared,
# and the builds take turns at going first (old, new; new, old; ...).
forget_tcp() {
    local i
    for i in $(seq 0 $((NODES - 1))); do
        ip -n "$IGC_PREFIX-n$i" tcp_metrics flush all 2>/dev/null
    done
}
for r in $(seq 1 "$rounds"); do
    order="old new"
    [ $((r % 2)) -eq 0 ] && order="new old"
    for build in $order; do
        forget_tcp
        tree=$top
        [ "$build" = old ] && tree=$old_tree
        cluster_mpirun $((p + q)) -- "$tree/bench/intergather-bench" -p "$p" --duplex "$duplex" --sizes "$bytes" \
            --iters "$calls" --warmup 1 --interleave --gap "$gap" --algos "$algos" \
            --csv "$OUT/$build-$r.csv" --calls "$OUT/$build-$r-calls.csv" >"$OUT/$build-$r.log" 2>&1 ||
            { tail "$OUT/$build-$r.log" >&2; exit 1; }
        echo "$build round $r: $(awk -F, 'NR > 1 { printf "%s %.4f  ", $2, $8 }' "$OUT/$build-$r-calls.csv")"
    done
done
/usr/bin/python3 - "$OUT" <<'EOF'
import csv, glob, statistics, sys
times = {}
for build in ("old", "new"):
    for path in sorted(glob.glob(f"{sys.argv[1]}/{build}-*-calls.csv")):
        for row in csv.DictReader(open(path)):
            times.setdefault((row["algorithm"], build), []).append(float(row["seconds"]))
for (algorithm, build), x in sorted(times.items()):
    print(f"{algorithm} {build}: {len(x)} calls, median {statistics.median(x):.4f} s, "
          f"mean {statistics.mean(x):.4f}, min {min(x):.4f}, max {max(x):.4f}")
EOF
