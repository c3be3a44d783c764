#!/bin/bash
# 200 inter-communicators created, used and freed: no internal communicator
# outlives its inter-communicator, and the peak does not grow with the loop.
# (Under MPICH, whose waiting processes spin, 200 took 105 s until the
# MPICH pass preloaded tests/mpi/idle_yield.c, and ran 50 there; now 200
# under both MPI libraries.)
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1
iterations=200
run_preloaded 4 "$TESTS_BIN/comm_churn" "$iterations"
expect_pass comm_churn
expect_summary fully-connected "$(expected_moved)"
expect_summary live 0
peak=$(summary_value peak)
created=$(summary_value created)
# Per inter-communicator, all built in its first call (src/comm_cache.c):
# merged, opening, and per direction its pair and up to three
# sub-communicators (fc's broadcast and gather groups, the full-duplex
# sides): at most 10.
if [ "$peak" -gt 10 ] || [ "$created" -lt $((2 * iterations)) ]; then
    echo "internal communicators: peak=$peak created=$created (expected peak <= 10, >= $((2 * iterations)) created)" >&2
    cat "$IG_OUT" >&2
    exit 1
fi
echo "ok: $iterations inter-communicators, created=$created peak=$peak live=0"
