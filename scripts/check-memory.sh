#!/bin/bash
# Memory checks of the shim in real MPI jobs:
#  1. AddressSanitizer and UndefinedBehaviorSanitizer: the library,
#     instrumented with -fsanitize=address,undefined and preloaded after
#     libasan, runs the allgather and allgatherv matrices (both topologies,
#     and the relay forced on both: by default it runs between nodes only),
#     the communicator churn and the fallbacks, a forced chain that grows
#     its pair's room, the join plan, the opening round (also with blocks
#     sent in pieces, and down the tree) and random calls (the soak program); any invalid
#     access, or undefined behaviour in the library (a signed overflow in a
#     byte count, a misaligned access, a shift out of range...), fails.
#     Leak detection is left to valgrind: Open MPI
#     unloads its components at finalize, after which LeakSanitizer cannot
#     tell whose allocation a leak was and blames whatever module it finds.
#     Then tests/mpi/test_large_total.sh with the library instrumented for
#     undefined behaviour alone (no AddressSanitizer: its calls move 2.4 GB
#     to each receiver): the test whose counts of bytes pass INT_MAX,
#     where a byte count kept in an int would overflow.
#  2. valgrind memcheck on small jobs (both topologies, allgather and
#     allgatherv, the relay forced on both): no invalid access, no use of uninitialised values and no
#     definite or indirect leak with intergather's code on the stack.
set -euo pipefail
cd "$(dirname "$0")/.."
top=$PWD
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

. scripts/openmpi-env.sh
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=1 INTERGATHER_ALGORITHM=auto INTERGATHER_MANY_SENDERS=spread
export INTERGATHER_OPENING=on
# The cost model's choices as on a node with a core per process (this
# machine's jobs are all oversubscribed: tests/mpi/common.sh).
export INTERGATHER_OVERSUBSCRIBED=no
MPIRUN=${MPIRUN:-mpirun}
# intergather_names: the INTERGATHER_* variables of this shell, those above
# and those a run sets for itself, one per line: every run forwards them all
# (mpirun -x), and test_large_total runs without them.
intergather_names() {
    env | sed -n 's/^\(INTERGATHER_[A-Z_]*\)=.*/\1/p'
}

# Run after a normal build (it uses its config.h and test programs).
[ -f config.h ] && [ -x tests/mpi/allgather_matrix ] || { echo "build and make check first" >&2; exit 1; }
echo "== AddressSanitizer and UndefinedBehaviorSanitizer build of the library"
mpicc=$(sed -n 's/^CC = //p' Makefile)
lib_sources=$(ls src/*.c)
$mpicc -shared -fPIC -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -I. -Isrc -Iinclude -DHAVE_CONFIG_H \
    $lib_sources -o "$work/libintergather.so"
libasan=$(gcc -print-file-name=libasan.so)
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1:halt_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
asan_run() { # NP PROGRAM ARGS...
    local np=$1; shift
    # shellcheck disable=SC2046
    if ! "$MPIRUN" --oversubscribe -np "$np" -x LD_PRELOAD="$libasan $work/libintergather.so" \
        -x ASAN_OPTIONS -x UBSAN_OPTIONS $(intergather_names | sed 's/^/-x /') \
        "$@" >"$work/out" 2>&1 || grep -q -e 'ERROR: AddressSanitizer' -e 'runtime error:' "$work/out" \
        || ! grep -q 'intergather: summary' "$work/out"; then
        cat "$work/out" >&2
        echo "check-memory: sanitized run failed: $*" >&2
        exit 1
    fi
}
for topology in fully-connected ring; do
    export INTERGATHER_TOPOLOGY=$topology
    asan_run 5 "$top/tests/mpi/allgather_matrix" 2 1000
    asan_run 5 "$top/tests/mpi/allgatherv_matrix" 3 2000
    echo "ok asan+ubsan $topology"
done
export INTERGATHER_TOPOLOGY=fully-connected
asan_run 4 "$top/tests/mpi/comm_churn"
INTERGATHER_MIN_BYTES=1024 asan_run 4 "$top/tests/mpi/fallbacks"
# Early posting (the path without the opening round): steps that stand and
# steps withdrawn (cancelled receives, discarded messages), with both
# agreements (8 processes or fewer, and more), and blocks beyond the
# cache's room for a withdrawn message (80000 bytes: taken into an
# allocation of their own).
INTERGATHER_OPENING=off INTERGATHER_ALGORITHM=direct asan_run 4 "$top/tests/mpi/early_post" 2
INTERGATHER_OPENING=off INTERGATHER_ALGORITHM=direct asan_run 10 "$top/tests/mpi/early_post" 4
INTERGATHER_OPENING=off INTERGATHER_ALGORITHM=direct asan_run 5 "$top/tests/mpi/early_post" 2 20000
# The star's first round posted early and withdrawn (3+5).
INTERGATHER_OPENING=off INTERGATHER_ALGORITHM=star asan_run 8 "$top/tests/mpi/early_post" 3
# The opening round: calls that end in it, go on, or finish pair by pair.
asan_run 4 "$top/tests/mpi/opening" 2 hard
asan_run 7 "$top/tests/mpi/opening" 3 hard
asan_run 6 "$top/tests/mpi/opening_v" 3 hard
asan_run 6 "$top/tests/mpi/opening_v" 4 learned
INTERGATHER_OPENING=pieces INTERGATHER_ALGORITHM=direct asan_run 5 "$top/tests/mpi/opening" 2 pieces
# The opening's tree (a group of one process, its message passed on by
# the others), both ways round, and random calls down it.
INTERGATHER_OPENING=tree asan_run 6 "$top/tests/mpi/opening" 1 hard
INTERGATHER_OPENING=tree asan_run 6 "$top/tests/mpi/opening" 5 hard
INTERGATHER_OPENING=tree INTERGATHER_SHM_MODEL=ts=7.8e-5,tw=7.8e-8,to=0 \
    asan_run 6 "$top/tests/mpi/soak" --calls 200 --seed 20261203 --left 1 --watchdog 120
# The relay runs by default between nodes only: forced here.
INTERGATHER_ALGORITHM=relay asan_run 5 "$top/tests/mpi/allgather_matrix" 2 1000
INTERGATHER_ALGORITHM=relay asan_run 5 "$top/tests/mpi/allgatherv_matrix" 2 1000
# Pieces above 60 KiB, in parts (src/algo_relay.c).
INTERGATHER_ALGORITHM=relay asan_run 5 "$top/tests/mpi/allgather_matrix" 2 262144
INTERGATHER_ALGORITHM=relay asan_run 5 "$top/tests/mpi/allgatherv_matrix" 2 200000
# Members (src/relay_plan.h): 3+6 with blocks of up to 1 MiB (two a
# block), and 4+6 (three a block, the other pieces interleaved with a
# member's own); as in tests/mpi/test_fc_variants.sh, a model with no
# per-message cost, so that pieces go in parts, which members need,
# whatever the default model says.
INTERGATHER_ALGORITHM=relay INTERGATHER_SHM_MODEL=to=0 asan_run 9 "$top/tests/mpi/allgather_matrix" 3+6 1048576
INTERGATHER_ALGORITHM=relay INTERGATHER_SHM_MODEL=to=0 asan_run 10 "$top/tests/mpi/allgather_matrix" 4+6 1048576
# Full duplex with both stages in parts, overlapped (src/algo_full_duplex.c,
# src/group_allgather.c): 3+5, blocks of up to 1 MiB.
INTERGATHER_ALGORITHM=full-duplex asan_run 8 "$top/tests/mpi/allgather_matrix" 3+5 262144
# Types decoded constructor by constructor (src/type_order.c).
INTERGATHER_ALGORITHM=relay asan_run 5 "$top/tests/mpi/type_order" 2+3,3+2 3
# Erroneous calls that truncate: blocks received whole, then copied in place.
asan_run 4 "$top/tests/mpi/truncate" 3 16 full
asan_run 4 "$top/tests/mpi/truncate" 2 20000 half
# A forced chain in segments; one whose segments grow the pair's room
# (48 MiB blocks at 4+4 in 64 KiB segments, as in test_fc_variants.sh:
# 3088 requests against a room of 2564); and the join plan (its extra
# sender's scratch, checked jointly per call).
INTERGATHER_ALGORITHM=chain asan_run 5 "$top/tests/mpi/nomem" 2 100000 h
INTERGATHER_ALGORITHM=chain INTERGATHER_SHM_MODEL=to=0 asan_run 8 "$top/tests/mpi/nomem" 4 12582912 h
INTERGATHER_ALGORITHM=fc INTERGATHER_MANY_SENDERS=join asan_run 5 "$top/tests/mpi/nomem" 3 2001 h
# Random calls (tests/mpi/test_random_calls.sh): random sizes, so random
# histories for the opening round's predicted skip, and communicators
# created and freed as the calls go.
asan_run 8 "$top/tests/mpi/soak" --calls 300 --seed 20261127 --left 3 --watchdog 120
echo "ok asan+ubsan: matrices, churn, fallbacks, early posting (direct, the star), opening round (also down the tree), relay, full duplex in parts, type order, truncation, chain, join, random calls"

echo "== UndefinedBehaviorSanitizer: totals beyond 2 GiB"
mkdir "$work/ubsan"
$mpicc -shared -fPIC -O1 -g -fsanitize=undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer -I. -Isrc \
    -Iinclude -DHAVE_CONFIG_H $lib_sources -o "$work/ubsan/libintergather.so"
# As make check runs it: without the settings exported above, which the
# test would forward to its processes.
# shellcheck disable=SC2046
if ! env $(intergather_names | sed 's/^/-u /') IG_LIB="$work/ubsan/libintergather.so" \
    IG_TOP_BUILDDIR="$top" IG_TOP_SRCDIR="$top" bash tests/mpi/test_large_total.sh >"$work/out" 2>&1 || grep -q 'runtime error:' "$work/out"; then
    cat "$work/out" >&2
    echo "check-memory: test_large_total failed with the library instrumented for undefined behaviour" >&2
    exit 1
fi
echo "ok ubsan: test_large_total"

echo "== valgrind memcheck"
if ! command -v valgrind >/dev/null; then
    SUDO=""; [ "$(id -u)" = 0 ] || SUDO=sudo
    $SUDO apt-get install -y -qq valgrind >/dev/null
fi
supp=$(ls /usr/share/openmpi/openmpi-valgrind.supp 2>/dev/null || true)
# Errors and leaks count only with a stack frame in intergather's own code:
# Open MPI's transports trip memcheck on their own.
ours='(ig_[a-z_]+|cancel_receives|discard_[a-z_]+|guessed_step|cancel_one|cancel_star_receives|star_sent_here|complete_early_sends|send_to_teams|forward_owned|linear_[a-z]+|send_next|direct_roles|uniform_view|MPI_Allgatherv?|fc_[a-z_]+|ring_[a-z_]+|exchange|assemble|relay_[a-z]+|cache_[a-z_]+|split_or_null|run_[a-z_]+|serve|fortran_allgatherv?|[a-z_]*in_order|place_runs?|contents_[a-z]+|[a-z_]*_whole|post_receives|check_arrival|block_short|round_one|verdicts|late_blocks|post_receive|wait_statuses|slot_of|what_it_brings|remember_receivers|self_toward|expects_from|judged_small|count_served|leave_early|relay|relay_in_place|relay_as_bytes|forward_all|join_tree|round_one_targets) \('
vg_run() { # LABEL NP PROGRAM ARGS...
    local label=$1 np=$2; shift 2
    rm -f "$work"/vg.*
    # shellcheck disable=SC2046
    "$MPIRUN" --oversubscribe -np "$np" -x LD_PRELOAD="$top/src/.libs/libintergather.so" \
        $(intergather_names | sed 's/^/-x /') valgrind -q --error-limit=no --leak-check=full \
        --show-leak-kinds=definite,indirect ${supp:+--suppressions=$supp} --log-file="$work/vg.%p" "$@" \
        >"$work/out" 2>&1 || { cat "$work/out" >&2; exit 1; }
    grep -q '^PASS' "$work/out" || { cat "$work/out" >&2; exit 1; }
    if grep -q -E "(at|by) 0x[0-9A-F]+: $ours" "$work"/vg.*; then
        cat "$work"/vg.* >&2
        echo "check-memory: valgrind reports errors or leaks in intergather's code ($label)" >&2
        exit 1
    fi
    echo "ok valgrind $label"
}
for topology in fully-connected ring; do
    export INTERGATHER_TOPOLOGY=$topology
    vg_run "allgather $topology" 3 "$top/tests/mpi/allgather_matrix" 1 1000
    vg_run "allgatherv $topology" 3 "$top/tests/mpi/allgatherv_matrix" 2 500
done
export INTERGATHER_TOPOLOGY=fully-connected
INTERGATHER_OPENING=off INTERGATHER_ALGORITHM=direct vg_run "early posting" 4 "$top/tests/mpi/early_post" 2
INTERGATHER_OPENING=off INTERGATHER_ALGORITHM=direct vg_run "early posting, 80000-byte blocks" 4 "$top/tests/mpi/early_post" 2 20000
INTERGATHER_OPENING=off INTERGATHER_ALGORITHM=star vg_run "the star posted early" 5 "$top/tests/mpi/early_post" 2
vg_run "opening round" 4 "$top/tests/mpi/opening" 2 hard
vg_run "opening round, MPI_Allgatherv" 4 "$top/tests/mpi/opening_v" 2 hard
INTERGATHER_OPENING=pieces INTERGATHER_ALGORITHM=direct vg_run "opening in pieces" 4 "$top/tests/mpi/opening" 2 pieces
INTERGATHER_OPENING=tree vg_run "opening down the tree" 5 "$top/tests/mpi/opening" 1 hard
INTERGATHER_ALGORITHM=relay vg_run "relay" 4 "$top/tests/mpi/allgather_matrix" 1 1000
INTERGATHER_ALGORITHM=relay vg_run "relay, allgatherv" 4 "$top/tests/mpi/allgatherv_matrix" 1 500
INTERGATHER_ALGORITHM=relay vg_run "relay, pieces in parts" 4 "$top/tests/mpi/allgather_matrix" 1 65536
INTERGATHER_ALGORITHM=relay vg_run "type order" 4 "$top/tests/mpi/type_order" 1+3,3+1 3
vg_run "truncation" 4 "$top/tests/mpi/truncate" 3 16 full
INTERGATHER_ALGORITHM=chain vg_run "chain in segments" 5 "$top/tests/mpi/nomem" 2 100000 h
INTERGATHER_ALGORITHM=fc INTERGATHER_MANY_SENDERS=join vg_run "join plan" 5 "$top/tests/mpi/nomem" 3 2001 h
# The pair API (linked against the library; its .libs binary, not libtool's wrapper script).
vg_run "pair API, full duplex one way" 3 "$top/tests/mpi/.libs/pair_full_duplex"
