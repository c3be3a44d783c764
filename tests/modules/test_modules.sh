#!/bin/bash
# intergather's installed modulefiles under the real module systems: Lmod
# (its .lua file), Environment Modules (its Tcl file) and Lmod reading the
# Tcl file (a site may point Lmod at either).  For each:
#   * help and whatis print the module's text;
#   * with a user LD_PRELOAD and a user INTERGATHER_VERBOSE already set,
#     load prepends the library to LD_PRELOAD, keeps the user's setting,
#     sets the other documented defaults; the installed intergather-demo,
#     a plain MPI program launched with nothing but this environment, runs
#     under the shim (summary: served fully-connected=3); unload gives back
#     the environment exactly as it was;
#   * with nothing set, load sets everything, unload removes everything;
#   * with the library missing, load refuses with a clear message, fails
#     (a non-zero status) and changes nothing.
# The module systems' own bookkeeping variables (loaded-module lists,
# reference counts) are the only ones left out of the comparisons.
# usage: test_modules.sh PREFIX (run by tests/install/check_installed.sh)
# Environment: MPIRUN; IG_MODULEDIR, IG_TCL_MODULEDIR, IG_INSTALLED_LIB,
# IG_INSTALLED_BINDIR (defaults below PREFIX); IG_MODULE_SYSTEMS (default
# "lmod tcl lmod-tcl").
set -euo pipefail
prefix=${1:?usage: test_modules.sh PREFIX}
srcdir=$(cd "$(dirname "$0")/../.." && pwd)
moduledir=${IG_MODULEDIR:-$prefix/share/modulefiles}
tclmoduledir=${IG_TCL_MODULEDIR:-$prefix/share/modulefiles-tcl}
lib=${IG_INSTALLED_LIB:-$prefix/lib/libintergather.so}
bindir=${IG_INSTALLED_BINDIR:-$prefix/bin}

. "$srcdir/scripts/module-tools.sh"
ig_module_tools

IG_LIB=$lib
IG_TOP_SRCDIR=$srcdir
. "$srcdir/tests/mpi/common.sh"
work=$(mktemp -d)
trap 'rm -rf "$work" "$IG_OUT"' EXIT

fail() { echo "test-modules ($system): $*" >&2; exit 1; }

# A harmless library of the user's own, already in LD_PRELOAD before loading.
printf 'int ig_test_user_preload;\n' >"$work/user.c"
cc -shared -fPIC -o "$work/libuser.so" "$work/user.c"

# The environment, minus the module systems' bookkeeping, one VAR=value per
# line (values with newlines escaped), sorted.
snapshot() {
    env -0 | LC_ALL=C sort -z | tr '\n\0' '\001\n' | grep -avE \
        '^(_ModuleTable[0-9]*_|_ModuleTable_Sz_|__LMOD_REF_COUNT_[A-Za-z0-9_]+|LOADEDMODULES|_LMFILES_|__MODULES_[A-Za-z0-9_]+|_)=' || true
}

same_env() {
    local now
    now=$(snapshot)
    if [ "$now" != "$1" ]; then
        echo "environment after unload differs from before load (< before, > after):" >&2
        diff <(echo "$1") <(echo "$now") >&2 || true
        fail "unload did not restore the environment"
    fi
}

expect_var() {
    [ "${!1-<unset>}" = "$2" ] || fail "after load, $1='${!1-<unset>}', expected '$2'"
}

# One module system, in a subshell of its own.
run_system() (
    system=$1
    case $system in
        lmod)
            module() { eval "$("$IG_LMOD_CMD" bash "$@")"; }
            export MODULEPATH=$moduledir LMOD_IGNORE_CACHE=1 LMOD_REDIRECT=no ;;
        tcl)
            module() { eval "$("$IG_MODULECMD_TCL" bash "$@")"; }
            export MODULEPATH=$tclmoduledir ;;
        lmod-tcl)  # Lmod reads Tcl modulefiles too: a site may point it at either
            module() { eval "$("$IG_LMOD_CMD" bash "$@")"; }
            export MODULEPATH=$tclmoduledir LMOD_IGNORE_CACHE=1 LMOD_REDIRECT=no ;;
    esac
    unset LD_PRELOAD INTERGATHER_TOPOLOGY INTERGATHER_MIN_BYTES INTERGATHER_ALGORITHM INTERGATHER_NET_MODEL INTERGATHER_SHM_MODEL INTERGATHER_VERBOSE \
          INTERGATHER_RING_SCHEDULE INTERGATHER_OPENING INTERGATHER_OVERSUBSCRIBED INTERGATHER_GROUP_ALLGATHER \
          INTERGATHER_MANY_SENDERS __INTERGATHER_MODULE_DEFAULTS
    # Lmod drops duplicate entries of any path variable a module changes
    # (its documented behaviour, for every module): start from a PATH
    # without duplicates so that the comparison is about this module.
    PATH=$(echo "$PATH" | tr ':' '\n' | awk '!seen[$0]++' | paste -sd:)

    module help intergather >"$work/help" 2>&1 || { cat "$work/help" >&2; fail "module help failed"; }
    grep -q 'faster MPI_Allgather on inter-communicators' "$work/help" || { cat "$work/help" >&2; fail "no help text"; }
    grep -q "$lib" "$work/help" || { cat "$work/help" >&2; fail "help does not name the library"; }
    module whatis intergather >"$work/whatis" 2>&1 || { cat "$work/whatis" >&2; fail "module whatis failed"; }
    grep -q 'Description: faster MPI_Allgather' "$work/whatis" || { cat "$work/whatis" >&2; fail "no whatis text"; }
    echo "test-modules ($system): help and whatis"

    # 1. A user who already preloads something and chose a verbosity.
    export LD_PRELOAD=$work/libuser.so INTERGATHER_VERBOSE=1
    local before
    before=$(snapshot)
    module load intergather || fail "module load failed"
    expect_var LD_PRELOAD "$lib:$work/libuser.so"
    expect_var INTERGATHER_VERBOSE 1
    expect_var INTERGATHER_TOPOLOGY fully-connected
    expect_var INTERGATHER_MIN_BYTES 0
    expect_var INTERGATHER_ALGORITHM auto
    expect_var INTERGATHER_RING_SCHEDULE optimal
    expect_var INTERGATHER_OPENING on
    expect_var INTERGATHER_OVERSUBSCRIBED auto
    [ "${PATH%%:*}" = "$bindir" ] || fail "after load, PATH does not start with $bindir: $PATH"
    [ "$(command -v intergather-demo)" = "$bindir/intergather-demo" ] || fail "intergather-demo is not the installed one"
    # Nothing added on the command line: the module's environment alone.
    run_inherited 4 intergather-demo -b 1048576 -n 3
    grep -q 'summary (world rank 0): served fully-connected=3 ' "$IG_OUT" \
        || { cat "$IG_OUT" >&2; fail "the shim was not active in the MPI program"; }
    module unload intergather || fail "module unload failed"
    same_env "$before"
    echo "test-modules ($system): load, MPI program under the shim (served fully-connected=3), unload restores the environment"

    # 2. Nothing set at all.
    unset LD_PRELOAD INTERGATHER_VERBOSE
    before=$(snapshot)
    module load intergather || fail "module load failed"
    expect_var LD_PRELOAD "$lib"
    expect_var INTERGATHER_VERBOSE 0
    expect_var INTERGATHER_TOPOLOGY fully-connected
    module unload intergather || fail "module unload failed"
    same_env "$before"
    echo "test-modules ($system): from an empty environment, unload removes everything it set"

    # 3. The library has gone: refuse, change nothing.
    mv "$lib" "$lib.moved"
    local rc=0
    module load intergather >"$work/refuse" 2>&1 || rc=$?
    mv "$lib.moved" "$lib"
    [ $rc -ne 0 ] || { cat "$work/refuse" >&2; fail "module load succeeded without the library"; }
    # (Lmod wraps long messages: compare with the lines joined.)
    local message
    message=$(tr -s ' \n' '  ' <"$work/refuse")
    case $message in
        *"cannot load: the library $lib does not exist"*) ;;
        *) cat "$work/refuse" >&2; fail "no clear message" ;;
    esac
    same_env "$before"
    echo "test-modules ($system): refuses to load without the library; it said: $message"
)

for system in ${IG_MODULE_SYSTEMS:-lmod tcl lmod-tcl}; do
    run_system "$system"
done
echo "test-modules: passed (${IG_MODULE_SYSTEMS:-lmod tcl lmod-tcl})"
