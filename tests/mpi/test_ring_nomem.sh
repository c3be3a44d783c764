#!/bin/bash
# A ring sender whose relay space cannot be allocated (malloc made to fail
# for that size in that process by tests/mpi/fail_malloc.c, preloaded
# before the library) still takes part with empty messages; every receiver
# a missing block reaches reports an error instead of returning wrong data
# (algo_ring.c, check_arrival), the failing sender reports MPI_ERR_NO_MEM,
# nothing hangs, and a correct call afterwards is served (ring_nomem.c).
# A receiver that cannot allocate its flags of which blocks arrived short
# (calloc made to fail) passes on empty every block after the first short
# one: with a sender failing too, the call must still leave no wrong data
# behind; alone, it must change nothing.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_TOPOLOGY=ring INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1
FAILLIB="$IG_TOP_BUILDDIR/tests/mpi/.libs/libfailmalloc.so"
[ -f "$FAILLIB" ] || { echo "missing $FAILLIB (built by make check)" >&2; exit 1; }
count=10007                        # ints per block: a size nothing else allocates
slot_bytes=$((2 * count * 4))      # two relay slots of one block (ig_ring_sender_slots)
transport=()                       # settings of the MPI library's transport for run_case

# run_case LEFT RIGHT SENDER RECEIVER: world rank SENDER (-1: none) cannot
# allocate its relay space, world rank RECEIVER (-1: none) its flags (one
# byte per sender: LEFT bytes).  Prints how many receivers reported an error.
run_case() {
    local failures=()
    [ "$3" -ge 0 ] && failures+=(IG_TEST_FAIL_MALLOC_SIZE="$slot_bytes" IG_TEST_FAIL_MALLOC_RANK="$3")
    [ "$4" -ge 0 ] && failures+=(IG_TEST_FAIL_CALLOC_SIZE="$1" IG_TEST_FAIL_CALLOC_RANK="$4")
    ig_launch $(($1 + $2)) LD_PRELOAD="$FAILLIB $IG_LIB" INTERGATHER_TOPOLOGY INTERGATHER_MIN_BYTES \
        INTERGATHER_VERBOSE "${transport[@]}" "${failures[@]}" -- "$TESTS_BIN/ring_nomem" "$1" "$count" "$3"
    expect_pass ring_nomem
    expect_summary alg-ring 2
    # The failures must really have been injected (fail_malloc.c reports each).
    if [ "$3" -ge 0 ] && ! grep -q "fail_malloc: malloc($slot_bytes) failed in world rank $3\$" "$IG_OUT"; then
        echo "the relay space of world rank $3 did not fail ($1+$2)" >&2
        exit 1
    fi
    if [ "$4" -ge 0 ] && ! grep -q "fail_malloc: calloc($1) failed in world rank $4\$" "$IG_OUT"; then
        echo "the flags of world rank $4 did not fail ($1+$2)" >&2
        exit 1
    fi
    sed -n 's/.*receivers-in-error=\([0-9]*\).*/\1/p' "$IG_OUT"
}

# LEFT RIGHT FAILING: world rank FAILING is a sender that relays other
# senders' blocks in these splits.  The first receiver, world rank LEFT,
# passes blocks on to every other receiver, so without its flags it is the
# one whose fallback decides what the others receive.
for case in "3 3 1" "4 2 2" "5 3 3"; do
    set -- $case
    in_error=$(run_case "$1" "$2" "$3" -1) || exit 1
    # The failing sender relays, so some receiver must have missed a block.
    if [ "${in_error:-0}" -lt 1 ]; then
        echo "no receiver reported the missing block ($1+$2, failing rank $3)" >&2
        cat "$IG_OUT" >&2
        exit 1
    fi
    echo "ok $1+$2, sender $3 without relay space: $in_error receivers reported the error"
    in_error=$(run_case "$1" "$2" "$3" "$1") || exit 1
    if [ "${in_error:-0}" -lt 1 ]; then
        echo "no receiver reported the missing block ($1+$2, failing rank $3, receiver $1 without flags)" >&2
        cat "$IG_OUT" >&2
        exit 1
    fi
    echo "ok $1+$2, sender $3 without relay space, receiver $1 without flags: $in_error receivers reported the error"
    in_error=$(run_case "$1" "$2" -1 "$1") || exit 1
    if [ "${in_error:-0}" -ne 0 ]; then
        echo "$in_error receivers reported an error when only receiver $1's flags were missing ($1+$2)" >&2
        cat "$IG_OUT" >&2
        exit 1
    fi
    echo "ok $1+$2, receiver $1 without flags: every block arrived"
done

# Over TCP, where Open MPI's ob1 layer moves a message above 64 KiB by RDMA
# whole into a contiguous receive however short: the relayed blocks a
# sender without relay space takes and drops go into the sink (src/p2p.h),
# which the count-0 receive used before could not hold (SIGSEGV).  Blocks
# of 80044 bytes.
ig_launcher_kind
if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
    count=20011
    slot_bytes=$((2 * count * 4))
    transport=(OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,tcp)
    in_error=$(run_case 3 3 1 -1) || exit 1
    if [ "${in_error:-0}" -lt 1 ]; then
        echo "no receiver reported the missing block (3+3 over TCP, failing rank 1)" >&2
        cat "$IG_OUT" >&2
        exit 1
    fi
    echo "ok 3+3 over TCP, $((count * 4))-byte blocks, sender 1 without relay space: $in_error receivers reported the error"
fi
