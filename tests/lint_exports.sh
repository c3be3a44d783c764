#!/bin/bash
# The preloaded library must export only the MPI entry points it wraps and
# its documented API (include/intergather.h): any other global name could
# clash with a symbol of the program it is loaded into.
set -eu
lib=${IG_LIB:?}
allowed='^(MPI_Allgatherv?|MPI_Init(_thread)?|MPI_ALLGATHERV?|mpi_allgatherv?(_|__|_f08_)?|MPI_INIT(_THREAD)?|mpi_init(_thread)?(_|__|_f08_)?|ig_pair_[a-z_]+|intergather_internal_comms_live)$'
exported=$(nm -D --defined-only "$lib" | awk '$2 ~ /^[TDBRVW]$/ {print $3}' | grep -v '^_' | sort)
unexpected=$(echo "$exported" | grep -vE "$allowed" || true)
if [ -n "$unexpected" ]; then
    echo "unexpected exported symbols in $lib:" >&2
    echo "$unexpected" >&2
    exit 1
fi
for needed in MPI_Allgather MPI_Allgatherv mpi_allgather_ mpi_allgatherv_f08_ mpi_init_ mpi_init_thread_f08_ ig_pair_create; do
    echo "$exported" | grep -qx "$needed" || { echo "missing export: $needed" >&2; exit 1; }
done
echo "ok: $(echo "$exported" | wc -l) exported symbols, all intended"
