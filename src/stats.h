/*
 * Statistics: what the shim did in this process, reported at MPI_Finalize
 * when INTERGATHER_VERBOSE >= 1.  Counters are atomic so concurrent calls
 * from several threads are counted exactly.
 */
#ifndef IG_STATS_H
#define IG_STATS_H

/* Why a call went to the native PMPI_Allgather instead. */
typedef enum {
    IG_FALLBACK_NONE = 0,       /* (not a fallback: the call can be served) */
    IG_FALLBACK_INTRA,          /* intra-communicator */
    IG_FALLBACK_COMM_NULL,      /* MPI_COMM_NULL: native raises the error */
    IG_FALLBACK_NOT_INITIALIZED,/* before MPI_Init or after MPI_Finalize */
    IG_FALLBACK_IN_PLACE,       /* MPI_IN_PLACE: not valid on inter-comms, native errs */
    IG_FALLBACK_ARGUMENTS,      /* counts, types, buffers or layouts left to the MPI library */
    IG_FALLBACK_SMALL,          /* below INTERGATHER_MIN_BYTES */
    IG_FALLBACK_DISABLED,       /* INTERGATHER_TOPOLOGY or INTERGATHER_ALGORITHM=native */
    IG_FALLBACK_SETTINGS_DIFFER,/* processes of the communicator disagree on settings */
    IG_FALLBACK_MODEL,          /* the cost model predicts the MPI library faster */
    IG_FALLBACK_NO_MEMORY,      /* some process could not build its receive type (serve.c) or copy it (call.c) */
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

/* A served call: whether the ring algorithm ran it (1) or the fully
 * connected family (0: the summary's fully-connected and ring counts,
 * whatever the topology hint said), and by which algorithms (the table's
 * ids; a call in two passes counts each). */
void ig_stats_served(int ran_ring);
void ig_stats_empty(void);
void ig_stats_algorithm(int algorithm);
/* An intra-group allgather stage, by who ran it (IG_GROUP_STAGE_MPI/RING). */
void ig_stats_group_stage(int stage);
void ig_stats_kind(ig_kind kind);
/* Every kind a served call counts in (the agreed path, serve.c, and the
 * opening round, opening.c, alike). */
void ig_stats_kinds(int full_duplex, int allgatherv, int from_fortran);
void ig_stats_fallback(ig_fallback why);
/* An erroneous call whose groups' sizes disagree, served point to point. */
void ig_stats_erroneous(void);
/* A direct step posted before the agreement (speculate.h), and one withdrawn. */
void ig_stats_posted_early(void);
void ig_stats_withdrawn(void);
/* An early star member's block sent on to its team before the agreement
 * ended (speculate.h). */
void ig_stats_sent_on_early(void);
/* A block sent paced (ig_paced_send, p2p.h; a relay sender's whole
 * pieces, algo_relay.c). */
void ig_stats_paced_send(void);
/* How a call that started with the opening round (opening_plan.h) went on. */
typedef enum {
    IG_OPENING_STAT_ENDED = 0,    /* every pair done after round one */
    IG_OPENING_STAT_PAIR_BY_PAIR, /* some pairs done, the rest finished point to point */
    IG_OPENING_STAT_WENT_ON,      /* no pair done: the agreement and the decision followed */
    IG_OPENING_STAT_IN_PIECES,    /* this process left early and sent its block in eager pieces */
    IG_OPENING_STAT_TAKEN_LATER,  /* ... and some peer that left early too takes them later (opening_left.h) */
    IG_OPENING_STAT_SKIPPED,      /* not run: predicted from the last calls (ig_decide_opening_predict_skip) */
    IG_OPENING_STAT_LEARNT_EARLY, /* an MPI_Allgatherv sender left early, its receivers seen small (opening.c) */
    IG_OPENING_STAT_TREE,         /* the round ran with the single process's message down the tree (opening_plan.h) */
    IG_OPENING_STAT_COUNT
} ig_opening_stat;
void ig_stats_opening(ig_opening_stat what);

/* An algorithm's requests or counts that did not fit its pair's room
 * (pair.h) and were allocated. */
void ig_stats_arrays_allocated(void);
void ig_stats_comm_created(int n);
void ig_stats_comm_freed(int n);

const char *ig_fallback_name(ig_fallback f);

/* The summary line printed at finalize, for this process. */
void ig_stats_report(int world_rank);

#endif
