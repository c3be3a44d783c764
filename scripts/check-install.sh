#!/bin/bash
# `make install` into a temporary prefix, then run the installed demo under
# the installed library and check the shim is active.
set -euo pipefail
cd "$(dirname "$0")/.."
prefix=$(mktemp -d)
trap 'rm -rf "$prefix"' EXIT
make -s install prefix="$prefix" >/dev/null
lib="$prefix/lib/libintergather.so"
[ -f "$lib" ] || { echo "check-install: $lib not installed" >&2; exit 1; }
[ -f "$prefix/include/intergather.h" ] || { echo "check-install: header not installed" >&2; exit 1; }
export OMPI_MCA_mpi_yield_when_idle=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none
out=$(mpirun --oversubscribe -np 4 -x LD_PRELOAD="$lib" -x INTERGATHER_VERBOSE=1 \
      "$prefix/bin/intergather-demo" -b 1048576 -n 3 2>&1)
echo "$out" | grep -q 'summary (world rank 0): served fully-connected=3 ' \
    || { echo "check-install: installed library did not serve the calls:" >&2; echo "$out" >&2; exit 1; }
echo "check-install: installed library active in $prefix"
