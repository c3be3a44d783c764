#!/bin/bash
# Concurrent collectives on different inter-communicators from different
# threads under MPI_THREAD_MULTIPLE; statistics must stay exact.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1
for topology in fully-connected ring; do
    INTERGATHER_TOPOLOGY=$topology run_preloaded 4 "$TESTS_BIN/threads" 4 40
    expect_pass threads
    expect_summary "$topology" "$(expected_moved)"
    expect_summary live 0
    echo "ok $topology: $(expected_moved) concurrent calls"
done
