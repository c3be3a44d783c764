#!/bin/bash
# One node with more processes than cores (INTERGATHER_OVERSUBSCRIBED,
# src/comm_cache.c and src/decide.c): every call is served by the direct
# algorithm, one stage, where the cost model alone takes a staged one (at
# 2+6, half duplex, 64 KiB blocks: the fully connected algorithm).
#   yes   the rule, whatever the machine
#   no    the model's own choice (what the other tests run)
#   auto  detected: the processes outnumber the CPUs their affinity masks
#         allow; an oversubscribed launch is not bound, so each process may
#         run on the CPUs this shell may, nproc of them (GNU nproc answers
#         OMP_NUM_THREADS when it is set: not here)
# The choice is shown with intergather-bench's MPI_BYTE blocks (verified
# against native), whose size no IG_TEST_MAXCOUNT caps (under MPICH the
# matrices run with tiny blocks, where the model takes direct anyway); then
# the matrices of datatypes run under the rule, byte for byte against native.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=2
np=8
cpus=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc)
ig_launcher_kind
bench=$IG_TOP_BUILDDIR/bench/intergather-bench
csv=$(mktemp)
trap 'rm -f "$IG_OUT" "$csv"' EXIT
staged() { echo $(($(summary_total alg-fc) + $(summary_total alg-spread) + $(summary_total alg-full-duplex))); }
fail() { echo "$*" >&2; cat "$IG_OUT" >&2; exit 1; }

for said in yes no auto; do
    rule=$said
    if [ "$said" = auto ]; then
        rule=no
        [ "$np" -le "$cpus" ] || rule=yes
    fi
    INTERGATHER_OVERSUBSCRIBED=$said run_preloaded $np "$bench" -p 2 --sizes 64K --algos intergather --iters 3 \
        --warmup 1 --csv "$csv"
    rows=$(($(wc -l <"$csv") - 1))
    [ "$rows" -eq 1 ] && [ "$(awk -F, 'NR > 1 { print $10 }' "$csv")" = yes ] || { cat "$csv" >&2; fail "not verified ($said)"; }
    if [ "$rule" = yes ]; then
        expect_total alg-direct -gt 0
        [ "$(staged)" -eq 0 ] || fail "oversubscribed ($said), yet staged algorithms ran"
        grep -q 'oversubscribed: every call served by direct' "$IG_OUT" || fail "no oversubscription line ($said)"
        # Direct alone: the calls end in the opening round (Open MPI), or
        # their early post stands (MPICH, where the opening does not apply).
        if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
            expect_total ended -gt 0
            expect_total went-on -eq 0
        else
            expect_total posted-early -gt 0
            expect_total withdrawn -eq 0
        fi
    else
        [ "$(staged)" -gt 0 ] || fail "not oversubscribed ($said), yet no staged algorithm ran"
        if grep -q 'oversubscribed:' "$IG_OUT"; then fail "an oversubscription line where none was expected ($said)"; fi
    fi
    echo "ok INTERGATHER_OVERSUBSCRIBED=$said, $np processes on $cpus CPUs: direct $(summary_total alg-direct), staged $(staged) (summed over processes)"
done

# As many processes as CPUs is not oversubscribed (auto): two processes
# on two of this shell's CPUs (the affinity the launch inherits), no
# oversubscription line.
two=$(awk '/^Cpus_allowed_list/ { n = split($2, r, ",")
    for (i = 1; i <= n && c < 2; i++) { m = split(r[i], e, "-"); hi = m > 1 ? e[2] : e[1]
        for (k = e[1] + 0; k <= hi + 0 && c < 2; k++) { printf "%s%d", c ? "," : "", k; c++ } } }' /proc/self/status)
if [ "$cpus" -ge 2 ] && [ "${two#*,}" != "$two" ]; then
    (taskset -pc "$two" $BASHPID >/dev/null &&
        INTERGATHER_OVERSUBSCRIBED=auto run_preloaded 2 "$bench" -p 1 --sizes 64K --algos intergather --iters 1 \
            --warmup 0 --csv "$csv")
    grep -q 'spans 1 node' "$IG_OUT" || fail "no node line (2 processes on CPUs $two)"
    if grep -q 'oversubscribed:' "$IG_OUT"; then fail "2 processes on 2 CPUs ($two) counted as oversubscribed"; fi
    echo "ok INTERGATHER_OVERSUBSCRIBED=auto, 2 processes on CPUs $two: not oversubscribed"
fi

# Every datatype, both directions and full duplex, MPI_Allgather and
# MPI_Allgatherv, under the rule.
export INTERGATHER_OVERSUBSCRIBED=yes
run_preloaded $np "$TESTS_BIN/allgather_matrix" 2+6 20000
expect_pass allgather_matrix
expect_summary fully-connected "$(expected_moved)"
[ "$(staged)" -eq 0 ] || fail "MPI_Allgather: staged algorithms ran on an oversubscribed node"
run_preloaded $np "$TESTS_BIN/allgatherv_matrix" 2+6
expect_pass allgatherv_matrix
[ "$(staged)" -eq 0 ] || fail "MPI_Allgatherv: staged algorithms ran on an oversubscribed node"
echo "ok matrices under the rule: direct $(summary_total alg-direct)"
