# Shared by figure4.sh and direct.sh (sourced, not run): the Figure 4
# panels, SMPI's settings, and the build and platforms every run needs.

# panel topology p q platform hostfile ranks-per-node largest-size-proposed largest-size-baseline
# (the paper's order, a..l).  Largest sizes: SMPI 3.32 computes some
# collective byte offsets in 32-bit ints, so a run whose buffers exceed
# 2 GiB fails (scatter_LR_allgather bcast of p * 4 MiB = 2 GiB: truncation
# and deadlock; NTSLR allgather over 768 * 4 MiB = 3 GiB: segmentation
# fault).  Panels a (root gathering) and c (both) therefore stop at 2 MiB.
PANELS="
a fc   512 512 cori_df.xml hosts-1024x8.txt 8 4M 2M
b fc   256 768 cori_df.xml hosts-1024x8.txt 8 4M 4M
c fc   768 256 cori_df.xml hosts-1024x8.txt 8 2M 2M
d fc   128 128 cori_df.xml hosts-256x1.txt  1 4M 4M
e fc    64 192 cori_df.xml hosts-256x1.txt  1 4M 4M
f fc   192  64 cori_df.xml hosts-256x1.txt  1 4M 4M
g ring 512 512 ring128.xml hosts-1024x8.txt 8 4M 4M
h ring 256 768 ring128.xml hosts-1024x8.txt 8 4M 4M
i ring 768 256 ring128.xml hosts-1024x8.txt 8 4M 4M
j ring 128 128 ring256.xml hosts-256x1.txt  1 4M 4M
k ring  64 192 ring256.xml hosts-256x1.txt  1 4M 4M
l ring 192  64 ring256.xml hosts-256x1.txt  1 4M 4M
"
# Collective algorithms as Cori's Cray MPI uses for these sizes, and the
# memory folding that makes 1024 simulated processes fit.
SMPI_CFG=(
    --cfg=smpi/coll-selector:mpich
    --cfg=smpi/allgather:NTSLR
    --cfg=smpi/bcast:scatter_LR_allgather
    --cfg=smpi/simulate-computation:no
    --cfg=smpi/shared-malloc-blocksize:268435456
    --cfg=smpi/auto-shared-malloc-thresh:65536
    --cfg=smpi/privatization:no
)

panel_row() { echo "$PANELS" | awk -v id="$1" '$1 == id'; }

# shellcheck source=scripts/simgrid/sources.sh
. "$(dirname "${BASH_SOURCE[0]}")/sources.sh"

# build_decide_table TOP OUT: compile decide_table.c, the library's decision
# without MPI calls, with every source of libigplan (Makefile.am), with
# $MPICC (default mpicc: mpi.h is needed for types).
build_decide_table() {
    # shellcheck disable=SC2046 # paths without spaces
    ${MPICC:-mpicc} -std=c11 -O2 -I"$1/include" -I"$1/src" -o "$2" "$1/scripts/simgrid/decide_table.c" \
        $(makefile_sources "$1" igplan | sed "s|^|$1/|") -lm
}

# sim_prepare SCRIPT BUILD WORK DO_BUILD: build the simulated benchmark
# (unless DO_BUILD is 0) and the platforms; sets $bin.
sim_prepare() {
    if [ "$4" = 1 ]; then
        IG_SIM_BUILD="$2" "$here/build.sh" >/dev/null
    fi
    bin="$2/intergather-bench"
    [ -x "$bin" ] || { echo "$1: $bin missing (run without --no-build)" >&2; exit 1; }
    python3 "$here/platforms.py" --out "$3/platforms"
}
