#!/bin/bash
# Check that the algorithms deliver the right bytes under SimGrid SMPI, with
# the simulation's settings (collective overrides, the smpi_flatten.c shim,
# privatization off): the project's benchmark with --verify (private payload
# buffers) compares every algorithm's result, on every receiver, with
# root gathering's, itself checked against the known send pattern.  Small
# scale (private buffers are real memory): p = q, p < q (q a multiple of p and
# not), p > q, on both platform kinds, 1 KiB .. 64 KiB.  A minute or two.
#
#   scripts/simgrid/check_data.sh      -> one line per run, "all verified" or exit 1
# Writes docs/data/sim-check-data.txt.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
here="$top/scripts/simgrid"
build=${IG_SIM_BUILD:-/tmp/intergather-simbuild}
work=${IG_SIM_WORK:-/tmp/intergather-sim}/check-data
out="$top/docs/data/sim-check-data.txt"
mkdir -p "$work"
[ "${1:-}" = --no-build ] || IG_SIM_BUILD="$build" "$here/build.sh" >/dev/null
python3 "$here/platforms.py" --out "$work/platforms"
# No auto-shared-malloc threshold here: it would fold the private buffers
# onto shared memory too.
cfg=(--cfg=smpi/coll-selector:mpich --cfg=smpi/allgather:NTSLR --cfg=smpi/bcast:scatter_LR_allgather
     --cfg=smpi/simulate-computation:no --cfg=smpi/privatization:no --log=root.thresh:warning)
{
    echo "# scripts/simgrid/check_data.sh, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(sed -n 's/^built .* with //p' "$build/BUILD-INFO")"
    echo "# platform p q: algorithms verified (fc's group stage is intergather's ring: the pair API reads no setting)"
} >"$out"
status=0
for run in "cori_df.xml 8 8" "cori_df.xml 4 12" "cori_df.xml 3 10" "cori_df.xml 12 4" "cori_df.xml 10 3" \
           "ring256.xml 8 8" "ring256.xml 4 12" "ring256.xml 12 4" "ring256.xml 5 7"; do
    read -r plat p q <<<"$run"
    csv="$work/$plat-$p-$q.csv"
    if ! smpirun -platform "$work/platforms/$plat" \
        -hostfile "$work/platforms/hosts-256x1.txt" -np $((p + q)) "${cfg[@]}" \
        "$build/intergather-bench" --intra --verify -p "$p" --sizes 1K:64K --iters 1 --warmup 0 \
        --csv "$csv" >"$work/log" 2>&1; then
        echo "check_data.sh: run failed or mismatched ($plat p=$p q=$q):"; tail "$work/log"
        status=1
    fi
    if [ ! -s "$csv" ]; then
        echo "$plat $p $q: no results" | tee -a "$out"
        status=1
        continue
    fi
    # "algorithm verified/measured" per algorithm, in a stable order.
    echo "$plat $p $q: $(awk -F, 'NR > 1 { n[$2]++; if ($10 != "yes") bad[$2]++ }
        END { for (a in n) print a, n[a] - bad[a] "/" n[a] }' "$csv" | sort | tr '\n' ' ')" | tee -a "$out"
    if [ "$(awk -F, 'NR > 1 && $10 != "yes"' "$csv" | wc -l)" != 0 ] || [ "$(wc -l <"$csv")" -lt 2 ]; then
        status=1
    fi
done
if [ $status = 0 ]; then echo "all verified" | tee -a "$out"; else echo "MISMATCH or failure" | tee -a "$out"; fi
exit $status
