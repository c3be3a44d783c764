#!/bin/bash
# intergather-bench's measurement modes, which docs/performance.md rests on:
# each algorithm's calls in a row and --interleave (rounds of every
# algorithm), with --calls (every balanced timed call) and with an arrival
# pattern (--imbalance).  Checked: the run succeeds, every CSV row is
# verified byte for byte (the check before each measurement and of its last
# timed call, in both modes), there is one row per algorithm, size and F,
# and the call file holds exactly calls 0..N-1 of every algorithm and size,
# each a positive time; --gap pauses before every timed call and refuses a
# negative pause; --warm-links warms the connections first, and --proc-times
# records every process's every timed call (the terms of avg_proc_s).
# Where python3 is installed, the reports' paired ratios
# (scripts/bench/paired.py) are checked too, on the run's call file against
# a median computed here in awk, and on a small file whose answer is known.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
work=$(mktemp -d "${TMPDIR:-/tmp}/ig-bench.XXXXXX")
trap 'rm -rf "$work" "$IG_OUT"' EXIT
bench=$IG_TOP_BUILDDIR/bench/intergather-bench
iters=4 sizes=1K,64K nsizes=2

check_run() { # check_run NAME NALGS NIMB
    local csv=$work/$1.csv calls=$work/$1-calls.csv
    if grep -q 'MISMATCH\|did NOT match' "$IG_OUT"; then
        cat "$IG_OUT" >&2; echo "FAIL: $1: a result differs" >&2; exit 1
    fi
    local rows bad
    rows=$(($(wc -l <"$csv") - 1))
    bad=$(awk -F, 'NR > 1 && $10 != "yes"' "$csv" | wc -l)
    if [ "$rows" -ne $(($2 * nsizes * $3)) ] || [ "$bad" -ne 0 ]; then
        cat "$csv" >&2; echo "FAIL: $1: $rows rows (expected $(($2 * nsizes * $3))), $bad not verified" >&2; exit 1
    fi
    # Every (algorithm, size) has calls 0..iters-1 exactly once, each > 0.
    if ! awk -F, -v n="$iters" -v want=$(($2 * nsizes)) '
        NR == 1 { if ($0 != "mode,algorithm,p,q,bytes,duplex,call,seconds,position") exit 1; next }
        { k = $2 "," $5; if (seen[k "," $7]++ || $7 < 0 || $7 >= n || !($8 > 0)) exit 1; count[k]++ }
        END { for (k in count) { if (count[k] != n) exit 1; m++ } if (m != want) exit 1 }' "$calls"; then
        cat "$calls" >&2; echo "FAIL: $1: the call file is not calls 0..$((iters - 1)) of every algorithm and size" >&2
        exit 1
    fi
    echo "ok: $1: $rows rows verified, $(($(wc -l <"$calls") - 1)) calls recorded"
}

half=native,iallgather,merge-allgatherv,intergather,direct,fc
run_bench() { # run_bench NAME DUPLEX ALGOS BENCH-OPTIONS...
    local name=$1 duplex=$2 algos=$3
    shift 3
    ig_launch 4 -- "$bench" -p 2 --duplex "$duplex" --sizes "$sizes" --iters "$iters" --warmup 1 --algos "$algos" \
        --csv "$work/$name.csv" --calls "$work/$name-calls.csv" "$@"
}
run_bench in-a-row half "$half"
check_run in-a-row 6 1
run_bench interleaved half "$half" --interleave
check_run interleaved 6 1
run_bench interleaved-full full native,iallgather,merge-allgatherv,intergather,direct --interleave
check_run interleaved-full 5 1
run_bench interleaved-arrival half native,iallgather,intergather --interleave --imbalance 0,2 --gap 0.001
check_run interleaved-arrival 3 2

# --interleave's order is balanced for carryover (a Williams design): over
# n rounds (2 n for odd n) every algorithm takes every position in a round
# equally often and follows every other one within a round equally often
# (once for even n, twice for odd).  A plain rotation fails this: there
# each algorithm follows the same one in every round.
check_carryover() { # check_carryover NAME NALGS
    awk -F, -v n="$2" '
        NR == 1 { next }
        $5 != first_size && first_size != "" { next }
        { first_size = $5; at[$7 "," $9] = $2; pos[$2 "," $9]++; if ($9 < 0 || $9 >= n) bad = 1 }
        END {
            rounds = 0
            for (k in at) { split(k, f, ","); if (f[1] + 1 > rounds) rounds = f[1] + 1 }
            for (r = 0; r < rounds; r++)
                for (k = 0; k + 1 < n; k++) {
                    if (!((r "," k) in at) || !((r "," (k + 1)) in at)) bad = 1
                    after[at[r "," k] ">" at[r "," (k + 1)]]++
                }
            want = rounds / n
            for (a in pos) if (pos[a] != want) bad = 1
            m = 0
            for (a in after) { if (after[a] != want) bad = 1; m++ }
            if (m != n * (n - 1)) bad = 1
            exit bad
        }' "$work/$1-calls.csv" ||
        { cat "$work/$1-calls.csv" >&2; echo "FAIL: $1: the rounds are not balanced for carryover" >&2; exit 1; }
    echo "ok: $1: every algorithm in every position alike, after every other one alike"
}
iters=4 run_bench carryover-even half native,iallgather,intergather,direct --interleave --warmup 0
iters=4 check_run carryover-even 4 1
check_carryover carryover-even 4
iters=6 run_bench carryover-odd half native,iallgather,intergather --interleave --warmup 0
iters=6 check_run carryover-odd 3 1
check_carryover carryover-odd 3
# --gap: 20 balanced calls of 1 KiB after 10 ms each cannot take under 0.2 s.
start=$(date +%s.%N)
run_bench gap half intergather --gap 0.01 --iters 20 --warmup 0
elapsed=$(awk -v s="$start" -v e="$(date +%s.%N)" 'BEGIN { print e - s }')
awk -v t="$elapsed" 'BEGIN { exit !(t >= 0.2) }' ||
    { echo "FAIL: --gap 0.01 with 2 x 20 calls took only $elapsed s" >&2; exit 1; }
echo "ok: --gap 0.01, 2 sizes x 20 calls: $elapsed s"
# --iters-large tiers, given out of order: at each size the tier of the
# largest BYTES not above it (1 KiB: --iters; 8 KiB: 7, more than --iters,
# so the call buffers must count every tier; 64 KiB: 2; 256 KiB: 1),
# neither the first nor the last tier that fits; an earlier --iters-large
# is replaced.
run_bench tiers half iallgather,intergather --sizes 1K,8K,64K,256K --iters 5 --warmup 0 --iters-large 1K:9 \
    --iters-large 8K:7,256K:1:0,64K:2
if grep -q 'MISMATCH\|did NOT match' "$IG_OUT"; then
    cat "$IG_OUT" >&2; echo "FAIL: tiers: a result differs" >&2; exit 1
fi
awk -F, 'NR > 1 { n[$2 "," $5]++ }
    END { want["1024"] = 5; want["8192"] = 7; want["65536"] = 2; want["262144"] = 1
          for (a in n) { split(a, f, ","); if (n[a] != want[f[2]]) exit 1; m++ } exit (m != 8) }' "$work/tiers-calls.csv" ||
    { cat "$work/tiers-calls.csv" >&2; echo "FAIL: --iters-large tiers: wrong number of calls per size" >&2; exit 1; }
echo "ok: --iters-large 8K:7,256K:1:0,64K:2 with --iters 5: 5, 7, 2 and 1 calls at 1, 8, 64 and 256 KiB"
# --warm-links and --proc-times: the warm-up's rounds are reported, and
# the per-process file holds every timed call of every process (4 of 2
# algorithms at F = 0 and 2), ranks 0 and 1 in group A, arrivals 0 at F = 0
# and within [0, 2 T] at F = 2, times positive, and the mean over its
# processes and calls is the CSV's avg_proc_s for each algorithm and F.
run_bench proc-times half native,intergather --sizes 4K --imbalance 0,2 --warm-links 8K:2 \
    --proc-times "$work/proc.csv"
[ "$(grep -c '^warm-links: round [12] of 2, 8192 bytes to each of 3 processes' "$IG_OUT")" -eq 2 ] ||
    { cat "$IG_OUT" >&2; echo "FAIL: --warm-links 8K:2 did not report its two rounds" >&2; exit 1; }
awk -F, -v n="$iters" '
    NR == FNR { if (FNR > 1) { avg[$2 "," $12] = $14; t[$2 "," $12] = $13 } next }
    FNR == 1 { if ($0 != "mode,algorithm,p,q,bytes,duplex,imbalance,call,rank,group,arrival_s,seconds") exit 1; next }
    { k = $2 "," $7
      if (seen[k "," $8 "," $9]++ || $8 < 0 || $8 >= n || $9 < 0 || $9 > 3 || $10 != ($9 < 2 ? "A" : "B")) exit 1
      if (!($12 > 0) || ($7 == 0 && $11 != 0) || $11 < 0 || $11 > $7 * t[k] + 0.05) exit 1
      sum[k] += $12; rows[k]++ }
    END { for (k in avg) { if (rows[k] != 4 * n) exit 1; d = sum[k] / rows[k] - avg[k]; if (d < 0) d = -d
                           if (d > 2e-9 + 1e-6 * avg[k]) exit 1; m++ }
          exit m != 4 }' "$work/proc-times.csv" "$work/proc.csv" ||
    { cat "$work/proc-times.csv" "$work/proc.csv" >&2; echo "FAIL: --proc-times: not every process's every timed call, or not the CSV's averages" >&2; exit 1; }
echo "ok: --warm-links 8K:2 ran two rounds; --proc-times holds every process's timed calls, averaging to avg_proc_s"
# expect_refused OPTION VALUE TEXT: the bench refuses OPTION VALUE and
# says "OPTION VALUE: TEXT...".
expect_refused() {
    if ig_launch 2 -- "$bench" "$1" "$2" 2>/dev/null; then
        echo "FAIL: $1 $2 accepted" >&2; exit 1
    fi
    grep -q -- "$1 $2: $3" "$IG_OUT" || { cat "$IG_OUT" >&2; echo "FAIL: $1 $2 not explained" >&2; exit 1; }
}
# The refusals, where the launcher is Open MPI's (which calls itself
# OpenRTE as mpirun.openmpi: ig_launcher_kind, not the version's text).
ig_launcher_kind
if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
    expect_refused --gap -1 "expected seconds"
    echo "ok: --gap -1 refused"
    expect_refused --iters-large 1K:1,2K:1,4K:1,8K:1,16K:1 "expected up to 4 tiers"
    echo "ok: five --iters-large tiers refused"
    for bad in 64K:5, 64K:5,64K:3 64K: 64K:5:; do
        expect_refused --iters-large "$bad" expected
    done
    echo "ok: --iters-large with a trailing comma, a repeated BYTES, no N and an empty W refused"
    for bad in 1M 1M:0 :3 1M:x; do
        expect_refused --warm-links "$bad" "expected BYTES:ROUNDS"
    done
    echo "ok: --warm-links without rounds, with 0 rounds, without bytes and with a word refused"
fi

# The verification itself: tests/mpi/corrupt_result.c, preloaded, spoils
# one MPI_Allgather result in every receiving process, the "intergather"
# row's (the bench's only MPI_Allgather).  With --warmup 0 --iters 3 its
# call 1 is the check before the measurement and call 4 the last timed
# call (also with --interleave, where every row is checked before the
# rounds).  Either must fail the run ("did NOT match") and mark that row,
# and only that row, MISMATCH in the CSV.
corrupt=$IG_TOP_BUILDDIR/tests/mpi/.libs/libcorruptresult.so
expect_mismatch() { # expect_mismatch CALL BENCH-OPTIONS...
    local spoiled=$1 verdicts
    shift
    if ig_launch 4 LD_PRELOAD="$corrupt" IG_TEST_CORRUPT_CALL="$spoiled" -- "$bench" -p 2 --sizes 1K --iters 3 \
        --warmup 0 --algos native,intergather,direct --csv "$work/spoiled.csv" "$@" 2>/dev/null; then
        cat "$IG_OUT" >&2; echo "FAIL: call $spoiled spoiled ($*), yet the bench succeeded" >&2; exit 1
    fi
    verdicts=$(awk -F, 'NR > 1 { printf "%s=%s ", $2, $10 }' "$work/spoiled.csv")
    if [ "$(grep -c "corrupt_result: call $spoiled spoiled" "$IG_OUT")" -ne 2 ] ||
        ! grep -q 'did NOT match' "$IG_OUT" || [ "$verdicts" != "native=yes intergather=MISMATCH direct=yes " ]; then
        cat "$IG_OUT" "$work/spoiled.csv" >&2
        echo "FAIL: call $spoiled spoiled ($*): not reported as the intergather row's mismatch alone" >&2
        exit 1
    fi
}
for spoiled in 1 4; do
    expect_mismatch $spoiled
    expect_mismatch $spoiled --interleave
done
echo "ok: a result spoiled in the check before the measurement or in the last timed call, in a row and interleaved: that row alone MISMATCH, the run failed"

if ! command -v python3 >/dev/null; then
    echo "(python3 not installed: the reports' paired ratios are not checked)"
    exit 0
fi
# paired.py on the interleaved run against awk: intergather over iallgather,
# call by call, median of the ratios.
export PYTHONPATH=$IG_TOP_SRCDIR/scripts/bench
for bytes in 1024 65536; do
    want=$(awk -F, -v b=$bytes 'NR > 1 && $5 == b && $2 == "intergather" { ig[$7] = $8 }
                                NR > 1 && $5 == b && $2 == "iallgather" { pe[$7] = $8 }
                                END { for (c in ig) printf "%.12g\n", ig[c] / pe[c] }' "$work/interleaved-calls.csv" |
           sort -g | awk '{ v[NR] = $1 } END { printf "%.9f\n", NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2 }')
    got=$(python3 -c "import paired, sys
r = paired.paired_ratios(paired.read_calls(sys.argv[1]))[(2, 2, 'half', $bytes)]['iallgather']
print('%.9f' % r)" "$work/interleaved-calls.csv")
    awk -v a="$want" -v b="$got" 'BEGIN { d = a - b; if (d < 0) d = -d; exit !(d <= 1e-6 * a) }' ||
        { echo "FAIL: paired ratio at $bytes bytes: paired.py $got, awk $want" >&2; exit 1; }
    echo "ok: paired ratio intergather/iallgather at $bytes bytes: $got"
done
# A known answer: two runs; rounds pair by (run, call).  intergather over
# a: 0.5, 2 and 3 by round, median 2 (pairing by call alone would give 2.5,
# the ratio of the medians 1.5); over b: 2, 1 and 0.5, median 1.
cat >"$work/known.csv" <<'CSV'
rep,mode,algorithm,p,q,bytes,duplex,call,seconds
1,inter,intergather,1,1,8,half,0,2
1,inter,a,1,1,8,half,0,4
1,inter,b,1,1,8,half,0,1
1,inter,intergather,1,1,8,half,1,4
1,inter,a,1,1,8,half,1,2
1,inter,b,1,1,8,half,1,4
2,inter,intergather,1,1,8,half,0,3
2,inter,a,1,1,8,half,0,1
2,inter,b,1,1,8,half,0,6
CSV
python3 -c "import paired, sys
r = paired.paired_ratios(paired.read_calls(sys.argv[1], 'rep'))[(1, 1, 'half', 8)]
assert r == {'a': 2.0, 'b': 1.0}, r
assert paired.worst_peer(r, ['a', 'b']) == ('a', 2.0)
assert paired.worst_peer(r, ['c']) == (None, None)" "$work/known.csv" ||
    { echo "FAIL: paired.py on a file with a known answer" >&2; exit 1; }
echo "ok: paired.py on a file with a known answer"
