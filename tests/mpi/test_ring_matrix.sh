#!/bin/bash
# The ring algorithm, under both schedules, against native MPI_Allgather for
# the same (p, q) matrix, counts, datatypes and directions as the fully
# connected path; the summary must show the ring served every call.
set -eu
here="${IG_TOP_SRCDIR:-.}/tests/mpi"
for schedule in optimal paper; do
    echo "== INTERGATHER_RING_SCHEDULE=$schedule"
    INTERGATHER_TOPOLOGY=ring INTERGATHER_RING_SCHEDULE=$schedule IG_EXPECT_ALGO=ring \
        bash "$here/test_fc_matrix.sh"
done
