/*
 * Settings: every INTERGATHER_* environment variable is named here, once,
 * and documented in the README's configuration table.  (The only others
 * the library reads are the launchers' rank variables, so that a foreign
 * MPI's warning is printed once per job: mpi_identity.c.)
 *
 * Parsing (settings_parse.c) is pure C so it is unit-tested without MPI; the
 * runtime side (settings.c) reads the environment once per process.
 */
#ifndef IG_SETTINGS_H
#define IG_SETTINGS_H

#include "cost_model.h"
#include "group_stage.h"
#include "intergather.h" /* ig_ring_kind */

#include <stddef.h>
#include <stdint.h>

#define IG_ENV_TOPOLOGY      "INTERGATHER_TOPOLOGY"
#define IG_ENV_MIN_BYTES     "INTERGATHER_MIN_BYTES"
#define IG_ENV_VERBOSE       "INTERGATHER_VERBOSE"
#define IG_ENV_RING_SCHEDULE "INTERGATHER_RING_SCHEDULE"
#define IG_ENV_GROUP_ALLGATHER "INTERGATHER_GROUP_ALLGATHER"
#define IG_ENV_MANY_SENDERS "INTERGATHER_MANY_SENDERS"
#define IG_ENV_ALGORITHM    "INTERGATHER_ALGORITHM"
#define IG_ENV_NET_MODEL    "INTERGATHER_NET_MODEL"
#define IG_ENV_SHM_MODEL    "INTERGATHER_SHM_MODEL"
#define IG_ENV_OPENING      "INTERGATHER_OPENING"
#define IG_ENV_OVERSUBSCRIBED "INTERGATHER_OVERSUBSCRIBED"

/* Default for INTERGATHER_MIN_BYTES: none.  Whether a call goes native is
 * the cost model's decision (decide.c); the setting only lets a site keep
 * small calls native regardless. */
#define IG_DEFAULT_MIN_BYTES ((uint64_t)0)

/* INTERGATHER_ALGORITHM: the model chooses (auto), the MPI library serves
 * (native), or one algorithm of the table (algorithms.def) by name. */
#define IG_ALGORITHM_AUTO (-1)
#define IG_ALGORITHM_NATIVE (-2)

enum { IG_OPENING_OFF = 0, IG_OPENING_ON = 1, IG_OPENING_PIECES = 2, IG_OPENING_TREE = 3 };

/* INTERGATHER_OVERSUBSCRIBED: whether a node has more processes than cores
 * to run them on: detected per communicator (comm_cache.c), or said. */
enum { IG_OVERSUBSCRIBED_AUTO = 0, IG_OVERSUBSCRIBED_NO = 1, IG_OVERSUBSCRIBED_YES = 2 };

typedef enum {
    IG_TOPOLOGY_FULLY_CONNECTED = 0,
    IG_TOPOLOGY_RING,
    IG_TOPOLOGY_NATIVE
} ig_topology;

/* How the fully connected algorithm serves p > q. */
typedef enum {
    IG_MANY_SENDERS_SPREAD = 0, /* blocks spread over the receivers in ranges (default) */
    IG_MANY_SENDERS_JOIN        /* the paper: the p - q extra senders join the receivers' allgather */
} ig_many_senders;

/* Where AUTO switches the group stage from the MPI library's allgather to
 * intergather's ring: the bytes one member contributes.  Large blocks are
 * bandwidth-bound, and the ring is the allgather whose every step sends to
 * one neighbour while receiving from the other, so it runs at link rate;
 * Open MPI's default choice for 4 to 16 processes (recursive doubling,
 * neighbour exchange: two-way exchanges with one peer) ran the stage at
 * about half the link rate over TCP, which kept fc below the 2.7x target
 * (4+4) and at the edge of the 4.5x one (8+8) on the emulated cluster.
 * Below this size the ring's n - 1 latencies count and it lost to Open MPI
 * on shared memory at 16 KiB (docs/performance.md).  MPICH's own rule is
 * the same shape: ring allgather for long messages. */
#define IG_GROUP_RING_MIN_BYTES ((uint64_t)65536)

typedef struct {
    ig_topology topology;
    uint64_t min_bytes;
    int verbose; /* 0 quiet, 1 banner + summary, 2 also per-process detail */
    ig_ring_kind ring_schedule;
    ig_group_stage group_stage;
    ig_many_senders many_senders;
    int algorithm;            /* IG_ALGORITHM_AUTO, _NATIVE, or an ig_algorithm */
    ig_cost_params net_model; /* the cost model between nodes */
    ig_cost_params shm_model; /* ... and within one node */
    /* "measure": each communicator measures the model it uses (comm_cache.c,
     * net_measure.c) instead of taking net_model / shm_model as they are;
     * the default between nodes, not within one. */
    int net_measure, shm_measure;
    /* INTERGATHER_OPENING: whether MPI_Allgather(v) calls start with the
     * opening round (opening_plan.h): IG_OPENING_ON (the default; an early
     * sender cuts its block into eager pieces between nodes only),
     * IG_OPENING_OFF, IG_OPENING_PIECES (cuts also within a node: for
     * tests on one machine, and transports whose eager limit is higher),
     * or IG_OPENING_TREE (a group of one process sends its round-one
     * message down the tree also within a node, decide.h:
     * ig_decide_opening_tree; for tests on one machine). */
    int opening;
    /* INTERGATHER_OVERSUBSCRIBED: IG_OVERSUBSCRIBED_AUTO (the default: a
     * communicator whose processes all share one node counts as
     * oversubscribed when they outnumber the CPUs their affinity masks
     * allow, comm_cache.c), _YES or _NO.  On such a node the decision
     * serves every call with the direct algorithm (decide.c). */
    int oversubscribed;
    /* Not from the environment: whether the MPI library's intra-communicator
     * MPI_Allgatherv is correct when its members' receive types differ in
     * size or extent (legal: only the signatures must match).  MPICH 4.0.2's
     * is not: it cuts each member's part into pieces of 32 KiB over that
     * member's own type extent, so members whose types differ cut at
     * different places, and the call fails with MPI_ERR_TRUNCATE, wrong data
     * or a hang.  Every group stage may meet that: an MPI_Allgatherv's counts
     * are in the user's receive types, an MPI_Allgather's in block types of
     * one size whose extents follow the user's.  Then every group stage runs
     * intergather's ring (decide.c).  From the build (mpi_identity.h), so
     * the same in every process; 1 by default. */
    int mpi_allgatherv_mixed_types;
    /* How many of the settings that choose messages (all but
     * INTERGATHER_VERBOSE) had a value this process did not understand and
     * replaced by the default.  In the fingerprint: a process whose value
     * was misspelt disagrees with one that left it unset, so that the
     * communicator stays native with the "settings differ" warning, where
     * otherwise only world rank 0's own misspelling would ever be told. */
    int values_ignored;
} ig_settings;

/* Each parser returns 0 and sets *out when text is valid; otherwise returns -1
 * and leaves *out untouched, so the caller keeps the default.  NULL or empty
 * text means "not set" and also returns -1 without touching *out; callers
 * tell the two apart with ig_setting_is_set(). */
int ig_setting_is_set(const char *text);
int ig_parse_topology(const char *text, ig_topology *out);
int ig_parse_bytes(const char *text, uint64_t *out);
int ig_parse_verbose(const char *text, int *out);
int ig_parse_ring_schedule(const char *text, ig_ring_kind *out);
int ig_parse_group_stage(const char *text, ig_group_stage *out);
int ig_parse_many_senders(const char *text, ig_many_senders *out);
int ig_parse_algorithm(const char *text, int *out);
/* INTERGATHER_OPENING: on, off (1, 0), pieces or tree. */
int ig_parse_opening(const char *text, int *out);
/* INTERGATHER_OVERSUBSCRIBED: auto, yes (on, 1) or no (off, 0). */
int ig_parse_oversubscribed(const char *text, int *out);
/* "ts=5e-6,tw=1e-10,to=1e-6": any of the three keys, in seconds (tw: per
 * byte), each a number from 0 to 1; keys left out keep *out's value. */
int ig_parse_model(const char *text, ig_cost_params *out);
/* "measure" (sets *measure), or a model as above (clears it). */
int ig_parse_model_or_measure(const char *text, int *measure, ig_cost_params *out);
/* A model as the user would write it, with a decimal point in any locale
 * (so a verbose line can be pasted back into the setting); returns buf. */
const char *ig_format_model(const ig_cost_params *m, char *buf, size_t size);

/* Each value's name: the first word its parser accepts. */
const char *ig_topology_name(ig_topology t);
const char *ig_ring_schedule_name(ig_ring_kind s);
const char *ig_group_stage_name(ig_group_stage g);
const char *ig_many_senders_name(ig_many_senders m);
const char *ig_opening_name(int opening);
const char *ig_oversubscribed_name(int oversubscribed);
const char *ig_algorithm_setting_name(int algorithm);

/* The defaults, as if no variable were set. */
void ig_settings_defaults(ig_settings *s);

/* Defaults, then every variable from getenv-style lookup.  Each variable that
 * is set but not understood is reported through warn(name, value, expected). */
typedef const char *(*ig_lookup_fn)(const char *name);
typedef void (*ig_warn_fn)(const char *name, const char *value, const char *expected);
void ig_settings_load(ig_settings *s, ig_lookup_fn lookup, ig_warn_fn warn);

/* A fingerprint of every setting that changes which algorithm runs, and of
 * the build that runs it (`build`, ig_build_identity()); processes of one
 * communicator compare it before acting together. */
uint64_t ig_settings_fingerprint(const ig_settings *s, const char *build);

/* This library's version and CPU architecture.  Processes of two builds
 * that differ in either must not act together: another version may decide
 * or lay out its messages otherwise, another architecture's floating point
 * may break a tie of the cost model the other way (jobs joined with
 * MPI_Comm_connect or MPI_Comm_spawn can mix them). */
const char *ig_build_identity(void);

/* Runtime: the process-wide settings, read once (thread-safe). */
const ig_settings *ig_settings_get(void);

#endif
