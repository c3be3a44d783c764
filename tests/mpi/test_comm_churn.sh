#!/bin/bash
# 200 inter-communicators created, used and freed: no internal communicator
# outlives its inter-communicator, and the peak does not grow with the loop.
# IG_TEST_QUICK=1 (the MPICH pass): 50, still at least 100 internal
# communicators against a peak of at most 10.  Each iteration creates
# communicators, which MPICH's busy-polling processes, four on two cores,
# make slow: 200 took 105 s there, 6 s under Open MPI.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1
iterations=200
[ "${IG_TEST_QUICK:-0}" != 1 ] || iterations=50
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
