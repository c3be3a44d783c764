#!/bin/bash
# Reproduce the paper's Figure 4 (Kang et al., half-duplex inter-group
# all-to-all broadcast; 12 panels, cost vs block size 32 KiB..4 MiB) in
# simulation with SimGrid SMPI.  See docs/simulation.md.
#
#   scripts/simgrid/figure4.sh --quick        the six 256-process panels (d e f j k l)
#   scripts/simgrid/figure4.sh                all twelve panels (about 2 CPU-hours or more)
#   scripts/simgrid/figure4.sh --panels a,g   chosen panels
#   scripts/simgrid/figure4.sh --plot-only    redraw from docs/data/figure4-*.csv
#
# Options:
#   --label TEXT   run label recorded for each panel (default: quick, full or panels)
#   --iters N      timed calls per point (default 1: SMPI time is deterministic)
#   --warmup N     untimed calls before them (default 1: the first call builds
#                  the algorithm's sub-communicators)
#   --sizes SPEC   block sizes for every algorithm instead of 32K..4M (a
#                  benchmark --sizes list or range; must stay within the
#                  2 GiB limit below for panels a and c)
#   --ring-algos L algorithms of the ring panels (default
#                  ring-optimal,ring-paper,intra-ring)
#   --no-build     use the existing $IG_SIM_BUILD/intergather-bench
#   --no-plot      only simulate
#
# Environment: IG_SIM_BUILD (default /tmp/intergather-simbuild), IG_SIM_WORK
# (platforms, hostfiles, logs; default /tmp/intergather-sim), PYTHON (for
# the plot; default /usr/bin/python3, which has Debian's matplotlib).
#
# Per panel it writes docs/data/figure4-<panel>.csv (the benchmark's CSV,
# replaced only when the panel's run succeeds) and a row of
# docs/data/figure4-runs.csv (label, platform, command, wall and CPU time);
# then docs/figures/figure4.png and docs/data/figure4-ratios.md.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/scripts/simgrid"
build=${IG_SIM_BUILD:-/tmp/intergather-simbuild}
work=${IG_SIM_WORK:-/tmp/intergather-sim}
python=${PYTHON:-/usr/bin/python3}
data="$top/docs/data"
figures="$top/docs/figures"
# shellcheck source=scripts/simgrid/common.sh
. "$here/common.sh"

QUICK="d e f j k l"
FULL="d e f j k l a b c g h i" # cheap panels first

MIN_SIZE=32K
# MPICH's choices (the paper ran Cray MPICH 7.6): SMPI's mpich selector with
# its two non-MPICH picks overridden (large allgather -> neighbour ring
# NTSLR; bcast -> scatter + ring allgather).  Payload and scratch buffers are
# folded onto shared memory (no data is moved, only timed).
# The FC algorithm's intra-group stage is intergather's own neighbour ring
# at every size: the benchmark's fc is the pair API (include/intergather.h),
# which reads no INTERGATHER_* setting, and this build is not Open MPI's, so
# the decision never hands a group stage to the MPI library
# (src/mpi_identity.c).  The paper ran MPI's allgather there; SMPI's MPICH
# neighbour ring (NTSLR) simulates to the same times as intergather's ring
# (docs/simulation.md).  (Until the fifty-fifth session this script exported
# INTERGATHER_GROUP_ALLGATHER=mpi, which nothing read.)

usage() { sed -n '2,/^set -euo/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; }

panels="" label="" iters=1 warmup=1 do_build=1 do_run=1 do_plot=1 sizes="" ring_algos=ring-optimal,ring-paper,intra-ring
while [ $# -gt 0 ]; do
    case "$1" in
    --quick) panels=$QUICK; label=${label:-quick} ;;
    --panels) panels=$(echo "$2" | tr ',' ' '); label=${label:-panels}; shift ;;
    --label) label=$2; shift ;;
    --iters) iters=$2; shift ;;
    --warmup) warmup=$2; shift ;;
    --sizes) sizes=$2; shift ;;
    --ring-algos) ring_algos=$2; shift ;;
    --no-build) do_build=0 ;;
    --no-plot) do_plot=0 ;;
    --plot-only) do_build=0; do_run=0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "figure4.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
panels=${panels:-$FULL}
label=${label:-full}

for id in $panels; do
    [ -n "$(panel_row "$id")" ] || { echo "figure4.sh: no panel '$id' (a..l)" >&2; exit 2; }
done

mkdir -p "$data" "$figures" "$work/logs"
runs="$data/figure4-runs.csv"

if [ $do_run = 1 ]; then
    sim_prepare figure4.sh "$build" "$work" "$do_build"

    [ -f "$runs" ] || echo "panel,topology,p,q,ranks_per_node,platform,label,finished_utc,wall_s,cpu_s,status,build,command" >"$runs"
    for id in $panels; do
        read -r _ topo p q plat hosts ppn pmax bmax <<<"$(panel_row "$id")"
        np=$((p + q))
        if [ "$topo" = fc ]; then proposed=fc; algos=fc,root-gathering; else proposed=ring-optimal; algos=$ring_algos; fi
        out="$data/figure4-$id.csv"
        tmp="$work/figure4-$id.csv.partial"
        log="$work/logs/figure4-$id.log"
        common=(-platform "$work/platforms/$plat" -hostfile "$work/platforms/$hosts" -np "$np"
                "${SMPI_CFG[@]}" --log=root.thresh:warning)
        bench_args=(--intra -p "$p" --iters "$iters" --warmup "$warmup")
        # Every algorithm up to the baseline's largest size, then the
        # proposed algorithm alone above it (panel a).
        cmds=("smpirun ${common[*]} $bin ${bench_args[*]} --sizes ${sizes:-$MIN_SIZE:$bmax} --algos $algos --csv $tmp.1")
        if [ -z "$sizes" ] && [ "$pmax" != "$bmax" ]; then
            cmds+=("smpirun ${common[*]} $bin ${bench_args[*]} --sizes $(numfmt --from=iec "$bmax" | awk '{ print 2 * $1 }'):$(numfmt --from=iec "$pmax") --algos $proposed --csv $tmp.2")
        fi
        echo "figure4.sh: panel $id ($topo $p/$q, $ppn per node, $plat): started $(date -u +%H:%M:%S)" >&2
        rm -f "$tmp".*
        status=ok wall=0 cpu=0
        n=0
        : >"$log"
        for c in "${cmds[@]}"; do
            n=$((n + 1))
            echo "+ $c" >>"$log"
            # shellcheck disable=SC2086 # the command is built from words without spaces
            if ! /usr/bin/time -f "%e %U %S" -o "$work/logs/figure4-$id.time" $c >>"$log" 2>&1; then status=failed; fi
            [ -s "$tmp.$n" ] && [ "$(wc -l <"$tmp.$n")" -gt 1 ] || status=failed
            read -r w u s <"$work/logs/figure4-$id.time" || { w=0; u=0; s=0; }
            wall=$(awk -v a="$wall" -v b="$w" 'BEGIN { printf "%.0f", a + b }')
            cpu=$(awk -v a="$cpu" -v u="$u" -v s="$s" 'BEGIN { printf "%.0f", a + u + s }')
            [ $status = ok ] || break
        done
        if [ $status = ok ]; then
            { cat "$tmp.1"; [ ! -f "$tmp.2" ] || tail -n +2 "$tmp.2"; } >"$out"
            rm -f "$tmp".*
        else
            echo "figure4.sh: panel $id FAILED; see $log (previous $out kept)" >&2
            tail -n 5 "$log" >&2 || true
        fi
        buildid=$(sed -n 's/^driver .* sha256 \(.\{12\}\).*/bench:\1/p' "$build/BUILD-INFO" | head -n 1)
        buildid="$buildid $(sed -n 's/^commit \(.\{12\}\).*/commit:\1/p' "$build/BUILD-INFO" | head -n 1)"
        shown=$(printf '%s ; ' "${cmds[@]}")
        shown=${shown% ; }
        shown=${shown//$build/\$IG_SIM_BUILD}
        shown=${shown//$work/\$IG_SIM_WORK}
        # One row per panel: a new run of a panel replaces its row.
        grep -v "^$id," "$runs" >"$runs.tmp" || true
        echo "$id,$topo,$p,$q,$ppn,$plat,$label,$(date -u +%Y-%m-%dT%H:%M:%SZ),$wall,$cpu,$status,$buildid,\"$shown\"" >>"$runs.tmp"
        { head -n 1 "$runs.tmp"; tail -n +2 "$runs.tmp" | sort; } >"$runs"
        rm -f "$runs.tmp"
        echo "figure4.sh: panel $id $status (wall ${wall}s, cpu ${cpu}s)" >&2
    done
fi

if [ $do_plot = 1 ]; then
    "$python" "$here/plot_figure4.py" --data "$data" --png "$figures/figure4.png" --table "$data/figure4-ratios.md"
fi
