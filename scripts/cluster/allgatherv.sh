#!/bin/bash
# Half-duplex MPI_Allgatherv with blocks of different sizes on the emulated
# cluster (scripts/cluster/allgatherv.c), timed against what a user has
# without intergather (MPI_Iallgatherv + MPI_Wait, and with VARIANTS native
# root gathering and the merge workaround) making the same calls, once with
# intergather's default decision
# and once with the fully connected family forced (INTERGATHER_ALGORITHM=fc,
# what the default ran for MPI_Allgatherv before the relay served it).
# docs/performance.md, "Thirty-seventh session", shows what it found.
#
#   sudo scripts/cluster/allgatherv.sh [P Q LARGEST ROUNDS]   (default 4 12 262144,1048576,4194304 6)
#
# Environment: SETTINGS (default "default fc": `default`, or an algorithm
# name for INTERGATHER_ALGORITHM), VARIANTS (default library,iallgatherv;
# also native, merge: allgatherv.c), LIB (the library to preload, default this
# build's src/.libs/libintergather.so), WARMUP (rounds not reported, default 1),
# OUT (default /tmp/igc-allgatherv: one CSV per setting, stderr, report.txt),
# RATE as run.sh.
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
top=$(cd "$here/../.." && pwd)
p=${1:-4} q=${2:-12} sizes=${3:-262144,1048576,4194304} rounds=${4:-6}
warmup=${WARMUP:-1} # read before run.sh, which has a WARMUP of its own
SETTINGS=${SETTINGS:-"default fc"}
VARIANTS=${VARIANTS:-library,iallgatherv}
LIB=${LIB:-$top/src/.libs/libintergather.so}
OUT=${OUT:-/tmp/igc-allgatherv}
IGC_LIB=1 source "$here/run.sh"
program_cluster allgatherv $((p + q)) || exit 1
for setting in $SETTINGS; do
    env_opt=()
    [ "$setting" = default ] || env_opt=(-x INTERGATHER_ALGORITHM="$setting")
    cluster_mpirun $((p + q)) -x LD_PRELOAD="$LIB" -x INTERGATHER_VERBOSE=2 "${env_opt[@]}" -- \
        "$OUT/allgatherv" "$p" "$sizes" "$rounds" "$warmup" "$VARIANTS" >"$OUT/$setting.csv" 2>"$OUT/stderr-$setting.txt" ||
        { cat "$OUT/stderr-$setting.txt" >&2; exit 1; }
done
{
    echo "allgatherv: p=$p q=$q, half duplex, largest blocks $sizes bytes (sender i sends largest (p - i) / p),"
    echo "$rounds rounds after $warmup, library $LIB, links at $RATE Mbit/s"
    for setting in $SETTINGS; do
        # What the library served, summed over the processes (its summaries).
        grep 'intergather: summary (world rank' "$OUT/stderr-$setting.txt" |
            grep -o 'alg-[a-z-]*=[0-9]*' |
            awk -F= -v s="$setting" '{ t[$1] += $2 } END { printf "%s: served", s; for (a in t) if (t[a]) printf " %s=%d", a, t[a]; print "" }'
    done
    # shellcheck disable=SC2086 # one argument per setting
    /usr/bin/python3 - "$OUT" "$p" "$RATE" $SETTINGS <<'PY'
import csv, statistics, sys
out, p, rate, settings = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), sys.argv[4:]
names = {"iallgatherv": "MPI_Iallgatherv", "native": "native", "merge": "merge workaround"}
print("| largest | setting | intergather ms | peers' medians ms | best peer | paired, against the peer it trails most | % of bound |")
print("|---|---|---|---|---|---|---|")
for setting in settings:
    t = {}
    for row in csv.DictReader(open(f"{out}/{setting}.csv")):
        t.setdefault(int(row["largest"]), {}).setdefault(row["variant"], {})[int(row["round"])] = float(row["seconds"])
    for largest in sorted(t):
        lib, peers = t[largest]["library"], {v: r for v, r in t[largest].items() if v != "library"}
        # Every receiver's link takes the sum of the blocks.
        received = sum(largest * (p - i) // p for i in range(p))
        bound = received * 8 / (rate * 1e6)
        med = statistics.median(lib.values())
        meds = {v: statistics.median(r.values()) for v, r in peers.items()}
        best = min(meds, key=meds.get)
        paired = {v: statistics.median(lib[k] / r[k] for k in lib) for v, r in peers.items()}
        worst = max(paired, key=paired.get)
        listed = ", ".join(f"{names[v]} {m * 1e3:.1f}" for v, m in sorted(meds.items()))
        print(f"| {largest} | {setting} | {med * 1e3:.1f} | {listed} | {names[best]} ({med / meds[best]:.3f}) | "
              f"{paired[worst]:.3f} ({names[worst]}) | {100 * bound / med:.1f} |")
PY
} | tee "$OUT/report.txt"
