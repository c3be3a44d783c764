#!/bin/bash
# Datatypes whose bounds look like arrays but whose elements are out of
# memory order or read twice (tests/mpi/type_order.c): byte for byte what
# native MPI delivers, under the plans that move blocks as raw bytes or
# receive into a sender's type -- the relay and the chain (forced: the
# model picks the relay between nodes only), the join plan -- and the
# default.  Those plans must not run on such blocks: the call's agreed
# shape marks them scattered (src/type_order.c).
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
# The answers themselves, for a table of types in and out of order.
ig_launch 1 -- "$TESTS_BIN/type_order_map"
expect_pass type_order_map
echo "ok $(grep -o 'PASS.*' "$IG_OUT")"
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1
# 2+3: p < q (the relay's case); 3+2: p > q (the join plan's).  Small blocks,
# and blocks of 800 KiB and more, which the chain cuts into segments.
for setting in "auto spread" "relay spread" "chain spread" "fc join"; do
    read -r algorithm many <<<"$setting"
    for elements in 3 100000; do
        INTERGATHER_ALGORITHM=$algorithm INTERGATHER_MANY_SENDERS=$many \
            run_preloaded 5 "$TESTS_BIN/type_order" 2+3,3+2 "$elements"
        expect_pass type_order
        expect_summary fully-connected "$(expected_moved)"
        echo "ok INTERGATHER_ALGORITHM=$algorithm INTERGATHER_MANY_SENDERS=$many, $elements elements"
    done
done
