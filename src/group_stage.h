/*
 * Who runs the fully connected algorithms' intra-group allgather stage: a
 * type of its own so that the algorithms (algorithms.h) can take a decided
 * stage without seeing the settings (settings.h), which they never read.
 */
#ifndef IG_GROUP_STAGE_H
#define IG_GROUP_STAGE_H

/* The setting (INTERGATHER_GROUP_ALLGATHER) may say AUTO; a decision
 * (decide.c) is always MPI or RING. */
typedef enum {
    IG_GROUP_STAGE_AUTO = 0, /* ring from IG_GROUP_RING_MIN_BYTES per member, else mpi (default) */
    IG_GROUP_STAGE_MPI,      /* the MPI library's tuned collective, as the paper */
    IG_GROUP_STAGE_RING,     /* intergather's neighbour ring: (n-1) k t_w on any network */
    IG_GROUP_STAGE_COUNT
} ig_group_stage;

#endif
