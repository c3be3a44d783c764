#!/bin/bash
# The opening round's tags under an MPI whose MPI_TAG_UB is low: Open MPI's
# UCX layer (pml ucx, the usual one on InfiniBand and RoCE clusters) allows
# tags up to 2^23 - 1, where the round-one tags of blocks of 1 MiB and more
# reached 2^29 (src/opening_plan.h).  Before the tag bound was agreed per
# communicator (comm_cache.c), every such MPI_Allgather aborted with
# MPI_ERR_TAG, or hung where errors return.  Here the same programs as over
# ob1 run over UCX on this node: allgather_matrix (blocks up to 262144
# elements, 1 to 2 MiB: beyond what UCX's tags name) against native, the
# opening's scenarios, and the pieces (blocks left behind by processes that
# leave early), each checked byte for byte.  Skipped (77) only where Open
# MPI cannot start its UCX layer here at all, without the library.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
ig_launcher_kind
if [ "$IG_LAUNCHER_KIND" != openmpi ]; then
    echo "SKIP: Open MPI's UCX layer only (launcher: $MPIRUN)"
    exit 77
fi
export OMPI_MCA_pml=ucx OMPI_MCA_pml_ucx_tls=any OMPI_MCA_pml_ucx_devices=any
export INTERGATHER_VERBOSE=2

if ! ig_launch 2 -- "$TESTS_BIN/allgather_matrix" 1+1 7 >/dev/null 2>&1; then
    echo "SKIP: Open MPI's pml ucx does not start on this machine:"
    cat "$IG_OUT"
    exit 77
fi

# The communicators' tag bound is UCX's, and the library says what it
# leaves to the agreement.
run_preloaded 4 "$TESTS_BIN/allgather_matrix" 2+2,1+3
expect_pass allgather_matrix
if ! grep -q "MPI_TAG_UB is 8388607 on this inter-communicator: its opening round ends calls of blocks below 1048573 bytes" "$IG_OUT"; then
    echo "the library did not report UCX's tag bound" >&2
    cat "$IG_OUT" >&2
    exit 1
fi
expect_total ended -gt 0
expect_total went-on -gt 0
echo "ok allgather_matrix over UCX: ended $(summary_total ended), went on $(summary_total went-on)"

run_preloaded 4 "$TESTS_BIN/opening" 2 hard
expect_pass opening
expect_total pair-by-pair -gt 0
echo "ok opening scenarios over UCX"

# MPI_Allgatherv's learnt early leave (tests/mpi/opening_v.c, "learned"),
# where a 2 MiB block is never small (UCX's tags do not name it): at 4+2
# the left processes with data (0, 2 and 3) stay twice with 16 to 52 ints,
# then leave early (3); with left rank 0's block 2 MiB, 2 and 3 leave
# early again (2) and the call ends pair by pair on the others (4), who
# are small or not, but cannot go on without them; told so by their
# receivers' messages, 2 and 3 stay the next time, and all 6 go on to the
# agreement.  A sender that never learnt would leave no time (0), one
# that never unlearnt would end the last call pair by pair too (8).
run_preloaded 6 "$TESTS_BIN/opening_v" 4 learned
expect_pass opening_v
expect_total learnt-early -eq 5
expect_total pair-by-pair -eq 4
expect_total went-on -eq 6
echo "ok MPI_Allgatherv learnt early leave over UCX: learnt $(summary_total learnt-early), pair by pair $(summary_total pair-by-pair), went on $(summary_total went-on)"

# As in test_opening.sh: 4 processes, 2 on the left, which cut their blocks
# in ten calls each; the blocks sent in vain are all found.
INTERGATHER_OPENING=pieces INTERGATHER_ALGORITHM=direct run_preloaded 4 "$TESTS_BIN/opening" 2 pieces unfreed
expect_pass opening
expect_total in-pieces -eq 20
expect_total erroneous-sizes -eq 26
echo "ok pieces over UCX: in pieces $(summary_total in-pieces)"
