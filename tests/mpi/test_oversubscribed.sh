#!/bin/bash
# One node with more processes than cores (INTERGATHER_OVERSUBSCRIBED,
# src/comm_cache.c and src/decide.c): every call is served by the direct
# algorithm, one stage, where the cost model alone takes staged algorithms
# (at 2+6 the fully connected one from 16 KiB and, in full duplex, the
# full-duplex algorithm); byte for byte against native either way.
#   yes   the rule, whatever the machine
#   no    the model's own choices (what the other tests run)
#   auto  detected: the processes outnumber the CPUs their affinity masks
#         allow; an oversubscribed launch is not bound, so each process may
#         run on the CPUs this shell may, nproc of them
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=2
np=8
staged() { echo $(($(summary_total alg-fc) + $(summary_total alg-spread) + $(summary_total alg-full-duplex))); }

for said in yes no auto; do
    expect_rule=$said
    if [ "$said" = auto ]; then
        expect_rule=no
        [ "$np" -le "$(nproc)" ] || expect_rule=yes
    fi
    INTERGATHER_OVERSUBSCRIBED=$said run_preloaded $np "$TESTS_BIN/allgather_matrix" 2+6 20000
    expect_pass allgather_matrix
    expect_summary fully-connected "$(expected_moved)"
    if [ "$expect_rule" = yes ]; then
        expect_total alg-direct -gt 0
        [ "$(staged)" -eq 0 ] || { echo "oversubscribed ($said), yet staged algorithms ran" >&2; cat "$IG_OUT" >&2; exit 1; }
        grep -q 'oversubscribed: every call served by direct' "$IG_OUT" ||
            { echo "no oversubscription line at INTERGATHER_VERBOSE=2" >&2; cat "$IG_OUT" >&2; exit 1; }
    else
        [ "$(staged)" -gt 0 ] || { echo "not oversubscribed ($said), yet no staged algorithm ran" >&2; cat "$IG_OUT" >&2; exit 1; }
        if grep -q 'oversubscribed:' "$IG_OUT"; then
            echo "an oversubscription line where none was expected ($said)" >&2; cat "$IG_OUT" >&2; exit 1
        fi
    fi
    echo "ok INTERGATHER_OVERSUBSCRIBED=$said on $(nproc) CPUs: direct $(summary_total alg-direct), staged $(staged) (summed over processes)"
done

# MPI_Allgatherv under the rule.
INTERGATHER_OVERSUBSCRIBED=yes run_preloaded $np "$TESTS_BIN/allgatherv_matrix" 2+6
expect_pass allgatherv_matrix
[ "$(staged)" -eq 0 ] || { echo "MPI_Allgatherv: staged algorithms ran on an oversubscribed node" >&2; cat "$IG_OUT" >&2; exit 1; }
echo "ok MPI_Allgatherv, oversubscribed: direct $(summary_total alg-direct)"
