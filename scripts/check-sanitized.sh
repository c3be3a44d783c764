#!/bin/bash
# The test suite with the whole build instrumented by the sanitizers: a
# maintainer's script, not part of CI (it needs two builds of its own;
# about 10 minutes on 2 cores). scripts/check-memory.sh, quicker, runs
# chosen jobs with a sanitized library; this runs every test it can.
#
#  1. A copy of the working tree (committed or not) configured with
#     -fsanitize=address,undefined: the library, the unit tests and the MPI
#     test programs are all instrumented, and any invalid access or
#     undefined behaviour ends the process, which fails its test. `make
#     check` runs every test of the tree but those below (unit tests with
#     leak detection; the MPI tests without it: Open MPI unloads its
#     components at finalize, after which LeakSanitizer cannot tell whose
#     allocation a leak was).
#  2. The same copy configured with -fsanitize=undefined alone runs the
#     tests that preload tests/mpi/fail_malloc.c, whose malloc cannot stand
#     beside AddressSanitizer's.
# tests/mpi/test_sim_core.sh compiles programs of its own from the
# library's sources (the SimGrid core run on MPI_COMM_WORLD, the decision
# tables): it is given the same flags (IG_SIM_CORE_CFLAGS).
#
#   scripts/check-sanitized.sh [--keep]
# Exit status 0 when every test passed.
set -euo pipefail
cd "$(dirname "$0")/.."
keep=0
[ "${1:-}" = --keep ] && keep=1
work=$(mktemp -d "${TMPDIR:-/tmp}/ig-sanitized.XXXXXX")
[ $keep = 1 ] || trap 'rm -rf "$work"' EXIT
jobs=$(scripts/usable-cpus.sh) # nproc capped by a container's CPU quota

. scripts/openmpi-env.sh # root, oversubscribed, the single copy off
# The programs are linked with libasan, and the tests preload the library
# first: AddressSanitizer must not insist on coming first.
export ASAN_OPTIONS=detect_leaks=0:verify_asan_link_order=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# Open MPI's memory hooks for UCX (the patcher component) rewrite the code
# of mmap and its kin, where AddressSanitizer's interceptors already sit:
# under Open MPI 5.0.7 every process that starts pml ucx then died of
# SIGILL in MPI_Init, and tests/mpi/test_tag_bound.sh skipped ("pml ucx
# does not start").  The hooks keep UCX's registration cache right for
# RDMA between nodes; these single-node runs can do without them.
export OMPI_MCA_memory=^patcher

failmalloc_tests=$(grep -l 'libfailmalloc' tests/mpi/test_*.sh | sort | tr '\n' ' ')

# sanitize_flags SANITIZERS: the compiler flags of a build with them.
sanitize_flags() {
    echo "-O1 -g -fno-omit-frame-pointer -fsanitize=$1 -fno-sanitize-recover=all"
}

# build NAME SANITIZERS: a copy of the tree in $work/NAME, configured and
# built with them.
build() {
    local dir=$work/$1 flags
    flags=$(sanitize_flags "$2")
    mkdir -p "$dir"
    git ls-files -z | tar --null -T - -cf - | tar -C "$dir" -xf -
    (cd "$dir" && autoreconf -fi >/dev/null 2>&1 && ./configure -q CFLAGS="$flags" LDFLAGS="-fsanitize=$2" >/dev/null &&
        make -j"$jobs" >build.log 2>&1) || { tail -30 "$dir/build.log" >&2; echo "check-sanitized: $1 does not build" >&2; exit 1; }
}

# check NAME TESTS [ASAN_OPTIONS]: make check of those tests in $work/NAME.
check() {
    local dir=$work/$1 tests=$2
    if ! (cd "$dir" && ASAN_OPTIONS=${3:-$ASAN_OPTIONS} make -j"$jobs" check TESTS="$tests" >check.log 2>&1); then
        grep -E '^(FAIL|ERROR):' "$dir/check.log" >&2 || tail -30 "$dir/check.log" >&2
        echo "check-sanitized: tests failed in the $1 build (logs in $dir with --keep)" >&2
        exit 1
    fi
    grep -E '^# (TOTAL|PASS):' "$dir/check.log" | tr '\n' ' '
    echo "($1)"
    # A test that skips (exit 77) passes make check: name it, and why.
    local skipped
    for skipped in $(sed -n 's/^SKIP: //p' "$dir/check.log"); do
        echo "  skipped: $skipped: $(grep -m1 'SKIP' "$dir/$skipped.log" || echo 'no reason given')"
    done
}

echo "== AddressSanitizer and UndefinedBehaviorSanitizer: every test but $failmalloc_tests"
build asan address,undefined
# shellcheck disable=SC2016 # $(TESTS) is make's, not the shell's
all_tests=$(cd "$work/asan" && make -s -f Makefile -f - print-tests <<<'print-tests: ; @echo $(TESTS)')
unit="" mpi=""
for t in $all_tests; do
    case " $failmalloc_tests " in *" $t "*) continue ;; esac
    case $t in tests/unit/*) unit="$unit $t" ;; *) mpi="$mpi $t" ;; esac
done
check asan "$unit" "${ASAN_OPTIONS/detect_leaks=0/detect_leaks=1}"
IG_SIM_CORE_CFLAGS=$(sanitize_flags address,undefined) check asan "$mpi"

echo "== UndefinedBehaviorSanitizer alone: $failmalloc_tests"
build ubsan undefined
check ubsan "$failmalloc_tests"
echo "check-sanitized: PASS"
