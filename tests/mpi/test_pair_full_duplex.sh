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
echo "ok: $(grep '^PASS' "$IG_OUT")"
