#!/bin/bash
# The fully connected algorithms' group-stage and p > q variants, against
# native, and proof (the per-process summaries) that each ran the stage it
# names:
#   INTERGATHER_GROUP_ALLGATHER unset  `auto`: the MPI library's allgather for
#                                      small blocks, intergather's ring from
#                                      64 KiB per member
#   INTERGATHER_GROUP_ALLGATHER=mpi    the MPI library's allgather at every size
#   INTERGATHER_GROUP_ALLGATHER=ring   intergather's neighbour ring at every size
#   INTERGATHER_MANY_SENDERS=join      the paper's p > q plan (extra senders join
#                                      the receivers' allgather)
# (Under MPICH every stage is intergather's ring: check_stages.)
# The stage variants run with INTERGATHER_ALGORITHM=fc (the model would
# often choose the direct algorithm, which has no group stage).  Then every
# algorithm of the table forced in turn (INTERGATHER_ALGORITHM=NAME), each
# proven by the summaries' per-algorithm counts.
# MPI_Allgather (half and full duplex) and MPI_Allgatherv, quick (p, q) set.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_MIN_BYTES=0 INTERGATHER_VERBOSE=2
IG_TEST_QUICK=1
ig_launcher_kind

# check_stages VARIANT PROGRAM: the group stages the summaries report fit
# VARIANT.
check_stages() {
    # Under MPICH every stage is intergather's ring, whatever the setting
    # (src/settings.h: MPICH 4.0.2's own allgatherv gets members' types of
    # different size or extent wrong); this suite's MPI is its launcher's.
    if [ "$IG_LAUNCHER_KIND" = hydra ]; then
        expect_total group-mpi -eq 0
        expect_total group-ring -gt 0
        return
    fi
    case $1 in
    INTERGATHER_GROUP_ALLGATHER=mpi) expect_total group-ring -eq 0; expect_total group-mpi -gt 0 ;;
    INTERGATHER_GROUP_ALLGATHER=ring) expect_total group-mpi -eq 0; expect_total group-ring -gt 0 ;;
    auto)
        # allgather_matrix's small counts stay below 64 KiB per member; its
        # largest (20000 elements and more) are above, unless the run caps
        # the counts.
        expect_total group-mpi -gt 0
        [ "$2" != allgather_matrix ] || [ -n "${IG_TEST_MAXCOUNT:-}" ] || expect_total group-ring -gt 0 ;;
    esac
}

export INTERGATHER_ALGORITHM=fc
# shellcheck disable=SC2046
mapfile -t launches < <(matrix_launches $(test_pairs))
variants="auto INTERGATHER_GROUP_ALLGATHER=mpi INTERGATHER_GROUP_ALLGATHER=ring INTERGATHER_MANY_SENDERS=join"
# Under MPICH `auto`, `mpi` and `ring` all run the ring (check_stages):
# `mpi` proves the setting is overridden, `ring` would repeat `auto`.
[ "$IG_LAUNCHER_KIND" != hydra ] || variants=${variants/ INTERGATHER_GROUP_ALLGATHER=ring/}
for variant in $variants; do
    [ "$variant" = auto ] || export "${variant?}"
    for launch in "${launches[@]}"; do
        read -r np kind splits <<<"$launch"
        # The large sizes with the default stages only: the variants'
        # paths are the same from 20000 elements (above 64 KiB a member).
        [ "$kind" = small ] || [ "$variant" = auto ] || continue
        for prog in allgather_matrix allgatherv_matrix; do
            run_preloaded "$np" "$TESTS_BIN/$prog" "$splits" "$(matrix_size "$kind" "$prog")"
            expect_pass "$prog"
            expect_summary fully-connected "$(expected_moved)"
            # Each launch has splits with two or more processes on each
            # side, whose calls all have a group stage.
            check_stages "$variant" "$prog"
        done
    done
    echo "ok $variant"
    [ "$variant" = auto ] || unset "${variant%%=*}"
done
unset INTERGATHER_ALGORITHM

# Every algorithm forced: results against native, and the summaries show it ran.
# Splits with p < q, p = q and p > q (each algorithm's cases), to keep the
# suite's time down (the default, model-chosen, decision runs the whole
# matrix in test_fc_matrix.sh and test_allgatherv.sh).
for algorithm in direct fc spread chain relay full-duplex star; do
    ran=""
    for prog in allgather_matrix allgatherv_matrix; do
        INTERGATHER_ALGORITHM=$algorithm run_preloaded 7 "$TESTS_BIN/$prog" 1+3,2+2,3+2,2+5 20000
        expect_pass "$prog"
        expect_summary fully-connected "$(expected_moved)"
        # In each program: spread serves p > q only, full-duplex both
        # groups sending only, and these splits have such calls for each;
        # the relay serves MPI_Allgatherv's calls of contiguous blocks
        # (each block cut by its own size, empty ones too); the star serves
        # p < q only (1+3, 2+5 and 2 to 3).
        expect_total "alg-$algorithm" -gt 0
        ran="$ran $prog $(summary_total "alg-$algorithm")"
        # No algorithm allocates its arrays in a call: the chain's segments
        # grow the pair's room first, jointly (ig_pair_fit_room).
        expect_total arrays-allocated -eq 0
    done
    echo "ok INTERGATHER_ALGORITHM=$algorithm (calls it served:$ran)"
done

# The chain with more segments than the pair's room holds requests for,
# which the splits above never reach (the room, sized for the relay's and
# the full-duplex ring's parts, holds 2564 requests at 4+4): blocks of
# 48 MiB in segments of 64 KiB (the model's to=0 keeps them that small),
# 4 x 768 + 16 requests, so the pair grows its room, jointly, before the
# call (ig_pair_fit_room) and no call allocates its arrays, the first or
# the second (nomem.c: two calls, every int checked).
INTERGATHER_ALGORITHM=chain INTERGATHER_SHM_MODEL=to=0 run_preloaded 8 "$TESTS_BIN/nomem" 4 12582912 h
expect_pass nomem
grep -q 'calls-in-error=0$' "$IG_OUT" || { cat "$IG_OUT" >&2; echo "the chain's calls of 48 MiB blocks failed" >&2; exit 1; }
expect_total alg-chain -eq 16
expect_total arrays-allocated -eq 0
echo "ok INTERGATHER_ALGORITHM=chain, 4+4 with 48 MiB blocks: the room grown, no arrays allocated"

# The full-duplex algorithm's ring stage in parts (group_allgather.h):
# blocks of more than 60 KiB (one eager message), contiguous, in calls
# whose group stage is the ring (64 KiB a member and more), cut into parts
# forwarded as they arrive; the matrix's other types and sizes run it
# whole.  Both groups' stages at 3+5 and 4+4 (one turned, algo_full_duplex.c).
# (Checked: forwarding a unit before its receive has completed fails, in
# the ring and from the exchange that brings the blocks a member owns.)
INTERGATHER_ALGORITHM=full-duplex run_preloaded 8 "$TESTS_BIN/allgather_matrix" 3+5,4+4 262144
expect_pass allgather_matrix
expect_total alg-full-duplex -gt 0
# Each sender's block goes to its owner paced (p2p.h), in the same parts
# (not where IG_TEST_MAXCOUNT cuts the matrix's blocks below one part).
[ -n "${IG_TEST_MAXCOUNT:-}" ] || expect_total paced-sends -gt 0
echo "ok INTERGATHER_ALGORITHM=full-duplex, ring stage in parts (calls it served: $(summary_total alg-full-duplex), blocks sent paced: $(summary_total paced-sends))"

# MPI_Allgatherv relayed from where its blocks' data begin (a double 8
# bytes into its element), and kept off the relay where only the receivers'
# blocks have gaps (ints received as an int resized to 8 bytes): a receiver
# judges its layout at its largest count (src/call.c).
INTERGATHER_ALGORITHM=relay run_preloaded 7 "$TESTS_BIN/allgatherv_matrix" 1+3,2+2,3+2,2+5 2000 layouts
expect_pass allgatherv_matrix
expect_summary fully-connected "$(expected_moved)"
expect_total alg-relay -gt 0
echo "ok INTERGATHER_ALGORITHM=relay, allgatherv layouts (calls it served: $(summary_total alg-relay))"

# The relay's receivers keep at most 16 relays in flight (direct's window):
# with 3 senders and 9 receivers each receiver relays 3 x 8 = 24 pieces, so
# the windowed path (waiting for a free slot) runs; the splits above relay
# at most 8.
# Its pieces go whole here (blocks of 1000 bytes), so every sender sends
# them paced (synchronous sends, algo_relay.c): the summary counts one
# paced block per sender and call the relay served.
INTERGATHER_ALGORITHM=relay run_preloaded 12 "$TESTS_BIN/allgather_matrix" 3+9 1000
expect_pass allgather_matrix
expect_total alg-relay -gt 0
expect_total paced-sends -gt 0
echo "ok INTERGATHER_ALGORITHM=relay, 3+9 (blocks sent paced: $(summary_total paced-sends))"

# Pieces above 60 KiB travel in parts, one message each, where the model
# says they pay (src/decide.c; IG_EAGER_PART_BYTES, src/byte_pieces.h;
# within a node the fixed shared-memory model says so at these sizes):
# blocks of up to 1 MiB over 2 and 5 receivers make pieces of up to 512
# KiB, in up to 8 parts;
# MPI_Allgatherv's blocks differ, and so do their pieces' parts.  (Checked:
# a sender that sends its parts in reverse order fails both programs.)
for prog_scale in "allgather_matrix 262144" "allgatherv_matrix 200000"; do
    set -- $prog_scale
    INTERGATHER_ALGORITHM=relay run_preloaded 7 "$TESTS_BIN/$1" 2+5,5+2 "$2"
    expect_pass "$1"
    expect_total alg-relay -gt 0
    echo "ok INTERGATHER_ALGORITHM=relay, $1 up to $2 (pieces in parts; calls it served: $(summary_total alg-relay))"
done

# Members (relay_plan.h): with 3 senders and 6 or 4 receivers and blocks
# of one size each sender sends its whole block to 2 members, which relay
# a half each (at 3+4 some receivers are members of two blocks), in parts
# where 2 parts are at most 1/20 of the 3 blocks (here the largest blocks,
# of 1 MiB; a model with no per-message cost, so that parts always pay);
# smaller blocks, and MPI_Allgatherv's blocks of different sizes, keep the
# plain relay.  (Checked: a sender that sends every member the same piece
# first fails.)
INTERGATHER_ALGORITHM=relay INTERGATHER_SHM_MODEL=to=0 run_preloaded 9 "$TESTS_BIN/allgather_matrix" 3+6,3+4 1048576
expect_pass allgather_matrix
expect_total alg-relay -gt 0
echo "ok INTERGATHER_ALGORITHM=relay, members at 3+6 (calls it served: $(summary_total alg-relay))"

# Three members a block (4+6: each sender's block to 3 of the 6
# receivers), so that a member's two other pieces interleave with its own
# part by part, its own half of its parts ahead (algo_relay.c,
# send_to_members).  (Checked: a receiver that posts the other pieces one
# whole piece after another fails.)
INTERGATHER_ALGORITHM=relay INTERGATHER_SHM_MODEL=to=0 run_preloaded 10 "$TESTS_BIN/allgather_matrix" 4+6 1048576
expect_pass allgather_matrix
expect_total alg-relay -gt 0
echo "ok INTERGATHER_ALGORITHM=relay, members at 4+6 (calls it served: $(summary_total alg-relay))"


# The star (star_plan.h) where its teams have extras (leftover receivers:
# 2+7 has three teams of 2 and one extra, 3+8 two teams of 3 and two
# extras, one on each team) and with one sender (1+4: four teams of one,
# round 2 empty), MPI_Allgather and MPI_Allgatherv, every datatype of the
# matrices, against native; the summaries prove the star served.
# (Checked: a member that sends on to its team before its own block has
# arrived fails allgather_matrix.)
for prog in allgather_matrix allgatherv_matrix; do
    INTERGATHER_ALGORITHM=star run_preloaded 11 "$TESTS_BIN/$prog" 2+7,3+8,1+4 20000
    expect_pass "$prog"
    expect_summary fully-connected "$(expected_moved)"
    expect_total alg-star -gt 0
    expect_total arrays-allocated -eq 0
    echo "ok INTERGATHER_ALGORITHM=star, $prog at 2+7, 3+8, 1+4 (calls it served: $(summary_total alg-star))"
done
