#!/bin/bash
# Preloaded into a program of an MPI it was not built for, the library must
# step aside: one warning for the whole job, nothing else from intergather
# (no summary), and the program's results are native MPI's.  The programs
# are built with the other MPI's wrapper and started by its launcher
# (configure's IG_OTHER_MPICC and IG_OTHER_MPIRUN: mpicc.mpich/mpirun.mpich
# for an Open MPI build, mpicc.openmpi/mpirun.openmpi for an MPICH build).
#
#   * foreign_hello (MPI_Init_thread, an allreduce): both builds.
#   * tests/mpi/allgather_matrix (every MPI_Allgather compared with
#     PMPI_Allgather; counts up to 7 only under MPICH programs: Debian's
#     MPICH 4.0.2 itself corrupts larger receives of its derived datatypes,
#     see docs/site-install.md), tests/mpi/allgatherv_matrix and
#     intergather-demo with 1 MiB blocks (digest compared with a run
#     without the library): both builds.  The exported MPI_Allgather(v)
#     take handles at full pointer width (src/entry_abi.c), so an MPICH
#     build forwards Open MPI's 64-bit handles intact.
. "${IG_TOP_SRCDIR:-.}/tests/mpi/common.sh"
if [ -z "${IG_OTHER_MPICC:-}" ] || [ -z "${IG_OTHER_MPIRUN:-}" ]; then
    # Visible as SKIP in `make check`; scripts/test-all.sh fails on any SKIP.
    echo "SKIP: configure found no second MPI (IG_OTHER_MPICC, IG_OTHER_MPIRUN);" \
         "scripts/setup-debian.sh installs MPICH next to Open MPI"
    exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work" "$IG_OUT"' EXIT
src=${IG_TOP_SRCDIR:-.}
"$IG_OTHER_MPICC" -o "$work/foreign_hello" "$src/tests/mpich/foreign_hello.c"
"$IG_OTHER_MPICC" -I"$src/tests/mpi" -o "$work/allgather_matrix" \
    "$src/tests/mpi/allgather_matrix.c" "$src/tests/mpi/testlib.c"
"$IG_OTHER_MPICC" -I"$src/tests/mpi" -o "$work/allgatherv_matrix" \
    "$src/tests/mpi/allgatherv_matrix.c" "$src/tests/mpi/testlib.c"
"$IG_OTHER_MPICC" -o "$work/intergather-demo" "$src/demo/workflow_demo.c"

MPIRUN=$IG_OTHER_MPIRUN
export INTERGATHER_VERBOSE=1 INTERGATHER_MIN_BYTES=0
warning='intergather: warning: this program runs on .* but this libintergather.so was built for'

# only_one_warning: exactly one warning line, and no other intergather line.
only_one_warning() {
    local n
    n=$(grep -c "$warning" "$IG_OUT" || true)
    [ "$n" = 1 ] || { echo "expected exactly one warning, got $n:" >&2; cat "$IG_OUT" >&2; exit 1; }
    if grep -v "$warning" "$IG_OUT" | grep -q 'intergather:'; then
        echo "the library did more than warn:" >&2; cat "$IG_OUT" >&2; exit 1
    fi
}

run_preloaded 4 "$work/foreign_hello"
expect_pass foreign_hello
only_one_warning
echo "ok: foreign_hello ($IG_OTHER_MPICC) under the $IG_MPI_IMPL build: runs, one warning"

# The foreign programs' own MPI limits the counts when that MPI is MPICH;
# when it is Open MPI, whose calls here are native, senders send alike
# (native Open MPI 4.1 gets senders whose types differ in size wrong:
# allgatherv_matrix.c, run_mixed_units).
maxcount=262144; scale=50000; mode=same-send-units
[ "$IG_MPI_IMPL" = openmpi ] && { maxcount=7; scale=3; mode=""; }
for run in "4 2" "5 1" "6 4"; do
    set -- $run
    run_preloaded "$1" "$work/allgather_matrix" "$2" "$maxcount"
    expect_pass allgather_matrix
    only_one_warning
    run_preloaded "$1" "$work/allgatherv_matrix" "$2" "$scale" $mode
    expect_pass allgatherv_matrix
    only_one_warning
    echo "ok: allgather_matrix and allgatherv_matrix, $1 processes ($2 + $(($1 - $2))), under the" \
         "$IG_MPI_IMPL build: every call identical to native, one warning"
done
ig_launch 6 -- "$work/intergather-demo" -p 2 -b 1048576 -n 2
native=$(sed -n 's/.* digest=\([0-9a-f]*\).*/\1/p' "$IG_OUT")
run_preloaded 6 "$work/intergather-demo" -p 2 -b 1048576 -n 2
only_one_warning
preloaded=$(sed -n 's/.* digest=\([0-9a-f]*\).*/\1/p' "$IG_OUT")
[ -n "$native" ] && [ "$native" = "$preloaded" ] \
    || { echo "demo digest: native '$native', under the library '$preloaded'" >&2; cat "$IG_OUT" >&2; exit 1; }
echo "ok: intergather-demo, 2 + 4 processes, 1 MiB blocks: same digest ($native) with and without the library"
grep "$warning" "$IG_OUT"
