#!/bin/bash
# The whole test suite, from a fresh Debian machine: install what is missing,
# build, run `make check` (unit tests, MPI integration tests under
# LD_PRELOAD), then `make distcheck` and an install into a temporary prefix.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/setup-debian.sh
status=0
make -j"$(nproc)" check || status=$?
if [ $status -ne 0 ]; then
    for log in $(find tests -name '*.log' ! -name test-suite.log); do
        grep -q '^FAIL\|^ERROR' "${log%.log}.trs" 2>/dev/null && { echo "=== $log"; tail -50 "$log"; }
    done
    exit $status
fi
passed=$(grep -l '^:test-result: PASS' $(find tests -name '*.trs') | wc -l)
make -j"$(nproc)" distcheck
scripts/check-install.sh
echo "test-all: make check, make distcheck and the install check passed"
echo "$((passed + 2)) passed, 0 failed"
