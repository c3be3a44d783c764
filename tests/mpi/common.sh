# Shared by the MPI integration test scripts (sourced, not run).
# Environment from `make check`: IG_LIB (the built shared library), MPIRUN,
# IG_TOP_BUILDDIR.  Programs run under LD_PRELOAD, exactly as users run them.
# MPIRUN may be Open MPI's mpirun or MPICH's hydra (mpirun.mpich, mpiexec):
# the launcher functions below find out which and speak its dialect.
set -eu

: "${MPIRUN:=mpirun}"
: "${IG_LIB:?IG_LIB must name libintergather.so}"
# Before the default below: only `make check` names IG_TOP_BUILDDIR and
# builds this library (ig_launch says what it is for).
IG_IDLE_YIELD_LIB=${IG_TOP_BUILDDIR:+$IG_TOP_BUILDDIR/tests/mpi/.libs/libidleyield.so}
: "${IG_TOP_BUILDDIR:=.}"
IG_TEST_TIMEOUT=${IG_TEST_TIMEOUT:-300}
TESTS_BIN="$IG_TOP_BUILDDIR/tests/mpi"

# Open MPI's settings for oversubscribed runs as root in a container, the
# single copy off (scripts/openmpi-env.sh; hydra oversubscribes without
# being asked, and MPICH ignores them).
. "$(dirname "${BASH_SOURCE[0]}")/../../scripts/openmpi-env.sh"
# The tests that force the TCP BTL (pml ob1, btl self,tcp) connect
# processes of this one host.  Open MPI's TCP BTL leaves the loopback
# interface out by default, so on a machine whose only interface is lo (a
# container without a network, `unshare -n`) they would find no route
# ("unable to reach each other").  Traffic between two addresses of one
# host goes through lo anyway, so naming it changes nothing elsewhere.
export OMPI_MCA_btl_tcp_if_include=127.0.0.0/8
# On this 2-core machine every job of more than two processes is
# oversubscribed, and there the library serves every call with the direct
# algorithm; the tests run the cost model's choices as on a node with a
# core per process, unless a test says otherwise
# (tests/mpi/test_oversubscribed.sh runs the detection and the rule).
export INTERGATHER_OVERSUBSCRIBED=${INTERGATHER_OVERSUBSCRIBED:-no}

IG_OUT=$(mktemp)
trap 'rm -f "$IG_OUT"' EXIT

# ig_launcher_kind: set IG_LAUNCHER_KIND to "openmpi" (Open MPI's mpirun)
# or "hydra" (MPICH's mpirun/mpiexec, and its derivatives) from what
# $MPIRUN says about itself; remembered per launcher.
ig_launcher_kind() {
    [ "${IG_LAUNCHER_OF:-}" = "$MPIRUN" ] && return 0
    local version
    version=$("$MPIRUN" --version 2>&1 || true)
    case $version in
        *"Open MPI"*|*OpenRTE*|*"Open RTE"*|*PRRTE*) IG_LAUNCHER_KIND=openmpi ;;
        *HYDRA*|*MPICH*|*"Intel(R) MPI"*) IG_LAUNCHER_KIND=hydra ;;
        *) echo "cannot tell which MPI launcher '$MPIRUN' is; it said: ${version%%$'\n'*}" >&2
           return 1 ;;
    esac
    IG_LAUNCHER_OF=$MPIRUN
}

# ig_openmpi_mpmd_launcher: print the launcher for an Open MPI launch of
# several application contexts: $MPIRUN, unless it crashes on any such
# launch, as Open MPI 5.0.7's mpirun does (a segmentation fault of mpirun
# itself, with or without an MPI program: open-mpi/ompi issue 13303; seen
# on Debian 13); then the PRRTE launcher beside it, prterun, which starts
# the same contexts.  Probed once per test script with two contexts of
# `true`; said once in the test's log.  Sets IG_MPMD_LAUNCHER (call it
# in this shell, not in a command substitution, so the probe runs once).
ig_openmpi_mpmd_launcher() {
    if [ -z "${IG_MPMD_LAUNCHER:-}" ]; then
        IG_MPMD_LAUNCHER=$MPIRUN
        if ! timeout 60 "$MPIRUN" --oversubscribe -np 1 true : -np 1 true >/dev/null 2>&1; then
            local prterun
            prterun=$(dirname "$(command -v "$MPIRUN")")/prterun
            [ -x "$prterun" ] || prterun=$(command -v prterun || true)
            if [ -n "$prterun" ]; then
                IG_MPMD_LAUNCHER=$prterun
                echo "($MPIRUN fails on a launch of two application contexts without any MPI program (open-mpi/ompi issue 13303): such launches here use $prterun)" >&2
            fi
        fi
    fi
}

# ig_in_own_tmpdir COMMAND...: run COMMAND with TMPDIR a new directory,
# removed afterwards.  The launcher keeps its session directory there
# (Open MPI 5's PRRTE: TMPDIR/prterun.HOST.PID.UID), and a job that aborts
# leaves it behind; a later launcher whose process ID is the same (IDs come
# round after 32768 on many machines, and the tests start thousands of
# processes) then fails to start: "PMIX_ERR_EXISTS ... session_dir.c",
# seen on Debian 13 after test_bad_input's aborting cases.
ig_in_own_tmpdir() {
    local dir rc=0
    dir=$(mktemp -d "${TMPDIR:-/tmp}/ig-launch.XXXXXX")
    TMPDIR=$dir "$@" || rc=$?
    rm -rf "$dir"
    return $rc
}

# ig_launch CONTEXT [: CONTEXT]...: run $MPIRUN, output in $IG_OUT, where
# CONTEXT is NP [NAME=VALUE | NAME]... -- PROGRAM ARGS... (one application
# context: NP processes, these variables set in them, NAME alone passing
# this shell's value).  Fails, showing the output, if the launch fails.
# Under MPICH's launcher every process also preloads idle_yield.c's
# library first (MPICH's idle processes would otherwise spin on the few
# cores; the file says why and what it changes: nothing but when a waiting
# process runs), before what the context's LD_PRELOAD, or else this
# shell's, names.  Only in the test suite (IG_IDLE_YIELD_LIB, set at the
# top of this file where make check names IG_TOP_BUILDDIR): the checks of
# an installed tree run programs exactly as users do.  Not with
# IG_LAUNCH_INHERIT=1 (run_inherited), whose launches add nothing to the
# environment.
ig_launch() {
    ig_launcher_kind
    local cmd=("$MPIRUN") first=1 np a name value preload
    if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
        # Several contexts (a ":" among the arguments): the launcher that can.
        for a in "$@"; do
            [ "$a" = : ] || continue
            ig_openmpi_mpmd_launcher
            cmd=("$IG_MPMD_LAUNCHER")
            break
        done
        # prterun spells mpirun's --oversubscribe this way (mpirun 5 does too).
        if [ "${cmd[0]##*/}" = prterun ]; then cmd+=(--map-by :oversubscribe); else cmd+=(--oversubscribe); fi
    fi
    local yield=1
    [ "$IG_LAUNCHER_KIND" = hydra ] && [ "${IG_LAUNCH_INHERIT:-0}" != 1 ] && [ -n "$IG_IDLE_YIELD_LIB" ] || yield=0
    if [ $yield = 1 ] && [ ! -f "$IG_IDLE_YIELD_LIB" ]; then
        echo "ig_launch: missing $IG_IDLE_YIELD_LIB (built by make check)" >&2
        return 2
    fi
    while [ $# -gt 0 ]; do
        [ $first = 1 ] || cmd+=(:)
        first=0
        np=$1; shift
        cmd+=(-np "$np")
        preload=${LD_PRELOAD-}
        while [ $# -gt 0 ] && [ "$1" != -- ]; do
            a=$1; shift
            if [ "$IG_LAUNCHER_KIND" = openmpi ]; then
                cmd+=(-x "$a")   # -x NAME=VALUE and -x NAME both exist
                continue
            fi
            name=${a%%=*}
            if [ "$name" != "$a" ]; then value=${a#*=}; else value=${!a-}; fi
            if [ "$name" = LD_PRELOAD ] && [ $yield = 1 ]; then
                preload=$value
            else
                cmd+=(-env "$name" "$value")
            fi
        done
        [ $yield = 0 ] || cmd+=(-env LD_PRELOAD "$IG_IDLE_YIELD_LIB${preload:+ $preload}")
        [ $# -gt 0 ] || { echo "ig_launch: missing -- PROGRAM" >&2; return 2; }
        shift  # --
        local prog=$1 nargs=0
        while [ $# -gt 0 ] && [ "$1" != : ]; do cmd+=("$1"); shift; nargs=$((nargs + 1)); done
        [ $# -eq 0 ] || shift  # :
        # IG_TEST_MAXCOUNT caps the second argument of allgather_matrix
        # (MAXCOUNT, default 262144) and allgatherv_matrix (SCALE, default
        # 50000): for an MPI that corrupts larger derived-datatype messages
        # itself (Debian's MPICH 4.0.2; see scripts/test-mpich.sh).  The
        # programs count what they ran, so the summary checks hold at any cap.
        if [ -n "${IG_TEST_MAXCOUNT:-}" ] && [ $nargs -ge 2 ] \
           && { [ "${prog##*/}" = allgather_matrix ] || [ "${prog##*/}" = allgatherv_matrix ]; }; then
            local i=$((${#cmd[@]} - nargs + 2))  # where MAXCOUNT is or goes
            if [ $nargs -ge 3 ]; then
                [ "${cmd[i]}" -le "$IG_TEST_MAXCOUNT" ] || cmd[i]=$IG_TEST_MAXCOUNT
            else
                cmd+=("$IG_TEST_MAXCOUNT")
            fi
            [ -n "${IG_MAXCOUNT_NOTED:-}" ] \
                || echo "(IG_TEST_MAXCOUNT=$IG_TEST_MAXCOUNT: ${prog##*/} runs with ${cmd[i]} as its second argument)"
            IG_MAXCOUNT_NOTED=1
        fi
    done
    local began rc=0
    began=$(date +%s%N)
    ig_in_own_tmpdir timeout "$IG_TEST_TIMEOUT" "${cmd[@]}" >"$IG_OUT" 2>&1 || rc=$?
    ig_note_launch_time "$began" "$IG_TEST_TIMEOUT" "$prog"
    if [ $rc -ne 0 ]; then
        echo "FAILED: ${cmd[*]}" >&2
        cat "$IG_OUT" >&2
        return 1
    fi
}

# ig_note_launch_time BEGAN LIMIT PROGRAM: where IG_TEST_LAUNCH_TIMES names
# a file, append one line for the launch that began at BEGAN (date +%s%N):
# its seconds, LIMIT (the seconds after which it would have failed), the
# test script and PROGRAM (for ig_launch, the last context's).
# scripts/test-all.sh collects them from every pass and prints the
# launches closest to their limits, so that a run on a loaded machine
# shows how much room is left before a test would time out.
# One short write per line, with O_APPEND: tests running side by side
# (make -j) do not interleave their lines.
ig_note_launch_time() {
    [ -n "${IG_TEST_LAUNCH_TIMES:-}" ] || return 0
    local ms=$(( ($(date +%s%N) - $1) / 1000000 ))
    printf '%d.%03d %s %s %s\n' $((ms / 1000)) $((ms % 1000)) "$2" \
        "${0##*/}" "${3##*/}" >>"$IG_TEST_LAUNCH_TIMES"
}

# ig_forwarded EXCEPT...: names of the INTERGATHER_* variables of this shell,
# except those named (NAME or NAME=VALUE), one per line.
ig_forwarded() {
    local v e skip
    for v in $(env | sed -n 's/^\(INTERGATHER_[A-Z_]*\)=.*/\1/p'); do
        skip=0
        for e in "$@"; do [ "${e%%=*}" = "$v" ] && skip=1; done
        [ $skip = 1 ] || echo "$v"
    done
}

# run_preloaded NP PROGRAM ARGS...: run under the shim with every
# INTERGATHER_* variable of this shell forwarded; output in $IG_OUT.
run_preloaded() {
    local np=$1; shift
    # shellcheck disable=SC2046
    ig_launch "$np" LD_PRELOAD="$IG_LIB" $(ig_forwarded) -- "$@"
}

# run_preloaded_mpmd CONTEXT [: CONTEXT]...: several application contexts
# (CONTEXT as for ig_launch), each under the shim with the INTERGATHER_*
# variables of this shell forwarded unless the context sets them itself.
run_preloaded_mpmd() {
    local args=() ctx=() a
    while [ $# -gt 0 ]; do
        ctx=()
        while [ $# -gt 0 ] && [ "$1" != -- ]; do ctx+=("$1"); shift; done
        args+=("${ctx[0]}" LD_PRELOAD="$IG_LIB" "${ctx[@]:1}")
        # shellcheck disable=SC2046
        args+=($(ig_forwarded "${ctx[@]:1}"))
        while [ $# -gt 0 ] && [ "$1" != : ]; do args+=("$1"); shift; done
        if [ $# -gt 0 ]; then args+=(:); shift; fi
    done
    ig_launch "${args[@]}"
}

# run_inherited NP PROGRAM ARGS...: run with nothing added: the processes get
# this shell's environment (LD_PRELOAD included) as a launcher passes it on
# to the processes it starts on this node.  For installed setups such as an
# environment module.  Output in $IG_OUT.
run_inherited() {
    local np=$1; shift
    IG_LAUNCH_INHERIT=1 ig_launch "$np" -- "$@"
}

# summary_values WHO KEY: KEY's value in every summary line of $IG_OUT whose
# prefix is "world rank WHO" (WHO "0)" for world rank 0's line alone, ""
# for every process's: INTERGATHER_VERBOSE=2 prints one per process), one
# value per line.  Fails, printing nothing on stdout and the run's output on
# stderr, where no such line was printed or one lacks KEY (src/stats.c prints every key on every line): a
# value of 0 must mean that the process counted 0, never a misspelt key or
# a run without summaries.
summary_values() {
    local lines values
    lines=$(grep "intergather: summary (world rank $1" "$IG_OUT" || true)
    if [ -z "$lines" ]; then
        cat "$IG_OUT" >&2
        echo "summary $2: no intergather summary (world rank $1...) in the output (library not loaded, or INTERGATHER_VERBOSE unset?)" >&2
        return 1
    fi
    values=$(printf '%s\n' "$lines" | sed -n "s/.* $2=\([0-9-]*\).*/\1/p")
    if [ "$(printf '%s' "$values" | grep -c .)" -ne "$(printf '%s\n' "$lines" | wc -l)" ]; then
        cat "$IG_OUT" >&2
        echo "summary $2: not on every summary line (not a summary key?)" >&2
        return 1
    fi
    printf '%s\n' "$values"
}

# summary_value KEY: the number after KEY= in world rank 0's summary line.
summary_value() {
    summary_values '0)' "$1"
}

# summary_total KEY: the sum of KEY= over every process's summary line.
summary_total() {
    local values
    values=$(summary_values '' "$1") || return 1
    printf '%s\n' "$values" | awk '{ t += $1 } END { print t + 0 }'
}

# expect_total KEY OP VALUE: fail unless summary_total KEY OP VALUE holds
# (OP a test(1) comparison: -eq, -gt, ...).
expect_total() {
    local got
    got=$(summary_total "$1") || return 1
    if ! [ "$got" "$2" "$3" ]; then
        echo "expected the processes' $1 to total $2 $3, got $got" >&2
        cat "$IG_OUT" >&2
        return 1
    fi
}

# expect_summary KEY VALUE: fail unless the summary says KEY=VALUE.
expect_summary() {
    local got
    got=$(summary_value "$1") || return 1
    if [ "$got" != "$2" ]; then
        echo "expected $1=$2 in the summary, got '$got'" >&2
        cat "$IG_OUT" >&2
        return 1
    fi
}

# What the test programs, the library and the preloaded test libraries
# print ("expect served ...", "calls-in-error=N", PASS lines, per-process
# records, fail_malloc's and the summary lines) is found anywhere in a
# line, here and in the test scripts, never anchored at its start: MPICH
# makes every process's stdout unbuffered (setbuf in MPI_Init), so a
# printf of plain text ending in a newline, which the compiler turns into
# puts, is two writes (the text, then the newline), and the launcher may
# forward another process's line between them: "PASS early_postexpect
# early-withdrawn=5 (world rank 1)" (seen).  A line written in one write,
# as every other is, stays whole, so patterns may still end with $.

# expected_moved: the count the test program printed ("expect served moved=N").
expected_moved() {
    sed -n 's/.*expect served moved=\([0-9]*\).*/\1/p' "$IG_OUT"
}

# expected_calls: every inter-communicator call the program made, the
# empty ones (neither group sends) included: moved + empty.
expected_calls() {
    sed -n 's/.*expect served moved=\([0-9]*\).* empty=\([0-9]*\).*/\1 \2/p' "$IG_OUT" | awk '{ print $1 + $2 }'
}

# expected_full: the full-duplex count the program printed (" full=N").
expected_full() {
    sed -n 's/.*expect served .* full=\([0-9]*\).*/\1/p' "$IG_OUT"
}

# expect_pass NAME: the program printed its PASS line (anywhere in a line,
# as above; no other output contains "PASS NAME").
expect_pass() {
    if ! grep -q "PASS $1" "$IG_OUT"; then
        echo "no 'PASS $1' line" >&2
        cat "$IG_OUT" >&2
        return 1
    fi
}

# LARGE_PAIRS: the splits that also run the large sizes (allgather_matrix's
# 262144 elements, allgatherv_matrix's scale 50000: megabytes per block,
# the paths of big messages and many segments), one each of p < q, p = q
# and p > q.  They take most of a run's time, so every other split runs up
# to 20000 elements (80 to 180 KB per block: above the 64 KiB where the
# group stage switches to intergather's ring and where MPI libraries
# switch to rendezvous, and several chain segments).
LARGE_PAIRS="3,8 2,2 8,3"

# matrix_launches PAIRS...: the launches that cover the splits PAIRS ("p,q"
# words), one line each: "NP KIND SPLITS", SPLITS the matrix programs'
# first argument ("P+Q,P+Q,...": one launch runs many splits, since a
# launch costs about a second), KIND large for the splits of LARGE_PAIRS,
# small for the others.
matrix_launches() {
    local pq p q kind splits_small="" splits_large="" np_small=0 np_large=0
    for pq in "$@"; do
        p=${pq%,*}; q=${pq#*,}
        case " $LARGE_PAIRS " in *" $pq "*) kind=large ;; *) kind=small ;; esac
        if [ $kind = large ]; then
            splits_large="$splits_large${splits_large:+,}$p+$q"
            [ $((p + q)) -le $np_large ] || np_large=$((p + q))
        else
            splits_small="$splits_small${splits_small:+,}$p+$q"
            [ $((p + q)) -le $np_small ] || np_small=$((p + q))
        fi
    done
    [ -z "$splits_small" ] || echo "$np_small small $splits_small"
    [ -z "$splits_large" ] || echo "$np_large large $splits_large"
}

# matrix_size KIND PROGRAM: the program's second argument (allgather_matrix:
# its largest count; allgatherv_matrix: its scale) for a launch of KIND.
matrix_size() {
    case $1:$2 in
        large:allgather_matrix) echo 262144 ;;
        large:allgatherv_matrix) echo 50000 ;;
        *) echo 20000 ;;
    esac
}

# test_pairs: the (p, q) matrix as "p,q" words: {1..5} x {1..5} plus four
# lopsided pairs.  IG_TEST_QUICK=1 (the repeat runs inside `make
# distcheck`; test_fc_variants.sh's variants and the paper's ring schedule
# in test_allgatherv.sh always) keeps the lopsided pairs and the square and
# near-square ones.
test_pairs() {
    local pairs="1,7 7,1 3,8 8,3" p q
    if [ "${IG_TEST_QUICK:-0}" = 1 ]; then
        echo "$pairs 1,1 2,2 2,3 3,2 4,5"
        return
    fi
    for p in 1 2 3 4 5; do for q in 1 2 3 4 5; do pairs="$pairs $p,$q"; done; done
    echo "$pairs"
}
