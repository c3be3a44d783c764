#!/bin/bash
# What every link of the emulated cluster carries during each timed call:
# the bench's calls of one algorithm at one point, with every switch port's
# byte counters sampled every 10 ms (scripts/cluster/link_sampler.py), then
# per call and link the bytes, when the link finished and how it spent that
# time (scripts/cluster/link_report.py): busy at the link's rate, partial
# (a starved link, or a flow waiting for data) or idle.  It tells a link
# the host starves from one the algorithm leaves waiting.
#
#   sudo scripts/cluster/linkrates.sh P Q BYTES CALLS half|full [ALGOS]
#
# ALGOS: the bench's --algos (default intergather), each timed CALLS times
# after one warm-up, in the bench's interleaved rounds, GAP seconds of idle
# network before each call (default 1) so that the report can tell the
# calls apart: after a second idle TCP starts every call afresh; with GAP
# 0.06 it keeps its congestion windows from call to call, as after the
# sweeps' 20 ms (the report splits calls at 80 % of a GAP under 0.125 s,
# LINK_GAP_S; at 0.1 s of idle links otherwise).
# Environment: OUT (default
# /tmp/igc-linkrates: samples.csv, bench.csv, calls.csv, report.csv, tcp.csv), RATE,
# BURST, GSO, CC, SLOW_START_AFTER_IDLE as run.sh; MPI_ENV: extra mpirun options (e.g. "-x
# INTERGATHER_ALGORITHM=direct").
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
p=${1:?P} q=${2:?Q} bytes=${3:?BYTES} calls=${4:?CALLS} duplex=${5:?half or full} algos=${6:-intergather}
OUT=${OUT:-/tmp/igc-linkrates}
GAP=${GAP:-1}
mkdir -p "$OUT"
IGC_LIB=1 source "$here/run.sh"
start_cluster $((p + q)) || exit 1
ip netns exec "$IGC_PREFIX-sw" /usr/bin/python3 "$here/link_sampler.py" "$NODES" "$OUT/samples.csv" 0.01 &
sampler=$!
sleep 1
# shellcheck disable=SC2086 # MPI_ENV is a list of options
cluster_mpirun $((p + q)) ${MPI_ENV:-} -- "$BENCH" -p "$p" --duplex "$duplex" --sizes "$bytes" \
    --iters "$calls" --warmup 1 --gap "$GAP" --interleave --algos "$algos" --csv "$OUT/bench.csv" --calls "$OUT/calls.csv" ||
    { kill "$sampler"; exit 1; }
sleep 1
kill "$sampler"
wait "$sampler"
# What the run cost TCP and the shapers: every node's retransmissions and
# timeouts, every shaper's drops (uplink: the node's eth0; downlink: its
# switch port), over the whole run.
shaper_drops() { # shaper_drops NAMESPACE DEVICE: packets its root qdisc dropped
    local n
    n=$(ip netns exec "$1" tc -s qdisc show dev "$2" | sed -n 's/.*dropped \([0-9]*\).*/\1/p' | head -1)
    echo "${n:-0}"
}
{
    echo "node,retrans_segs,timeouts,shaper_drops_up,shaper_drops_down"
    for i in $(seq 0 $((NODES - 1))); do
        ns=$IGC_PREFIX-n$i
        tcp=$(ip netns exec "$ns" nstat -az TcpRetransSegs TcpExtTCPTimeouts 2>/dev/null | awk 'NR > 1 { v[$1] = $2 } END { printf "%d,%d", v["TcpRetransSegs"], v["TcpExtTCPTimeouts"] }')
        echo "$i,$tcp,$(shaper_drops "$ns" eth0),$(shaper_drops "$IGC_PREFIX-sw" "p$i")"
    done
} >"$OUT/tcp.csv"
LINK_GAP_S=$(awk -v g="$GAP" 'BEGIN { print (g < 0.125 ? g * 0.8 : 0.1) }') \
    /usr/bin/python3 "$here/link_report.py" "$OUT/samples.csv" "$RATE" "$p" "$OUT/calls.csv" >"$OUT/report.csv"
cat "$OUT/calls.csv"
echo "per-link report: $OUT/report.csv; TCP and shapers: $OUT/tcp.csv"
