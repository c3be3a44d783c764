#!/bin/bash
# Settings at run time: bad values warn once and keep the default, the
# native switch turns the shim off, processes that disagree fall back to
# native together (no hang), verbose levels print what they promise.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
prog="$TESTS_BIN/allgather_matrix"

echo "-- a garbage topology: one warning from one process, default algorithm"
INTERGATHER_TOPOLOGY=bogus INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1 run_preloaded 4 "$prog" 2 1000
expect_pass allgather_matrix
expect_summary fully-connected "$(expected_moved)"
n=$(grep -c 'ignoring INTERGATHER_TOPOLOGY="bogus"' "$IG_OUT" || true)
[ "$n" = 1 ] || { echo "expected exactly one warning, got $n" >&2; cat "$IG_OUT" >&2; exit 1; }

echo "-- a garbage byte count: warning, default (0) kept: every call served"
INTERGATHER_MIN_BYTES=-5 INTERGATHER_VERBOSE=1 run_preloaded 4 "$prog" 2 1000
expect_pass allgather_matrix
n=$(grep -c 'ignoring INTERGATHER_MIN_BYTES="-5"' "$IG_OUT" || true)
[ "$n" = 1 ] || { echo "expected exactly one warning, got $n" >&2; cat "$IG_OUT" >&2; exit 1; }
# The default is no threshold (the cost model decides, and with the 2 + 2
# processes of one node it serves every call here); "-5" read as a huge
# count would have sent every call native.
expect_summary fully-connected "$(expected_moved)"

echo "-- INTERGATHER_TOPOLOGY=native: every call native"
INTERGATHER_TOPOLOGY=native INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1 run_preloaded 4 "$prog" 2 1000
expect_pass allgather_matrix
expect_summary fully-connected 0
# Empty calls too: with the shim off nothing is decided.
expect_summary disabled "$(expected_calls)"

echo "-- settings that differ between processes: native, with a warning, no hang"
export INTERGATHER_VERBOSE=1
# Two application contexts (MPMD), each with its own value; common.sh
# writes them for the launcher at hand (Open MPI -x, MPICH hydra -env).
run_preloaded_mpmd 2 INTERGATHER_MIN_BYTES=0 -- "$prog" 2 1000 : \
                   2 INTERGATHER_MIN_BYTES=64 -- "$prog" 2 1000
expect_pass allgather_matrix
expect_summary fully-connected 0
expect_summary settings-differ "$(expected_calls)"
grep -q 'settings differ between the processes' "$IG_OUT" || { cat "$IG_OUT" >&2; exit 1; }

echo "-- a value misspelt on some processes only: native, with a warning, no hang"
# Both resolve to the default, but only world rank 0's own misspelling is
# ever printed: the count of values not understood is in the fingerprint,
# so the others' is told as settings that differ (here world rank 0 has
# none: the warning comes from the check alone).
run_preloaded_mpmd 2 INTERGATHER_MIN_BYTES=0 -- "$prog" 2 1000 : \
                   2 INTERGATHER_MIN_BYTES=0 INTERGATHER_ALGORITHM=fcc -- "$prog" 2 1000
expect_pass allgather_matrix
expect_summary fully-connected 0
expect_summary settings-differ "$(expected_calls)"
grep -q 'settings differ between the processes.*a value some of them did not understand' "$IG_OUT" ||
    { cat "$IG_OUT" >&2; exit 1; }

echo "-- INTERGATHER_VERBOSE=2: configuration and a summary from every process"
INTERGATHER_VERBOSE=2 INTERGATHER_MIN_BYTES=0 run_preloaded 4 "$prog" 2 7
n=$(grep -c 'intergather: summary (world rank' "$IG_OUT" || true)
[ "$n" = 4 ] || { echo "expected 4 summaries, got $n" >&2; cat "$IG_OUT" >&2; exit 1; }
grep -q 'intergather: active: INTERGATHER_TOPOLOGY=fully-connected INTERGATHER_ALGORITHM=auto INTERGATHER_MIN_BYTES=0 .* INTERGATHER_NET_MODEL=measure INTERGATHER_SHM_MODEL=ts=1e-06,tw=2e-10,to=3e-07 ' "$IG_OUT" \
    || { cat "$IG_OUT" >&2; exit 1; }
# One node: the fixed shared-memory model, nothing measured.
if grep -q 'MODEL=measure:' "$IG_OUT"; then cat "$IG_OUT" >&2; exit 1; fi

echo "-- INTERGATHER_SHM_MODEL=measure: every communicator measures once, all processes alike"
# (Between nodes, INTERGATHER_NET_MODEL=measure, the default, runs the same
# code with another partner; this machine has one node.)  Every
# inter-communicator of the program says what it measured; results must
# still match native for every call the measured model decides.
INTERGATHER_VERBOSE=2 INTERGATHER_SHM_MODEL=measure run_preloaded 5 "$prog" 2 1000
expect_pass allgather_matrix
expect_summary fully-connected "$(expected_moved)"
measured_re='intergather: INTERGATHER_SHM_MODEL=measure: measured between merged ranks 0 and 1: \(ts=[0-9.e+-]*,tw=[0-9.e+-]*,to=[0-9.e+-]*\)$'
n=$(grep -c "$measured_re" "$IG_OUT" || true)
[ "$n" -ge 1 ] || { echo "expected a measured model, got none" >&2; cat "$IG_OUT" >&2; exit 1; }
model=$(sed -n "s/.*$measured_re/\1/p" "$IG_OUT" | head -n 1)
# scripts/cluster/run.sh reads each run's measured network model from this
# same line (NET_MODEL there) with scripts/cluster/measured_model.sed: the
# line's format and that reader must agree.
parsed=$(sed -n -f "$IG_TOP_SRCDIR/scripts/cluster/measured_model.sed" "$IG_OUT" | head -n 1)
[ -n "$parsed" ] && [ "$parsed" = "$(printf '%s' "$model" | sed 's/ts=//; s/,tw=/,/; s/,to=/,/')" ] ||
    { echo "scripts/cluster/measured_model.sed read '$parsed' from the line of $model" >&2; exit 1; }
if grep -q 'could not measure' "$IG_OUT"; then cat "$IG_OUT" >&2; exit 1; fi
# The measurement runs where the communicator's cache is built: as many
# times as rank 0 built one.
built=$(grep -c 'spans 1 node' "$IG_OUT" || true)
[ "$n" = "$built" ] || { echo "$built communicators, $n measurements" >&2; cat "$IG_OUT" >&2; exit 1; }
echo "-- the measured model pasted back as the setting: $model"
# README and the man page say the verbose line can be pasted back: it must
# be accepted as it is (no warning) and configure exactly that model.
INTERGATHER_VERBOSE=2 INTERGATHER_SHM_MODEL=$model run_preloaded 4 "$prog" 2 7
expect_pass allgather_matrix
if grep -q 'ignoring INTERGATHER_SHM_MODEL' "$IG_OUT" || ! grep -qF "INTERGATHER_SHM_MODEL=$model " "$IG_OUT"; then
    echo "the measured model, pasted back, was not taken as it is" >&2; cat "$IG_OUT" >&2; exit 1
fi

echo "-- every line printed in one write (log_lines.c: stderr a message socket, its stream's buffer 64 bytes)"
# Each process prints its settings line (about 400 bytes) and its summary
# (about 900) at this level; a line printed in pieces fails the program.
INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=2 run_preloaded 4 "$TESTS_BIN/log_lines" 2
expect_pass log_lines
counts=$(grep -o 'PASS log_lines lines=[0-9]* summaries=[0-9]*' "$IG_OUT" | sed 's/.*lines=\([0-9]*\) summaries=\([0-9]*\)/\1 \2/')
[ "$(printf '%s\n' "$counts" | awk '$1 >= 2 && $2 == 1' | wc -l)" = 4 ] ||
    { echo "expected 4 processes with 2 lines or more and 1 summary each, got: $counts" >&2; cat "$IG_OUT" >&2; exit 1; }
echo "ok lines whole: $(printf '%s\n' "$counts" | awk '{ n += $1 } END { print n }') lines"

echo "-- INTERGATHER_VERBOSE=0 (default): silent"
unset INTERGATHER_VERBOSE
INTERGATHER_MIN_BYTES=0 run_preloaded 4 "$prog" 2 7
if grep -q 'intergather:' "$IG_OUT"; then echo "output when quiet:" >&2; cat "$IG_OUT" >&2; exit 1; fi
echo "ok"
