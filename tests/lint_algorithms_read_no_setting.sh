#!/bin/bash
# The algorithms take every parameter from their ig_step and read no
# setting (src/algorithms.h): which algorithm runs, with which parameters,
# is decided in decide.c alone, and data flow one way, from the decision to
# the algorithm.  So no src/algo_*.c, nor the transport helpers and plans
# they run on (README's code map), may see the settings (settings.h,
# directly or through a project header it includes), read the environment,
# or call the decision (ig_decide_*, ig_settings_*).
set -eu
src="${IG_TOP_SRCDIR:-.}/src"

# The project headers a file includes, transitively ("name.h" only; system
# and MPI headers use <...>).
includes_of() {
    local seen=" " todo h
    todo=$(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$1")
    while :; do
        set -- $todo
        [ $# -gt 0 ] || break
        h=$1
        shift
        todo="$*"
        case "$seen" in *" $h "*) continue ;; esac
        seen="$seen$h "
        [ -f "$src/$h" ] && todo="$todo $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$src/$h")"
    done
    echo "$seen"
}

status=0
files=$(ls "$src"/algo_*.c)
[ -n "$files" ] || { echo "no src/algo_*.c found under $src" >&2; exit 1; }
helpers="pair xfer blocks type_order group_allgather p2p errors fc_plan ring_schedule ring_split_stream ring_paper
         range_partition relay_plan byte_pieces"
for h in $helpers; do
    [ -f "$src/$h.c" ] || { echo "src/$h.c (a helper this lint names) is missing: update the list" >&2; exit 1; }
    files="$files $src/$h.c"
done
for f in $files; do
    name=$(basename "$f")
    case " $(includes_of "$f") " in
        *" settings.h "*) echo "$name sees settings.h (through its includes)" >&2; status=1 ;;
    esac
    # Code lines only: comments may name anything.
    bad=$(grep -nE '\b(getenv|secure_getenv|ig_settings_[a-z_]+|ig_decide_[a-z_]+)\s*\(' "$f" \
          | grep -vE '^[0-9]+:\s*(/\*|\*|//)' || true)
    if [ -n "$bad" ]; then
        echo "$name reads a setting or calls the decision:" >&2
        echo "$bad" >&2
        status=1
    fi
done
[ "$status" -eq 0 ] && echo "ok: $(echo "$files" | wc -w) algorithm and helper files read no setting and call no decision"
exit "$status"
