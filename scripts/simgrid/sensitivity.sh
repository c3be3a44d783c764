#!/bin/bash
# Sensitivity of the 4 MiB results to two modelling choices, on the
# 256-process configurations of panels d (FC 128/128) and j (ring 128/128),
# and for the FC algorithm alone on panel b's (256/768, 8 per node):
#   - the network: Cori-like dragonfly / 1-D torus (as in Figure 4) versus a
#     flat crossbar (no shared network links at all);
#   - SimGrid's network/crosstraffic (default on: every flow also loads the
#     reverse path with a small acknowledgement flow, a TCP-style effect that
#     Aries does not have);
#   - half-duplex links (the dragonfly with sharing_policy SHARED: both
#     directions of a link share its bandwidth), for panel d: a network on
#     which a process that sends and receives at once gets half the rate
#     each way, as the root-gathering broadcast's ring does and the fc
#     algorithm's receivers-only allgather also does.
# The ring rows also time the paper's schedule (ring-paper), which uses some
# links in both directions in the same step.
# Writes docs/data/sim-sensitivity.csv and prints it.  About 5 CPU-minutes.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/scripts/simgrid"
build=${IG_SIM_BUILD:-/tmp/intergather-simbuild}
work=${IG_SIM_WORK:-/tmp/intergather-sim}/sensitivity
out="$top/docs/data/sim-sensitivity.csv"
mkdir -p "$work"
[ "${1:-}" = --no-build ] || IG_SIM_BUILD="$build" "$here/build.sh" >/dev/null
python3 "$here/platforms.py" --out "$work/platforms"
python3 "$here/platforms.py" --out "$work/platforms-shared" --sharing SHARED
cp "$work/platforms-shared/cori_df.xml" "$work/platforms/cori_df_halfduplex.xml"
cfg=(--cfg=smpi/coll-selector:mpich --cfg=smpi/allgather:NTSLR --cfg=smpi/bcast:scatter_LR_allgather
     --cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc-blocksize:268435456
     --cfg=smpi/auto-shared-malloc-thresh:65536 --cfg=smpi/privatization:no --log=root.thresh:warning)
echo "panel,platform,crosstraffic,proposed,baseline,proposed_s,baseline_s,ratio,ring_paper_s,ring_paper_ratio" >"$out"
for c in "d cori_df.xml 1" "d xbar256.xml 1" "d cori_df.xml 0" "d xbar256.xml 0" "d cori_df_halfduplex.xml 1" \
         "j ring256.xml 1" "j ring256.xml 0" "b cori_df.xml 1" "b xbar256.xml 1"; do
    read -r panel plat ct <<<"$c"
    np=256 p=128 hosts=hosts-256x1.txt
    case $panel in
    d) prop=fc; base=root-gathering; algos=fc,root-gathering ;;
    j) prop=ring-optimal; base=intra-ring; algos=ring-optimal,ring-paper,intra-ring ;;
    b) prop=fc; base=""; algos=fc; np=1024 p=256 hosts=hosts-1024x8.txt ;;
    esac
    csv="$work/$panel-$plat-$ct.csv"
    smpirun -platform "$work/platforms/$plat" -hostfile "$work/platforms/$hosts" -np "$np" "${cfg[@]}" \
        --cfg=network/crosstraffic:"$ct" "$build/intergather-bench" --intra -p "$p" --sizes 4M:4M \
        --iters 1 --warmup 1 --algos "$algos" --csv "$csv" >"$work/log" 2>&1 ||
        { tail "$work/log"; exit 1; }
    awk -F, -v panel="$panel" -v plat="$plat" -v ct="$ct" -v prop="$prop" -v base="$base" '
        NR > 1 { t[$2] = $8 }
        END { if (base == "") printf "%s,%s,%s,%s,,%.9f,,", panel, plat, ct, prop, t[prop]
              else printf "%s,%s,%s,%s,%s,%.9f,%.9f,%.4f", panel, plat, ct, prop, base, t[prop], t[base], t[base] / t[prop]
              if ("ring-paper" in t) printf ",%.9f,%.4f\n", t["ring-paper"], t[base] / t["ring-paper"]; else printf ",,\n" }' \
        "$csv" >>"$out"
done
column -s, -t <"$out"
