#!/bin/bash
# Soak and fault test of intergather: "every process takes the same path".
# A maintainer's script, not part of `make check`.  About 6-9 minutes by
# default on a busy 2-core machine, about 1 minute with --quick.
#
#   scripts/soak/run.sh [--quick] [--calls N] [--seed S] [--lib PATH]
#                       [--splits "NP:LEFT ..."] [--no-probes] [--no-faults]
#                       [--out FILE] [--keep]
#
# 1. Soak.  tests/mpi/soak.c (compiled here with $MPICC, default mpicc.openmpi) makes N
#    random calls (default 2500; --quick 300) on inter-communicators between
#    two groups of MPI_COMM_WORLD, for each split (default 2+2, 3+5, 1+4:
#    "4:2 8:3 5:1"), once natively and once under the library per topology
#    (fully-connected, ring), all with the same seed, so the three runs make
#    the same calls.  Calls mix MPI_Allgather and MPI_Allgatherv (random
#    counts, zeros, random displacements and gaps), half and full duplex,
#    blocks from 1 byte to 1 MiB per process, MPI_BYTE, MPI_INT, MPI_DOUBLE,
#    a vector, resized types with lower bounds 4 and -8, contiguous-of-struct,
#    receive types that differ from the send type with the same signature,
#    and (MPI_Allgather) send types chosen per process; communicators are created (random splits, some on a subset of
#    the processes), duplicated and freed during the loop.  Every result is
#    compared byte for byte (gaps and guard bytes included) with
#    PMPI_Allgather(v) on the same arguments; a mismatch, an error code or a
#    call stuck for 120 s ends the run with a SOAK MISMATCH / ERROR / HANG line.
#    RSS (VmRSS), private memory (RssAnon: the heap, where a leak grows)
#    and the library's live internal communicators
#    (intergather_internal_comms_live, found with dlsym) are sampled; a run
#    fails if the live count is not back to its start value once every
#    communicator is freed, or if its private memory's growth after warm-up
#    exceeds the native run's by more than 4 MiB (--rss-slack-mib; Open MPI
#    itself grows by a few MiB under this communicator churn, so the native
#    run of the same calls is the baseline).  RSS is shown but not judged:
#    it also counts the pages of Open MPI's shared-memory segments a process
#    has touched, bounded by their size, which grow with the fragments in
#    flight (a forced chain or relay touched up to 9 MiB more of them than
#    native MPI with the same private memory; docs/performance.md,
#    seventy-sixth session).  The library's finalize summary
#    (INTERGATHER_VERBOSE=1) is shown, and a run fails if a call went native.
# 1b. Probes.  Two legal calls in which one side passes a datatype of extent
#    0 (MPI_Allgather sending one int as resized(MPI_INT, 0, 0); MPI_Allgatherv
#    receiving a single non-empty block with it), run natively and under the
#    library with its default settings (10 s watchdog): the library must give
#    native's result, not hang (--no-probes skips them).
# 2. Faults.  One process (world rank 3 / 1 / 0 of the 2+2 and 3+5 splits)
#    is killed with SIGKILL, calls MPI_Abort, or calls exit(3) without
#    MPI_Finalize before call 200 while the others are in a collective; the
#    time from the fault (written by the process just before it) to mpirun's
#    exit is measured natively and under the library.  Fails if mpirun does
#    not end within --fault-timeout (120 s) or the library's time exceeds
#    2 x native + 5 s.
# 3. A summary table, the final line PASS or FAIL, exit status 1 on FAIL.
#
# Environment: IG_LIB (the library, default src/.libs/libintergather.so of
# this tree; or --lib), MPICC, MPIRUN (default mpirun.openmpi), SOAK_SEED.
# Other INTERGATHER_* variables set in the calling shell are passed on to the
# library runs (the ones this script sets win).  To reproduce one run, use the
# command printed for it (logs are kept with --keep).
set -uo pipefail

here=$(cd "$(dirname "$0")" && pwd)
top=$(cd "$here/../.." && pwd)

# The setting that makes intergather serve calls of every size (the soak
# needs small calls served too).  The one place that names it.
SERVE_SMALL_CALLS="INTERGATHER_MIN_BYTES=0"
# On a node with fewer cores than processes (a 2-core machine: every split
# here) the library serves every call with the direct algorithm
# (INTERGATHER_OVERSUBSCRIBED).  The topology runs soak the cost model's
# choices instead, and with them the opening round skipped by prediction,
# as the test suite does (tests/mpi/common.sh), unless the calling shell
# sets INTERGATHER_OVERSUBSCRIBED itself (then it is passed on as it is).
MODEL_CHOICES=()
[ -n "${INTERGATHER_OVERSUBSCRIBED+set}" ] || MODEL_CHOICES=(-x INTERGATHER_OVERSUBSCRIBED=no)

LIB=${IG_LIB:-$top/src/.libs/libintergather.so}
MPICC=${MPICC:-mpicc.openmpi}
MPIRUN=${MPIRUN:-mpirun.openmpi}
SEED=${SOAK_SEED:-20240601}
CALLS=""
QUICK=0
SPLITS=""
FAULTS=1
PROBES=1
declare -A pcmd=()
OUT=""
KEEP=0
RSS_SLACK_MIB=4
FAULT_TIMEOUT=120
FAULT_AT=200
TOPOLOGIES="fully-connected ring"

usage() { sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; }
while [ $# -gt 0 ]; do
    case $1 in
        --quick) QUICK=1 ;;
        --calls) CALLS=$2; shift ;;
        --seed) SEED=$2; shift ;;
        --lib) LIB=$2; shift ;;
        --splits) SPLITS=$2; shift ;;
        --no-faults) FAULTS=0 ;;
        --no-probes) PROBES=0 ;;
        --out) OUT=$2; shift ;;
        --keep) KEEP=1 ;;
        --rss-slack-mib) RSS_SLACK_MIB=$2; shift ;;
        --fault-timeout) FAULT_TIMEOUT=$2; shift ;;
        -h|--help) usage; exit 0 ;;
        *) echo "run.sh: unknown argument '$1' (--help)" >&2; exit 2 ;;
    esac
    shift
done
if [ $QUICK = 1 ]; then
    : "${CALLS:=300}"; : "${SPLITS:=4:2 8:3 5:1}"; FAULT_SPLITS="4:2"
else
    : "${CALLS:=2500}"; : "${SPLITS:=4:2 8:3 5:1}"; FAULT_SPLITS="4:2 8:3"
fi
[ -r "$LIB" ] || { echo "run.sh: no library at $LIB (build the tree, or --lib PATH / IG_LIB)" >&2; exit 2; }
LIB=$(cd "$(dirname "$LIB")" && pwd)/$(basename "$LIB")

. "$top/scripts/openmpi-env.sh"
unset LD_PRELOAD # native runs must be native

work=$(mktemp -d "${TMPDIR:-/tmp}/ig-soak.XXXXXX")
if [ $KEEP = 1 ]; then echo "logs kept in $work"; else trap 'rm -rf "$work"' EXIT; fi

echo "== building tests/mpi/soak.c with $MPICC"
if ! "$MPICC" -O2 -g -Wall -o "$work/soak" "$top/tests/mpi/soak.c" -ldl -lm; then
    echo "run.sh: could not compile soak.c" >&2; exit 2
fi

# INTERGATHER_* variables of the calling shell, passed on (ours override).
extra_x=()
for v in $(env | sed -n 's/^\(INTERGATHER_[A-Z_]*\)=.*/\1/p'); do
    case $v in INTERGATHER_TOPOLOGY|INTERGATHER_VERBOSE|"${SERVE_SMALL_CALLS%%=*}") ;; *) extra_x+=(-x "$v") ;; esac
done

failures=()
fail() { failures+=("$1"); }
now() { date +%s.%N; }
fmt_mib() { awk -v k="$1" 'BEGIN { if (k == "" || k < -1e17) print "?"; else printf "%.1f", k / 1024 }'; }

# kv FILE KEY: the value of KEY= in FILE's SOAK-RESULT line.
kv() { sed -n "s/^SOAK-RESULT.* $2=\([^ ]*\).*/\1/p" "$1" | tail -1; }

# launch_cmd NP MODE: the mpirun command (in cmd) for MODE: native, a
# topology (the library serving every size), or defaults (the library with
# its default settings).
launch_cmd() {
    local np=$1 mode=$2
    cmd=("$MPIRUN" --oversubscribe -np "$np")
    if [ "$mode" = defaults ]; then # the library with its default settings
        cmd+=(-x "LD_PRELOAD=$LIB" -x INTERGATHER_VERBOSE=1 "${extra_x[@]}")
    elif [ "$mode" != native ]; then
        cmd+=(-x "LD_PRELOAD=$LIB" -x "$SERVE_SMALL_CALLS" -x "INTERGATHER_TOPOLOGY=$mode" -x INTERGATHER_VERBOSE=1)
        cmd+=("${MODEL_CHOICES[@]}")
        cmd+=("${extra_x[@]}")
    fi
}

# ---------------------------------------------------------------- 1. soak
soak_rows=()
declare -A native_growth
lib_calls=0 lib_mismatches=0 total_checks=0
soak_timeout=$((120 + CALLS / 8))
echo "== soak: seed $SEED, $CALLS calls per run, splits $SPLITS, native + $TOPOLOGIES"
for split in $SPLITS; do
    np=${split%%:*} left=${split##*:}
    seed=$((SEED + np * 100 + left))
    for mode in native $TOPOLOGIES; do
        label="$left+$((np - left)) $mode"
        log="$work/soak-$np-$left-$mode.log"
        launch_cmd "$np" "$mode"
        cmd+=("$work/soak" --calls "$CALLS" --seed "$seed" --left "$left" --watchdog 120)
        echo "-- $label: ${cmd[*]}"
        t0=$(now)
        timeout -k 10 "$soak_timeout" "${cmd[@]}" >"$log" 2>&1
        rc=$?
        secs=$(awk -v a="$t0" -v b="$(now)" 'BEGIN { printf "%.0f", b - a }')
        status=ok
        if grep -q '^SOAK MISMATCH' "$log"; then status=MISMATCH
        elif grep -q '^SOAK HANG' "$log"; then status=HANG
        elif grep -q '^SOAK ERROR' "$log"; then status=ERROR
        elif [ "$secs" -ge "$soak_timeout" ]; then status="TIMEOUT(${soak_timeout}s)"
        elif [ $rc -ne 0 ] || ! grep -q '^SOAK-RESULT' "$log"; then status="EXIT($rc)"
        fi
        summary_line=$(grep 'intergather: summary (world rank 0)' "$log" | tail -1)
        if [ "$status" = ok ]; then
            verdict=$(kv "$log" verdict)
            [ "${verdict%%,*}" = PASS ] || status="${verdict#FAIL,}"
            if [ "$mode" = native ]; then
                native_growth[$split]=$(kv "$log" private_growth_kib)
                [ "$(kv "$log" library)" = no ] || status="library-loaded-in-native-run"
            else
                [ "$(kv "$log" library)" = yes ] || status="library-not-loaded"
                if [ -z "$summary_line" ]; then
                    status="no-finalize-summary"
                else
                    served=$(echo "$summary_line" | sed -n 's/.* served fully-connected=\([0-9]*\) ring=\([0-9]*\) .*/\1 \2/p' | awk '{ print $1 + $2 }')
                    native_calls=$(echo "$summary_line" | sed 's/.*; native//; s/;.*//' | tr ' ' '\n' | awk -F= 'NF == 2 { t += $2 } END { print t + 0 }')
                    [ "${served:-0}" -gt 0 ] || status="nothing-served"
                    [ "$native_calls" -eq 0 ] || status="calls-went-native($native_calls;${SERVE_SMALL_CALLS%%=*}-renamed?)"
                fi
                g=$(kv "$log" private_growth_kib) ng=${native_growth[$split]:-}
                if [ -n "$ng" ] && [ $((g - ng)) -gt $((RSS_SLACK_MIB * 1024)) ]; then
                    status="private-memory-growth($(fmt_mib $((g - ng))) MiB over native)"
                fi
                lib_calls=$((lib_calls + $(kv "$log" calls)))
            fi
            total_checks=$((total_checks + $(kv "$log" checks)))
        else
            grep -m3 -A1 '^SOAK \(MISMATCH\|HANG\|ERROR\)' "$log" | sed 's/^/   /'
            [ "$status" = MISMATCH ] && lib_mismatches=$((lib_mismatches + 1))
        fi
        [ "$status" = ok ] || { fail "soak $label: $status (log: ${cmd[*]})"; tail -5 "$log" | sed 's/^/   | /'; }
        growth=$(kv "$log" rss_growth_kib)
        row=$(printf '%-19s %6s %7s %5s  %5s %5s %5s %5s  %6s %7s  %4s %4s %4s  %4s  %s' "$label" \
            "$(kv "$log" calls)" "$(kv "$log" checks)" "$(kv "$log" mismatches)" \
            "$(fmt_mib "$(kv "$log" rss_start_kib)")" "$(fmt_mib "$(kv "$log" rss_warm_kib)")" \
            "$(fmt_mib "$(kv "$log" rss_end_kib)")" "$(fmt_mib "$(kv "$log" rss_peak_kib)")" \
            "$(fmt_mib "$growth")" "$(fmt_mib "$(kv "$log" private_growth_kib)")" \
            "$(kv "$log" live_start)" "$(kv "$log" live_peak)" "$(kv "$log" live_end)" \
            "$secs" "$status")
        echo "$row"
        soak_rows+=("$row")
        [ -n "$summary_line" ] && soak_rows+=("    ${summary_line#intergather: }")
    done
done

# ------------------------------------------------------------- 1b. probes
# Legal calls in which one process's arguments differ in kind from the
# others' (a datatype of extent 0): every process must still take the same
# path.  Each runs natively and under the library (watchdog 10 s).
probe_rows=()
if [ $PROBES = 1 ]; then
    echo "== probes: legal calls with a datatype of extent 0 on one side"
    for probe in zero-extent-send:3:1 zero-extent-recv-v:4:2; do
        name=${probe%%:*} rest=${probe#*:}; np=${rest%%:*} left=${rest##*:}
        declare -A pres=()
        for mode in native defaults; do
            log="$work/probe-$name-$mode.log"
            launch_cmd "$np" "$mode"
            cmd+=("$work/soak" --probe "$name" --left "$left" --watchdog 10)
            timeout -k 10 60 "${cmd[@]}" >"$log" 2>&1
            rc=$?
            if grep -q "^PROBE-RESULT $name PASS" "$log" && [ $rc -eq 0 ]; then pres[$mode]=PASS
            elif grep -q '^SOAK HANG' "$log"; then pres[$mode]=HANG
            elif grep -q '^SOAK MISMATCH' "$log"; then pres[$mode]=WRONG-DATA
            else pres[$mode]="EXIT($rc)"
            fi
            pcmd[$mode]="${cmd[*]}"
        done
        status=ok
        if [ "${pres[native]}" != PASS ]; then status="n/a (native fails too)"
        elif [ "${pres[defaults]}" != PASS ]; then
            status=FAIL; fail "probe $name ($left+$((np - left))): ${pres[defaults]} under the library, native passes (${pcmd[defaults]})"
        fi
        row=$(printf '%-19s %-5s  %-10s %-10s  %s' "$name" "$left+$((np - left))" "${pres[native]}" "${pres[defaults]}" "$status")
        echo "$row"
        probe_rows+=("$row")
    done
fi

# --------------------------------------------------------------- 2. faults
fault_rows=()
if [ $FAULTS = 1 ]; then
    echo "== faults: one process fails before call $FAULT_AT; time from the fault to mpirun's exit"
    for split in $FAULT_SPLITS; do
        np=${split%%:*} left=${split##*:}
        for kind in kill abort exit; do
            case $kind in kill) frank=$((np - 1)); what="kill -9" ;; abort) frank=1; what="MPI_Abort" ;;
                          exit) frank=0; what="exit(3)" ;; esac
            declare -A took=() how=()
            for mode in native fully-connected; do
                ffile="$work/fault-$np-$kind-$mode.time"
                log="$work/fault-$np-$kind-$mode.log"
                rm -f "$ffile"
                launch_cmd "$np" "$mode"
                cmd+=("$work/soak" --calls 1000000000 --seed "$SEED" --left "$left" --watchdog 0
                      --fault "$kind" --fault-at "$FAULT_AT" --fault-rank "$frank" --fault-file "$ffile")
                t0=$(now)
                timeout -k 10 "$FAULT_TIMEOUT" "${cmd[@]}" >"$log" 2>&1
                rc=$?
                t1=$(now)
                if [ ! -s "$ffile" ]; then
                    took[$mode]="-"; how[$mode]="no-fault(rc=$rc)"
                elif awk -v a="$t0" -v b="$t1" -v l="$FAULT_TIMEOUT" 'BEGIN { exit !(b - a >= l) }'; then
                    took[$mode]=">$FAULT_TIMEOUT"; how[$mode]="did-not-end"
                else
                    took[$mode]=$(awk -v f="$(cat "$ffile")" -v b="$t1" 'BEGIN { printf "%.2f", b - f }')
                    how[$mode]="rc=$rc"
                fi
            done
            n=${took[native]} l=${took[fully-connected]}
            limit="-" status=ok
            if [[ $n =~ ^[0-9.]+$ ]]; then limit=$(awk -v n="$n" 'BEGIN { printf "%.1f", 2 * n + 5 }'); fi
            if ! [[ $l =~ ^[0-9.]+$ ]]; then status="library:${how[fully-connected]}"
            elif [ "$limit" != - ] && awk -v l="$l" -v m="$limit" 'BEGIN { exit !(l > m) }'; then status="library-too-slow"
            elif ! [[ $n =~ ^[0-9.]+$ ]]; then status="native:${how[native]}"
            fi
            [ "$status" = ok ] || fail "fault $what on $left+$((np - left)): $status"
            row=$(printf '%-10s %-5s %4s  %7s %-9s %7s %-9s %6s  %s' "$what" "$left+$((np - left))" "$frank" \
                "$n" "(${how[native]})" "$l" "(${how[fully-connected]})" "$limit" "$status")
            echo "$row"
            fault_rows+=("$row")
        done
    done
fi

# -------------------------------------------------------------- 3. summary
{
    echo
    echo "==================== intergather soak summary ===================="
    echo "library: $LIB"
    echo "seed: $SEED (per split: seed + 100 * NP + LEFT); $CALLS calls per run; $(date -u '+%Y-%m-%d %H:%M UTC'); $(nproc) cores"
    echo "settings: ${SERVE_SMALL_CALLS} INTERGATHER_VERBOSE=1 INTERGATHER_TOPOLOGY=<run>${MODEL_CHOICES[*]:+ ${MODEL_CHOICES[1]}}${extra_x[*]:+ (passed on: ${extra_x[*]})}"
    echo
    echo "soak (RSS: max over processes, MiB; growth: end - after warm-up, of RSS and of private memory; live: internal comms)"
    printf '%-19s %6s %7s %5s  %5s %5s %5s %5s  %6s %7s  %4s %4s %4s  %4s  %s\n' run calls checks mism \
        start warm end peak growth private live peak end secs result
    for r in "${soak_rows[@]}"; do echo "$r"; done
    echo
    echo "library runs: $lib_calls calls, $total_checks result checks in all runs, mismatches: $lib_mismatches"
    if [ $PROBES = 1 ]; then
        echo
        echo "probes (legal calls, a datatype of extent 0 on one side; the library with default settings)"
        printf '%-19s %-5s  %-10s %-10s  %s\n' probe split native library result
        for r in "${probe_rows[@]}"; do echo "$r"; done
    fi
    if [ $FAULTS = 1 ]; then
        echo
        echo "faults (seconds from the fault to mpirun's exit; limit = 2 x native + 5)"
        printf '%-10s %-5s %4s  %7s %-9s %7s %-9s %6s  %s\n' fault split rank native "" library "" limit result
        for r in "${fault_rows[@]}"; do echo "$r"; done
    fi
    echo
    if [ ${#failures[@]} -eq 0 ]; then
        echo "PASS"
    else
        echo "failures (the commands use a temporary soak binary: rerun with --keep to keep it and the logs):"
        for f in "${failures[@]}"; do echo "  $f"; done
        echo "FAIL"
    fi
} >"$work/summary"
cat "$work/summary"
if [ -n "$OUT" ]; then mkdir -p "$(dirname "$OUT")" && cp "$work/summary" "$OUT"; fi
[ ${#failures[@]} -eq 0 ]
