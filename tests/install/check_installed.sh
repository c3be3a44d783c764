#!/bin/bash
# Check an installed intergather (run by scripts/check-install.sh and by
# `make installcheck`, which `make distcheck` runs):
#   * every file is where it belongs (library, header, pkg-config file, man
#     page, the two modulefiles);
#   * the installed intergather-demo, a plain MPI program, runs under the
#     installed library and the shim serves its calls;
#   * a program using include/intergather.h compiles and links against the
#     installed intergather.pc (with the MPI wrapper it names) and runs;
#   * the modulefiles work with Lmod and Environment Modules
#     (tests/modules/test_modules.sh).
# usage: check_installed.sh PREFIX
# Environment: MPIRUN (launcher of the MPI the build is for); where configure
# was told other directories, IG_INSTALLED_LIBDIR, IG_INSTALLED_BINDIR,
# IG_INSTALLED_INCLUDEDIR, IG_INSTALLED_MANDIR, IG_INSTALLED_PKGCONFIGDIR,
# IG_MODULEDIR, IG_TCL_MODULEDIR (default: below PREFIX).
set -euo pipefail
prefix=${1:?usage: check_installed.sh PREFIX}
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
libdir=${IG_INSTALLED_LIBDIR:-$prefix/lib}
bindir=${IG_INSTALLED_BINDIR:-$prefix/bin}
includedir=${IG_INSTALLED_INCLUDEDIR:-$prefix/include}
mandir=${IG_INSTALLED_MANDIR:-$prefix/share/man}
pcdir=${IG_INSTALLED_PKGCONFIGDIR:-$libdir/pkgconfig}
export IG_MODULEDIR=${IG_MODULEDIR:-$prefix/share/modulefiles}
export IG_TCL_MODULEDIR=${IG_TCL_MODULEDIR:-$prefix/share/modulefiles-tcl}
export IG_INSTALLED_LIB=$libdir/libintergather.so IG_INSTALLED_BINDIR=$bindir

fail() { echo "check-installed: $*" >&2; exit 1; }

for f in "$IG_INSTALLED_LIB" "$includedir/intergather.h" "$pcdir/intergather.pc" \
         "$mandir/man7/intergather.7" "$bindir/intergather-demo" "$bindir/intergather-bench"; do
    [ -f "$f" ] || fail "$f not installed"
done
lmodfiles=("$IG_MODULEDIR"/intergather/*.lua)
tclfiles=("$IG_TCL_MODULEDIR"/intergather/*)
[ -f "${lmodfiles[0]}" ] || fail "no Lmod modulefile in $IG_MODULEDIR/intergather"
[ -f "${tclfiles[0]}" ] || fail "no Tcl modulefile in $IG_TCL_MODULEDIR/intergather"
grep -q "$IG_INSTALLED_LIB" "${lmodfiles[0]}" || fail "${lmodfiles[0]} does not name $IG_INSTALLED_LIB"
grep -q "$IG_INSTALLED_LIB" "${tclfiles[0]}" || fail "${tclfiles[0]} does not name $IG_INSTALLED_LIB"
echo "check-installed: files in place under $prefix"

IG_LIB=$IG_INSTALLED_LIB
IG_TOP_SRCDIR=$srcdir
. "$srcdir/tests/mpi/common.sh"
work=$(mktemp -d)
trap 'rm -rf "$work" "$IG_OUT"' EXIT

# The installed demo under the installed library.
INTERGATHER_VERBOSE=1 run_preloaded 4 "$bindir/intergather-demo" -b 1048576 -n 3
grep -q 'summary (world rank 0): served fully-connected=3 ' "$IG_OUT" \
    || { cat "$IG_OUT" >&2; fail "the installed library did not serve the demo's calls"; }
echo "check-installed: installed library active (served fully-connected=3)"

# A program built against the installed pkg-config file.
export PKG_CONFIG_PATH=$pcdir${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}
pkg-config --exists intergather || fail "pkg-config does not find intergather in $pcdir"
[ "$(pkg-config --modversion intergather)" = "${IG_VERSION:-$(pkg-config --modversion intergather)}" ] \
    || fail "intergather.pc has version $(pkg-config --modversion intergather), expected $IG_VERSION"
[ "$(pkg-config --variable=libdir intergather)" = "$libdir" ] || fail "intergather.pc: libdir is not $libdir"
[ "$(pkg-config --variable=preload intergather)" = "$IG_INSTALLED_LIB" ] || fail "intergather.pc: wrong preload"
mpicc=$(pkg-config --variable=mpicc intergather)
# shellcheck disable=SC2046
"$mpicc" -o "$work/pc_program" "$srcdir/tests/install/pc_program.c" \
    $(pkg-config --cflags intergather) $(pkg-config --libs intergather)
ig_launch 4 -- "$work/pc_program"
grep -q 'PASS pc_program' "$IG_OUT" || { cat "$IG_OUT" >&2; fail "pc_program failed"; }
echo "check-installed: a program built with $mpicc and pkg-config intergather ($(pkg-config --libs intergather)) runs"

# The modulefiles, with the real module systems.
"$srcdir/tests/modules/test_modules.sh" "$prefix"
echo "check-installed: all checks passed for $prefix"
