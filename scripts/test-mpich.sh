#!/bin/bash
# The MPICH pass of scripts/test-all.sh: build the release tarball against
# MPICH (Debian mpich/libmpich-dev, mpicc.mpich; the Open MPI build in the
# source tree is untouched) in _build/mpich, and run the test suite there
# with MPICH's launcher (mpirun.mpich, hydra).
#   scripts/test-mpich.sh [TARBALL]     (default: intergather-VERSION.tar.gz,
#                                        made with `make dist` if missing)
#
# Defects of Debian 12's MPICH 4.0.2 itself (not of intergather) shape
# this pass; each is visible in its output:
#   * its ch4:ucx device corrupts receives into derived datatypes that cross
#     a UCX fragment (~8 KiB): the native MPI_Allgather the tests compare
#     against fails with "Message truncated" (fixed in MPICH 4.2, pull
#     request pmodels/mpich#6796).  The matrix programs therefore run with
#     IG_TEST_MAXCOUNT=7 elements per block (allgatherv_matrix: scale 7)
#     here; the full counts run in the Open MPI pass.  Large messages are
#     still covered here by test_large_total (over 2^31 bytes of MPI_BYTE),
#     the install check's demo (1 MiB blocks) and the foreign-MPI test.
#   * the erroneous MPI_IN_PLACE call of test_fallbacks.sh makes native
#     MPICH segfault (it dereferences MPI_IN_PLACE) instead of returning an
#     error, so that test runs in the Open MPI pass only.
#   * the bad-input matrix (test_bad_input.sh) compares the library with
#     native Open MPI 4.1 outcomes it records; native MPICH 4.0.2 crashes on
#     several of its erroneous calls and corrupts its large derived-datatype
#     cases (above), so it runs in the Open MPI pass only; its truncating
#     calls run here too, in test_truncate.sh (the library's own outcome).
#   * the random calls of test_random_calls.sh (the soak program) receive
#     blocks of up to 1 MiB into derived datatypes, and native MPICH 4.0.2,
#     their reference, fails on some of them (an error from its broadcast,
#     the same defect as the first above), so that test runs in the Open
#     MPI pass only; the predicted skip it checks is Open MPI's only anyway.
#   * MPI_Comm_spawn fails in MPICH 4.0.2 on this machine without the shim
#     too ("Error in spawn call"), so test_spawn.sh runs in the Open MPI
#     pass only.
# And two of MPICH's design.  Its ch4:ucx device waits by polling and never
# gives up the core, so with more processes than cores (up to 16 on this
# machine's 2) every launch crawled: this pass took 690 of the suite's 1000
# seconds. Every process an MPICH launch starts in the tests preloads
# tests/mpi/idle_yield.c's library (tests/mpi/common.sh, ig_launch), which
# sleeps 20 microseconds after 64 idle polls: it changes when a waiting
# process runs, not what any call does, and the pass took 102 seconds, 115
# with the full matrices (fresh-clone runs of scripts/test-all.sh, this
# pass's build included).
# And its Fortran PMPI_Allgather calls the C
# MPI_Allgather (libmpichfort.so), so the shim also sees the native
# reference calls of tests/fortran/test_fortran.sh and its counts do not
# hold; that test runs in the Open MPI pass only, too.
# The matrices run in full, every (p, q) pair as in the Open MPI pass (until
# the idle-yield preload above they ran reduced, IG_TEST_QUICK=1, for
# time).  _build/mpich-tests lists the tests run (scripts/test-all.sh checks
# that they and make distcheck's cover every test).
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(scripts/usable-cpus.sh) # nproc capped by a container's CPU quota
excluded=$PWD/scripts/mpich-excluded.txt # the tests this pass leaves out, and why
version=$(sed -n 's/^AC_INIT(\[intergather\], \[\([^]]*\)\].*/\1/p' configure.ac)
tarball=${1:-intergather-$version.tar.gz}
[ -f "$tarball" ] || make -s dist >/dev/null
mpicc=$(command -v mpicc.mpich) || { echo "test-mpich: mpicc.mpich not found (scripts/setup-debian.sh installs MPICH)" >&2; exit 1; }

build=_build/mpich
rm -rf "$build"
mkdir -p "$build"
tar -xzf "$tarball" -C "$build" --strip-components=1
cd "$build"
./configure -q MPICC="$mpicc" --prefix="$PWD/../mpich-prefix"
grep -q '^#define IG_MPI_IMPL "mpich"' config.h || { echo "test-mpich: configure did not pick MPICH" >&2; exit 1; }
grep -q '^MPIRUN = .*mpi\(run\|exec\)\.mpich' Makefile || grep -q '^MPIRUN = .*hydra' Makefile \
    || { echo "test-mpich: configure did not pick MPICH's launcher: $(grep '^MPIRUN =' Makefile)" >&2; exit 1; }
make -s -j"$jobs" >/dev/null

all_tests=$(make -s -f Makefile -f - print-tests <<<'print-tests: ; @echo $(TESTS)')
tests=""
for t in $all_tests; do
    why=$(awk -v t="$t" '$1 == t { sub(/^[^ ]+ /, ""); print }' "$excluded")
    if [ -n "$why" ]; then echo "test-mpich: $why: $t"; else tests="$tests $t"; fi
done
# The longest tests first (make -j starts them in list order), so that no
# long one starts last and runs alone (before the idle-yield preload,
# test_fc_variants.sh took 200 s here and ended 70 s after everything else
# when it started in its place; now test_nomem.sh is the longest, 53 s).
longest="tests/mpi/test_nomem.sh tests/mpi/test_large_total.sh tests/mpi/test_fc_variants.sh"
ordered=""
for t in $longest; do
    case " $tests " in *" $t "*) ordered="$ordered $t" ;; esac
done
for t in $tests; do
    case " $longest " in *" $t "*) ;; *) ordered="$ordered $t" ;; esac
done
tests=$ordered
status=0
make -j"$jobs" check TESTS="$tests" IG_TEST_MAXCOUNT=7 || status=$?
if [ $status -ne 0 ]; then
    for log in $(find tests -name '*.log' ! -name test-suite.log); do
        grep -q '^:test-result: \(FAIL\|ERROR\)' "${log%.log}.trs" 2>/dev/null && { echo "=== $build/$log"; tail -50 "$log"; }
    done
    exit $status
fi
if grep -l '^:test-result: SKIP' $(find tests -name '*.trs'); then
    echo "test-mpich: the tests above were skipped; every test must run" >&2
    exit 1
fi
passed=$(grep -l '^:test-result: PASS' $(find tests -name '*.trs') | wc -l)
echo "test-mpich: $passed tests passed against MPICH ($(sed -n 's/^IG_MPI_NAME = //p' Makefile))"
echo "$passed" >../mpich-passed
echo "$tests" >../mpich-tests
