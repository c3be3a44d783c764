#!/bin/bash
# Calls on an inter-communicator while one process has an MPI_Comm_idup of
# MPI_COMM_WORLD pending and the others start theirs only after the calls
# (tests/mpi/pending_create.c): before every private communicator was built
# in the first call (src/comm_cache.c), a later call that created one (the
# other direction's pair, fc's broadcast and gather groups, the full-duplex
# sides) hung in Open MPI's communicator-id allocation.  Each algorithm
# forced, and the default decision; a hang fails at the timeout.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
IG_TEST_TIMEOUT=90
export INTERGATHER_VERBOSE=1
for algorithm in auto direct fc spread chain relay full-duplex; do
    for np_left in "4 2" "5 2"; do
        set -- $np_left
        INTERGATHER_ALGORITHM=$algorithm run_preloaded "$1" "$TESTS_BIN/pending_create" "$2"
        expect_pass pending_create
    done
    echo "ok $algorithm"
done
INTERGATHER_TOPOLOGY=ring run_preloaded 4 "$TESTS_BIN/pending_create" 2
expect_pass pending_create
echo "ok ring"
