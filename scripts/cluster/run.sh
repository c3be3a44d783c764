#!/bin/bash
# Emulated multi-node cluster on one machine: real Open MPI over TCP, one rank
# per network namespace, every node's link rate-limited with tc (htb).
#
#   sudo scripts/cluster/run.sh              the whole run (about 30 minutes)
#   sudo QUICK=1 scripts/cluster/run.sh      a smoke run (small sizes, 8 nodes)
#   sudo scripts/cluster/run.sh --teardown   remove a cluster left by a killed run
#
# Steps: build the cluster (NODES namespaces on one bridge, plus a head
# namespace that runs mpirun and hosts no rank), check that every node's uplink
# and downlink carries its configured rate, run intergather-bench for every
# split in CONFIGS (native vs fc vs ring-optimal vs ring-paper, default
# settings), then fc with its intra-group stage given to Open MPI
# (INTERGATHER_GROUP_ALLGATHER=mpi) under each of Open MPI's tuned allgather
# algorithms at one size, then fc at every size with the stage run by Open
# MPI's default choice (igmpi), by Open MPI's ring allgather (fcring, the best
# of the tuned ones) and by intergather's own ring (igring), and for p > q the
# paper's plan against the default spread plan; ALWAYS tear down.
# Only namespaces, veth pairs, a bridge and addresses inside those namespaces
# are created; the host's own network namespace is never touched.
#
# Results: docs/data/cluster-links.csv, docs/data/cluster-bench.csv,
# docs/data/cluster-tuned.csv, docs/data/cluster-fc-ring.csv,
# docs/data/cluster-fc-igring.csv, docs/data/cluster-fc-igmpi.csv,
# docs/data/cluster-fc-{join,spread}.csv,
# docs/figures/cluster-bench.png, and Markdown tables on stdout.
# Environment: RATE (Mbit/s per node and direction, default 100), CONFIGS
# ("P:Q ..."), OUT and FIG (output folders; QUICK=1 writes to /tmp/igc-quick), SIZES (bench --sizes, default 256K:4M), ITERS (default 3),
# TUNED_ALGS (default "0 1 2 3 4 5"), TUNED_CONFIGS, TUNED_SIZE,
# LINK_MIN (lowest acceptable fraction of RATE per link, default 0.85),
# IGC_PREFIX (namespace prefix, default igc), IGC_SUBNET (default 10.78.0),
# PHASES (default "bench tuned fcring igring igmpi manysenders"; the link check
# always runs).
set -uo pipefail

if [ "$(id -u)" -ne 0 ]; then
    echo "scripts/cluster/run.sh: needs root: it creates network namespaces, a bridge and tc rate" >&2
    echo "limits (nothing outside its own namespaces). Run it as root, e.g. with sudo." >&2
    exit 1
fi
for tool in ip tc mpicc mpirun /usr/bin/python3; do
    command -v "$tool" >/dev/null || { echo "run.sh: $tool not found" >&2; exit 1; }
done

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)
export IGC_PREFIX=${IGC_PREFIX:-igc}
export IGC_SUBNET=${IGC_SUBNET:-10.78.0}
RATE=${RATE:-100}
if [ -n "${QUICK:-}" ]; then
    CONFIGS=${CONFIGS:-"4:4"}; SIZES=${SIZES:-64K,256K}; ITERS=${ITERS:-2}
    TUNED_ALGS=${TUNED_ALGS:-"0 4"}; TUNED_CONFIGS=${TUNED_CONFIGS:-"4:4"}; TUNED_SIZE=${TUNED_SIZE:-256K}
fi
CONFIGS=${CONFIGS:-"4:4 8:8 4:12 12:4"}
SIZES=${SIZES:-256K:4M}
ITERS=${ITERS:-3}
TUNED_ALGS=${TUNED_ALGS:-"0 1 2 3 4 5"}
TUNED_CONFIGS=${TUNED_CONFIGS:-"4:4 8:8 4:12 12:4"}
TUNED_SIZE=${TUNED_SIZE:-4M}
LINK_MIN=${LINK_MIN:-0.85}
PHASES=${PHASES:-"bench tuned fcring igring igmpi manysenders"}
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

max_nodes=0
for c in $CONFIGS $TUNED_CONFIGS; do
    n=$((${c%:*} + ${c#*:}))
    [ "$n" -gt "$max_nodes" ] && max_nodes=$n
done
NODES=${NODES:-$max_nodes}
[ $((NODES % 2)) -eq 0 ] || NODES=$((NODES + 1))

# --- the cluster ------------------------------------------------------------
# A "switch" namespace holds bridge br0; node I is namespace $IGC_PREFIX-nI
# with eth0 = $IGC_SUBNET.(I+1); the head ($IGC_SUBNET.254) runs mpirun only.
# htb shapes the node's egress (uplink) and the switch port's egress
# (downlink): a full-duplex link of RATE each way.  Small GSO packets keep the
# shaping smooth.
shape() { # shape NAMESPACE DEVICE
    ip netns exec "$1" tc qdisc add dev "$2" root handle 1: htb default 1 r2q 100 &&
        ip netns exec "$1" tc class add dev "$2" parent 1: classid 1:1 htb rate "${RATE}mbit" \
            ceil "${RATE}mbit" burst 16k cburst 16k quantum 60000
}

attach() { # attach NAMESPACE SWITCH_PORT ADDRESS
    local ns=$1 port=$2 addr=$3
    ip netns add "$ns" &&
        ip -n "$ns" link set lo up &&
        ip link add eth0 netns "$ns" type veth peer name "$port" netns "$IGC_PREFIX-sw" &&
        ip -n "$ns" link set dev eth0 gso_max_size 16384 &&
        ip -n "$IGC_PREFIX-sw" link set dev "$port" gso_max_size 16384 &&
        ip -n "$IGC_PREFIX-sw" link set "$port" master br0 &&
        ip -n "$IGC_PREFIX-sw" link set "$port" up &&
        ip -n "$ns" addr add "$addr/24" dev eth0 &&
        ip -n "$ns" link set eth0 up
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
    echo "cluster: $NODES nodes at $RATE Mbit/s per direction (htb), built in $((SECONDS - t0)) s" >&2
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

# --- link check ---------------------------------------------------------------
check_links() {
    mpicc -std=c11 -O2 "$here/linkcheck.c" -o "$IGC_RUN/linkcheck" || return 1
    cluster_mpirun "$NODES" "$IGC_RUN/linkcheck" 4194304 3 >"$IGC_RUN/links.txt" || return 1
    {
        echo "rate_mbit,src,dst,measured_mbit"
        awk -v r="$RATE" '$1 == "link" { split($2, e, "->"); print r "," e[1] "," e[2] "," $3 }' "$IGC_RUN/links.txt"
    } >"$OUT/cluster-links.csv"
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
            cluster_mpirun $((p + q)) -x INTERGATHER_GROUP_ALLGATHER=mpi --mca coll_tuned_use_dynamic_rules 1 \
                --mca coll_tuned_allgather_algorithm "$alg" -- \
                "$BENCH" -p "$p" --sizes "$TUNED_SIZE" --iters "$ITERS" --warmup 0 --algos fc --no-verify \
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
        cluster_mpirun $((p + q)) "$@" -- \
            "$BENCH" -p "$p" --sizes "$SIZES" --iters "$ITERS" --warmup 0 --algos fc --csv "$csv" || return 1
        if [ $first = 1 ]; then sed -n '1s/^/rate_mbit,group_allgather,/p' "$csv" >"$IGC_RUN/$name-all.csv"; first=0; fi
        sed -n "2,\$s/^/$RATE,$label,/p" "$csv" >>"$IGC_RUN/$name-all.csv"
    done
    cp "$IGC_RUN/$name-all.csv" "$OUT/$out"
}

has_phase() { [[ " $PHASES " == *" $1 "* ]]; }

mkdir -p "$OUT" "$FIG"
[ -x "$BENCH" ] || { echo "run.sh: $BENCH missing: run make first" >&2; exit 1; }
build_cluster || { echo "run.sh: building the cluster failed" >&2; exit 1; }
check_links || exit 1
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
/usr/bin/python3 "$here/cluster_report.py" "$OUT" "$FIG"
