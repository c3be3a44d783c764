#!/bin/bash
# Invalid arguments passed alike by every process (tests/mpi/invalid_args.c):
# under the shim each call ends as natively, the same error class on every
# process and the program's own error handler run as often, with that
# class; then a correct call. Both MPIs, both topologies.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_MIN_BYTES=0
outcomes() { grep -o 'rank [0-9]* .*: class [0-9-]*, handler ran .*' "$IG_OUT" | sort; }

for np_left in "4 2" "5 3"; do
    set -- $np_left
    ig_launch "$1" -- "$TESTS_BIN/invalid_args" native "$2"
    expect_pass invalid_args
    native=$(outcomes)
    [ "$(echo "$native" | grep -c .)" = $(($1 * 8)) ] || { echo "native run: not 8 lines a process" >&2; cat "$IG_OUT" >&2; exit 1; }
    if ! echo "$native" | grep -q 'negative send count: class [1-9]'; then
        echo "native run: the negative send count gave no error" >&2; cat "$IG_OUT" >&2; exit 1
    fi
    for topology in fully-connected ring; do
        INTERGATHER_TOPOLOGY=$topology run_preloaded "$1" "$TESTS_BIN/invalid_args" library "$2"
        expect_pass invalid_args
        if [ "$(outcomes)" != "$native" ]; then
            echo "outcomes differ from native ($topology, np=$1 left=$2):" >&2
            diff <(echo "$native") <(outcomes) >&2
            exit 1
        fi
        echo "ok np=$1 left=$2 $topology: $(echo "$native" | grep -c 'handler ran 1 times') failing calls, as natively"
    done
done
