#!/bin/bash
# The fully connected algorithms' non-default variants, against native:
#   INTERGATHER_GROUP_ALLGATHER=ring  intergather's own neighbour-ring group stage
#   INTERGATHER_MANY_SENDERS=join     the paper's p > q plan (extra senders join
#                                     the receivers' allgather)
# MPI_Allgather (half and full duplex) and MPI_Allgatherv, quick (p, q) set.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1
IG_TEST_QUICK=1
for variant in INTERGATHER_GROUP_ALLGATHER=ring INTERGATHER_MANY_SENDERS=join; do
    export "${variant?}"
    for pq in $(test_pairs); do
        p=${pq%,*}; q=${pq#*,}
        for prog in allgather_matrix allgatherv_matrix; do
            run_preloaded $((p + q)) "$TESTS_BIN/$prog" "$p"
            expect_pass "$prog"
            expect_summary fully-connected "$(expected_moved)"
        done
    done
    echo "ok $variant"
    unset "${variant%%=*}"
done
