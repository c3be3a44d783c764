#!/bin/sh
# Build intergather's algorithm core and the benchmark driver with SimGrid's
# smpicc, outside the source tree (the Autotools build is not touched).
#
#   scripts/simgrid/build.sh            -> $IG_SIM_BUILD/intergather-bench
#
# Environment:
#   IG_SIM_BUILD   build directory        (default /tmp/intergather-simbuild)
#   IG_SIM_DRIVER  driver source          (default src/bench/intergather_bench.c)
#   SMPICC         compiler               (default smpicc)
#   CFLAGS         extra flags            (default -O2)
#
# Only the algorithm core and its support are compiled: the interception glue
# (entry_c.c, classify.c, runtime.c, comm_cache.c) has no meaning under SMPI,
# which has no inter-communicators; the driver calls the internal API of
# include/intergather.h on MPI_COMM_WORLD instead.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${IG_SIM_BUILD:-/tmp/intergather-simbuild}
driver=${IG_SIM_DRIVER:-$top/src/bench/intergather_bench.c}
smpicc=${SMPICC:-smpicc}
cflags=${CFLAGS:--O2}

core="pair blocks fc_plan fc_exec ring_schedule ring_exec root_gathering stats log settings settings_parse"

command -v "$smpicc" >/dev/null 2>&1 || {
    echo "build.sh: $smpicc not found; install SimGrid (Debian: apt-get install libsimgrid-dev)" >&2
    exit 1
}
[ -f "$driver" ] || { echo "build.sh: driver $driver not found" >&2; exit 1; }

mkdir -p "$build/obj"
objs=""
for f in $core; do
    # smpicc wraps malloc/free (smpi_helpers.h), so the core's scratch
    # buffers can be folded with --cfg=smpi/auto-shared-malloc-thresh.
    $smpicc -std=c11 $cflags -Wall -Wextra -Wno-unused-parameter \
        -I"$top/include" -I"$top/src" -c "$top/src/$f.c" -o "$build/obj/$f.o"
    objs="$objs $build/obj/$f.o"
done

# Everything the core needs should come from the core itself; say exactly
# which symbols are missing if not (and stop: no silent shims).
$smpicc -std=c11 $cflags -Wall -Wextra -Wno-unused-parameter \
    -I"$top/include" -I"$top/src" -c "$driver" -o "$build/obj/driver.o"
if ! $smpicc $cflags -o "$build/intergather-bench" "$build/obj/driver.o" $objs -lm 2>"$build/link.log"; then
    cat "$build/link.log" >&2
    echo "build.sh: link failed; undefined symbols:" >&2
    grep -o "undefined reference to \`[^']*'" "$build/link.log" | sort -u >&2 || true
    exit 1
fi
# Provenance: which sources went into this binary.
{
    echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) with $($smpicc --version 2>&1 | head -n 1)"
    echo "driver $driver sha256 $(sha256sum "$driver" | cut -d' ' -f1)"
    (cd "$top" && git rev-parse HEAD 2>/dev/null | sed 's/^/commit /') || true
    for f in $core; do echo "src/$f.c sha256 $(sha256sum "$top/src/$f.c" | cut -d' ' -f1)"; done
} >"$build/BUILD-INFO"
echo "$build/intergather-bench"
