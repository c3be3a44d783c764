/*
 * The cost model's parameters, measured on a communicator
 * (INTERGATHER_NET_MODEL=measure, the default between nodes;
 * INTERGATHER_SHM_MODEL=measure within one): a ping-pong between two of its
 * processes when its cache is built, the result sent from the first of them
 * to every process, so that all processes of both groups decide with the
 * same numbers.  The fixed defaults describe an HPC interconnect; on a
 * slower network (the emulated cluster's 100 Mbit/s TCP links) they chose
 * the direct algorithm where fc was 1.9x faster (docs/performance.md).
 */
#ifndef IG_NET_MEASURE_H
#define IG_NET_MEASURE_H

#include "cost_model.h"

#include <mpi.h>

/* Collective over `comm` (every process calls it with the same a != b):
 * processes a and b measure the link between them; on return every
 * process has the same *model and *measured (1; 0 where a or b could not
 * measure, and then *model is left as it was, e.g. the setting's value).
 * Returns an MPI error only if the final broadcast, or the reduction that
 * tells every process whether it reached all, failed; a failed broadcast
 * fails every process (its error where it failed, MPI_ERR_OTHER
 * elsewhere). */
int ig_net_measure(MPI_Comm comm, int a, int b, ig_cost_params *model, int *measured);

/* (The fit from timings to parameters is pure: ig_cost_fit, cost_model.h.) */

#endif
