#!/bin/bash
# Inter-communicator MPI_Allgatherv against native, for the foundation's
# (p, q) matrix, under both topologies: half and full duplex, zero counts,
# gaps, non-monotonic displacements; the summary must show every call that
# moved data served as an allgatherv.  The paper's ring schedule runs on the
# quick (p, q) set (the schedule itself is verified for every p, q <= 64 by
# tests/unit/check_ring_schedule; here its executor meets varying blocks).
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
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
        expect_summary allgatherv-calls "$(expected_moved)"
        expect_summary full-duplex-calls "$(expected_full)"
    done
    echo "ok $setting: every (p, q)"
done
