#!/bin/bash
# INTERGATHER_GROUP_ALLGATHER=ring: the fully connected algorithms with
# intergather's own neighbour-ring group stage, MPI_Allgather (half and
# full duplex) and MPI_Allgatherv, against native.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1 INTERGATHER_GROUP_ALLGATHER=ring
IG_TEST_QUICK=1
for pq in $(test_pairs); do
    p=${pq%,*}; q=${pq#*,}
    for prog in allgather_matrix allgatherv_matrix; do
        run_preloaded $((p + q)) "$TESTS_BIN/$prog" "$p"
        expect_pass "$prog"
        expect_summary fully-connected "$(expected_moved)"
    done
    echo "ok p=$p q=$q"
done
