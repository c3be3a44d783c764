#!/bin/bash
# 200 inter-communicators created, used and freed: no internal communicator
# outlives its inter-communicator, and the peak does not grow with the loop.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1
run_preloaded 4 "$TESTS_BIN/comm_churn"
expect_pass comm_churn
expect_summary fully-connected "$(expected_moved)"
expect_summary live 0
peak=$(summary_value peak)
created=$(summary_value created)
# Per inter-communicator: merged, two directions, up to two sub-communicators each.
if [ "$peak" -gt 8 ] || [ "$created" -lt 400 ]; then
    echo "internal communicators: peak=$peak created=$created (expected peak <= 8, >= 400 created)" >&2
    cat "$IG_OUT" >&2
    exit 1
fi
echo "ok: created=$created peak=$peak live=0"
