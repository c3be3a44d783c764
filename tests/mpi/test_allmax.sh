#!/bin/bash
# The agreement's maximum by recursive doubling (src/allmax.c, built into
# allmax.c), against MPI_Allreduce on communicators of 1 to 11 processes
# (powers of two and the rest), and what it waits on beside: a request
# that completes first has its callback run once before the maximum
# returns (an early star member sends its block on from there), one that
# cannot is left alone.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
ig_launch 11 -- "$TESTS_BIN/allmax" </dev/null
expect_pass allmax
echo "ok: $(grep -o 'PASS.*' "$IG_OUT")"
