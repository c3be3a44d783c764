#!/bin/bash
# The fully connected algorithm's broadcast stage (p < q, src/algo_fc.c)
# under each of Open MPI's broadcast algorithms, forced.  A sender passes
# its block as N elements of its send type, a receiver as one block type:
# the same bytes, legal, but Open MPI's tuned MPI_Bcast chooses and cuts by
# each member's own count, so before the stage passed every member the
# same count and type size, scatter-allgather (8, the default for groups
# of 16 to 31 members and blocks of 1 MiB) and the split binary tree (4)
# returned other bytes or hung.  Groups of 16 do not fit this 2-core
# machine's tests, so the algorithms are forced here (coll_tuned dynamic
# rules), with 1 KiB segments so that the segmented ones cut.  1+3 and 2+5
# (broadcast groups of 3 and 2 receivers), MPI_Allgather with every datatype
# of allgather_matrix (contiguous ones broadcast as bytes, the others as one
# block type), and MPI_Allgatherv (always as one block type), each against
# native byte for byte.  allgatherv_matrix's native reference itself dies
# under the forced split binary tree (Open MPI's inter-communicator
# MPI_Allgatherv divides by zero there), so it runs under the others.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
ig_launcher_kind
if [ "$IG_LAUNCHER_KIND" != openmpi ]; then
    echo "SKIP: forcing the broadcast algorithm is Open MPI's coll_tuned"
    exit 77
fi
export INTERGATHER_ALGORITHM=fc INTERGATHER_VERBOSE=1
export OMPI_MCA_coll_tuned_use_dynamic_rules=1 OMPI_MCA_coll_tuned_bcast_algorithm_segmentsize=1024

for bcast in 2 3 4 8 9; do   # chain, pipeline, split binary tree, scatter-allgather, its ring variant
    export OMPI_MCA_coll_tuned_bcast_algorithm=$bcast
    run_preloaded 7 "$TESTS_BIN/allgather_matrix" 1+3,2+5 20000
    expect_pass allgather_matrix
    fc=$(summary_value alg-fc)
    [ "$fc" -gt 0 ] || { echo "no call ran fc (bcast $bcast)" >&2; cat "$IG_OUT" >&2; exit 1; }
    echo "ok MPI_Allgather, bcast algorithm $bcast: $fc fc calls"
    [ "$bcast" != 4 ] || continue
    run_preloaded 7 "$TESTS_BIN/allgatherv_matrix" 1+3,2+5
    expect_pass allgatherv_matrix
    echo "ok MPI_Allgatherv, bcast algorithm $bcast: $(summary_value alg-fc) fc calls"
done
