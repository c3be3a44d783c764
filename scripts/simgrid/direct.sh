#!/bin/bash
# The direct exchange and the chain against fc and root gathering on the
# Figure 4 fully connected platforms (panels a-f: the dragonfly, 256 and
# 1024 processes), and whether the library's default decision picks the
# fastest.  See docs/simulation.md, "Direct, fc, chain and the decision".
#
#   scripts/simgrid/direct.sh                         panels d e f at 32K,256K,4M
#   scripts/simgrid/direct.sh --panels a --sizes 32K,4M
#   scripts/simgrid/direct.sh --table-only            redo the table from the points
#
# Every (panel, algorithm, size) point is one smpirun, so points run in
# parallel (--jobs) and a point already simulated (its CSV in
# $IG_SIM_WORK/points) is not run again unless --fresh.
#
# Options:
#   --panels LIST  fully connected panels, a..f (default d,e,f)
#   --sizes LIST   block sizes, comma-separated, K/M suffixes (default 32K,256K,4M)
#   --algos LIST   default direct,chain,fc,root-gathering
#   --jobs N       simulations at once (default 2)
#   --label TEXT   recorded with each point (default direct)
#   --fresh        rerun points already simulated
#   --no-build     use the existing $IG_SIM_BUILD/intergather-bench
#   --table-only   only rebuild docs/data/sim-direct.{csv,md}
#   --alt-model M  also tabulate what the decision would pick with the network
#                  model M (ts=..,tw=..,to=..; repeatable): a what-if column
#
# "Default picks" is the decision with the model the library measures by
# default, measured on each panel's platform by the library's own code
# (measure_model.c, docs/data/sim-measured-model.csv); without that file,
# with the fixed default model.
#
# Warm-up: the first call of any algorithm on the pair costs more simulated
# time than later ones (about 0.5 ms at 256 processes: SMPI's set-up on a
# communicator's first collective, and fc's sub-communicators), so no point
# is timed cold.  fc and root gathering get one untimed call of their own
# (--warmup 1); direct and chain, the expensive ones to simulate, run
# `--algos fc,ALGO --warmup 0`: the fc call warms the pair up and only ALGO's
# row is kept (checked at 256 processes against --warmup 1: the same time,
# docs/simulation.md), which saves simulating their p q messages twice.
# Root gathering is not run where SMPI cannot (buffers above 2 GiB: panel a
# at 4 MiB, panel c from 4 MiB; see figure4.sh).
#
# Writes docs/data/figure4-direct-<panel>.csv (the benchmark's rows of every
# point of the panel simulated so far), docs/data/sim-direct-runs.csv (one
# row per point: wall and CPU seconds, command), and through
# direct_table.py docs/data/sim-direct.csv and docs/data/sim-direct.md.
# Environment: IG_SIM_BUILD, IG_SIM_WORK as figure4.sh; MPICC (default
# mpicc) compiles decide_table.c, the library's decision for the table.
set -euo pipefail

top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/scripts/simgrid"
build=${IG_SIM_BUILD:-/tmp/intergather-simbuild}
work=${IG_SIM_WORK:-/tmp/intergather-sim}
data="$top/docs/data"

# shellcheck source=scripts/simgrid/common.sh
. "$here/common.sh"
usage() { sed -n '2,/^set -euo/p' "$0" | grep '^#' | sed 's/^# \{0,1\}//'; }

panels="d e f" sizes=32K,256K,4M algos=direct,chain,fc,root-gathering jobs=2 label=direct fresh=0 do_build=1 do_run=1
alt=()
while [ $# -gt 0 ]; do
    case "$1" in
    --panels) panels=$(echo "$2" | tr ',' ' '); shift ;;
    --sizes) sizes=$2; shift ;;
    --algos) algos=$2; shift ;;
    --jobs) jobs=$2; shift ;;
    --label) label=$2; shift ;;
    --fresh) fresh=1 ;;
    --alt-model) alt+=(--alt-model "$2"); shift ;;
    --no-build) do_build=0 ;;
    --table-only) do_build=0; do_run=0 ;;
    -h | --help) usage; exit 0 ;;
    *) echo "direct.sh: unknown argument '$1' (see --help)" >&2; exit 2 ;;
    esac
    shift
done
for id in $panels; do
    [ "$(panel_row "$id" | awk '{print $2}')" = fc ] || { echo "direct.sh: no fully connected panel '$id' (a..f)" >&2; exit 2; }
done

mkdir -p "$work/points" "$work/logs" "$data"
runs="$data/sim-direct-runs.csv"

if [ $do_run = 1 ]; then
    sim_prepare direct.sh "$build" "$work" "$do_build"
    # One line per point still to simulate: panel algorithm size command.
    list=$(mktemp "$work/direct-points.XXXXXX")
    for id in $panels; do
        # rgmax: root gathering's largest size (SMPI's 2 GiB limit, common.sh)
        read -r _ _ p q _ hosts _ _ rgmax <<<"$(panel_row "$id")"
        for algo in ${algos//,/ }; do
            for size in ${sizes//,/ }; do
                if [ "$algo" = root-gathering ] &&
                    [ "$(numfmt --from=iec "$size")" -gt "$(numfmt --from=iec "$rgmax")" ]; then
                    continue
                fi
                pt="$work/points/$id-$algo-$size.csv"
                [ $fresh = 1 ] || [ ! -s "$pt" ] || continue
                # direct and chain: warmed up by one (untimed here) fc call,
                # the others by a call of their own (see the header).
                run=$algo warmup=1
                case $algo in direct | chain) run=fc,$algo warmup=0 ;; esac
                echo "$id $algo $size smpirun -platform $work/platforms/cori_df.xml -hostfile $work/platforms/$hosts" \
                    "-np $((p + q)) ${SMPI_CFG[*]} --log=root.thresh:warning $bin --intra -p $p --iters 1" \
                    "--warmup $warmup --sizes $size --algos $run --csv $pt.tmp" >>"$list"
            done
        done
    done
    [ -f "$runs" ] || echo "panel,algorithm,size,label,finished_utc,wall_s,cpu_s,max_rss_kb,status,build,command" >"$runs"
    one_point() { # panel algorithm size command...
        local id=$1 algo=$2 size=$3
        shift 3
        local pt="$work/points/$id-$algo-$size.csv" log="$work/logs/direct-$id-$algo-$size.log"
        local status=ok
        echo "+ $*" >"$log"
        echo "direct.sh: $id $algo $size started $(date -u +%H:%M:%S)" >&2
        nice -n 19 /usr/bin/time -f "%e %U %S %M" -o "$log.time" "$@" >>"$log" 2>&1 || status=failed
        [ -s "$pt.tmp" ] && [ "$(wc -l <"$pt.tmp")" -gt 1 ] || status=failed
        # Keep the point's own algorithm (a warming fc call is not a result).
        [ $status = failed ] || { awk -F, -v a="$algo" 'NR == 1 || $2 == a' "$pt.tmp" >"$pt" && rm -f "$pt.tmp"; }
        local w u s m
        read -r w u s m < <(tail -n 1 "$log.time") || { w=0; u=0; s=0; m=0; }
        local cmd="$*"
        cmd=${cmd//$build/\$IG_SIM_BUILD}
        cmd=${cmd//$work/\$IG_SIM_WORK}
        local buildid
        buildid=$(sed -n 's/^commit \(.\{12\}\).*/commit:\1/p' "$build/BUILD-INFO" | head -n 1)
        (
            flock 9
            grep -v "^$id,$algo,$size," "$runs" >"$runs.tmp" || true
            echo "$id,$algo,$size,$label,$(date -u +%Y-%m-%dT%H:%M:%SZ),$w,$(awk -v u="$u" -v s="$s" 'BEGIN { printf "%.1f", u + s }'),$m,$status,$buildid,\"${cmd%.tmp}\"" >>"$runs.tmp"
            { head -n 1 "$runs.tmp"; tail -n +2 "$runs.tmp" | sort; } >"$runs"
            rm -f "$runs.tmp"
        ) 9>"$work/runs.lock"
        echo "direct.sh: $id $algo $size $status (wall ${w}s, cpu $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }')s)" >&2
    }
    export -f one_point
    export work build runs label
    # shellcheck disable=SC2016 # expanded by the inner shell
    [ ! -s "$list" ] || xargs -P "$jobs" -L 1 bash -c 'one_point "$@"' _ <"$list"
    rm -f "$list"
fi

# The panels' CSVs: the points simulated here, and every row the CSV
# already holds for a point not simulated here (earlier machines' points:
# $work is per machine, the CSVs are the record).
for pt in "$work"/points/*.csv; do
    [ -e "$pt" ] || continue
    id=$(basename "$pt" | cut -d- -f1)
    echo "$id"
done | sort -u | while read -r id; do
    out="$data/figure4-direct-$id.csv"
    # shellcheck disable=SC2012 # our own file names: panel-algorithm-size.csv
    first=$(ls "$work"/points/"$id"-*.csv | head -n 1)
    for f in "$work"/points/"$id"-*.csv; do tail -n +2 "$f"; done >"$out.new"
    {
        head -n 1 "$first"
        {
            cat "$out.new"
            # Kept: rows whose (algorithm, bytes) no point here has.
            [ ! -f "$out" ] || tail -n +2 "$out" | awk -F, 'NR == FNR { here[$2 "," $5] = 1; next } !here[$2 "," $5]' "$out.new" -
        } | sort -t, -k5,5n -k2,2
    } >"$out.tmp"
    mv "$out.tmp" "$out"
    rm -f "$out.new"
done

# The model the library's default (INTERGATHER_NET_MODEL=measure) measures
# on each panel's platform: its own ig_net_measure between rank 0 and the
# first rank on another node (measure_model.c), one short smpirun a panel,
# kept in docs/data/sim-measured-model.csv for --table-only.
models="$data/sim-measured-model.csv"
if [ $do_run = 1 ]; then
    mbuild="$build-measure"
    # Built like the benchmark: with --no-build the existing binary is used.
    if [ $do_build = 1 ] || [ ! -x "$mbuild/intergather-bench" ]; then
        IG_SIM_BUILD="$mbuild" IG_SIM_DRIVER="$here/measure_model.c" "$here/build.sh" >/dev/null
    fi
    echo "panel,platform,hostfile,peer,model" >"$models.tmp"
    for id in a b c d e f; do
        read -r _ _ _ _ platform hosts ppn _ _ <<<"$(panel_row "$id")"
        model=$(smpirun -platform "$work/platforms/$platform" -hostfile "$work/platforms/$hosts" -np $((ppn + 1)) \
            "${SMPI_CFG[@]}" --log=root.thresh:warning "$mbuild/intergather-bench" "$ppn" 2>/dev/null | tail -n 1)
        case $model in ts=*) ;; *) echo "direct.sh: measuring the model of panel $id failed" >&2; exit 1 ;; esac
        echo "$id,$platform,$hosts,$ppn,$model" >>"$models.tmp"
    done
    mv "$models.tmp" "$models"
fi
measured=()
if [ -f "$models" ]; then
    while IFS=, read -r id _ _ _ model; do
        [ "$id" = panel ] || measured+=(--measured "$id=${model//,/;}")
    done <"$models"
fi

dt="$work/decide_table"
build_decide_table "$top" "$dt"
python3 "$here/direct_table.py" --data "$data" --decide "$dt" --csv "$data/sim-direct.csv" --md "$data/sim-direct.md" \
    "${measured[@]}" "${alt[@]}"
