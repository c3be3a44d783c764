#!/bin/bash
# The pair API in full duplex with different block sizes each way, one of
# them possibly empty (pair_full_duplex.c, linked against the library):
# every algorithm by name and ig_pair_allgather_fd, every split of 5
# processes, each block checked; and in half duplex with the unused side
# given as nonsense (ignored, as the header says).  Before
# ig_decide_on_one_pair a full-duplex call whose
# first group sent nothing returned success with nothing received.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
ig_launch 5 -- "$TESTS_BIN/pair_full_duplex" </dev/null
expect_pass pair_full_duplex
echo "ok: $(grep -o 'PASS.*' "$IG_OUT")"
# The API's shape calls a sparse receive buffer sparse, as the shim's
# agreement does (pair_full_duplex.c, wide): under a 128 MiB allocation
# limit the 3 + 3 pair's group stages must not run in Open MPI's Bruck
# allgather, which allocates by the buffer's 512 MiB span.
FAILLIB="$IG_TOP_BUILDDIR/tests/mpi/.libs/libfailmalloc.so"
[ -f "$FAILLIB" ] || { echo "missing $FAILLIB (built by make check)" >&2; exit 1; }
ig_launch 6 LD_PRELOAD="$FAILLIB" IG_TEST_MEMORY_LIMIT=134217728 -- "$TESTS_BIN/pair_full_duplex" wide </dev/null
expect_pass "pair_full_duplex wide"
echo "ok: $(grep -o 'PASS pair_full_duplex wide.*' "$IG_OUT")"
