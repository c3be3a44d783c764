#!/bin/bash
# More than 2^31 bytes in one call: byte offsets must not overflow an int;
# and a block of more than 2^31 bytes whose call goes native because one
# process cannot be served must not have been posted early (it could not be
# withdrawn: both processes hung).
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1
# Each run moves 2.25 GiB (large_total.c keeps that to seconds: huge pages,
# word-wise patterns).
for topology in fully-connected ring; do
    INTERGATHER_TOPOLOGY=$topology run_preloaded 3 "$TESTS_BIN/large_total"
    expect_pass large_total
    expect_summary "$topology" 1
    echo "ok $topology: $(grep -o 'PASS.*' "$IG_OUT")"
done
# The direct algorithm forced, so that the sender's own arguments surely
# lead it to post early (the default model picks it there too).  Open MPI
# only: the native call receives into a derived datatype, which Debian's
# MPICH 4.0.2 corrupts past a UCX fragment (scripts/test-mpich.sh); the
# library's withdrawal code is the same under both.
ig_launcher_kind
if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
    INTERGATHER_ALGORITHM=direct run_preloaded 2 "$TESTS_BIN/large_total" withdraw
    expect_pass "large_total withdraw"
    echo "ok withdraw: $(grep -o 'PASS.*' "$IG_OUT")"
else
    echo "skipped withdraw: not Open MPI (see the comment above)"
fi
# A receive type whose extent (256 MiB) puts the blocks far apart in a
# sparse buffer, under fail_malloc.c's IG_TEST_MEMORY_LIMIT (128 MiB: no
# allocation larger than that succeeds, as on a machine with less memory
# than the buffer spans).  The fully connected algorithm's group stage ran
# in Open MPI's allgather, whose Bruck algorithm allocates scratch by the
# span: one process returned MPI_ERR_INTERN, its peers MPI_SUCCESS with a
# block missing.  Such a layout is agreed as sparse and the stage runs in
# intergather's ring, whatever INTERGATHER_GROUP_ALLGATHER says
# (src/decide.c, call_stage_for).  fc forced with the stage given to MPI,
# whose MPI_Allgatherv stages stay MPI's under Open MPI (its allgatherv
# allocates nothing by the extent): a ring stage in the per-process
# summaries is the rule at work (under MPICH every stage is the ring).
# 3+3 is the Bruck case (Open MPI picks it for 3 members; 4 take recursive
# doubling, which needs no scratch); 2+4 and 4+2 take fc's broadcast stage
# and the spread plan.  Then the default decision and the ring topology at
# 3+3, under the same limit.
FAILLIB="$IG_TOP_BUILDDIR/tests/mpi/.libs/libfailmalloc.so"
[ -f "$FAILLIB" ] || { echo "missing $FAILLIB (built by make check)" >&2; exit 1; }
# wide LEFT SERVED [NAME=VALUE...]: 6 processes, LEFT on the left.
wide() {
    local left=$1 served=$2
    shift 2
    ig_launch 6 LD_PRELOAD="$FAILLIB $IG_LIB" IG_TEST_MEMORY_LIMIT=134217728 INTERGATHER_VERBOSE=2 "$@" \
        -- "$TESTS_BIN/large_total" wide "$left"
    expect_pass "large_total wide"
    expect_summary "$served" "$(expected_moved)"
}
for left in 3 2 4; do
    wide "$left" fully-connected INTERGATHER_ALGORITHM=fc INTERGATHER_GROUP_ALLGATHER=mpi
    expect_total group-ring -gt 0
    echo "ok wide $left+$((6 - left)), fc with the stage given to MPI: $(summary_total group-ring) ring stages"
done
# The join plan (p > q) with a wide send type (large_total.c's last
# calls): its extra senders would allocate scratch for p blocks one
# 256 MiB extent apart, over the limit (every process returned
# MPI_ERR_NO_MEM, where native succeeds, and the program fails on any
# error); such a type keeps the plan away, as an overlapping one does, and
# those calls spread (src/call.c, join_scratch_sparse).
wide 4 fully-connected INTERGATHER_ALGORITHM=fc INTERGATHER_MANY_SENDERS=join
echo "ok wide 4+2, INTERGATHER_MANY_SENDERS=join"
wide 3 fully-connected INTERGATHER_ALGORITHM=auto
echo "ok wide 3+3, default decision"
wide 3 ring INTERGATHER_TOPOLOGY=ring
echo "ok wide 3+3, ring topology"
