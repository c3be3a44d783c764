#!/bin/sh
# Build intergather's algorithm core and the benchmark driver with SimGrid's
# smpicc, outside the source tree (the Autotools build is not touched).
#
#   scripts/simgrid/build.sh            -> $IG_SIM_BUILD/intergather-bench
#
# Environment:
#   IG_SIM_BUILD   build directory        (default /tmp/intergather-simbuild)
#   IG_SIM_DRIVER  driver source          (default bench/intergather_bench.c)
#   SMPICC         compiler               (default smpicc)
#   CFLAGS         extra flags            (default -O2)
#   (SMPICC=mpicc IG_SIM_SHIM=0 builds the same core for real MPI: what
#   tests/mpi/test_sim_core.sh does, so that a wrong glue list fails make check)
#   IG_SIM_SHIM    1 (default): link smpi_flatten.c, which only saves host CPU
#                  and memory (SMPI copies every message of a contiguous
#                  derived type through a private buffer); 0: link the core
#                  as it is.  check_shim.sh shows both give the same times.
#
# Only the algorithm core and its support are compiled: the interception glue
# (the list `glue` below) has no meaning under SMPI,
# which has no inter-communicators; the driver calls the internal API of
# include/intergather.h on MPI_COMM_WORLD instead.
set -eu

top=$(cd "$(dirname "$0")/../.." && pwd)
build=${IG_SIM_BUILD:-/tmp/intergather-simbuild}
driver=${IG_SIM_DRIVER:-$top/bench/intergather_bench.c}
smpicc=${SMPICC:-smpicc}
cflags=${CFLAGS:--O2}

# The core: every C file of the library (Makefile.am: libigplan and
# libintergather) except the interception glue, so the simulated code is
# exactly what the library ships.  IG_SIM_CORE overrides the list.
glue="entry_abi entry_c entry_fortran lifecycle call serve agree speculate opening opening_tree opening_left errors comm_cache"
# shellcheck source=scripts/simgrid/sources.sh
. "$top/scripts/simgrid/sources.sh"
core_from_makefile() {
    makefile_sources "$top" 'igplan|intergather' | sed -e 's|^src/||' -e 's|\.c$||'
}
core=""
for f in ${IG_SIM_CORE:-$(core_from_makefile)}; do
    case " $glue " in *" $f "*) continue ;; esac
    core="$core $f"
done
[ -n "$core" ] || { echo "build.sh: no core sources found in $top/Makefile.am" >&2; exit 1; }

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

# Everything the core needs must come from the core itself; if not, say
# exactly which symbols are missing and stop (no silent shims).
$smpicc -std=c11 $cflags -Wall -Wextra -Wno-unused-parameter \
    -I"$top/include" -I"$top/src" -c "$driver" -o "$build/obj/driver.o"
# The benchmark's own baselines (root gathering, the intra-group ring).
$smpicc -std=c11 $cflags -Wall -Wextra -Wno-unused-parameter \
    -I"$top/include" -c "$top/bench/baselines.c" -o "$build/obj/baselines.o"
objs="$objs $build/obj/baselines.o"
shim=${IG_SIM_SHIM:-1}
wrap=""
if [ "$shim" = 1 ]; then
    $smpicc -std=c11 $cflags -Wall -Wextra -c "$top/scripts/simgrid/smpi_flatten.c" -o "$build/obj/smpi_flatten.o"
    objs="$objs $build/obj/smpi_flatten.o"
    for f in Send Recv Isend Irecv Sendrecv Bcast Gather Allgather Allgatherv; do
        wrap="$wrap -Wl,--wrap=PMPI_$f"
    done
fi
if ! $smpicc $cflags $wrap -o "$build/intergather-bench" "$build/obj/driver.o" $objs -lm 2>"$build/link.log"; then
    cat "$build/link.log" >&2
    echo "build.sh: link failed; undefined symbols:" >&2
    grep -o "undefined reference to \`[^']*'" "$build/link.log" | sort -u >&2 || true
    exit 1
fi
# Provenance: which sources went into this binary.
{
    echo "built $(date -u +%Y-%m-%dT%H:%M:%SZ) with $($smpicc --version 2>&1 | head -n 1)"
    echo "driver ${driver#$top/} sha256 $(sha256sum "$driver" | cut -d' ' -f1)"
    (cd "$top" && git rev-parse HEAD 2>/dev/null | sed 's/^/commit /') || true
    echo "excluded glue: $glue"
    echo "shim smpi_flatten.c: $shim"
    (cd "$top" && git status --short -- src include Makefile.am 2>/dev/null | sed 's/^/uncommitted: /') || true
    for f in $core; do echo "src/$f.c sha256 $(sha256sum "$top/src/$f.c" | cut -d' ' -f1)"; done
} >"$build/BUILD-INFO"
echo "$build/intergather-bench"
