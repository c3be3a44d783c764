#!/bin/bash
# A ring sender whose relay space cannot be allocated (malloc made to fail
# for that size in that process by tests/mpi/fail_malloc.c, preloaded
# before the library) still takes part with empty messages; every receiver
# a missing block reaches reports an error instead of returning wrong data
# (algo_ring.c, check_arrival), the failing sender reports MPI_ERR_NO_MEM,
# nothing hangs, and a correct call afterwards is served (ring_nomem.c).
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_TOPOLOGY=ring INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1
FAILLIB="$IG_TOP_BUILDDIR/tests/mpi/.libs/libfailmalloc.so"
[ -f "$FAILLIB" ] || { echo "missing $FAILLIB (built by make check)" >&2; exit 1; }
count=10007                        # ints per block: a size nothing else allocates
slot_bytes=$((2 * count * 4))      # two relay slots of one block (ig_ring_sender_slots)
# LEFT RIGHT FAILING: world rank FAILING is a sender that relays other
# senders' blocks in these splits.
for case in "3 3 1" "4 2 2" "5 3 3"; do
    set -- $case
    ig_launch $(($1 + $2)) LD_PRELOAD="$FAILLIB $IG_LIB" INTERGATHER_TOPOLOGY INTERGATHER_MIN_BYTES \
        INTERGATHER_VERBOSE IG_TEST_FAIL_MALLOC_SIZE="$slot_bytes" IG_TEST_FAIL_MALLOC_RANK="$3" \
        -- "$TESTS_BIN/ring_nomem" "$1" "$count" "$3"
    expect_pass ring_nomem
    in_error=$(sed -n 's/^receivers-in-error=\([0-9]*\).*/\1/p' "$IG_OUT")
    # The failing sender relays, so some receiver must have missed a block.
    if [ "${in_error:-0}" -lt 1 ]; then
        echo "no receiver reported the missing block ($1+$2, failing rank $3)" >&2
        cat "$IG_OUT" >&2
        exit 1
    fi
    expect_summary alg-ring 2
    echo "ok $1+$2, sender $3 without relay space: $in_error receivers reported the error"
done
