#!/bin/bash
# User wildcard receives on the inter-communicator never match internal traffic.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1
for np_left in "4 2" "5 3" "3 1"; do
    set -- $np_left
    run_preloaded "$1" "$TESTS_BIN/wildcard_traffic" "$2"
    expect_pass wildcard_traffic
    expect_summary fully-connected "$(expected_moved)"
    echo "ok np=$1 left=$2"
done
