#!/bin/bash
# Out of memory in one process must not strand the others or leave wrong
# data (nomem.c): for each scenario (an algorithm forced, or the default
# decision, and a few kinds of call), a first run lists every allocation
# libintergather makes in a process of each group (fail_malloc.c's trace),
# then one run per allocation size fails every allocation of that size in
# that process.  Each run must end within the timeout, with every call of
# every process either an error or exactly the blocks sent, and the
# failure must really have been injected.  (What makes this hold: the
# cache and the pairs stand in for a process without memory and fail for
# all together, each pair reserves its algorithms' requests and counts
# when it is built and grows that room jointly for a step that needs more
# (the chain's segments), the join plan's gather group learns whether its
# extra senders have their scratch before it starts, ig_waitall allocates
# nothing; the ring's relay space has its own test, test_ring_nomem.sh.)
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
IG_TEST_TIMEOUT=60                 # a run takes about a second; a hang fails in a minute
# ... but the chain's 48 MiB blocks below take up to 5 s a run on an idle
# 2-core machine, and up to 38 s with two busy loops beside the suite (the
# sixty-first session's loaded run, scripts/test-all.sh's closing list):
# their own limit.
LARGE_RUN_TIMEOUT=240
export INTERGATHER_MIN_BYTES=0
FAILLIB="$IG_TOP_BUILDDIR/tests/mpi/.libs/libfailmalloc.so"
[ -f "$FAILLIB" ] || { echo "missing $FAILLIB (built by make check)" >&2; exit 1; }

# NP LEFT COUNT KINDS SETTINGS [RANKS]: nomem's arguments (nomem.c), the
# settings (comma-separated; - for the default decision), and the world
# ranks whose allocations fail (default: 0 and LEFT, a process of each
# group).  The chain runs with whole blocks (8 KB) and with blocks (48 MiB
# at 4+4, in 64 KiB segments: the model's to=0 keeps them that small) cut
# into more segments than the pair's room holds requests for (3088 against
# 2564), so that it grows the room jointly (ig_pair_fit_room), which fails
# for all when one process lacks the memory; in the join plan (3 senders,
# 2 receivers) world rank 2 is the extra sender that needs scratch.
scenarios=(
    "5 2 101 mhrfv -"
    "5 2 101 hf INTERGATHER_ALGORITHM=direct"
    "5 2 2001 hv INTERGATHER_ALGORITHM=fc"
    "5 3 2001 h INTERGATHER_ALGORITHM=fc,INTERGATHER_MANY_SENDERS=join 2 3"
    "8 5 3001 h INTERGATHER_ALGORITHM=spread"
    "5 3 2001 f INTERGATHER_ALGORITHM=full-duplex"
    "5 2 2001 h INTERGATHER_ALGORITHM=relay"
    "5 2 2001 h INTERGATHER_ALGORITHM=chain"
    "8 4 12582912 h INTERGATHER_ALGORITHM=chain,INTERGATHER_SHM_MODEL=to=0"
)

# launch NP LEFT COUNT KINDS SETTINGS [NAME=VALUE...]
launch() {
    local np=$1 left=$2 count=$3 kinds=$4 settings=$5
    shift 5
    local vars=(LD_PRELOAD="$FAILLIB $IG_LIB" INTERGATHER_MIN_BYTES "$@")
    [ "$settings" = - ] || vars+=(${settings//,/ })
    local IG_TEST_TIMEOUT=$IG_TEST_TIMEOUT  # ig_launch reads this one
    [ "$count" -le 1000000 ] || IG_TEST_TIMEOUT=$LARGE_RUN_TIMEOUT
    ig_launch "$np" "${vars[@]}" -- "$TESTS_BIN/nomem" "$left" "$count" "$kinds"
    expect_pass nomem
}

runs=0 injected=0 missed=0
for scenario in "${scenarios[@]}"; do
    read -r np left count kinds setting ranks <<<"$scenario"
    launch "$np" "$left" "$count" "$kinds" "$setting" IG_TEST_TRACE_ALLOC=1
    trace=$(grep -o 'fail_malloc: trace .*' "$IG_OUT")
    for rank in ${ranks:-0 $left}; do
        allocations=$(sed -n "s/^fail_malloc: trace \([a-z]*\)(\([0-9]*\)) in world rank $rank\$/\1 \2/p" <<<"$trace" |
                      sort -u)
        [ -n "$allocations" ] || { echo "no allocation traced in world rank $rank ($scenario)" >&2; exit 1; }
        while read -r function size; do
            upper=$(tr a-z A-Z <<<"$function")
            # Some allocations depend on timing (room for an early message
            # to withdraw exists only where it had not arrived when its
            # receive was cancelled): up to three tries to reach each.
            for try in 1 2 3; do
                # (mpirun would read the rest of the list from standard input.)
                launch "$np" "$left" "$count" "$kinds" "$setting" \
                    IG_TEST_FAIL_"$upper"_SIZE="$size" IG_TEST_FAIL_"$upper"_RANK="$rank" </dev/null
                runs=$((runs + 1))
                if grep -q "fail_malloc: $function($size) failed in world rank $rank\$" "$IG_OUT"; then
                    injected=$((injected + 1))
                    continue 2
                fi
            done
            echo "note: $function($size) in world rank $rank not reached in three runs ($scenario)"
            missed=$((missed + 1))
        done <<<"$allocations"
    done
    echo "ok $scenario"
done
echo "ok $runs runs, $injected allocation sizes failed, $missed not reached"
# Only allocations that depend on timing may be missed, and few of them.
if [ $((missed * 10)) -gt "$injected" ]; then
    echo "too many allocations were never reached: $missed against $injected" >&2
    exit 1
fi

# Datatypes the MPI library cannot build (fail_malloc.c's
# IG_TEST_FAIL_TYPE_RANK: every type libintergather builds in that process
# fails).  A process of each group under the default decision: it cannot
# build its receive type before the agreement, says so there, and every
# process hands the calls to the MPI library together, so every call
# succeeds (no-memory counts them); that is the path without the opening
# round (src/opening_plan.h), which builds no type: with it, the same small
# calls all end there, served, and none fails (ERRORS "opening").  The join
# plan's extra sender cannot build its block type: its gather group fails
# together (calls in error).
# NP LEFT COUNT KINDS SETTINGS RANK ERRORS (whether calls fail).
calls_in_error() { sed -n 's/.*calls-in-error=\([0-9]*\)$/\1/p' "$IG_OUT"; }
opening_cases=""
[ "$IG_LAUNCHER_KIND" != openmpi ] || opening_cases="5 2 101 h - 0 opening"
for case in "5 2 101 hrfv INTERGATHER_OPENING=off 0 no" "5 2 101 hrfv INTERGATHER_OPENING=off 2 no" \
            "5 3 2001 h INTERGATHER_ALGORITHM=fc,INTERGATHER_MANY_SENDERS=join 2 yes" ${opening_cases:+"$opening_cases"}; do
    read -r np left count kinds setting rank errors <<<"$case"
    launch "$np" "$left" "$count" "$kinds" "$setting" IG_TEST_FAIL_TYPE_RANK="$rank" INTERGATHER_VERBOSE=1
    if [ "$errors" = opening ]; then
        [ "$(calls_in_error)" = 0 ] || { echo "calls failed ($case)" >&2; cat "$IG_OUT" >&2; exit 1; }
        grep -q "summary (world rank $rank):.* ended=[1-9]" "$IG_OUT" ||
            { echo "no call ended in the opening round ($case)" >&2; cat "$IG_OUT" >&2; exit 1; }
        echo "ok types fail in world rank $rank, served in the opening round: $case"
        continue
    fi
    grep -q "fail_malloc: PMPI_Type_contiguous([0-9]*) failed in world rank $rank\$" "$IG_OUT" ||
        { echo "no datatype failed to build in world rank $rank ($case)" >&2; exit 1; }
    if [ "$errors" = no ]; then
        [ "$(calls_in_error)" = 0 ] || { echo "calls failed ($case)" >&2; cat "$IG_OUT" >&2; exit 1; }
        grep -q "summary (world rank 0):.* no-memory=[1-9]" "$IG_OUT" ||
            { echo "no call went native for want of memory ($case)" >&2; cat "$IG_OUT" >&2; exit 1; }
    else
        [ "$(calls_in_error)" -gt 0 ] || { echo "no call failed ($case)" >&2; cat "$IG_OUT" >&2; exit 1; }
    fi
    echo "ok types fail in world rank $rank: $case"
done

# A receive type never committed, which Open MPI's collectives take and
# the library receives through a committed duplicate (src/call.c), where
# the duplicate cannot be made (fail_malloc.c's IG_TEST_FAIL_TYPE_DUP_RANK,
# in right rank 0: world rank LEFT): that process reports MPI_ERR_NO_MEM,
# not MPI_ERR_TYPE, its peers an error, and nobody hangs; after the opening
# round and, with "after-large", on the agreed path (tests/mpi/opening.c,
# "dup-fails").  Under MPICH no duplicate is made (its collectives check
# the commit themselves).
ig_launcher_kind
if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
    for np_left in "4 2" "4 1 after-large"; do
        read -r np left after <<<"$np_left"
        ig_launch "$np" LD_PRELOAD="$FAILLIB $IG_LIB" IG_TEST_FAIL_TYPE_DUP_RANK="$left" -- \
            "$TESTS_BIN/opening" "$left" hard dup-fails $after </dev/null
        expect_pass opening
        grep -q "fail_malloc: PMPI_Type_dup(1) failed in world rank $left\$" "$IG_OUT" ||
            { echo "no duplicate failed in world rank $left ($np_left)" >&2; exit 1; }
        echo "ok no committed duplicate in world rank $left: $np_left"
    done
fi

# A process that cannot build the sink for the messages it drops
# (src/p2p.h; fail_malloc.c's IG_TEST_FAIL_TYPE_STRUCT_RANK), in start-up:
# it goes on unserved, and receives what it drops into the predefined
# fallback.  A start-up failure in MPI_Init would end the job through
# MPI_COMM_WORLD's default handler, so the program starts MPI where the
# library does not see it ("late-start": PMPI_Init, then MPI_ERRORS_RETURN
# on MPI_COMM_WORLD) and the library starts, and fails, in its first call.
# The sink scenarios over TCP, where ob1 moves their 80000-byte blocks by
# RDMA: in right rank 0 (world rank 2: hard in sink-in-place, and taking
# blocks it does not expect in sink-zero; the count-0 receive that was the
# fallback before crashed it, SIGSEGV), right rank 1 and left rank 0.
# Open MPI only, as the "hard" scenarios.
if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
    for rank in 2 3 0; do
        ig_launch 4 LD_PRELOAD="$FAILLIB $IG_LIB" IG_TEST_FAIL_TYPE_STRUCT_RANK="$rank" OMPI_MCA_pml=ob1 \
            OMPI_MCA_btl=self,tcp INTERGATHER_VERBOSE=1 -- "$TESTS_BIN/opening" 2 hard sink late-start </dev/null
        expect_pass opening
        grep -q "fail_malloc: PMPI_Type_create_struct(2) failed in world rank $rank\$" "$IG_OUT" ||
            { echo "no sink type failed in world rank $rank" >&2; cat "$IG_OUT" >&2; exit 1; }
        echo "ok no sink type in world rank $rank"
    done
    # A start-up that fails once (its finalize hook's keyval, the first
    # PMPI_Comm_create_keyval: fail_malloc.c's IG_TEST_FAIL_KEYVAL_NTH=1)
    # is tried again at the next call (src/lifecycle.c), which succeeds:
    # the hook runs at MPI_Finalize, so every process prints its summary,
    # the one whose first start-up failed included.
    for rank in 0 3; do
        ig_launch 4 LD_PRELOAD="$FAILLIB $IG_LIB" IG_TEST_FAIL_KEYVAL_RANK="$rank" IG_TEST_FAIL_KEYVAL_NTH=1 \
            INTERGATHER_VERBOSE=2 -- "$TESTS_BIN/opening" 2 late-start </dev/null
        expect_pass opening
        grep -q "fail_malloc: PMPI_Comm_create_keyval(1) failed in world rank $rank\$" "$IG_OUT" ||
            { echo "no start-up keyval failed in world rank $rank" >&2; cat "$IG_OUT" >&2; exit 1; }
        grep -q "intergather: summary (world rank $rank)" "$IG_OUT" ||
            { echo "world rank $rank, whose first start-up failed, never started: no summary" >&2; cat "$IG_OUT" >&2; exit 1; }
        echo "ok start-up tried again after it failed in world rank $rank"
    done
fi

# The pair API (pair_nomem.c, linked against the library) with a receiver
# that cannot build its receive type: each call fails on every process
# together (the shape's allreduce says so), none hangs; without the failure
# every call succeeds.  The chain's blocks are cut into segments.
for rank in none 3; do
    failure=()
    [ "$rank" = none ] || failure=(IG_TEST_FAIL_TYPE_RANK="$rank")
    ig_launch 5 LD_PRELOAD="$FAILLIB" "${failure[@]}" -- \
        "$TESTS_BIN/pair_nomem" 2 100000 direct fc chain relay </dev/null
    expect_pass pair_nomem
    if [ "$rank" = none ]; then
        [ "$(calls_in_error)" = 0 ] || { echo "pair API calls failed without a failure" >&2; exit 1; }
    else
        # 8 calls on each of 5 processes, all in error together.
        [ "$(calls_in_error)" = 40 ] || { echo "pair API: $(calls_in_error) calls in error, want 40" >&2; exit 1; }
    fi
    echo "ok pair API, types fail in world rank $rank"
done

# joint_failure WHAT INJECTED RANK WANT SETTINGS [NAME=VALUE...]: nomem
# (5 processes, $joint_left on the left (default 2; set it for one call
# as joint_left=N joint_failure ...), 4 calls each) with the
# injection that NAME=VALUE arm in world rank RANK; fail_malloc.c must
# report INJECTED ("FUNCTION(N)") failed there, and exactly WANT process
# calls be in error.
joint_failure() {
    local what=$1 injected=$2 rank=$3 want=$4 setting=$5
    shift 5
    launch 5 "${joint_left:-2}" 101 hf "$setting" "$@" </dev/null
    grep -q "fail_malloc: $injected failed in world rank $rank\$" "$IG_OUT" ||
        { echo "no $injected failed in world rank $rank ($what)" >&2; exit 1; }
    [ "$(calls_in_error)" = "$want" ] ||
        { echo "$what: $(calls_in_error) calls in error, want $want" >&2; cat "$IG_OUT" >&2; exit 1; }
    echo "ok $what fails in world rank $rank"
}

# A process whose node split fails (fail_malloc.c's
# IG_TEST_FAIL_SPLIT_TYPE_RANK: after taking part in it), in the first
# call on an inter-communicator while intergather builds its state there
# (src/comm_cache.c, count_nodes): every process's call fails together and
# none waits for another (the state is not kept, so every call tries
# again and fails alike: all 4 calls of all 5 processes), where the failed
# process used to leave its peers in a reduction.
for rank in 0 2; do
    joint_failure "node split" "PMPI_Comm_split_type(1)" "$rank" 20 - IG_TEST_FAIL_SPLIT_TYPE_RANK="$rank"
done

# A process whose communicator splits fail (fail_malloc.c's
# IG_TEST_FAIL_SPLIT_RANK and _NTH: after taking part in them).  The
# first call on an inter-communicator makes 9 splits in each process
# (src/comm_cache.c): the opening communicator, then per direction its
# pair, fc's broadcast and gather groups and the full-duplex side.  Each
# creation tells every process whether one failed before any uses it
# (src/p2p.c, ig_err_joint), so that in every run below each call is
# either in error on every process or correct on every process:
# - split 1 (the opening communicator, the call's own state): the first
#   call is in error on all 5 processes and the next builds it again;
# - splits 2 to 9 (built ahead for later calls): no call is in error;
#   what failed is built again, jointly, where a call first needs it;
# - splits 2 to 9 and split 10, the first split of that rebuilding: the
#   call that needed it is in error on every process (where no call needed
#   anything that failed, split 10 never happens and no call is in error).
# Forced algorithms, which need the pair's communicators (the default
# decision serves these calls in the opening round and needs none).
# NP LEFT COUNT KINDS SETTINGS
splits=9
scenarios=("5 2 2001 hf INTERGATHER_ALGORITHM=fc" "5 3 2001 f INTERGATHER_ALGORITHM=full-duplex")
for scenario in "${scenarios[@]}"; do
    read -r np left count kinds setting <<<"$scenario"
    for rank in 0 "$left"; do
        rebuilt_failed=0
        for nth in $(seq 1 $((splits + 1))) $(seq -f "%g,$((splits + 1))" 2 "$splits"); do
            launch "$np" "$left" "$count" "$kinds" "$setting" \
                IG_TEST_FAIL_SPLIT_RANK="$rank" IG_TEST_FAIL_SPLIT_NTH="$nth" </dev/null
            failed=$(grep -c "fail_malloc: PMPI_Comm_split([0-9]*) failed in world rank $rank\$" "$IG_OUT" || :)
            errors=$(calls_in_error)
            case $nth in
            1) want="$failed $errors" expect="1 $np" ;;
            $((splits + 1))) want="$failed $errors" expect="0 0" ;;  # there are only 9
            *,*) if [ "$failed" = 2 ]; then
                     rebuilt_failed=$((rebuilt_failed + 1))
                     want="$((errors > 0 && errors % np == 0))" expect=1
                 else
                     want="$failed $errors" expect="1 0"
                 fi ;;
            *) want="$failed $errors" expect="1 0" ;;
            esac
            [ "$want" = "$expect" ] ||
                { echo "splits $nth in world rank $rank: $failed failed, $errors calls in error ($scenario)" >&2
                  cat "$IG_OUT" >&2; exit 1; }
        done
        echo "ok each of $splits splits fails in world rank $rank, and a rebuilding in $rebuilt_failed runs: $scenario"
        # The algorithms forced here need what a failed split had built.
        [ "$rebuilt_failed" -gt 0 ] ||
            { echo "no rebuilding on first use failed ($scenario)" >&2; exit 1; }
    done
done

# The same for the broadcast that ends the measurement of the cost model
# (INTERGATHER_SHM_MODEL=measure; the oversubscription rule, which skips
# the measurement, off), failing after it ran in the root (world rank 0)
# or in a process of the other group: the first call is in error on all 5
# processes together, and the next call measures again.
for rank in 0 3; do
    joint_failure "the measurement's broadcast" "PMPI_Bcast(1)" "$rank" 5 \
        INTERGATHER_SHM_MODEL=measure,INTERGATHER_OVERSUBSCRIBED=no \
        IG_TEST_FAIL_BCAST_RANK="$rank" IG_TEST_FAIL_BCAST_NTH=1
done

# A process that cannot attach intergather's state to the
# inter-communicator (fail_malloc.c's IG_TEST_FAIL_SET_ATTR_RANK, every
# time): attaching is checked with the rest of the first call's state
# (src/comm_cache.c, cache_build), so every call is in error on all 5
# processes, 4 calls each, where the process that failed used to go on
# alone to build it again while its peers served the call.
for rank in 0 3; do
    joint_failure "attaching the state" "PMPI_Comm_set_attr(1)" "$rank" 20 - IG_TEST_FAIL_SET_ATTR_RANK="$rank"
done

# expect_none_live WHAT: world rank 0's summary (INTERGATHER_VERBOSE=1)
# counts every private communicator freed (live=0) after WHAT.
expect_none_live() {
    grep -q "intergather: summary (world rank 0):.* internal-comms created=[0-9]* live=0 " "$IG_OUT" ||
        { echo "$1: private communicators left counted live" >&2; grep "summary" "$IG_OUT" >&2; exit 1; }
}

# A process whose merge of the inter-communicator fails (fail_malloc.c's
# IG_TEST_FAIL_MERGE_RANK and _NTH: after taking part in it), in the first
# call: it takes no part in the opening communicator's split, its peers
# see it missing there (src/comm_cache.c, cache_build), and the first call
# is in error on all 5 processes together where they used to wait for it
# in the settings check; the next call builds the state again. In the
# left group of 2 and the right group of 3, and as the left group's only
# process, where its peers get no opening communicator at all. World rank
# 0's summary must count every private communicator freed (live=0),
# whether it failed or was a peer of the process that did.
for left_rank in "2 0" "2 4" "1 0" "1 3"; do
    read -r left rank <<<"$left_rank"
    joint_left=$left joint_failure "the merge (left $left)" "PMPI_Intercomm_merge(1)" "$rank" 5 - \
        IG_TEST_FAIL_MERGE_RANK="$rank" IG_TEST_FAIL_MERGE_NTH=1 INTERGATHER_VERBOSE=1
    expect_none_live "the merge failed in world rank $rank"
done

# A process that cannot create the keyval its state is attached with
# (fail_malloc.c's IG_TEST_FAIL_KEYVAL_RANK and _NTH; its second keyval,
# the first being the finalize hook's), in the first call: it still builds
# the state with its peers, which are already in the merge, and the
# settings check fails the first call on all 5 processes together
# (src/comm_cache.c, ig_comm_cache_get), where it used to return alone
# and its peers' first call met its second (MPI_SUCCESS with wrong data);
# the next call creates the keyval and succeeds.
for rank in 0 3; do
    joint_failure "the keyval" "PMPI_Comm_create_keyval(2)" "$rank" 5 - \
        IG_TEST_FAIL_KEYVAL_RANK="$rank" IG_TEST_FAIL_KEYVAL_NTH=2 INTERGATHER_VERBOSE=1
    expect_none_live "the keyval failed in world rank $rank"
done
