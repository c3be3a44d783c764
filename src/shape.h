/*
 * The shape of a call: what every process of both groups knows alike once
 * they have exchanged their views (agree.c), and so the only input, with
 * the settings, of the decision (decide.h).  Pure C, no MPI: the functions
 * here turn the exchanged numbers into a shape, identically on every
 * process, and are unit-tested (tests/unit/check_shape.c).
 *
 * Groups are numbered as in the merged communicator: 0 the low group, 1
 * the high group.  In a correct program each group's block sizes are
 * what the other group's receive arguments say; a program that gets them
 * wrong (a receive count used as an upper bound, a group that sends nothing
 * while the other expects data) is erroneous, and the shape says so, so
 * that every process reacts the same way instead of each taking its own path.
 */
#ifndef IG_SHAPE_H
#define IG_SHAPE_H

#include "stats.h"

#include <stdint.h>

typedef enum {
    IG_SIZES_AGREE = 0,    /* every receiver expects exactly what is sent */
    IG_SIZES_EXPECT_MORE,  /* erroneous: receivers expect more than is sent, nothing would be truncated */
    IG_SIZES_TRUNCATE      /* erroneous: some receiver expects less than is sent to it */
} ig_sizes_verdict;

typedef struct {
    int n[2];               /* processes of group g */
    uint64_t max_block[2];  /* largest block group g sends, bytes */
    uint64_t total[2];      /* bytes group g sends in all */
    int send_overlaps[2];   /* some sender of group g has a send type that cannot be received into,
                             * or that would make the join plan's scratch sparse (call.c) */
    ig_fallback reason;     /* why some process cannot be served (IG_FALLBACK_NONE: none) */
    ig_sizes_verdict sizes;
    int nodes;              /* nodes the two groups span (comm_cache.c), 1: all share memory */
    int oversubscribed;     /* some node has more of these processes than CPUs (comm_cache.c) */
    int scattered;          /* some process's block is not one contiguous piece of memory (then no
                             * algorithm cuts blocks into byte ranges; MPI_Allgatherv's blocks, which
                             * may differ in size, are cut only by the relay: decide.c) */
    int sparse;             /* some process's receive buffer is sparse (ig_shape_span_sparse): then
                             * no MPI collective runs a group stage in it; always 0 for MPI_Allgatherv */
    /* For messages about an erroneous call: the range of block sizes group g
     * sends and the range the other group expects from it. */
    int64_t send_min[2], send_max[2], expect_min[2], expect_max[2];
} ig_shape;

/* ---- MPI_Allgather: one MAX-allreduce of a fixed vector ---------------- */

enum {
    IG_UNIFORM_SEND_MAX = 0, IG_UNIFORM_SEND_NEG_MIN, IG_UNIFORM_EXPECT_MAX, IG_UNIFORM_EXPECT_NEG_MIN,
    IG_UNIFORM_PER_GROUP, /* the four above, for group 0 then group 1 */
    IG_UNIFORM_REASON = 2 * IG_UNIFORM_PER_GROUP,
    IG_UNIFORM_OVERLAPS, /* two entries: group 0, group 1 */
    IG_UNIFORM_SCATTERED = IG_UNIFORM_OVERLAPS + 2,
    IG_UNIFORM_SPARSE,
    IG_UNIFORM_LEN
};

/* This process's contribution: it belongs to `group`, sends `send_bytes`,
 * expects `expect_bytes` in each remote block.  Entries it has no view of
 * hold INT64_MIN, MAX's identity. */
void ig_shape_uniform_contribution(int group, int64_t send_bytes, int64_t expect_bytes, int send_overlaps,
                                   ig_fallback reason, int64_t v[IG_UNIFORM_LEN]);

/* Mark the contribution of a process whose block is scattered in memory,
 * or whose receive buffer is sparse. */
void ig_shape_uniform_mark_layout(int scattered, int sparse, int64_t v[IG_UNIFORM_LEN]);

/* A buffer spanning more than this many bytes, and more than twice its
 * data, is sparse (ig_shape_span_sparse). */
#define IG_SPARSE_SPAN_BYTES (256.0 * 1024 * 1024)

/* Whether `blocks` blocks, each `block_bytes` of data and `spacing` bytes
 * from the next (a count times its type's extent), are sparse: mostly
 * gaps, and large.  For an MPI_Allgather receive buffer: an MPI library's
 * allgather may allocate scratch as large as the span (Open MPI 4.1's
 * Bruck algorithm, which it picks for small blocks, does), so the group
 * stage of such a call, run in MPI, could fail for want of memory in one
 * process where the program's own buffer is a sparse mapping.  For a send
 * block: the join plan's extra senders would allocate p such blocks as
 * scratch themselves (call.c). */
int ig_shape_span_sparse(int blocks, double spacing, double block_bytes);

/* The shape from the reduced vector. */
void ig_shape_from_uniform(const int64_t v[IG_UNIFORM_LEN], int n0, int n1, ig_shape *shape);

/* The shape as this process sees it from its own arguments alone: the
 * other group sending what this process expects and expecting what it
 * sends (so it is the agreed shape in a correct program, but for
 * `sparse`, left 0: it only changes a group stage, never the choice of
 * algorithm that a guess is used for).  Only for
 * speculation (speculate.h), never for a decision that stands unagreed. */
void ig_shape_guess_uniform(int group, int64_t send_bytes, int64_t expect_bytes, int send_overlaps, int scattered,
                            int n0, int n1, int nodes, int oversubscribed, ig_shape *shape);

/* ---- MPI_Allgatherv: one allgather of a record per process --------------- */

enum {
    IG_RECORD_SEND = 0, IG_RECORD_EXPECT_DIGEST, IG_RECORD_REASON, IG_RECORD_OVERLAPS,
    IG_RECORD_SCATTERED, /* this process's send block or some receive block is not contiguous */
    IG_RECORD_LEN
};

/* A digest of a vector of block sizes (the receivers' expectation, or the
 * senders' actual sizes), built one entry at a time from IG_DIGEST_SEED:
 * the vectors are compared without being sent around. */
#define IG_DIGEST_SEED ((int64_t)1469598103934665603LL)
int64_t ig_digest_add(int64_t digest, int index, int64_t bytes);

void ig_shape_record(int64_t send_bytes, int64_t expect_digest, int send_overlaps, int scattered,
                     ig_fallback reason, int64_t record[IG_RECORD_LEN]);

/* The shape from every process's record, in merged order (group 0 first).
 * A disagreement is reported as IG_SIZES_TRUNCATE when *truncates is set
 * (whether some receiver expects less than is sent to it, which only the
 * receivers know: agree.c reduces it in a second step, taken only when the
 * first shows a disagreement), else IG_SIZES_EXPECT_MORE. */
void ig_shape_from_records(const int64_t *records, int n0, int n1, int truncates, ig_shape *shape);

/* 1 when the records show that some receiver's expectation differs from the
 * sizes sent. */
int ig_records_disagree(const int64_t *records, int n0, int n1);

#endif
