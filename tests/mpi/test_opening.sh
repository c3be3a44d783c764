#!/bin/bash
# The opening round (src/opening_plan.h): correct calls that end after its
# first round, erroneous ones finished pair by pair or handed on to the
# agreement, each followed by a plain call checked byte for byte
# (tests/mpi/opening.c), and the same after a large call, where the round
# is skipped.  Where it applies (Open MPI) the summaries must
# show all three outcomes, and the calls with unusable arguments in one
# process ("hard") run too: without the opening, the MPI library would
# leave the other processes waiting on them.  Under MPICH the opening does
# not apply (a truncated receive aborts there): the other scenarios run on
# the agreed path, and no call may start with the opening.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_VERBOSE=2

# expect_sent_in_vain N: N processes said (once each, src/opening_left.c)
# that blocks came to them after they had left a call expecting nothing.
expect_sent_in_vain() {
    local vain
    vain=$(grep -c 'sent a block to this process, which expected nothing' "$IG_OUT" || true)
    if [ "$vain" -ne "$1" ]; then
        echo "expected $1 processes to explain blocks sent to them in vain, got $vain" >&2
        cat "$IG_OUT" >&2
        exit 1
    fi
}

# NP LEFT: 2+2, 1+3 (where the model does not choose direct alone for the
# large blocks: they go on), 3+1, 3+4, 4+4.
for np_left in "4 2" "4 1" "4 3" "7 3" "8 4"; do
    set -- $np_left
    ig_launcher_kind
    hard=""
    [ "$IG_LAUNCHER_KIND" != openmpi ] || hard=hard
    run_preloaded "$1" "$TESTS_BIN/opening" "$2" $hard
    expect_pass opening
    if [ -n "$hard" ]; then
        expect_total ended -gt 0
        expect_total pair-by-pair -gt 0
        expect_total went-on -gt 0
    else
        expect_total ended -eq 0
        expect_total pair-by-pair -eq 0
        expect_total went-on -eq 0
    fi
    echo "ok np=$1 left=$2: ended $(summary_total ended), pair by pair $(summary_total pair-by-pair), went on $(summary_total went-on)"
done

# MPI_Allgatherv (tests/mpi/opening_v.c): uneven blocks, every third one
# empty, placed in reverse order with gaps.  Each process names in each
# peer's tag what it expects from that peer, and a sender stays until it
# has learnt its receivers small (in "correct" no sender leaves early): the
# correct calls with small blocks end after round one on every process
# (uneven-left, -right, -full and the plain call after each: at least six a
# process; a tag that named one size for every peer would end them pair by
# pair), none pair by pair, none erroneous; then every scenario, the
# erroneous ones and the unusable arguments ("hard") among them, each
# byte and error class checked.
for np_left in "4 2" "5 1" "7 3"; do
    set -- $np_left
    run_preloaded "$1" "$TESTS_BIN/opening_v" "$2" correct
    expect_pass opening_v
    if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
        expect_total ended -ge $((6 * $1))
        expect_total pair-by-pair -eq 0
        expect_total erroneous-sizes -eq 0
    else
        expect_total ended -eq 0
    fi
    hard=""
    [ "$IG_LAUNCHER_KIND" != openmpi ] || hard=hard
    run_preloaded "$1" "$TESTS_BIN/opening_v" "$2" $hard
    expect_pass opening_v
    [ -z "$hard" ] || expect_total pair-by-pair -gt 0
    # Senders with data learn to leave early in the "learned" scenario
    # (its counts exact over UCX: test_tag_bound.sh).
    [ "$IG_LAUNCHER_KIND" != openmpi ] || expect_total learnt-early -gt 0
    echo "ok MPI_Allgatherv np=$1 left=$2: ended $(summary_total ended), pair by pair $(summary_total pair-by-pair), went on $(summary_total went-on)"
done

# A half-duplex MPI_Allgatherv of blocks the model does not serve with the
# direct algorithm alone (opening_v.c, large-left, at 1+3): the sender
# expects nothing and the receivers send nothing, and neither is small for
# that (src/opening.c, what_it_brings: only a process that takes no part
# in the data is), so every process goes on from the round to the
# agreement, once; the plain call after it does not go on.
if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
    run_preloaded 4 "$TESTS_BIN/opening_v" 1 large
    expect_pass opening_v
    expect_total went-on -eq 4
    expect_total pair-by-pair -eq 0
    echo "ok MPI_Allgatherv of large blocks, half duplex, np=4 left=1: went on $(summary_total went-on)"
fi

# The round skipped (src/decide.h, ig_decide_opening_call_is_large): at 1+3
# the large calls go on to the agreement, so the call after them skips the
# round; with every scenario right after three large calls, the erroneous
# and hard ones run on the agreed path and must end as they do after the
# round (same classes, same bytes, no hang), and each plain call after
# them, which the round ends, must bring the round back.  Per process the
# prediction skips the round 37 times: the second and third large calls
# before each of the 10 scenarios (20), each scenario (10), the first
# large call before six of them (6: the calls before it follow a pattern
# the rule has learnt by then) and the plain call after the scenario that
# is itself a large call (1).  Exact for this rule (counted from the
# summaries): a scenario run in the round lowers it (so would another
# rule: recount).
if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
    run_preloaded 4 "$TESTS_BIN/opening" 1 hard after-large
    expect_pass opening
    expect_total skipped -ge $((4 * 37))
    expect_total ended -gt 0
    echo "ok np=4 left=1 after large calls: skipped $(summary_total skipped), ended $(summary_total ended), went on $(summary_total went-on)"
fi

# The skip predicted (src/decide.h, ig_decide_opening_predict_skip): at 1+3
# a program that alternates small calls (which the round ends) and large
# ones (which go on) 20 times, after one small call.  Predicted "like the
# last call", as before, every small call after a large one would run on
# the agreed path and every large one through the round (per process 2
# ended, 19 skipped, 20 went on); the prediction learns the alternation
# (18, 19, 4).  Every block of every call is checked.
if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
    run_preloaded 4 "$TESTS_BIN/opening" 1 alternate
    expect_pass opening
    expect_total ended -ge $((4 * 15))
    expect_total went-on -le $((4 * 5))
    echo "ok np=4 left=1 alternating: ended $(summary_total ended), skipped $(summary_total skipped), went on $(summary_total went-on)"
fi

# Pieces (opening_plan.h): a left group that expects nothing leaves early
# and, with INTERGATHER_OPENING=pieces, sends blocks above 60 KiB in eager
# pieces even on this one node; every left process cuts its block in each
# of the five scenarios and in the five erroneous calls of the sixth
# (pieces-to-nothing: blocks to processes that expect nothing and leave
# early, whose pieces must not reach the next call, nor hold their sender
# when the next step is a barrier), and every byte is checked as above.
if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
    for np_left in "4 2" "7 3"; do
        set -- $np_left
        INTERGATHER_OPENING=pieces INTERGATHER_ALGORITHM=direct run_preloaded "$1" "$TESTS_BIN/opening" "$2" pieces unfreed
        expect_pass opening
        expect_total in-pieces -eq $((10 * $2))
        # pieces-to-nothing: every process, which expected nothing, was
        # sent blocks it left without waiting for, in five calls; settling
        # its receives (src/opening_left.h: at the next call, at the free
        # of the duplicate, at finalize for the last) found each of them,
        # once per process explained.  The right group's erroneous-sizes
        # count pieces-long, pieces-long-strided and pieces-short too.
        expect_total erroneous-sizes -eq $((5 * $1 + 3 * ($1 - $2)))
        # Only there may a sender leave pieces to be taken later: never in
        # the correct calls, whose receivers take them in the call.
        expect_total taken-later -le $((5 * $2))
        expect_sent_in_vain "$1"
        echo "ok pieces np=$1 left=$2: in pieces $(summary_total in-pieces), ended $(summary_total ended)"
    done
fi

# Blocks of one byte to processes that expect nothing (erroneous; all
# leave early): each fits the sink whole (src/p2p.h), so no truncation
# says it came, only its count (ig_sink_took_data); every process must
# still explain, once, the blocks sent to it in vain (settled at the next
# call), and the plain call after it is checked.
if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
    run_preloaded 4 "$TESTS_BIN/opening" 2 tiny
    expect_pass opening
    expect_sent_in_vain 4
    echo "ok tiny blocks to nothing np=4 left=2: ended $(summary_total ended), pair by pair $(summary_total pair-by-pair)"
fi

# The sink (src/p2p.h): a process that expects nothing and leaves early,
# or whose arguments are unusable ("hard"), takes its peers' blocks into
# it, and drops the pieces it does not keep there.  Open MPI's ob1 layer
# writes a message it moves by RDMA whole into a contiguous receive cut
# short: into the one-byte placeholder these receives used before, blocks
# above its eager limits crashed the process (SIGSEGV).  Over TCP (above
# 64 KiB) always; within a node (above 4 KiB) where its single-copy path
# works here, which the other tests turn off (common.sh): the sink
# scenarios, and the pieces, whose receivers take and drop pieces.  The
# ob1 layer named, where a machine would pick UCX.  In sink-zero the right
# group (every process small at these sizes, by the cost model's
# defaults) leaves early, so each of its processes takes the left group's
# blocks into the sink and says so once.
# The trees (opening_plan.h, "The tree"), here on one node where the
# settings say tree: each process of a group of one to three (the roots)
# sends its round-one message down a binomial tree over the other group,
# whose processes pass it on unchanged and stay.  Every scenario,
# erroneous and unusable arguments ("hard") included, with the roots on
# either side, 1+5, 5+1, 1+7 (a relay whose child has children), 2+8 and
# 8+2 (two trees, taken in order), each byte and error class checked; the
# same after large calls, and alternating; a relay that left early, or
# passed on anything but what it received, would leave its children
# waiting or judging their pair unlike the root.  Then correct calls
# compared with native byte for byte in four datatypes, half and full
# duplex (allgather_matrix), and 4 KiB blocks from two roots timed by the
# bench: on the emulated cluster's network model fc serves these, so
# without the trees every one goes on to the agreement and fc, and with
# them every one ends in the round.
if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
    for run in "6 1 hard" "6 5 hard" "8 1 hard" "8 1 hard after-large" "6 1 alternate" "6 1 sink hard" "6 5 tiny" \
               "10 2 hard" "10 8 hard"; do
        set -- $run
        INTERGATHER_OPENING=tree run_preloaded "$1" "$TESTS_BIN/opening" "${@:2}"
        expect_pass opening
        expect_total tree -gt 0
        echo "ok tree np=$1 ${*:2}: tree $(summary_total tree), ended $(summary_total ended), pair by pair $(summary_total pair-by-pair), went on $(summary_total went-on)"
    done
    # The emulated cluster's network model for this node's processes.
    cluster_model() { INTERGATHER_SHM_MODEL=ts=7.8e-5,tw=7.8e-8,to=0 INTERGATHER_OVERSUBSCRIBED=no "$@"; }
    INTERGATHER_OPENING=tree cluster_model run_preloaded 10 "$TESTS_BIN/allgather_matrix" 1+9,2+8,8+2 20000
    expect_pass allgather_matrix
    expect_total tree -gt 0
    for opening in on tree; do
        INTERGATHER_OPENING=$opening cluster_model ig_launch 10 -- "$IG_TOP_BUILDDIR/bench/intergather-bench" \
            -p 2 --duplex half --sizes 4K --iters 12 --warmup 1 --algos intergather
        grep -q 'verified=yes' "$IG_OUT" || { echo "the bench's calls not verified" >&2; cat "$IG_OUT" >&2; exit 1; }
        if [ "$opening" = tree ]; then
            expect_total alg-fc -eq 0
            expect_total ended -ge $((10 * 13))
        else
            expect_total alg-fc -gt 0
        fi
        echo "ok 2+8 4 KiB with the opening $opening: fc $(summary_total alg-fc), ended $(summary_total ended), tree $(summary_total tree)"
    done
fi

if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
    export OMPI_MCA_pml=ob1
    for np_left in "4 2" "7 3"; do
        set -- $np_left
        OMPI_MCA_btl=self,tcp run_preloaded "$1" "$TESTS_BIN/opening" "$2" hard sink
        expect_pass opening
        expect_sent_in_vain $(($1 - $2))
        echo "ok sink over TCP np=$1 left=$2: ended $(summary_total ended), pair by pair $(summary_total pair-by-pair)"
    done
    export OMPI_MCA_btl_vader_single_copy_mechanism=cma
    unset OMPI_MCA_smsc # Open MPI 5's single copy (scripts/openmpi-env.sh) back on
    if ig_launch 2 -- "$TESTS_BIN/allgather_matrix" 1+1 2048 >/dev/null 2>&1; then
        run_preloaded 4 "$TESTS_BIN/opening" 2 hard sink
        expect_pass opening
        expect_sent_in_vain 2
        INTERGATHER_OPENING=pieces INTERGATHER_ALGORITHM=direct run_preloaded 4 "$TESTS_BIN/opening" 2 pieces
        expect_pass opening
        echo "ok sink and pieces with shared memory's single copy: in pieces $(summary_total in-pieces)"
    else
        echo "not run: Open MPI's shared-memory single copy (cma) does not work on this machine:"
        cat "$IG_OUT"
    fi
fi
