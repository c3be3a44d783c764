# Shared by the MPI integration test scripts (sourced, not run).
# Environment from `make check`: IG_LIB (the built shared library), MPIRUN,
# IG_TOP_BUILDDIR.  Programs run under LD_PRELOAD, exactly as users run them.
set -eu

: "${MPIRUN:=mpirun}"
: "${IG_LIB:?IG_LIB must name libintergather.so}"
: "${IG_TOP_BUILDDIR:=.}"
IG_TEST_TIMEOUT=${IG_TEST_TIMEOUT:-300}
TESTS_BIN="$IG_TOP_BUILDDIR/tests/mpi"

# Oversubscription on a 2-core machine: yield instead of busy-polling, and
# allow root (CI runs as root in a container).
export OMPI_MCA_mpi_yield_when_idle=1
export OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# Containers often forbid the cross-memory-attach single-copy path.
export OMPI_MCA_btl_vader_single_copy_mechanism=none

IG_OUT=$(mktemp)
trap 'rm -f "$IG_OUT"' EXIT

# run_preloaded NP PROGRAM ARGS...: run under the shim with every
# INTERGATHER_* variable of this shell forwarded; output in $IG_OUT.
run_preloaded() {
    local np=$1; shift
    local forward=() v
    for v in $(env | sed -n 's/^\(INTERGATHER_[A-Z_]*\)=.*/\1/p'); do
        forward+=(-x "$v")
    done
    if ! timeout "$IG_TEST_TIMEOUT" "$MPIRUN" --oversubscribe -np "$np" \
        -x LD_PRELOAD="$IG_LIB" "${forward[@]}" "$@" >"$IG_OUT" 2>&1; then
        echo "FAILED: mpirun -np $np $*" >&2
        cat "$IG_OUT" >&2
        return 1
    fi
}

# summary_value KEY: the number after KEY= in world rank 0's summary line.
summary_value() {
    local line
    line=$(grep 'intergather: summary (world rank 0)' "$IG_OUT" || true)
    if [ -z "$line" ]; then
        echo "no intergather summary in the output: was the library loaded?" >&2
        cat "$IG_OUT" >&2
        return 1
    fi
    echo "$line" | sed -n "s/.* $1=\([0-9-]*\).*/\1/p"
}

# expect_summary KEY VALUE: fail unless the summary says KEY=VALUE.
expect_summary() {
    local got
    got=$(summary_value "$1")
    if [ "$got" != "$2" ]; then
        echo "expected $1=$2 in the summary, got '$got'" >&2
        cat "$IG_OUT" >&2
        return 1
    fi
}

# expected_moved: the count the test program printed ("expect served moved=N").
expected_moved() {
    sed -n 's/^expect served moved=\([0-9]*\).*/\1/p' "$IG_OUT"
}

# expected_full: the full-duplex count the program printed (" full=N").
expected_full() {
    sed -n 's/^expect served .* full=\([0-9]*\).*/\1/p' "$IG_OUT"
}

# expect_pass NAME: the program printed its PASS line.
expect_pass() {
    if ! grep -q "^PASS $1" "$IG_OUT"; then
        echo "no 'PASS $1' line" >&2
        cat "$IG_OUT" >&2
        return 1
    fi
}
