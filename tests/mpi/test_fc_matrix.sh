#!/bin/bash
# An algorithm (default: fully connected) against native MPI_Allgather for the issue's
# (p, q) matrix, counts, datatypes, both half-duplex directions and full duplex; each run must also
# show, in the verbose summary, that the shim served every call that moved data, and that
# no call allocated its requests or counts (they fit the room each pair reserves when it is
# built, src/pair.h, so no call can fail for lack of memory there alone).
# The splits run in two launches (common.sh, matrix_launches).
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"

export INTERGATHER_TOPOLOGY=${INTERGATHER_TOPOLOGY:-fully-connected}
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=2 # 2: every process prints its summary
algo=${IG_EXPECT_ALGO:-fully-connected}

# shellcheck disable=SC2046
mapfile -t launches < <(matrix_launches $(test_pairs))
for launch in "${launches[@]}"; do
    read -r np kind splits <<<"$launch"
    run_preloaded "$np" "$TESTS_BIN/allgather_matrix" "$splits" "$(matrix_size "$kind" allgather_matrix)"
    expect_pass allgather_matrix
    expect_summary "$algo" "$(expected_moved)"
    expect_summary full-duplex-calls "$(expected_full)"
    expect_summary half-duplex-calls "$(($(expected_moved) - $(expected_full)))"
    expect_total arrays-allocated -eq 0
    echo "ok $splits ($algo, $kind sizes, $(expected_moved) calls served)"
done
