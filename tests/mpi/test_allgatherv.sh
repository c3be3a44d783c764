#!/bin/bash
# Inter-communicator MPI_Allgatherv against native, for the foundation's
# (p, q) matrix, under both topologies: half and full duplex, zero counts,
# gaps, non-monotonic displacements; the summary must show every call that
# moved data served as an allgatherv.  The paper's ring schedule runs on the
# quick (p, q) set (the schedule itself is verified for every p, q <= 64 by
# tests/unit/check_ring_schedule; here its executor meets varying blocks).
# Receivers whose receive types differ in size also run under the two
# algorithms that have a group stage, that stage given to MPI: MPICH 4.0.2's
# own MPI_Allgatherv returns wrong data there, so under MPICH the decision
# gives an MPI_Allgatherv's stage to intergather's ring (src/settings.h).
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
# The program's served calls that were MPI_Allgatherv: all but its allgathers.
expected_allgatherv() {
    sed -n 's/.*expect served moved=\([0-9]*\).* allgathers=\([0-9]*\).*/\1 \2/p' "$IG_OUT" | awk '{ print $1 - $2 }'
}
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1
for setting in fully-connected:optimal ring:optimal ring:paper; do
    export INTERGATHER_TOPOLOGY=${setting%:*} INTERGATHER_RING_SCHEDULE=${setting#*:}
    pairs=$(test_pairs)
    [ "$setting" = ring:paper ] && pairs=$(IG_TEST_QUICK=1 test_pairs)
    # shellcheck disable=SC2086
    mapfile -t launches < <(matrix_launches $pairs)
    for launch in "${launches[@]}"; do
        read -r np kind splits <<<"$launch"
        run_preloaded "$np" "$TESTS_BIN/allgatherv_matrix" "$splits" "$(matrix_size "$kind" allgatherv_matrix)"
        expect_pass allgatherv_matrix
        expect_summary "$INTERGATHER_TOPOLOGY" "$(expected_moved)"
        expect_summary allgatherv-calls "$(expected_allgatherv)"
        expect_summary full-duplex-calls "$(expected_full)"
        expect_summary half-duplex-calls "$(($(expected_moved) - $(expected_full)))"
    done
    echo "ok $setting: every (p, q)"
done
export INTERGATHER_TOPOLOGY=fully-connected INTERGATHER_GROUP_ALLGATHER=mpi
for algorithm in fc full-duplex; do
    INTERGATHER_ALGORITHM=$algorithm run_preloaded 8 "$TESTS_BIN/allgatherv_matrix" 3+5,5+3,4+4,2+3,1+3 7 units
    expect_pass allgatherv_matrix
    expect_summary allgatherv-calls "$(expected_allgatherv)"
    echo "ok receive types of different sizes, INTERGATHER_ALGORITHM=$algorithm, group stage mpi"
done
