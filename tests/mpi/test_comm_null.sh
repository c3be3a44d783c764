#!/bin/bash
# MPI_Allgather(v) on MPI_COMM_NULL under the shim ends as it does natively
# (tests/mpi/comm_null.c): the same error class on every process where the
# MPI library returns one (MPICH), counted by the summary as comm-null; a
# crash where the MPI library crashes (Debian's Open MPI 4.1.4), not a
# hang or another outcome.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
export INTERGATHER_VERBOSE=1
np=2
classes() { grep -o 'rank [0-9]* classes .*' "$IG_OUT" | sort; }

if ig_launch "$np" -- "$TESTS_BIN/comm_null" native 2>/dev/null; then
    native=$(classes)
    [ "$(echo "$native" | grep -c .)" = "$np" ] || { echo "native run: not one line a process" >&2; cat "$IG_OUT" >&2; exit 1; }
    run_preloaded "$np" "$TESTS_BIN/comm_null" library
    expect_pass comm_null
    if [ "$(classes)" != "$native" ]; then
        echo "error classes differ: native" >&2; echo "$native" >&2; echo "with the shim:" >&2; classes >&2
        exit 1
    fi
    expect_summary comm-null 2
    echo "ok: the native error classes ($(echo "$native" | head -n 1 | cut -d' ' -f4-)), both calls counted comm-null"
else
    echo "(the MPI library itself crashes on MPI_COMM_NULL: the shim must end the same way)"
    if run_preloaded "$np" "$TESTS_BIN/comm_null" library 2>/dev/null; then
        echo "native crashed, but under the shim the run ended normally:" >&2
        cat "$IG_OUT" >&2
        exit 1
    fi
    # Open MPI's backtrace: frame 0 the signal handler, frame 1 where the
    # process crashed (the shim may appear below it, as the caller).
    if grep -q '\[ 1\] [^ ]*libintergather' "$IG_OUT"; then
        echo "the crash is in the shim's code, not the MPI library's:" >&2
        cat "$IG_OUT" >&2
        exit 1
    fi
    echo "ok: the shim's run crashed in the MPI library as the native run did"
fi
