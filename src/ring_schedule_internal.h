/*
 * Shared by the two ring schedules (ring_split_stream.c, ring_paper.c) and
 * their public dispatch (ring_schedule.c).  Not part of any other file's
 * interface.  Pure C, no MPI.
 */
#ifndef IG_RING_SCHEDULE_INTERNAL_H
#define IG_RING_SCHEDULE_INTERNAL_H

#include "ring_schedule.h"

#include <limits.h>

#define NEVER INT_MAX

static inline int mod_n(int a, int n)
{
    int r = a % n;
    return r < 0 ? r + n : r;
}

static inline int clamp(int x, int lo, int hi)
{
    return x < lo ? lo : (x > hi ? hi : x);
}

/* Sets *half = x / 2 and returns 1 when x is even (also for negative x). */
static inline int even_half(int x, int *half)
{
    if (x % 2 != 0)
        return 0;
    *half = x / 2;
    return 1;
}

/* Operations collected for one process and step.  The arrays have room for
 * IG_RING_MAX_OPS; the tests prove that no schedule produces more. */
typedef struct {
    ig_ring_op *ops;
    int n;
} op_list;

static inline void push_op(op_list *list, int peer, int msg)
{
    if (list->n < IG_RING_MAX_OPS) {
        list->ops[list->n].peer = peer;
        list->ops[list->n].msg = msg;
        list->n++;
    }
}

/* Each schedule: its step count, one process's operations in one 0-based
 * step, and the 0-based step in which sender `rank` receives `msg` (NEVER if
 * it does not). */
int ig_split_stream_steps(int p, int q);
void ig_split_stream_ops(int p, int q, int rank, int step, op_list *snd, op_list *rcv);
int ig_split_stream_sender_arrival(int p, int q, int rank, int msg);

int ig_paper_steps(int p, int q);
void ig_paper_ops(int p, int q, int rank, int step, op_list *snd, op_list *rcv);
int ig_paper_sender_arrival(int p, int q, int rank, int msg);

#endif
