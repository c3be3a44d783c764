#!/bin/bash
# The direct algorithm (and the star's first round, below) posted before
# the agreement (src/speculate.h): early steps that stand, and early steps withdrawn because one process cannot be
# served (it goes native with everyone), or because the groups' sizes
# disagree (served point to point, truncation reported), each followed by a
# plain call that would get a stray early message if one were left behind.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=2

# expected_withdrawn NP: the sum of the NP processes' "expect
# early-withdrawn=N (world rank R)" records.  A record is found anywhere in
# a line: MPICH's launcher forwards each process's output in the chunks it
# was written, so another process's line can end up in front of one
# ("PASS early_postexpect early-withdrawn=5 (world rank 1)"); and there
# must be one per process, so that a record lost this way fails here and
# not as a wrong total.
expected_withdrawn() {
    local records
    records=$(grep -o 'expect early-withdrawn=[0-9]* (world rank [0-9]*)' "$IG_OUT" || true)
    if [ "$(printf '%s' "$records" | grep -c .)" -ne "$1" ]; then
        cat "$IG_OUT" >&2
        echo "expected one 'expect early-withdrawn' record from each of $1 processes" >&2
        return 1
    fi
    printf '%s\n' "$records" | sed 's/^expect early-withdrawn=\([0-9]*\) .*/\1/' | awk '{ t += $1 } END { print t + 0 }'
}

# Up to 8 processes the agreement is one round of messages, above an allreduce (src/agree.h): both.
# Posting early is the path of calls that do not start with the opening round
# (src/opening_plan.h): INTERGATHER_OPENING=off here, and under MPICH.
for np_left in "4 2" "5 2" "5 3" "8 3" "10 4"; do
    set -- $np_left
    # Forced direct: every process that can posts early, so the withdrawals are exact.
    INTERGATHER_OPENING=off INTERGATHER_ALGORITHM=direct run_preloaded "$1" "$TESTS_BIN/early_post" "$2"
    expect_pass early_post
    expect_total posted-early -gt 0
    want=$(expected_withdrawn "$1")
    expect_total withdrawn -eq "$want"
    # Off, no call runs the opening round, not even after the agreement
    # where one process cannot be served (src/serve.c: only a call that
    # skipped the round, where it applies, goes through it then).
    expect_total ended -eq 0
    expect_total pair-by-pair -eq 0
    expect_total went-on -eq 0
    # The model's own choice (direct at these sizes on one node): same results.
    INTERGATHER_OPENING=off INTERGATHER_ALGORITHM=auto run_preloaded "$1" "$TESTS_BIN/early_post" "$2"
    expect_pass early_post
    expect_total posted-early -gt 0
    echo "ok np=$1 left=$2 (withdrawn $(summary_total withdrawn) times, as expected)"
    # The same scenarios starting with the opening round (the default where
    # it applies, Open MPI): the same data and errors; correct calls end in
    # the opening, the scenarios with one process at MPI_BOTTOM or one
    # truncating sender finish pair by pair.
    if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
        run_preloaded "$1" "$TESTS_BIN/early_post" "$2"
        expect_pass early_post
        expect_total ended -gt 0
        expect_total pair-by-pair -gt 0
        echo "ok np=$1 left=$2 with the opening (ended $(summary_total ended), pair by pair $(summary_total pair-by-pair))"
    fi
done

# The star's first round posted early (src/speculate.h): forced star, p < q
# (2+3, 3+5, 4+6), the same scenarios.  Each half-duplex scenario is
# withdrawn as direct's (every process that posted: the senders' blocks
# to the team members and every receiver's receives), and a member that
# is the one at MPI_BOTTOM takes its sender's early block only to
# discard it; full duplex runs two passes with a forced star, which
# nothing posts early, so early_post's record (counted for direct) is np -
# 1 too high.  The plain call after each scenario has data of its own
# (early_post.c), so a message left behind fails it (checked: without the
# discard of a star sender's early message, "plain call after bottom-rx"
# fails; without the discard of the blocks members sent on, which they do
# as soon as their block arrives, before the agreement ends, and in any
# withdrawal where their sender posted early, it fails too).  The last
# run has blocks of 80000 bytes (20000 ints), which Open MPI moves by its
# rendezvous protocol.  Under MPICH, where a truncated receive aborts the
# job, the star is never posted early (src/speculate.c, guessed_step).
for np_left in "5 2" "8 3" "10 4" "10 4 20000"; do
    set -- $np_left
    INTERGATHER_OPENING=off INTERGATHER_ALGORITHM=star run_preloaded "$1" "$TESTS_BIN/early_post" "$2" ${3:+"$3"}
    expect_pass early_post
    expect_total alg-star -gt 0
    if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
        expect_total posted-early -gt 0
        # Members' blocks went on while the agreement ran (in the calls
        # where it stood, at least).
        expect_total sent-on-early -gt 0
        want=$(($(expected_withdrawn "$1") - ($1 - 1)))
        expect_total withdrawn -eq "$want"
    else
        expect_total posted-early -eq 0
    fi
    echo "ok star, np=$1 left=$2 ${3:+ints=$3 }(posted early $(summary_total posted-early), withdrawn $(summary_total withdrawn), sent on early $(summary_total sent-on-early))"
done

# 16+16: each process's remote group is exactly the direct algorithm's
# window (16, src/decide_limits.h), the largest with which an early sender
# reaches every remote process at once, as withdrawing assumes
# (src/speculate.c, guessed_direct): every process still posts early.
# Open MPI only: 32 processes on a small machine were not timed under
# MPICH's launcher (the code path is the same).
if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
    INTERGATHER_OPENING=off INTERGATHER_ALGORITHM=direct run_preloaded 32 "$TESTS_BIN/early_post" 16
    expect_pass early_post
    want=$(expected_withdrawn 32)
    expect_total withdrawn -eq "$want"
    summaries=$(grep -c 'intergather: summary (world rank' "$IG_OUT" || true)
    quiet=$(grep 'intergather: summary (world rank' "$IG_OUT" | grep -c ' posted-early=0 ' || true)
    if [ "$summaries" -ne 32 ] || [ "$quiet" -ne 0 ]; then
        echo "16+16: $quiet of $summaries processes never posted early (want 0 of 32)" >&2; cat "$IG_OUT" >&2; exit 1
    fi
    echo "ok np=32 left=16: every process posted early (withdrawn $(summary_total withdrawn) times, as expected)"
fi

# Blocks larger than the room the cache keeps for a withdrawn message
# (src/comm_cache.h): such a message is taken into an allocation of its own
# size (src/speculate.c, discard_one), and Open MPI moves it by its
# rendezvous protocol, not eagerly (above 4 KiB within the node, where
# scripts/openmpi-env.sh turns the kernel's single copy off, and above 64
# KiB over TCP).  Under MPICH no block above that room is posted early.
if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
    big_ints=20000 # 80000 bytes a block
    for transport in shared tcp; do
        if [ "$transport" = tcp ]; then
            OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,tcp INTERGATHER_OPENING=off INTERGATHER_ALGORITHM=direct \
                run_preloaded 5 "$TESTS_BIN/early_post" 2 "$big_ints"
        else
            INTERGATHER_OPENING=off INTERGATHER_ALGORITHM=direct run_preloaded 5 "$TESTS_BIN/early_post" 2 "$big_ints"
        fi
        expect_pass early_post
        expect_total posted-early -gt 0
        want=$(expected_withdrawn 5)
        expect_total withdrawn -eq "$want"
        echo "ok np=5 left=2, $((big_ints * 4))-byte blocks over $transport (withdrawn $(summary_total withdrawn) times)"
    done
    # The same with no memory for that allocation (fail_malloc.c) in world
    # rank 2, the first receiver: at MPI_BOTTOM ("bottom-rx") it posts no
    # early receive, so the senders' early blocks reach it to be withdrawn.
    # Each is taken into the sink instead (discard_one), so the plain call
    # after it must find no stray message; the calls served point to point
    # may report MPI_ERR_NO_MEM there (early_post.c, NO_MEM_RANK).
    faillib="$IG_TOP_BUILDDIR/tests/mpi/.libs/libfailmalloc.so"
    [ -f "$faillib" ] || { echo "missing $faillib (built by make check)" >&2; exit 1; }
    for transport in shared tcp; do
        vars=(LD_PRELOAD="$faillib $IG_LIB" IG_TEST_FAIL_MALLOC_SIZE=$((big_ints * 4)) IG_TEST_FAIL_MALLOC_RANK=2
              INTERGATHER_OPENING=off INTERGATHER_ALGORITHM=direct)
        [ "$transport" = tcp ] && vars+=(OMPI_MCA_pml=ob1 OMPI_MCA_btl=self,tcp)
        # shellcheck disable=SC2046
        ig_launch 5 "${vars[@]}" $(ig_forwarded "${vars[@]}") -- "$TESTS_BIN/early_post" 2 "$big_ints" 2
        expect_pass early_post
        grep -q "fail_malloc: malloc($((big_ints * 4))) failed in world rank 2\$" "$IG_OUT" ||
            { echo "no withdrawn message lacked memory in world rank 2 ($transport)" >&2; cat "$IG_OUT" >&2; exit 1; }
        want=$(expected_withdrawn 5)
        expect_total withdrawn -eq "$want"
        echo "ok np=5 left=2, withdrawn $((big_ints * 4))-byte blocks into the sink over $transport" \
            "($(grep -c 'fail_malloc: malloc' "$IG_OUT") without memory, $(sed -n 's/.*no-mem calls=\([0-9]*\).*/\1/p' "$IG_OUT") calls reported it)"
    done
fi
