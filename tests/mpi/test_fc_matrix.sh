#!/bin/bash
# An algorithm (default: fully connected) against native MPI_Allgather for the issue's
# (p, q) matrix, counts, datatypes, both half-duplex directions and full duplex; each run must also
# show, in the verbose summary, that the shim served every call that moved data.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"

export INTERGATHER_TOPOLOGY=${INTERGATHER_TOPOLOGY:-fully-connected}
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1
algo=${IG_EXPECT_ALGO:-fully-connected}

pairs=$(test_pairs)

for pq in $pairs; do
    p=${pq%,*}; q=${pq#*,}
    # Large counts on the biggest jobs only where the machine can take it quickly.
    run_preloaded $((p + q)) "$TESTS_BIN/allgather_matrix" "$p"
    expect_pass allgather_matrix
    expect_summary "$algo" "$(expected_moved)"
    expect_summary full-duplex-calls "$(expected_full)"
    echo "ok p=$p q=$q ($algo, $(expected_moved) calls served)"
done
