/*
 * The API of include/intergather.h: MPI_Allgather-style calls on a pair,
 * for the benchmark and the simulator.  Each runs what the decision
 * (decide.c) chooses for such a call under the default settings and the
 * algorithm it names; no environment variable is read here.  The
 * caller vouches for consistent arguments (the shim's agreement step is
 * not run): the shape comes from one allreduce of every process's own
 * arguments (shape_of).  The decision sees the pair as spanning nodes
 * (nodes = 2), so it weighs the network rules with the default network
 * model's parameters, unmeasured (the shim measures them per
 * communicator, INTERGATHER_NET_MODEL).
 */
#include "algorithms.h"
#include "decide.h"
#include "mpi_identity.h"
#include "p2p.h"

#include <stdlib.h>
#include <string.h>

/* The shape of a uniform call on a pair: p senders of k bytes each, q
 * receivers; in full duplex the second group sends blocks of the size the
 * first group receives.  Each process knows its own arguments; one MAX
 * allreduce over the pair gives every process the same block sizes and
 * whether any block is scattered in memory (what decides the chain's
 * segments) or any receive buffer sparse (what keeps a group stage out of
 * the MPI library: shape.h), as the shim's agreement does (agree.c), and
 * whether some
 * process cannot take part (local_rc: it could not build its buffers'
 * types, say for want of memory).  Then every process returns an error
 * (its own, or MPI_ERR_OTHER where another process failed) instead of
 * running steps one of them would miss (MPICH's errflag). */
static int shape_of(ig_pair *pair, int full, int scount, MPI_Datatype stype, int rcount, MPI_Datatype rtype,
                    int local_rc, ig_shape *sh)
{
    MPI_Count ssize = 0, rsize = 0, rlb = 0, rextent = 0;
    int rc = local_rc;
    if (rc == MPI_SUCCESS && scount > 0)
        rc = PMPI_Type_size_x(stype, &ssize);
    if (rc == MPI_SUCCESS && rcount > 0)
        rc = PMPI_Type_size_x(rtype, &rsize);
    if (rc == MPI_SUCCESS && rcount > 0)
        rc = PMPI_Type_get_extent_x(rtype, &rlb, &rextent);
    uint64_t sent = (uint64_t)scount * (uint64_t)ssize, received = (uint64_t)rcount * (uint64_t)rsize;
    int first = ig_pair_is_sender(pair);
    uint64_t k_first = first ? sent : received, k_second = full ? (first ? received : sent) : 0;
    int sparse = rcount > 0 && ig_shape_span_sparse(first ? pair->q : pair->p, (double)rcount * (double)rextent,
                                                       (double)received);
    int64_t mine[5] = { (scount > 0 && !ig_type_contiguous(scount, stype)) ||
                            (rcount > 0 && !ig_type_contiguous(rcount, rtype)),
                        (int64_t)k_first, (int64_t)k_second, rc != MPI_SUCCESS, sparse },
            all[5] = { 1, 0, 0, 1, 0 };
    /* Every process takes part, even one whose own query failed. */
    int arc = PMPI_Allreduce(mine, all, 5, MPI_INT64_T, MPI_MAX, pair->comm);
    if (rc == MPI_SUCCESS)
        rc = arc != MPI_SUCCESS ? arc : all[3] ? MPI_ERR_OTHER : MPI_SUCCESS;
    *sh = (ig_shape){ .n = { pair->p, pair->q }, .reason = IG_FALLBACK_NONE, .sizes = IG_SIZES_AGREE, .nodes = 2,
                      .max_block = { (uint64_t)all[1], (uint64_t)all[2] },
                      .total = { (uint64_t)all[1] * (uint64_t)pair->p, (uint64_t)all[2] * (uint64_t)pair->q },
                      .scattered = all[0] != 0, .sparse = all[4] != 0 };
    return rc;
}

static int run_decided(ig_pair *pair, int full, int algorithm, ig_ring_kind schedule, const void *sbuf, int scount,
                       MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype)
{
    ig_settings s;
    ig_shape sh;
    ig_choice ch;
    ig_xfer x;
    ig_block rblk;
    /* In half duplex the first group only sends and the second only
     * receives: the other side's count, buffer and type are ignored
     * (include/intergather.h), so that no datatype is built or queried
     * for a side no message uses. */
    if (!full && ig_pair_is_sender(pair))
        rcount = 0;
    else if (!full)
        scount = 0;
    ig_settings_defaults(&s);
    s.mpi_allgatherv_mixed_types = ig_mpi_allgatherv_takes_mixed_types(); /* a fact of the build, as in settings.c */
    s.algorithm = algorithm;
    s.ring_schedule = schedule;
    s.min_bytes = 0;
    /* The buffers first, so that a process that cannot build them says so
     * in the shape's allreduce (serve.c does the same before its
     * agreement). */
    int rc = ig_xfer_uniform_make(&x, &rblk, sbuf, scount, stype, rbuf, rcount, rtype);
    rc = shape_of(pair, full, scount, stype, rcount, rtype, rc, &sh);
    if (rc == MPI_SUCCESS)
        ig_decide(&sh, 0, &s, &ch);
    /* The decision is the same on every process, so these returns are
     * joint.  On a pair there is no MPI library's own algorithm to hand a
     * call to: the one such decision a named algorithm can get (the ring
     * with blocks of more than INT_MAX bytes) is an error here, not a
     * success with nothing moved. */
    if (rc == MPI_SUCCESS && ch.kind == IG_DECISION_NATIVE)
        rc = MPI_ERR_COUNT;
    if (rc != MPI_SUCCESS || ch.kind != IG_DECISION_SERVE) { /* failed jointly, or nothing to move */
        ig_block_free(&rblk);
        return rc;
    }
    /* A pair has one direction, its first group sending: full duplex in
     * one exchange (also where the first group sends nothing). */
    if (full)
        ig_decide_on_one_pair(&sh, &s, &ch);
    /* A failed step does not stop the next: the others take part in it. */
    for (int i = 0; i < ch.nsteps; i++)
        ig_err_keep(&rc, ig_algorithm_run(pair, &x, &ch.steps[i]));
    ig_block_free(&rblk);
    return rc;
}

int ig_pair_allgather_fc(ig_pair *pair, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype)
{
    return run_decided(pair, 0, IG_ALG_FC, IG_RING_OPTIMAL, sbuf, scount, stype, rbuf, rcount,
                       rtype);
}

int ig_pair_allgather_fd(ig_pair *pair, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf, int rcount,
                         MPI_Datatype rtype)
{
    return run_decided(pair, 1, IG_ALG_FULL_DUPLEX, IG_RING_OPTIMAL, sbuf, scount, stype, rbuf, rcount,
                       rtype);
}

int ig_pair_allgather_ring(ig_pair *pair, ig_ring_kind kind, const void *sbuf, int scount, MPI_Datatype stype,
                           void *rbuf, int rcount, MPI_Datatype rtype)
{
    return run_decided(pair, 0, IG_ALG_RING, kind, sbuf, scount, stype, rbuf, rcount, rtype);
}

int ig_pair_allgather_direct(ig_pair *pair, int full_duplex, const void *sbuf, int scount, MPI_Datatype stype,
                             void *rbuf, int rcount, MPI_Datatype rtype)
{
    return run_decided(pair, full_duplex != 0, IG_ALG_DIRECT, IG_RING_OPTIMAL, sbuf, scount, stype, rbuf, rcount,
                       rtype);
}

int ig_pair_allgather_algorithm(ig_pair *pair, const char *name, int full_duplex, const void *sbuf, int scount,
                                MPI_Datatype stype, void *rbuf, int rcount, MPI_Datatype rtype)
{
    for (int a = 0; a < IG_ALG_COUNT; a++)
        if (strcmp(name, ig_algorithm_info_of((ig_algorithm)a)->name) == 0)
            return run_decided(pair, full_duplex != 0, a, IG_RING_OPTIMAL, sbuf, scount, stype, rbuf, rcount, rtype);
    return MPI_ERR_ARG;
}

int ig_pair_create(MPI_Comm comm, int p, ig_pair **out)
{
    int size;
    MPI_Comm dup;
    *out = NULL;
    int rc = PMPI_Comm_size(comm, &size);
    if (rc != MPI_SUCCESS)
        return rc;
    if (p < 1 || p >= size)
        return MPI_ERR_ARG;
    rc = PMPI_Comm_dup(comm, &dup);
    if (rc == MPI_SUCCESS)
        rc = ig_private_comm_setup(dup);
    else
        dup = MPI_COMM_NULL; /* undefined after an error */
    /* Joint before adopting the pair, which reduces over the duplicate: a
     * process without it would leave its peers there. */
    rc = ig_err_joint(comm, rc);
    if (rc != MPI_SUCCESS) {
        ig_private_comm_free(&dup);
        return rc;
    }
    /* A process without the pair's storage still takes part in adopting
     * it, which then fails for every process alike. */
    int requests, ints;
    ig_decide_pair_room(p, size - p, &requests, &ints);
    ig_pair *pair = malloc(sizeof *pair);
    rc = ig_pair_adopt(dup, p, requests, ints, pair);
    if (rc != MPI_SUCCESS) {
        free(pair);
        ig_private_comm_free(&dup);
        return rc;
    }
    *out = pair;
    return MPI_SUCCESS;
}

int ig_pair_free(ig_pair **pair)
{
    if (*pair == NULL)
        return MPI_SUCCESS;
    int rc = ig_pair_release(*pair);
    free(*pair);
    *pair = NULL;
    return rc;
}
