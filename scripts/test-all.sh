#!/bin/bash
# The whole test suite, from a fresh Debian machine:
#   1. install what is missing and build (scripts/setup-debian.sh): the
#      tree is built for Open MPI;
#   2. `make check`: unit tests, lints, every MPI integration test under
#      LD_PRELOAD with the full matrices, the man page, the foreign-MPI test
#      (an MPICH program under this Open MPI build);
#   3. `make distcheck` (IG_TEST_QUICK=1): the tarball builds out of tree,
#      it installs, `make installcheck` checks the installed tree (demo
#      under the installed library, pkg-config, the modulefiles under Lmod
#      and Environment Modules), it uninstalls cleanly; its `make check`
#      runs the unit tests, the lints, the man page and the tests the MPICH
#      pass leaves out;
#   4. the MPICH pass (scripts/test-mpich.sh): the same tarball built
#      against MPICH in _build/mpich, every other test run there with
#      mpirun.mpich (the foreign-MPI test runs Open MPI programs under the
#      MPICH build).  Between them, steps 3 and 4 run every test of the
#      tarball once (checked below), and step 2 all of them in the tree;
#   5. the install check (scripts/check-install.sh): both builds installed
#      side by side, each checked, modulefiles included.
# No test may be skipped.  Ends with "N passed, 0 failed" (N: test scripts
# and programs of steps 2 and 4, plus one for each of steps 3 and 5).
set -euo pipefail
cd "$(dirname "$0")/.."
start=$(date +%s)
step() { echo "test-all: [$(( $(date +%s) - start ))s] $*"; }

show_failures() {
    local log
    for log in $(find "$1" -name '*.log' ! -name test-suite.log); do
        grep -q '^:test-result: \(FAIL\|ERROR\)' "${log%.log}.trs" 2>/dev/null \
            && { echo "=== $log"; tail -50 "$log"; }
    done
    return 0
}

# Every MPI launch of the tests notes its time and its limit in the file
# IG_TEST_LAUNCH_TIMES names (tests/mpi/common.sh), one file a pass; the
# end of the run lists the launches closest to their limits.
launch_times() {
    mkdir -p _build
    export IG_TEST_LAUNCH_TIMES="$PWD/_build/launch-times-$1"
    : >"$IG_TEST_LAUNCH_TIMES"
}
closest_to_limits() {
    local f
    # awk, not head, takes the first five: head's early exit would kill sort
    # (SIGPIPE) and, with pipefail, the run.
    for f in _build/launch-times-*; do
        awk -v pass="${f#_build/launch-times-}" \
            '{ printf "%.3f %s s of %s s: %s, %s (%s)\n", $1 / $2, $1, $2, $3, $4, pass }' "$f"
    done | sort -rn | awk 'NR <= 5' | cut -d' ' -f2-
}

step "setup"
scripts/setup-debian.sh
jobs=$(scripts/usable-cpus.sh) # nproc capped by a container's CPU quota
grep -q '^#define IG_MPI_IMPL "openmpi"' config.h || {
    echo "test-all: this tree is configured for $(sed -n 's/^IG_MPI_NAME = //p' Makefile), not Open MPI;" \
         "reconfigure with MPICC=mpicc.openmpi (scripts/test-mpich.sh covers MPICH)" >&2
    exit 1
}

step "make check (Open MPI, full matrices)"
launch_times openmpi
status=0
make -j"$jobs" check || status=$?
if [ $status -ne 0 ]; then show_failures tests; exit $status; fi
if grep -l '^:test-result: SKIP' $(find tests -name '*.trs'); then
    echo "test-all: the tests above were skipped; every test must run" >&2
    exit 1
fi
passed=$(grep -l '^:test-result: PASS' $(find tests -name '*.trs') | wc -l)

# The tests that need no MPI launch, and those the MPICH pass leaves out
# (scripts/mpich-excluded.txt says why for each).
all_tests=$(make -s -f Makefile -f - print-tests <<<'print-tests: ; @echo $(TESTS)')
mpich_excluded=$(awk '!/^#/ && NF { print $1 }' scripts/mpich-excluded.txt | tr '\n' ' ')
dist_tests=""
for t in $all_tests; do
    case $t in
        tests/unit/*|tests/lint_*|tests/man/*) dist_tests="$dist_tests $t" ;;
        *) case " $mpich_excluded " in *" $t "*) dist_tests="$dist_tests $t" ;; esac ;;
    esac
done

step "make distcheck (installcheck; tests:$dist_tests)"
launch_times distcheck
make -j"$jobs" distcheck IG_TEST_QUICK=1 TESTS="$dist_tests"

step "MPICH pass"
launch_times mpich
version=$(sed -n 's/^VERSION = //p' Makefile)
scripts/test-mpich.sh "intergather-$version.tar.gz"
mpich_passed=$(cat _build/mpich-passed)
# Every test of the tarball ran in one of the two.
for t in $all_tests; do
    case " $dist_tests $(cat _build/mpich-tests) " in
        *" $t "*) ;;
        *) echo "test-all: $t ran neither in make distcheck nor in the MPICH pass" >&2; exit 1 ;;
    esac
done

step "install check (Open MPI and MPICH builds side by side)"
launch_times install
scripts/check-install.sh

echo "test-all: the test launches closest to their limits (a hang or a far slower machine fails there):"
closest_to_limits | sed 's/^/  /'

step "done"
echo "test-all: make check (Open MPI: $passed), make distcheck, MPICH pass ($mpich_passed)" \
     "and the install check passed in $(( $(date +%s) - start ))s"
echo "$((passed + mpich_passed + 2)) passed, 0 failed"
