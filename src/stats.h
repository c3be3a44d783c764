/*
 * Statistics: what the shim did in this process, reported at MPI_Finalize
 * when INTERGATHER_VERBOSE >= 1.  Counters are atomic so concurrent calls
 * from several threads are counted exactly.
 */
#ifndef IG_STATS_H
#define IG_STATS_H

/* Calls the shim served itself. */
typedef enum {
    IG_ALGO_FULLY_CONNECTED = 0,
    IG_ALGO_RING,
    IG_ALGO_EMPTY, /* nothing to move: both groups send zero bytes */
    IG_ALGO_COUNT
} ig_algo;

/* Why a call went to the native PMPI_Allgather instead. */
typedef enum {
    IG_FALLBACK_INTRA = 0,      /* intra-communicator */
    IG_FALLBACK_COMM_NULL,      /* MPI_COMM_NULL: native raises the error */
    IG_FALLBACK_NOT_INITIALIZED,/* before MPI_Init or after MPI_Finalize */
    IG_FALLBACK_IN_PLACE,       /* MPI_IN_PLACE: not valid on inter-comms, native errs */
    IG_FALLBACK_ARGUMENTS,      /* counts, types or extents the shim does not handle */
    IG_FALLBACK_SMALL,          /* below INTERGATHER_MIN_BYTES */
    IG_FALLBACK_DISABLED,       /* INTERGATHER_TOPOLOGY=native */
    IG_FALLBACK_SETTINGS_DIFFER,/* processes of the communicator disagree on settings */
    IG_FALLBACK_COUNT
} ig_fallback;

/* What kind of call was served (a call counts once in each applicable kind). */
typedef enum {
    IG_KIND_HALF_DUPLEX = 0,
    IG_KIND_FULL_DUPLEX,
    IG_KIND_ALLGATHERV,
    IG_KIND_FORTRAN,
    IG_KIND_COUNT
} ig_kind;

/* Who ran a fully connected algorithm's intra-group allgather stage
 * (INTERGATHER_GROUP_ALLGATHER; `auto` resolves to one of these per call). */
typedef enum {
    IG_STAGE_MPI = 0, /* the MPI library's allgather */
    IG_STAGE_RING,    /* intergather's neighbour ring */
    IG_STAGE_COUNT
} ig_stage;

void ig_stats_served(ig_algo algo);
void ig_stats_group_stage(ig_stage stage);
void ig_stats_kind(ig_kind kind);
void ig_stats_fallback(ig_fallback why);
void ig_stats_comm_created(int n);
void ig_stats_comm_freed(int n);

const char *ig_algo_name(ig_algo a);
const char *ig_fallback_name(ig_fallback f);

/* The summary lines printed at finalize, for this process. */
void ig_stats_report(int world_rank);

#endif
