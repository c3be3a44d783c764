#!/bin/bash
# Show that the simulation-only settings change host cost, not simulated time:
# the benchmark built with and without smpi_flatten.c (IG_SIM_SHIM=1/0), and
# run with smpi/privatization:no and with SMPI's default privatization, must
# print identical CSVs (every algorithm, p = q, p < q, p > q, both platform
# kinds, 32 KiB .. 4 MiB).  Takes a few minutes.
#
#   scripts/simgrid/check_shim.sh        -> prints host CPU per variant and "identical"
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/scripts/simgrid"
work=${IG_SIM_WORK:-/tmp/intergather-sim}/check-shim
mkdir -p "$work"
IG_SIM_SHIM=1 IG_SIM_BUILD="$work/shim" "$here/build.sh" >/dev/null
IG_SIM_SHIM=0 IG_SIM_BUILD="$work/noshim" "$here/build.sh" >/dev/null
python3 "$here/platforms.py" --out "$work/platforms"
base=(--cfg=smpi/coll-selector:mpich --cfg=smpi/allgather:NTSLR --cfg=smpi/bcast:scatter_LR_allgather
      --cfg=smpi/simulate-computation:no --cfg=smpi/shared-malloc-blocksize:268435456
      --cfg=smpi/auto-shared-malloc-thresh:65536 --log=root.thresh:warning)
status=0
for cfg in "cori_df.xml 64 16" "cori_df.xml 64 48" "cori_df.xml 64 32" "ring256.xml 64 16" "ring256.xml 64 48" "ring256.xml 64 32"; do
    read -r plat np p <<<"$cfg"
    for variant in "shim priv-no" "noshim priv-no" "shim priv-default"; do
        read -r b priv <<<"$variant"
        extra=()
        [ "$priv" = priv-no ] && extra=(--cfg=smpi/privatization:no)
        csv="$work/$plat-$p-$b-$priv.csv"
        /usr/bin/time -f "%U %S" -o "$work/time" smpirun -platform "$work/platforms/$plat" \
            -hostfile "$work/platforms/hosts-256x1.txt" -np "$np" "${base[@]}" "${extra[@]}" \
            "$work/$b/intergather-bench" --intra -p "$p" --sizes 32K:4M --iters 1 --warmup 1 --csv "$csv" \
            >"$work/log" 2>&1 || { echo "check_shim.sh: run failed ($plat p=$p $variant)"; tail "$work/log"; exit 1; }
        read -r u s <"$work/time"
        echo "$plat p=$p q=$((np - p)) $b $priv: host cpu $(awk -v u="$u" -v s="$s" 'BEGIN { print u + s }') s"
    done
    ref="$work/$plat-$p-shim-priv-no.csv"
    for other in "$work/$plat-$p-noshim-priv-no.csv" "$work/$plat-$p-shim-priv-default.csv"; do
        if cmp -s "$ref" "$other"; then
            echo "  identical: $(basename "$ref") $(basename "$other") ($(($(wc -l <"$ref") - 1)) rows)"
        else
            echo "  DIFFERENT: $(basename "$ref") $(basename "$other")"
            diff "$ref" "$other" | head -n 10
            status=1
        fi
    done
done
exit $status
