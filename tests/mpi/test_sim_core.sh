#!/bin/bash
# The SimGrid build's core (scripts/simgrid/build.sh: every source file of
# the library except the interception glue, linked with the benchmark
# driver alone) must link and run: each new file that the glue calls, or
# that calls the glue, must be listed on the right side, or the simulation
# scripts break where SimGrid is installed (the seventeenth and eighteenth
# sessions' opening round did, unnoticed, until this test).  SimGrid is not
# needed: build.sh takes any MPI compiler (SMPICC=$MPICC, without the
# SMPI-only copy shim), and the binary then runs every algorithm on
# MPI_COMM_WORLD with real MPI, each result checked against root gathering
# (--verify).  And the two decide_table programs that write the
# simulation's and the cluster's tables must build and run (direct.sh's
# once lacked a source file the decision had come to need, unnoticed).
# IG_SIM_CORE_CFLAGS: flags added to every compilation and link of these
# programs (scripts/check-sanitized.sh gives its sanitizers' flags, so that
# they run instrumented like the rest of its build; unset in make check).
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
extra=${IG_SIM_CORE_CFLAGS:-}
build=$(mktemp -d "${TMPDIR:-/tmp}/ig-sim-core.XXXXXX")
trap 'rm -rf "$build" "$IG_OUT"' EXIT
if ! SMPICC="${MPICC:-mpicc}" IG_SIM_SHIM=0 IG_SIM_BUILD="$build" CFLAGS="-O0 $extra" \
    "$IG_TOP_SRCDIR/scripts/simgrid/build.sh" >"$build/build.log" 2>&1; then
    cat "$build/build.log" >&2
    echo "FAIL: the SimGrid core does not build with ${MPICC:-mpicc}" >&2
    exit 1
fi
for split in "2 2" "3 2"; do
    set -- $split
    ig_launch $(($1 + $2)) -- "$build/intergather-bench" --intra -p "$1" --iters 1 --warmup 0 --sizes 1K,64K --verify
    # Every point ("[i/N] name ... bytes=...", N of them) verified.
    rows=$(sed -n 's|^\[1/\([0-9]*\)\].*|\1|p' "$IG_OUT" | head -n 1)
    if grep -q 'MISMATCH\|did NOT match' "$IG_OUT" || [ -z "$rows" ] ||
       [ "$(grep -c 'verified=yes' "$IG_OUT")" -ne "$rows" ]; then
        cat "$IG_OUT" >&2
        echo "FAIL: the SimGrid core's algorithms, p=$1 q=$2: a result differs or is missing" >&2
        exit 1
    fi
    echo "ok: SimGrid core, p=$1 q=$2: $(grep -c 'verified=yes' "$IG_OUT") results verified"
done

# The tables' decision programs, the library's decision without MPI calls:
# scripts/simgrid/decide_table.c (direct.sh: built from libigplan's sources
# as Makefile.am lists them) and scripts/cluster/decide_table.c (run.sh:
# linked with the built libigplan.a).  Each must build and give one row per
# size, every choice an algorithm of the library or the MPI library's own.
# shellcheck source=scripts/simgrid/common.sh
. "$IG_TOP_SRCDIR/scripts/simgrid/common.sh"
MPICC="${MPICC:-mpicc} $extra" build_decide_table "$IG_TOP_SRCDIR" "$build/sim_decide_table" >"$build/dt.log" 2>&1 ||
    { cat "$build/dt.log" >&2; echo "FAIL: scripts/simgrid/decide_table.c does not build" >&2; exit 1; }
"$build/sim_decide_table" 4 12 4096 4194304 >"$build/sim.csv"
choices=$(awk -F, 'NR > 1 { print $4 }' "$build/sim.csv" | tr '\n' ' ')
for choice in $choices; do
    case " root-gathering direct fc spread chain relay " in
        *" $choice "*) ;;
        *) cat "$build/sim.csv" >&2; echo "FAIL: scripts/simgrid/decide_table.c: choice '$choice'" >&2; exit 1 ;;
    esac
done
[ "$(awk -F, 'NR > 1' "$build/sim.csv" | wc -l)" = 2 ] ||
    { cat "$build/sim.csv" >&2; echo "FAIL: scripts/simgrid/decide_table.c: not one row per size" >&2; exit 1; }
echo "ok: scripts/simgrid/decide_table.c: 4+12 at 4 KiB and 4 MiB: $choices"
# shellcheck disable=SC2086 # $extra: flags, split into words
${MPICC:-mpicc} -std=c11 -O2 $extra -I "$IG_TOP_SRCDIR/include" -I "$IG_TOP_SRCDIR/src" \
    "$IG_TOP_SRCDIR/scripts/cluster/decide_table.c" "$IG_TOP_BUILDDIR/src/.libs/libigplan.a" -lm \
    -o "$build/cluster_decide_table" >"$build/dt.log" 2>&1 ||
    { cat "$build/dt.log" >&2; echo "FAIL: scripts/cluster/decide_table.c does not build" >&2; exit 1; }
row=$(echo "20e-6 8e-8 1e-6 4 12 4194304 half" | "$build/cluster_decide_table")
set -- $row
[ "$#" -ge 5 ] && [ "$1 $2 $3 $4" = "4 12 4194304 half" ] &&
    case " native direct fc spread chain relay " in *" $5 "*) true ;; *) false ;; esac ||
    { echo "FAIL: scripts/cluster/decide_table.c printed '$row'" >&2; exit 1; }
echo "ok: scripts/cluster/decide_table.c: 4+12 at 4 MiB: $5"
