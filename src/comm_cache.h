/*
 * Per-communicator cache: the private communicators intergather needs for a
 * user's inter-communicator, built at its first call and attached to it with
 * an attribute whose delete callback frees them (at MPI_Comm_free,
 * MPI_Comm_disconnect, or never if the user never frees the communicator).
 */
#ifndef IG_COMM_CACHE_H
#define IG_COMM_CACHE_H

#include "decide.h"
#include "opening_left.h"
#include "pair.h"
#include "settings.h"

#include <stdint.h>

typedef struct ig_comm_cache ig_comm_cache;

/* Look up or build the cache of an inter-communicator.  Building is
 * collective over both groups and happens at the first call that needs it,
 * which every process reaches together because the decision to get here is
 * made from arguments the standard requires to be consistent. */
int ig_comm_cache_get(MPI_Comm inter, ig_comm_cache **cache);

/* Whether `comm` is the inter-communicator whose cache was last fetched
 * (remembered, not looked up: comm_cache.c), with its remote group's size
 * in *remote_size.  It is forgotten at its free and at MPI_Finalize, so a
 * handle the MPI library reuses is never taken for the old one. */
int ig_comm_cache_recall_remote_size(MPI_Comm comm, int *remote_size);

/* Room for IG_CACHE_RECORD_LEN integers per process of both groups, for the
 * agreement of an MPI_Allgatherv (agree.c), allocated with the cache so
 * that no call can fail alone on it; valid whenever the settings agree
 * (a process without it makes them disagree for everyone). */
#define IG_CACHE_RECORD_LEN 5
int64_t *ig_comm_cache_records(ig_comm_cache *cache);

/* Room for one early message that must be withdrawn (speculate.c), of up
 * to IG_CACHE_DISCARD_BYTES, allocated with the cache like the records:
 * taking such a message into memory allocated in the call could fail, and
 * a message taken truncated aborts the job under an MPI library whose
 * truncated receives do not return (MPICH: mpi_identity.h).  There no
 * larger block is posted early. */
#define IG_CACHE_DISCARD_BYTES 65536
void *ig_comm_cache_discard_room(ig_comm_cache *cache);

/* Whether every process of the communicator has the same settings (checked
 * once, when the cache was built). */
int ig_comm_cache_settings_agree(const ig_comm_cache *cache);

/* Whether this process speaks for the communicator in one-line messages
 * (rank 0 of the merged communicator, whichever group sends). */
int ig_comm_cache_is_spokesperson(const ig_comm_cache *cache);

/* Whether this process's group comes first in the merged order (the same
 * answer on every process of a group, opposite answers in the two groups). */
int ig_comm_cache_local_is_low(const ig_comm_cache *cache);

/* This process's rank in its own group of the inter-communicator. */
int ig_comm_cache_local_rank(const ig_comm_cache *cache);

/* The sizes of the low and high groups in n[0], n[1]; returns this
 * process's group (0 low, 1 high). */
int ig_comm_cache_group_sizes(const ig_comm_cache *cache, int n[2]);

/* The settings this communicator's calls decide with: the process's,
 * with the cost model it measured where a model says "measure"
 * (net_measure.h); the same on every process when the settings agree. */
const ig_settings *ig_comm_cache_settings(const ig_comm_cache *cache);

/* The private merged communicator of both groups (low group first): where
 * the processes agree on each call (agree.c). */
MPI_Comm ig_comm_cache_merged(const ig_comm_cache *cache);

/* The private copy of the inter-communicator on which the opening round
 * runs (opening.c): remote rank i is the user's remote rank i, and no other
 * message travels there. */
MPI_Comm ig_comm_cache_opening(const ig_comm_cache *cache);

/* The block sizes the opening's round-one tags name exactly on this
 * communicator (ig_opening_max_bytes of the smallest MPI_TAG_UB of both
 * groups), the same on every process. */
int64_t ig_comm_cache_opening_max_bytes(const ig_comm_cache *cache);

/* The last sizes the opening judged on this communicator, and whether they
 * were small (the answer depends on nothing else that can change): a
 * program calls with the same sizes again and again.  history: the
 * classes of the last calls, from which the next one's skip is predicted
 * (ig_decide_opening_predict_skip; observed after each call, alike on
 * every process). */
typedef struct {
    int64_t send, expect, expect_total; /* send < 0: none yet */
    int allgatherv, small;
    ig_opening_history history;
    /* What an MPI_Allgatherv sender that expects nothing saw of its
     * receivers (ig_decide_opening_learnt_early), and whether the last
     * call's is still to be read from its settled round-one messages (it
     * left early). */
    ig_opening_receivers_seen receivers;
    int early_pending;
} ig_opening_memo;
ig_opening_memo *ig_comm_cache_opening_memo(ig_comm_cache *cache);

/* The round-one receives this process left to complete when it last left
 * an opening early (opening_left.h).  The cache settles them when the
 * communicator is freed, and ig_comm_cache_shutdown those of every
 * communicator still alive. */
ig_opening_left *ig_comm_cache_opening_left(ig_comm_cache *cache);

/* How many nodes (shared-memory domains) the two groups span, the same on
 * every process. */
int ig_comm_cache_nodes(const ig_comm_cache *cache);

/* Whether some node has more of the two groups' processes than CPUs to run
 * them on (INTERGATHER_OVERSUBSCRIBED, settings.h), the same on every
 * process. */
int ig_comm_cache_oversubscribed(const ig_comm_cache *cache);

/* The pair for one direction: local_sends != 0 when this process's group
 * comes first in it, the sending group's (in full duplex, where both
 * groups send, the low group comes first: algorithms.h,
 * ig_step_local_first).  Built collectively on the first call in that
 * direction. */
int ig_comm_cache_pair(ig_comm_cache *cache, int local_sends, ig_pair **pair);

/* The pair for one direction if an earlier call built it, else NULL (never
 * collective: for a process acting before the call's agreement). */
ig_pair *ig_comm_cache_pair_built(const ig_comm_cache *cache, int local_sends);

/* At finalize: settle the receives left on every communicator still
 * alive, and release the keyval. */
void ig_comm_cache_shutdown(void);

#endif
