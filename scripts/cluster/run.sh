#!/bin/bash
# Emulated multi-node cluster on one machine: real Open MPI over TCP, one rank
# per network namespace, every node's link rate-limited with tc (htb).
#
#   sudo scripts/cluster/run.sh              the default phases: latency, peers and
#                                            arrival (about 60 minutes)
#   sudo QUICK=1 scripts/cluster/run.sh      a smoke run (small sizes, 8 nodes)
#   sudo scripts/cluster/run.sh --teardown   remove a cluster left by a killed run
#
# Steps: build the cluster (NODES namespaces on one bridge, plus a head
# namespace that runs mpirun and hosts no rank), check that every node's uplink
# and downlink carries its configured rate, check that Open MPI sees every
# namespace as a node of its own (MPI_COMM_TYPE_SHARED; the library's
# INTERGATHER_VERBOSE=2 line "spans N nodes" must give one node per rank, else
# it would apply its shared-memory cost model), then the PHASES:
#   latency  ping-pong, fan-out and allreduce times (scripts/cluster/pingpong.c):
#            ts, tw, to of the emulated network as MPI sees it
#            (docs/data/cluster-pingpong.txt)
#   peers    intergather (MPI_Allgather through the library, its default
#            decision) against its peers -- native, iallgather,
#            merge-allgatherv -- and the library's own algorithms forced
#            (direct, fc, relay, chain; PEER_ALGOS) at every
#            split in PEER_CONFIGS, half and full duplex, one bench run per
#            (split, duplex) so that all share one inter-communicator
#            (docs/data/cluster-peers.csv)
#   arrival  the same algorithms under random process arrival patterns
#            (bench --imbalance; the delay unit is native's balanced time)
#            (docs/data/cluster-arrival.csv)
#   and, not in the default PHASES:
#   models   intergather under forced algorithms and network-model overrides
#            (MODEL_VARIANTS), next to the library's direct and fc
#            (pair API, no agreement step) at the points where a peer beat it
#            (docs/data/cluster-models.csv; about 15 minutes)
#   (the phases of the first version, about 45 minutes together:)
#   bench    native vs fc vs ring-optimal vs ring-paper, default settings
#   (tuned, fcring, igring, igmpi and manysenders run fc through the shim,
#   the library's MPI_Allgather with INTERGATHER_ALGORITHM=fc, since their
#   INTERGATHER_* settings are what they vary: the bench's own fc row is the
#   pair API, which reads no setting)
#   tuned    fc with its intra-group stage given to Open MPI
#            (INTERGATHER_GROUP_ALLGATHER=mpi) under each of Open MPI's tuned
#            allgather algorithms at one size
#   fcring, igring, igmpi   fc at every size with the stage run by Open MPI's
#            ring allgather, by intergather's own ring, by Open MPI's default
#   manysenders  for p > q, the paper's plan against the default spread plan
# ALWAYS tears down.
# Only namespaces, veth pairs, a bridge and addresses inside those namespaces
# are created; the host's own network namespace is never touched.
#
# Results: docs/data/cluster-links.csv (the link check; cluster-peers-links.csv
# or cluster-models-links.csv when the bench phase is not run, with peers or
# models; beside it *-all.csv: every link loaded at once, what the host's
# cores let all links carry together), docs/data/cluster-nodes.txt,
# docs/data/cluster-peers.csv, docs/data/cluster-arrival.csv (and the old
# phases': cluster-bench.csv, cluster-tuned.csv, cluster-fc-ring.csv,
# cluster-fc-igring.csv, cluster-fc-igmpi.csv, cluster-fc-{join,spread}.csv),
# docs/figures/cluster-peers.png (cluster-bench.png), Markdown tables on stdout.
# Environment: RATE (Mbit/s per node and direction, default 100),
# BURST (bytes an idle link may send at once above RATE, htb's burst and
# cburst, default 16k: a call of a few KiB fits in it, so at 4 and 16 KiB
# the measurement is partly the shaper's; 2k is about one packet, the
# closest to a real link's serialisation), GSO (the veths' gso_max_size,
# default 16384: htb passes one such packet whole whenever it has any
# tokens left, so it bursts too; 1514 turns segmentation offload off),
# QUEUE (bytes a shaped link may hold queued, a bfifo under its htb
# class: a switch port's buffer; default none, htb's own queue of 1000
# packets of up to GSO bytes each, megabytes at RATE, which TCP fills
# when nothing is dropped: docs/performance.md, forty-eighth session),
# CC (TCP congestion control of every node, default cubic, Linux's default
# and a cluster's; host: the host's own, bbr on the machine the sessions up
# to the forty-fifth measured on, whose flows starved one another on the
# shaped links: docs/performance.md, forty-sixth session),
# SLOW_START_AFTER_IDLE (every node's net.ipv4.tcp_slow_start_after_idle:
# 1, Linux's default and this script's, restarts a connection's congestion
# window after it has been idle for a retransmission timeout; 0 keeps it
# (a host tuning some sites apply): docs/performance.md,
# fifty-first session, for what it changes here),
# PHASES (default "latency peers arrival"; the link and node checks always run),
# OUT and FIG (output folders; QUICK=1 writes to /tmp/igc-quick),
# LINK_MIN (lowest acceptable fraction of RATE per link, default 0.85),
# IGC_PREFIX (namespace prefix, default igc), IGC_SUBNET (default 10.78.0);
# peers: PEER_CONFIGS ("P:Q ...", default "4:4 8:8 4:12 12:4"), PEER_SIZES
# (default 4K,16K,64K,256K,1M,4M), PEER_DUPLEX (default "half full"),
# PEER_ALGOS (default native,iallgather,merge-allgatherv,intergather,direct,fc,relay,chain; the
# half-duplex-only ones, relay and chain, are left out of full-duplex runs),
# PEER_ITERS (default 192, the calls below the first PEER_LARGE tier,
# i.e. 4 KiB: calls of a few milliseconds spread so widely there that the
# ratio of two medians of 48 calls moves by 5 to 10 % between resamples
# of the same calls, as much as the 5 % the target allows; 192 halves
# that: docs/performance.md, sixty-ninth session), PEER_LARGE (the
# bench's --iters-large, "BYTES:N[:W],...": N iterations and W warmup ones
# from BYTES on, the tier of the largest such BYTES applying; default
# 16K:48,64K:5,1M:3:0: 48 calls of milliseconds, whose medians over five
# calls moved by more than 5 % between identical runs, then calls of tens
# of milliseconds, and of seconds; the models phase uses both too),
# WARMUP (default 1),
# WARM_LINKS (the bench's --warm-links BYTES:ROUNDS before every run of the
# peers, arrival and models phases, default 1M:3, about 5 s at 16 nodes;
# empty: none, the method before the sixty-eighth session: every TCP
# connection carries data before the first measurement, where without it
# the first algorithm to send between every pair ran on cold connections,
# docs/performance.md, sixty-eighth session), PROC_TIMES (1: also every
# process's arrival and time in every timed call, the bench's
# --proc-times, to NAME-proc.csv beside each CSV; default 0),
# PEER_INTERLEAVE (default 1: the bench's --interleave, each round calls every
# algorithm once, in orders balanced for carryover, so the report's paired ratios compare
# calls made side by side; 0: each algorithm's calls in a row, the method
# before the twenty-second session; every balanced call goes to
# cluster-peers-calls.csv either way), PEER_GAP (default 0.02: the bench's
# --gap, seconds of idle network before each timed call, so that no call
# starts with the token buckets of the links emptied by the call before it;
# 0: none, the method before the twenty-second session; PEER_INTERLEAVE=0
# PEER_GAP=0 times calls repeated in a loop, and scripts/cluster/loop_report.py
# on cluster-peers-calls.csv gives their mean per call);
# arrival: ARRIVAL_CONFIGS (default "4:4 8:8"), ARRIVAL_SIZES (default
# 16K,256K), ARRIVAL_F (default 0,1,4,16,64), ARRIVAL_ITERS (default 3),
# ARRIVAL_LARGE (default 256K:2:1) and, for more than 8 processes,
# ARRIVAL_LARGE_BIG (default 256K:1:1): at F = 64 one iteration of 8:8 at
# 256 KiB waits up to 64 x native's 1.6 s; ARRIVAL_ALGOS (default PEER_ALGOS);
# PEER_ENV / ARRIVAL_ENV: extra "-x NAME=VALUE" options for mpirun (e.g. a
# model override, INTERGATHER_NET_MODEL=ts=..,tw=..,to=..);
# models: MODEL_CONFIGS (default "4:4 8:8"), MODEL_DUPLEX (default
# "half full"), MODEL_SIZES (default 16K,256K,1M,4M), MODEL_ALGOS (default
# intergather,direct,fc), MODEL_VARIANTS (space-separated NAME=VALUE settings
# for the library, one set of runs each, NAME=VALUE:half or :full for one
# duplex only; default INTERGATHER_ALGORITHM=direct, INTERGATHER_ALGORITHM=fc,
# INTERGATHER_ALGORITHM=full-duplex:full; e.g. also
# INTERGATHER_NET_MODEL=ts=1e-3,tw=8e-8,to=1e-4);
# old phases: CONFIGS, SIZES (default 256K:4M), ITERS (default 3), TUNED_ALGS
# (default "0 1 2 3 4 5"), TUNED_CONFIGS, TUNED_SIZE.
# Sourced with IGC_LIB=1 it only defines the functions (start_cluster,
# build_cluster, cluster_mpirun, check_links, check_nodes, teardown) for
# ad-hoc experiments.
set -uo pipefail
# The whole script is one block, which bash reads whole before running any
# of it: an edit to this file during an hour-long run (bash otherwise
# reads a script as it goes) cannot break the run; one broke a run's
# report step in the thirty-ninth session.
{

if [ "$(id -u)" -ne 0 ]; then
    echo "scripts/cluster/run.sh: needs root: it creates network namespaces, a bridge and tc rate" >&2
    echo "limits (nothing outside its own namespaces). Run it as root, e.g. with sudo." >&2
    exit 1
fi
for tool in ip tc mpicc mpirun /usr/bin/python3; do
    command -v "$tool" >/dev/null || { echo "run.sh: $tool not found" >&2; exit 1; }
done

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
export IGC_PREFIX=${IGC_PREFIX:-igc}
export IGC_SUBNET=${IGC_SUBNET:-10.78.0}
RATE=${RATE:-100}
BURST=${BURST:-16k}
GSO=${GSO:-16384}
QUEUE=${QUEUE:-}
CC=${CC:-cubic}
SLOW_START_AFTER_IDLE=${SLOW_START_AFTER_IDLE:-1}
if [ -n "${QUICK:-}" ]; then
    CONFIGS=${CONFIGS:-"4:4"}; SIZES=${SIZES:-64K,256K}; ITERS=${ITERS:-2}
    TUNED_ALGS=${TUNED_ALGS:-"0 4"}; TUNED_CONFIGS=${TUNED_CONFIGS:-"4:4"}; TUNED_SIZE=${TUNED_SIZE:-256K}
    PEER_CONFIGS=${PEER_CONFIGS:-"4:4"}; PEER_SIZES=${PEER_SIZES:-16K,256K}; PEER_ITERS=${PEER_ITERS:-2}
    PEER_LARGE=${PEER_LARGE:-1M:2:0}
    ARRIVAL_CONFIGS=${ARRIVAL_CONFIGS:-"4:4"}; ARRIVAL_SIZES=${ARRIVAL_SIZES:-64K}; ARRIVAL_F=${ARRIVAL_F:-0,4}
    ARRIVAL_ITERS=${ARRIVAL_ITERS:-2}
fi
PEER_CONFIGS=${PEER_CONFIGS:-"4:4 8:8 4:12 12:4"}
PEER_SIZES=${PEER_SIZES:-4K,16K,64K,256K,1M,4M}
PEER_DUPLEX=${PEER_DUPLEX:-"half full"}
PEER_ALGOS=${PEER_ALGOS:-native,iallgather,merge-allgatherv,intergather,direct,fc,relay,chain}
PEER_ITERS=${PEER_ITERS:-192}
PEER_LARGE=${PEER_LARGE:-16K:48,64K:5,1M:3:0}
PEER_ENV=${PEER_ENV:-}
PEER_INTERLEAVE=${PEER_INTERLEAVE:-1}
PEER_GAP=${PEER_GAP:-0.02}
WARMUP=${WARMUP:-1}
WARM_LINKS=${WARM_LINKS-1M:3}
PROC_TIMES=${PROC_TIMES:-0}
ARRIVAL_CONFIGS=${ARRIVAL_CONFIGS:-"4:4 8:8"}
ARRIVAL_SIZES=${ARRIVAL_SIZES:-16K,256K}
ARRIVAL_F=${ARRIVAL_F:-0,1,4,16,64}
ARRIVAL_ITERS=${ARRIVAL_ITERS:-3}
ARRIVAL_LARGE=${ARRIVAL_LARGE:-256K:2:1}
ARRIVAL_LARGE_BIG=${ARRIVAL_LARGE_BIG:-256K:1:1}
ARRIVAL_ALGOS=${ARRIVAL_ALGOS:-$PEER_ALGOS}
ARRIVAL_ENV=${ARRIVAL_ENV:-}
CONFIGS=${CONFIGS:-"4:4 8:8 4:12 12:4"}
SIZES=${SIZES:-256K:4M}
ITERS=${ITERS:-3}
TUNED_ALGS=${TUNED_ALGS:-"0 1 2 3 4 5"}
TUNED_CONFIGS=${TUNED_CONFIGS:-"4:4 8:8 4:12 12:4"}
TUNED_SIZE=${TUNED_SIZE:-4M}
LINK_MIN=${LINK_MIN:-0.85}
PHASES=${PHASES-"latency peers arrival"}
MODEL_CONFIGS=${MODEL_CONFIGS:-"4:4 8:8"}
MODEL_DUPLEX=${MODEL_DUPLEX:-"half full"}
MODEL_SIZES=${MODEL_SIZES:-16K,256K,1M,4M}
MODEL_ALGOS=${MODEL_ALGOS:-intergather,direct,fc}
MODEL_VARIANTS=${MODEL_VARIANTS:-"INTERGATHER_ALGORITHM=direct INTERGATHER_ALGORITHM=fc INTERGATHER_ALGORITHM=full-duplex:full"}
if [ -n "${QUICK:-}" ]; then
    OUT=${OUT:-/tmp/igc-quick}; FIG=${FIG:-/tmp/igc-quick}
fi
OUT=${OUT:-$top/docs/data}
FIG=${FIG:-$top/docs/figures}
BENCH=$top/bench/intergather-bench

ns_list() { ip netns list 2>/dev/null | awk '{print $1}' | grep "^$IGC_PREFIX-" || true; }

# Remove what this script created: processes still inside our namespaces
# (by PID), the namespaces (which destroys their veths and the bridge), the
# per-node session directories.
teardown() {
    local ns pids
    for ns in $(ns_list); do
        pids=$(ip netns pids "$ns" 2>/dev/null | tr '\n' ' ')
        if [ -n "${pids// /}" ]; then
            kill $pids 2>/dev/null
            sleep 0.5
            kill -9 $pids 2>/dev/null
        fi
    done
    for ns in $(ns_list); do
        ip netns del "$ns"
    done
    [ -n "${IGC_RUN:-}" ] && rm -rf "$IGC_RUN"
    if [ -n "$(ns_list)" ]; then
        echo "teardown: namespaces left: $(ns_list | tr '\n' ' ')" >&2
        return 1
    fi
    echo "teardown: cluster removed" >&2
}

# --- the cluster ------------------------------------------------------------
# A "switch" namespace holds bridge br0; node I is namespace $IGC_PREFIX-nI
# with eth0 = $IGC_SUBNET.(I+1); the head ($IGC_SUBNET.254) runs mpirun only.
# htb shapes the node's egress (uplink) and the switch port's egress
# (downlink): a full-duplex link of RATE each way.  Small GSO packets keep the
# shaping smooth.
shape() { # shape NAMESPACE DEVICE
    ip netns exec "$1" tc qdisc add dev "$2" root handle 1: htb default 1 r2q 100 &&
        ip netns exec "$1" tc class add dev "$2" parent 1: classid 1:1 htb rate "${RATE}mbit" \
            ceil "${RATE}mbit" burst "$BURST" cburst "$BURST" quantum 60000 &&
        { [ -z "$QUEUE" ] || ip netns exec "$1" tc qdisc add dev "$2" parent 1:1 handle 10: bfifo limit "$QUEUE"; }
}

attach() { # attach NAMESPACE SWITCH_PORT ADDRESS
    local ns=$1 port=$2 addr=$3
    ip netns add "$ns" &&
        ip -n "$ns" link set lo up &&
        ip link add eth0 netns "$ns" type veth peer name "$port" netns "$IGC_PREFIX-sw" &&
        ip -n "$ns" link set dev eth0 gso_max_size "$GSO" &&
        ip -n "$IGC_PREFIX-sw" link set dev "$port" gso_max_size "$GSO" &&
        ip -n "$IGC_PREFIX-sw" link set "$port" master br0 &&
        ip -n "$IGC_PREFIX-sw" link set "$port" up &&
        ip -n "$ns" addr add "$addr/24" dev eth0 &&
        ip -n "$ns" link set eth0 up &&
        congestion_control "$ns" "$addr" &&
        idle_restart "$ns"
}

# Every TCP connection of the node uses the congestion control CC (a route
# attribute: the namespaces' congestion-control sysctl cannot be set here), unless CC=host.
congestion_control() { # congestion_control NAMESPACE ADDRESS
    [ "$CC" = host ] ||
        ip -n "$1" route replace "$IGC_SUBNET.0/24" dev eth0 proto kernel scope link src "$2" congctl "$CC"
}

# The node's net.ipv4.tcp_slow_start_after_idle, written only where it
# differs from SLOW_START_AFTER_IDLE: a new namespace starts at Linux's 1,
# so the default needs no write (on a host where the namespaces' sysctls
# cannot be written, only an explicit 0 fails).
idle_restart() { # idle_restart NAMESPACE
    local key=net.ipv4.tcp_slow_start_after_idle
    [ "$(ip netns exec "$1" sysctl -n "$key")" = "$SLOW_START_AFTER_IDLE" ] ||
        ip netns exec "$1" sysctl -qw "$key=$SLOW_START_AFTER_IDLE"
}

build_cluster() {
    local t0=$SECONDS i
    ip netns add "$IGC_PREFIX-sw" || return 1
    ip -n "$IGC_PREFIX-sw" link set lo up &&
        ip -n "$IGC_PREFIX-sw" link add br0 type bridge stp_state 0 forward_delay 0 &&
        ip -n "$IGC_PREFIX-sw" link set br0 up || return 1
    attach "$IGC_PREFIX-head" phead "$IGC_SUBNET.254" || return 1
    for i in $(seq 0 $((NODES - 1))); do
        attach "$IGC_PREFIX-n$i" "p$i" "$IGC_SUBNET.$((i + 1))" || return 1
        shape "$IGC_PREFIX-n$i" eth0 || return 1
        shape "$IGC_PREFIX-sw" "p$i" || return 1
    done
    local cc=$CC
    [ "$cc" != host ] || cc="$(cat /proc/sys/net/ipv4/tcp_congestion_control) (the host's)"
    echo "cluster: $NODES nodes at $RATE Mbit/s per direction (htb, burst $BURST, gso $GSO${QUEUE:+, queue $QUEUE}, TCP $cc, slow start after idle $SLOW_START_AFTER_IDLE), built in $((SECONDS - t0)) s" >&2
}

# start_cluster NP: for an ad-hoc experiment of NP ranks (timeline.sh,
# alternate.sh): a cluster of NP nodes (one more where NP is odd, as the
# sweep builds them), its run directory, and its teardown at exit.
start_cluster() {
    NODES=$(($1 + $1 % 2))
    IGC_RUN=$(mktemp -d /tmp/igc-run.XXXXXX)
    export IGC_RUN
    trap teardown EXIT
    build_cluster
}

# cluster_mpirun NP [MPIRUN-OPTIONS... --] PROGRAM ARGS: one rank on each of
# nodes 0..NP-1; everything after NP goes to mpirun as it is.
cluster_mpirun() {
    local np=$1 hf=$IGC_RUN/hosts.$1 i
    shift
    : >"$hf"
    for i in $(seq 0 $((np - 1))); do echo "$IGC_SUBNET.$((i + 1)) slots=1" >>"$hf"; done
    mkdir -p "$IGC_RUN/head"
    ip netns exec "$IGC_PREFIX-head" env TMPDIR="$IGC_RUN/head" OMPI_MCA_btl_vader_single_copy_mechanism=none \
        mpirun --allow-run-as-root -np "$np" --hostfile "$hf" \
        --mca plm_rsh_agent "$here/ns-agent" --mca plm_rsh_no_tree_spawn 1 \
        --mca pml ob1 --mca btl tcp,self \
        --mca btl_tcp_if_include "$IGC_SUBNET.0/24" --mca oob_tcp_if_include "$IGC_SUBNET.0/24" \
        --mca mpi_yield_when_idle 1 "$@"
}

# program_cluster NAME NP: build scripts/cluster/NAME.c into $OUT/NAME and
# start a cluster of NP nodes (the call-timing scripts: alternate.sh,
# allgatherv.sh).
program_cluster() {
    mkdir -p "$OUT" && mpicc -std=c11 -O2 -Wall -Wextra "$here/$1.c" -o "$OUT/$1" && start_cluster "$2"
}

# --- link check ---------------------------------------------------------------
check_links() {
    : "${LINKS_CSV:=cluster-links.csv}"
    mpicc -std=c11 -O2 "$here/linkcheck.c" -o "$IGC_RUN/linkcheck" || return 1
    cluster_mpirun "$NODES" "$IGC_RUN/linkcheck" 4194304 3 >"$IGC_RUN/links.txt" || return 1
    {
        echo "rate_mbit,src,dst,measured_mbit"
        awk -v r="$RATE" '$1 == "link" { split($2, e, "->"); print r "," e[1] "," e[2] "," $3 }' "$IGC_RUN/links.txt"
    } >"$OUT/$LINKS_CSV"
    # Every link busy at once (a ring shift): what the host lets all links
    # carry together; reported, not checked (docs/performance.md).
    {
        echo "rate_mbit,src,dst,measured_mbit"
        awk -v r="$RATE" '$1 == "all" { split($2, e, "->"); print r "," e[1] "," e[2] "," $3 }' "$IGC_RUN/links.txt"
    } >"$OUT/${LINKS_CSV%.csv}-all.csv"
    awk '$1 == "all" { n++; s += $3; if ($3 < min || n == 1) min = $3; if ($3 > max) max = $3 }
         END { if (n) printf "all %d links at once: %.1f .. %.1f Mbit/s, mean %.1f\n", n, min, max, s / n }' \
        "$IGC_RUN/links.txt" >&2
    awk -v r="$RATE" -v lo="$LINK_MIN" '
        $1 == "link" { n++; if ($3 < min || n == 1) min = $3; if ($3 > max) max = $3
                       if ($3 < lo * r || $3 > 1.10 * r) { bad++; print "  link " $2 ": " $3 " Mbit/s" } }
        END { printf "links: %d directed links, %.1f .. %.1f Mbit/s (configured %d)\n", n, min, max, r > "/dev/stderr"
              exit (n == 0 || bad > 0) }' "$IGC_RUN/links.txt" >&2 || {
        echo "LINK CHECK FAILED: a link is outside ${LINK_MIN}..1.10 x $RATE Mbit/s: the CPUs, not the" >&2
        echo "emulated network, would be the bottleneck (or shaping is broken); try a lower RATE" >&2
        return 1
    }
}

# --- node check ---------------------------------------------------------------
# Every namespace must be a node of its own for Open MPI, as on a real
# cluster: intergather counts the nodes an inter-communicator spans with
# MPI_Comm_split_type(MPI_COMM_TYPE_SHARED) and applies its shared-memory
# cost model when they all share one.  The library says how many it counts
# (INTERGATHER_VERBOSE=2: "spans N nodes"); N must be the number of ranks.
check_nodes() {
    local np=${1:-$NODES} log=$IGC_RUN/nodes.txt n
    cluster_mpirun "$np" -x INTERGATHER_VERBOSE=2 -- "$BENCH" -p $((np / 2)) --sizes 64K --iters 1 --warmup 0 \
        --algos intergather >/dev/null 2>"$log" || { cat "$log" >&2; return 1; }
    n=$(sed -n 's/.*spans \([0-9]*\) node.*/\1/p' "$log" | sort -u)
    {
        echo "# scripts/cluster/run.sh node check, $(date -u '+%Y-%m-%d %H:%M UTC'): $np ranks, one per namespace;" \
            "links of $RATE Mbit/s each way, htb burst $BURST, gso_max_size $GSO, TCP congestion control $CC," \
            "slow start after idle $SLOW_START_AFTER_IDLE"
        grep -E 'spans [0-9]+ node|alg-' "$log"
    } >"$OUT/cluster-nodes.txt"
    if [ "$n" != "$np" ]; then
        echo "NODE CHECK FAILED: $np ranks in $np namespaces, but the library counts '${n:-?}' node(s)" >&2
        cat "$log" >&2
        return 1
    fi
    echo "nodes: the library counts $n nodes for $np ranks (network cost model)" >&2
}

# --- benchmark runs -------------------------------------------------------------
run_configs() {
    local c p q csv first=1
    : >"$IGC_RUN/bench-all.csv"
    for c in $CONFIGS; do
        p=${c%:*} q=${c#*:}
        csv=$IGC_RUN/bench-$p-$q.csv
        echo "bench: p=$p q=$q ($((p + q)) nodes), sizes $SIZES, $ITERS iterations" >&2
        cluster_mpirun $((p + q)) -- "$BENCH" -p "$p" --sizes "$SIZES" --iters "$ITERS" --warmup 0 \
            --algos native,fc,ring-optimal,ring-paper --csv "$csv" || return 1
        if [ $first = 1 ]; then sed -n '1s/^/rate_mbit,/p' "$csv" >"$IGC_RUN/bench-all.csv"; first=0; fi
        sed -n "2,\$s/^/$RATE,/p" "$csv" >>"$IGC_RUN/bench-all.csv"
    done
    cp "$IGC_RUN/bench-all.csv" "$OUT/cluster-bench.csv"
}

# fc through the shim (the bench's "intergather" row, the library's
# MPI_Allgather) with the algorithm forced, so that the INTERGATHER_* settings
# a phase varies take effect: the bench's "fc" row is the pair API
# (include/intergather.h), which takes the default settings and reads none.
FC_BY_SHIM_ENV=(-x INTERGATHER_ALGORITHM=fc)
FC_BY_SHIM_ALGOS=(--algos intergather)

# fc under each tuned allgather algorithm (Open MPI 4.1: 0 default decision,
# 1 linear, 2 bruck, 3 recursive doubling, 4 ring, 5 neighbor exchange).
run_tuned() {
    local c p q alg csv
    echo "rate_mbit,allgather_algorithm,mode,algorithm,p,q,bytes,iterations,min_s,median_s,max_s,verified" \
        >"$OUT/cluster-tuned.csv"
    for c in $TUNED_CONFIGS; do
        p=${c%:*} q=${c#*:}
        for alg in $TUNED_ALGS; do
            csv=$IGC_RUN/tuned-$p-$q-$alg.csv
            echo "tuned: p=$p q=$q coll_tuned_allgather_algorithm=$alg" >&2
            cluster_mpirun $((p + q)) "${FC_BY_SHIM_ENV[@]}" -x INTERGATHER_GROUP_ALLGATHER=mpi \
                --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allgather_algorithm "$alg" -- \
                "$BENCH" -p "$p" --sizes "$TUNED_SIZE" --iters "$ITERS" --warmup 0 "${FC_BY_SHIM_ALGOS[@]}" --no-verify \
                --csv "$csv" || return 1
            sed -n "2,\$s/^/$RATE,$alg,/p" "$csv" >>"$OUT/cluster-tuned.csv"
        done
    done
}

# fc at every size with a chosen intra-group stage: Open MPI's default choice
# (igmpi: INTERGATHER_GROUP_ALLGATHER=mpi), Open MPI's tuned ring (fcring: the
# same plus coll_tuned_allgather_algorithm 4) or intergather's own ring
# (igring: INTERGATHER_GROUP_ALLGATHER=ring).
run_fc_variant() { # run_fc_variant NAME OUTPUT.csv LABEL MPIRUN-OPTIONS...
    local name=$1 out=$2 label=$3 c p q csv first=1
    shift 3
    for c in $CONFIGS; do
        p=${c%:*} q=${c#*:}
        csv=$IGC_RUN/$name-$p-$q.csv
        echo "fc, $label: p=$p q=$q" >&2
        cluster_mpirun $((p + q)) "${FC_BY_SHIM_ENV[@]}" "$@" -- \
            "$BENCH" -p "$p" --sizes "$SIZES" --iters "$ITERS" --warmup 0 "${FC_BY_SHIM_ALGOS[@]}" --csv "$csv" || return 1
        if [ $first = 1 ]; then sed -n '1s/^/rate_mbit,group_allgather,/p' "$csv" >"$IGC_RUN/$name-all.csv"; first=0; fi
        sed -n "2,\$s/^/$RATE,$label,/p" "$csv" >>"$IGC_RUN/$name-all.csv"
    done
    cp "$IGC_RUN/$name-all.csv" "$OUT/$out"
}

# intergather (the library's MPI_Allgather, default decision) and its peers:
# one bench run per (split, duplex), every algorithm on one
# inter-communicator.  Progress and the library's verbose lines go to
# $IGC_RUN/NAME-P-Q-DUPLEX.log.
# The algorithm list A,B,... without the bench's half-duplex-only algorithms.
half_only_removed() {
    echo "$1" | tr ',' '\n' | grep -vxE 'chain|relay|ring-optimal|ring-paper|intra-ring|root-gathering' | paste -sd, -
}

# append_run_csv KIND NAME CSV OUTPUT.csv: the bench's CSV-KIND.csv beside
# CSV, added to the phase's whole file $IGC_RUN/NAME-KIND.csv (its header
# once), which is copied to $OUT as OUTPUT-KIND.csv.
append_run_csv() {
    local kind=$1 name=$2 csv=$3 out=$4
    local part=${csv%.csv}-$kind.csv whole=$IGC_RUN/$name-$kind.csv
    [ -s "$whole" ] || sed -n '1p' "$part" >"$whole"
    sed -n '2,$p' "$part" >>"$whole"
    cp "$whole" "$OUT/${out%.csv}-$kind.csv"
}

run_peers() { # run_peers NAME OUTPUT.csv CONFIGS DUPLEXES BENCH-OPTIONS... [-- MPIRUN-OPTIONS...]
    local name=$1 out=$2 configs=$3 duplexes=$4 c p q d csv log t1
    shift 4
    local bopts=() mopts=()
    while [ $# -gt 0 ] && [ "$1" != "--" ]; do bopts+=("$1"); shift; done
    [ $# -gt 0 ] && shift
    mopts=("$@")
    for c in $configs; do
        p=${c%:*} q=${c#*:}
        for d in $duplexes; do
            csv=$IGC_RUN/$name-$p-$q-$d.csv log=$IGC_RUN/$name-$p-$q-$d.log t1=$SECONDS
            local dopts=("${bopts[@]}") i
            # Half-duplex-only algorithms (the bench refuses them in full duplex) are left out there.
            for i in "${!dopts[@]}"; do
                [ "$d" = full ] && [ "${dopts[$i]}" = --algos ] && dopts[$((i + 1))]=$(half_only_removed "${dopts[$((i + 1))]}")
            done
            [ -n "$WARM_LINKS" ] && dopts+=(--warm-links "$WARM_LINKS")
            [ "$PROC_TIMES" = 1 ] && dopts+=(--proc-times "${csv%.csv}-proc.csv")
            echo "$name: p=$p q=$q, $d duplex: ${dopts[*]} ${mopts[*]}" >&2
            cluster_mpirun $((p + q)) -x INTERGATHER_VERBOSE=2 "${mopts[@]}" -- \
                "$BENCH" -p "$p" --duplex "$d" --csv "$csv" --calls "${csv%.csv}-calls.csv" "${dopts[@]}" 2>"$log" ||
                { tail -20 "$log" >&2; return 1; }
            grep -E '^\[|^warm-links:|did NOT match|MODEL=measure:|summary \(world rank 0\)' "$log" | sed 's/^/  /' >&2
            # The network model the library measured on this run's
            # inter-communicator (the report's `model` column uses it).
            local measured=$IGC_RUN/$name-measured.csv
            [ -s "$measured" ] || echo "rate_mbit,p,q,duplex,ts,tw,to" >"$measured"
            grep 'NET_MODEL=measure:' "$log" | sed -n -f "$here/measured_model.sed" |
                head -1 | sed "s/^/$RATE,$p,$q,$d,/" >>"$measured"
            cp "$measured" "$OUT/${out%.csv}-measured.csv"
            echo "  ($((SECONDS - t1)) s, load average $(cut -d' ' -f1-3 /proc/loadavg))" >&2
            [ -s "$IGC_RUN/$name-all.csv" ] || sed -n '1s/^/rate_mbit,/p' "$csv" >"$IGC_RUN/$name-all.csv"
            sed -n "2,\$s/^/$RATE,/p" "$csv" >>"$IGC_RUN/$name-all.csv"
            cp "$IGC_RUN/$name-all.csv" "$OUT/$out"
            # Every balanced timed call, for the report's paired ratios;
            # every process's time in every timed call, if asked.
            append_run_csv calls "$name" "$csv" "$out"
            if [ "$PROC_TIMES" = 1 ]; then append_run_csv proc "$name" "$csv" "$out"; fi
        done
    done
}

has_phase() { [[ " $PHASES " == *" $1 "* ]]; }

[ -n "${IGC_LIB:-}" ] && return 0

if [ "${1:-}" = "--teardown" ]; then
    teardown
    exit $?
fi
if [ -n "$(ns_list)" ]; then
    echo "run.sh: namespaces $IGC_PREFIX-* already exist (a run in progress, or one that was killed):" >&2
    echo "  $(ns_list | tr '\n' ' ')" >&2
    echo "remove them with: scripts/cluster/run.sh --teardown" >&2
    exit 1
fi

IGC_RUN=$(mktemp -d /tmp/igc-run.XXXXXX)
export IGC_RUN
trap teardown EXIT
trap 'echo "interrupted" >&2; exit 130' INT TERM

all_configs=""
has_phase bench && all_configs="$all_configs $CONFIGS"
has_phase tuned && all_configs="$all_configs $TUNED_CONFIGS"
for ph in fcring igring igmpi manysenders; do has_phase $ph && all_configs="$all_configs $CONFIGS"; done
has_phase peers && all_configs="$all_configs $PEER_CONFIGS"
has_phase models && all_configs="$all_configs $MODEL_CONFIGS"
has_phase arrival && all_configs="$all_configs $ARRIVAL_CONFIGS"
max_nodes=2
for c in $all_configs; do
    n=$((${c%:*} + ${c#*:}))
    [ "$n" -gt "$max_nodes" ] && max_nodes=$n
done
NODES=${NODES:-$max_nodes}
[ $((NODES % 2)) -eq 0 ] || NODES=$((NODES + 1))

# The link check goes with the phase it vouches for.
LINKS_CSV=cluster-links-last.csv
has_phase models && LINKS_CSV=cluster-models-links.csv
has_phase peers && LINKS_CSV=cluster-peers-links.csv
has_phase bench && LINKS_CSV=cluster-links.csv
mkdir -p "$OUT" "$FIG"
[ -x "$BENCH" ] || { echo "run.sh: $BENCH missing: run make first" >&2; exit 1; }
build_cluster || { echo "run.sh: building the cluster failed" >&2; exit 1; }
check_links || exit 1
check_nodes || exit 1
if has_phase latency; then
    mpicc -std=c11 -O2 "$here/pingpong.c" -o "$IGC_RUN/pingpong" &&
        cluster_mpirun "$NODES" "$IGC_RUN/pingpong" 30 >"$OUT/cluster-pingpong.txt" ||
        { echo "run.sh: the latency phase failed" >&2; exit 1; }
    echo "latency: $(tr '\n' ' ' <"$OUT/cluster-pingpong.txt")" >&2
fi
t0=$SECONDS
if has_phase bench; then
    run_configs || { echo "run.sh: a benchmark run failed" >&2; exit 1; }
    echo "benchmark runs took $((SECONDS - t0)) s" >&2
fi
t0=$SECONDS
if has_phase tuned; then
    run_tuned || { echo "run.sh: a tuned-allgather run failed" >&2; exit 1; }
    echo "tuned runs took $((SECONDS - t0)) s" >&2
fi
t0=$SECONDS
if has_phase fcring; then
    run_fc_variant fcring cluster-fc-ring.csv tuned-ring -x INTERGATHER_GROUP_ALLGATHER=mpi \
        --mca coll_tuned_use_dynamic_rules 1 --mca coll_tuned_allgather_algorithm 4 ||
        { echo "run.sh: an fc ring-allgather run failed" >&2; exit 1; }
    echo "fc with the tuned ring allgather took $((SECONDS - t0)) s" >&2
fi
t0=$SECONDS
if has_phase igring; then
    run_fc_variant igring cluster-fc-igring.csv intergather-ring -x INTERGATHER_GROUP_ALLGATHER=ring ||
        { echo "run.sh: an INTERGATHER_GROUP_ALLGATHER=ring run failed" >&2; exit 1; }
    echo "fc with INTERGATHER_GROUP_ALLGATHER=ring took $((SECONDS - t0)) s" >&2
fi
t0=$SECONDS
if has_phase igmpi; then
    run_fc_variant igmpi cluster-fc-igmpi.csv mpi -x INTERGATHER_GROUP_ALLGATHER=mpi ||
        { echo "run.sh: an INTERGATHER_GROUP_ALLGATHER=mpi run failed" >&2; exit 1; }
    echo "fc with INTERGATHER_GROUP_ALLGATHER=mpi took $((SECONDS - t0)) s" >&2
fi
t0=$SECONDS
if has_phase manysenders; then
    # p > q only: the paper's plan (extra senders join the receivers'
    # allgather) against the library's default, which spreads the blocks.
    many=""
    for c in $CONFIGS; do [ "${c%:*}" -gt "${c#*:}" ] && many="$many $c"; done
    if [ -n "$many" ]; then
        CONFIGS=$many run_fc_variant join cluster-fc-join.csv join -x INTERGATHER_MANY_SENDERS=join &&
            CONFIGS=$many run_fc_variant spread cluster-fc-spread.csv spread -x INTERGATHER_MANY_SENDERS=spread ||
            { echo "run.sh: a many-senders run failed" >&2; exit 1; }
    fi
    echo "many-senders runs took $((SECONDS - t0)) s" >&2
fi
t0=$SECONDS
if has_phase peers; then
    echo "peers: load average at start $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    order=()
    [ "$PEER_INTERLEAVE" = 1 ] && order=(--interleave)
    run_peers peers cluster-peers.csv "$PEER_CONFIGS" "$PEER_DUPLEX" --sizes "$PEER_SIZES" --iters "$PEER_ITERS" \
        --iters-large "$PEER_LARGE" --warmup "$WARMUP" --algos "$PEER_ALGOS" "${order[@]}" --gap "$PEER_GAP" \
        -- $PEER_ENV ||
        { echo "run.sh: a peers run failed" >&2; exit 1; }
    echo "peers runs took $((SECONDS - t0)) s, load average at end $(cut -d' ' -f1-3 /proc/loadavg)" >&2
fi
t0=$SECONDS
if has_phase arrival; then
    echo "arrival: load average at start $(cut -d' ' -f1-3 /proc/loadavg)" >&2
    for c in $ARRIVAL_CONFIGS; do
        large=$ARRIVAL_LARGE
        [ $((${c%:*} + ${c#*:})) -gt 8 ] && large=$ARRIVAL_LARGE_BIG
        run_peers arrival cluster-arrival.csv "$c" half --sizes "$ARRIVAL_SIZES" --iters "$ARRIVAL_ITERS" \
            --iters-large "$large" --warmup "$WARMUP" --imbalance "$ARRIVAL_F" --algos "$ARRIVAL_ALGOS" \
            -- $ARRIVAL_ENV || { echo "run.sh: an arrival run failed" >&2; exit 1; }
    done
    echo "arrival runs took $((SECONDS - t0)) s, load average at end $(cut -d' ' -f1-3 /proc/loadavg)" >&2
fi
t0=$SECONDS
if has_phase models; then
    : >"$IGC_RUN/models-all.csv"
    for v in $MODEL_VARIANTS; do
        duplexes=$MODEL_DUPLEX
        case $v in *:half | *:full) duplexes=${v##*:} v=${v%:*} ;; esac
        rm -f "$IGC_RUN/variant-all.csv"
        run_peers variant variant.csv "$MODEL_CONFIGS" "$duplexes" --sizes "$MODEL_SIZES" --iters "$PEER_ITERS" \
            --iters-large "$PEER_LARGE" --warmup "$WARMUP" --algos "$MODEL_ALGOS" -- -x "$v" ||
            { echo "run.sh: a models run failed" >&2; exit 1; }
        [ -s "$IGC_RUN/models-all.csv" ] || sed -n '1s/^/variant,/p' "$IGC_RUN/variant-all.csv" >"$IGC_RUN/models-all.csv"
        sed -n "2,\$s/^/\"$v\",/p" "$IGC_RUN/variant-all.csv" >>"$IGC_RUN/models-all.csv"
        cp "$IGC_RUN/models-all.csv" "$OUT/cluster-models.csv"
    done
    rm -f "$OUT/variant.csv" "$OUT/variant-calls.csv"
    echo "models runs took $((SECONDS - t0)) s" >&2
fi
decide=()
mpicc -std=c11 -O2 -I "$top/include" -I "$top/src" "$here/decide_table.c" "$top/src/.libs/libigplan.a" -lm \
    -o "$IGC_RUN/decide_table" && decide=(--decide "$IGC_RUN/decide_table")
/usr/bin/python3 "$here/cluster_report.py" "$OUT" "$FIG" --phases "$PHASES" "${decide[@]}"
exit
}
