#!/bin/bash
# Everything the shim does not serve goes to native MPI unchanged, and the
# summary says why.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_MIN_BYTES=1024 INTERGATHER_VERBOSE=1
run_preloaded 4 "$TESTS_BIN/fallbacks"
expect_pass fallbacks
for kv in intra-communicator=1 small=1 in-place=1 empty=1 fully-connected=0; do
    expect_summary "${kv%=*}" "${kv#*=}"
done
echo "ok: every fallback counted, results native"
