#!/bin/bash
# Shared-memory sweep on this machine (docs/performance.md, "Shared memory").
#
#   scripts/bench/shm_sweep.sh            full sweep (up to an hour on a loaded 2-core machine)
#   QUICK=1 scripts/bench/shm_sweep.sh    a smoke run (few sizes, 1 repetition)
#
# 1. intergather-bench: native vs fc vs ring (both schedules) vs root-gathering
#    for every split in CONFIGS and block sizes SIZES, REPS separate mpirun
#    runs, each reporting the median of ITERS timed calls.
# 2. The whole shim path: the unmodified demo/intergather-demo natively, under
#    LD_PRELOAD with INTERGATHER_MIN_BYTES=0 (no size floor: the cost model
#    decides every call), and under LD_PRELOAD with default settings (the
#    same since 0 became the default; the two differ for a build or a site
#    whose default does not); the modes run back to back for each size, so
#    the report pairs them per repetition.
# Outputs (medians over repetitions, raw runs kept in $RAW):
#    docs/data/shm-bench.csv, docs/data/shm-shim.csv,
#    docs/figures/shm-bench.png, docs/figures/shm-shim.png
# Environment: CONFIGS ("P:Q ..."), SIZES (bench --sizes), DEMO_SIZES (bytes),
# PHASES ("bench demo" or one of them; the report reads whatever RAW holds),
# DATA and FIGS (output folders, default docs/data and docs/figures),
# REPS (bench runs), DEMO_REPS (demo runs; DEMO_APPEND=1 adds them to
# RAW/demo.csv), REC_MIN_BYTES (adds the mode shim-rec), ITERS, RAW (raw-run directory, default a temporary one), MPIRUN.
set -euo pipefail
. "$(dirname "$0")/env.sh"
if [ -n "${QUICK:-}" ]; then
    CONFIGS=${CONFIGS:-"2:2 2:6"}; SIZES=${SIZES:-1K,64K,1M}; DEMO_SIZES=${DEMO_SIZES:-"1024 65536 1048576"}
    REPS=${REPS:-1}; DEMO_REPS=${DEMO_REPS:-1}; ITERS=${ITERS:-5}
fi
CONFIGS=${CONFIGS:-"2:2 4:4 8:8 2:6 6:2 4:12 12:4"}
SIZES=${SIZES:-1K:4M}
DEMO_SIZES=${DEMO_SIZES:-"1024 2048 4096 8192 16384 32768 65536 131072 262144 524288 1048576 2097152 4194304"}
REPS=${REPS:-5}
DEMO_REPS=${DEMO_REPS:-3}
# shim-rec: under LD_PRELOAD with INTERGATHER_MIN_BYTES=$REC_MIN_BYTES, to try a
# candidate default before it is compiled in.
DEMO_MODES=${DEMO_MODES:-"native shim-all shim-default${REC_MIN_BYTES:+ shim-rec}"}
ITERS=${ITERS:-20}
LIB=$top/src/.libs/libintergather.so
BENCH=$top/bench/intergather-bench
DEMO=$top/demo/intergather-demo
PY=/usr/bin/python3
for f in "$LIB" "$BENCH" "$DEMO"; do
    [ -x "$f" ] || [ -f "$f" ] || { echo "missing $f: run make first" >&2; exit 1; }
done
if [ -z "${RAW:-}" ]; then
    RAW=$(mktemp -d)
    trap 'rm -rf "$RAW"' EXIT
fi
DATA=${DATA:-docs/data}
FIGS=${FIGS:-docs/figures}
mkdir -p "$RAW" "$DATA" "$FIGS"
echo "raw runs in $RAW; $(nproc) cores, processes are oversubscribed" >&2

PHASES=${PHASES:-"bench demo"}

# --- 1. the benchmark --------------------------------------------------------
if [[ " $PHASES " == *" bench "* ]]; then
for rep in $(seq 1 "$REPS"); do
    for c in $CONFIGS; do
        p=${c%:*} q=${c#*:}
        echo "bench rep $rep/$REPS p=$p q=$q" >&2
        timeout 1800 "$MPIRUN" --oversubscribe -np $((p + q)) "$BENCH" -p "$p" --sizes "$SIZES" \
            --iters "$ITERS" --warmup 3 --algos native,fc,ring-optimal,ring-paper,root-gathering \
            --csv "$RAW/bench-$p-$q-$rep.csv" 2>"$RAW/bench-$p-$q-$rep.log"
    done
done
fi

# --- 2. the whole shim path with the unmodified demo -------------------------
demo_run() { # demo_run MODE P Q BYTES REP
    local mode=$1 p=$2 q=$3 bytes=$4 rep=$5 env=()
    # 200 calls, fewer where each receiver would hash more than 256 MiB in
    # all (the demo digests everything it receives), never fewer than 20.
    local n=$((268435456 / (p * bytes)))
    [ "$n" -gt 200 ] && n=200
    [ "$n" -lt 20 ] && n=20
    case $mode in
        native) ;;
        shim-all) env=(-x LD_PRELOAD="$LIB" -x INTERGATHER_MIN_BYTES=0) ;;
        shim-default) env=(-x LD_PRELOAD="$LIB") ;;
        shim-rec) env=(-x LD_PRELOAD="$LIB" -x INTERGATHER_MIN_BYTES="$REC_MIN_BYTES") ;;
    esac
    local line
    line=$(env -u INTERGATHER_MIN_BYTES timeout 600 "$MPIRUN" --oversubscribe -np $((p + q)) "${env[@]}" \
        "$DEMO" -p "$p" -b "$bytes" -n "$n" 2>>"$RAW/demo.log")
    local med dig
    med=$(sed -n 's/.* median=\([0-9.]*\) ms.*/\1/p' <<<"$line")
    dig=$(sed -n 's/.* digest=\([0-9a-f]*\).*/\1/p' <<<"$line")
    echo "$mode,$p,$q,$bytes,$rep,$med,$dig" >>"$RAW/demo.csv"
}
if [[ " $PHASES " == *" demo "* ]]; then
first_rep=1
if [ -n "${DEMO_APPEND:-}" ] && [ -s "$RAW/demo.csv" ]; then
    first_rep=$(($(awk -F, 'NR > 1 && $5 > m { m = $5 } END { print m + 0 }' "$RAW/demo.csv") + 1))
else
    echo "mode,p,q,bytes,rep,median_ms,digest" >"$RAW/demo.csv"
fi
for rep in $(seq "$first_rep" $((first_rep + DEMO_REPS - 1))); do
    for c in $CONFIGS; do
        p=${c%:*} q=${c#*:}
        echo "demo rep $rep p=$p q=$q" >&2
        for b in $DEMO_SIZES; do
            for mode in $DEMO_MODES; do
                demo_run "$mode" "$p" "$q" "$b" "$rep"
            done
        done
    done
done
fi

"$PY" "$top/scripts/bench/shm_report.py" "$RAW" "$DATA" "$FIGS"
