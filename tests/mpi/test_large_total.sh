#!/bin/bash
# More than 2^31 bytes in one call: byte offsets must not overflow an int.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1
for topology in fully-connected ring; do
    INTERGATHER_TOPOLOGY=$topology run_preloaded 3 "$TESTS_BIN/large_total"
    expect_pass large_total
    expect_summary "$topology" 1
    echo "ok $topology: $(grep '^PASS' "$IG_OUT")"
done
