#!/bin/bash
# Random calls on which every process must take the same path.
# tests/mpi/soak.c (the soak program of scripts/soak/run.sh; a plain MPI
# program run under the preloaded library) makes random MPI_Allgather and
# MPI_Allgatherv calls on inter-communicators that it creates, duplicates
# and frees as it goes: half and full duplex, blocks of 1 byte to 1 MiB,
# several datatypes. It compares every result byte for byte with
# PMPI_Allgather(v) on the same arguments, and ends the job on a mismatch,
# an error code, or a call stuck for 60 s.
#
# With the cost model's choices (common.sh: not oversubscribed), under Open
# MPI, the random sizes make a random history of large and small calls on
# each communicator, so whether a call skips the opening round is predicted
# from that history (src/decide_opening.c, ig_decide_opening_predict_skip). Every
# process must predict alike: a process that skipped the round while its
# peers ran it would wait in another step (the watchdog) or take another
# call's blocks (a mismatch). The summaries must show calls that skipped
# the round and calls that went on from it, and, every call being correct,
# none counted as erroneous (erroneous-sizes=0: a receive type whose extent
# exceeds its size must not be taken for a receiver that expects more than
# is sent, src/call.c). The scripts/soak/run.sh
# maintainer's run does the same with 2500 calls per split and a memory
# check.
# Not in the MPICH pass (scripts/mpich-excluded.txt): native MPICH 4.0.2, the
# reference, fails on some of these derived-datatype calls.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_VERBOSE=2
calls=600
[ "${IG_TEST_QUICK:-0}" != 1 ] || calls=200
ig_launcher_kind
# expect_soak_pass LABEL: the last run's soak compared every call and passed.
expect_soak_pass() {
    if ! grep -q "SOAK-RESULT .* mismatches=0 .*verdict=PASS" "$IG_OUT"; then
        echo "random calls $1: no passing SOAK-RESULT line" >&2
        cat "$IG_OUT" >&2
        exit 1
    fi
}
for split in "8 3" "5 1"; do
    read -r np left <<<"$split"
    run_preloaded "$np" "$TESTS_BIN/soak" --calls "$calls" --seed 20261127 --left "$left" --watchdog 60
    expect_soak_pass "at $left+$((np - left))"
    if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
        expect_total skipped -gt 0
        expect_total went-on -gt 0
        expect_total ended -gt 0
    fi
    expect_total erroneous-sizes -eq 0
    echo "ok $calls random calls at $left+$((np - left)): skipped $(summary_total skipped)," \
        "went on $(summary_total went-on), ended $(summary_total ended) (over every process)"
done

# The same with the opening's trees (src/opening_plan.h, "The tree") on
# this one node, at 1+5 on the emulated cluster's network model, where fc
# serves a single process's small blocks and the round carries them down
# the tree: random sizes, datatypes, duplex and MPI_Allgatherv calls
# among them, every result compared with native.
if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
    INTERGATHER_OPENING=tree INTERGATHER_SHM_MODEL=ts=7.8e-5,tw=7.8e-8,to=0 INTERGATHER_OVERSUBSCRIBED=no \
        run_preloaded 6 "$TESTS_BIN/soak" --calls "$calls" --seed 20261203 --left 1 --watchdog 60
    expect_soak_pass "down the tree at 1+5"
    expect_total tree -gt 0
    expect_total ended -gt 0
    expect_total erroneous-sizes -eq 0
    echo "ok $calls random calls down the tree at 1+5: tree $(summary_total tree), ended $(summary_total ended)," \
        "went on $(summary_total went-on) (over every process)"
fi

# The soak's probe zero-extent-recv-v (tests/mpi/soak.c, run_probe): a
# legal MPI_Allgatherv whose receivers receive one block with a type of
# extent 0. The library places blocks at multiples of the receive type's
# extent, so such a call is left to the MPI library (README, "Agreement";
# src/call.c, check_recv): one native call for its arguments per process,
# and the data right.
run_preloaded 4 "$TESTS_BIN/soak" --probe zero-extent-recv-v --left 2 --watchdog 60
if ! grep -q "PROBE-RESULT zero-extent-recv-v PASS" "$IG_OUT"; then
    echo "probe zero-extent-recv-v: no passing PROBE-RESULT line" >&2
    cat "$IG_OUT" >&2
    exit 1
fi
expect_total arguments -eq 4
echo "ok probe zero-extent-recv-v: native, for its arguments, on every process"
