#include "call.h"

#include "type_order.h"

#include "comm_cache.h"
#include "lifecycle.h"
#include "log.h"
#include "mpi_identity.h"
#include "shape.h"

#include <stddef.h>

static int go_native(ig_fallback why)
{
    ig_stats_fallback(why);
    return 0;
}

/* What the MPI library checks before a collective uses a datatype: a valid,
 * committed handle.  MPI has no query for "committed"; packing zero
 * elements is checked exactly like a send and moves nothing. */
static int type_usable(MPI_Datatype type, MPI_Comm probe)
{
    char out[1];
    int position = 0;
    if (type == MPI_DATATYPE_NULL)
        return 0;
    if (probe == MPI_COMM_NULL)
        return 1; /* no probe (ig_lifecycle_start failed): the call is not served, the MPI library checks */
    return PMPI_Pack(out, 0, type, out, (int)sizeof out, &position, probe) == MPI_SUCCESS;
}

/* A send block that could not be received into: its elements overlap, do
 * not advance, or read a byte twice (legal to send, not to receive; the
 * last one has bounds like a type in order, type_order.h).  Only plans in
 * which a sender receives blocks into its own send type care (decide.c):
 * the join plan's extra senders keep p blocks one block extent (count
 * extents) apart, so a type whose extent is shorter than its data makes
 * them overlap even when each block holds a single element. */
static int send_overlaps(int count, const ig_type_layout *t, int in_order)
{
    if (count == 0 || t->size == 0)
        return 0;
    return t->extent <= 0 || t->true_extent < (MPI_Aint)t->size || t->extent < t->true_extent || !in_order;
}

/* Whether the join plan's scratch for p blocks of this process's send
 * block would be sparse (shape.h): its extra senders allocate it and hand
 * it to the group stage, both by its span, so a send type resized to a
 * huge extent (legal: one element sends 8 bytes) failed there for want of
 * memory on every process where native MPI succeeds.  It counts with
 * send_overlaps, which keeps that plan away (decide.c: the fully connected
 * family then spreads).  The group's size is asked only for a block whose
 * extent exceeds twice its data, which a contiguous block never does. */
static int join_scratch_sparse(const ig_call *c, const ig_type_layout *t)
{
    double spacing = (double)c->scount * (double)t->extent, data = (double)c->send_bytes;
    int p = 0;
    if (c->scount == 0 || spacing <= 2.0 * data || PMPI_Comm_size(c->comm, &p) != MPI_SUCCESS)
        return 0;
    return ig_shape_span_sparse(p, spacing, data);
}

/* MPI_Allgather's arguments that cannot be used at all, in the order Open
 * MPI checks them (ompi/mpi/c/allgather.c: the receive type, the receive
 * count, MPI_IN_PLACE on either side, then the send type, count and
 * commit): a process with two such mistakes reports the class the MPI
 * library would.  (MPI_Allgatherv's are checked send side first: a process
 * with mistakes on both sides may report another of its classes than the
 * MPI library would.) */
static ig_fallback check_allgather_receive_first(ig_call *c)
{
    if (c->op != IG_OP_ALLGATHER)
        return IG_FALLBACK_NONE;
    if (c->rtype == MPI_DATATYPE_NULL)
        return c->hard_error = MPI_ERR_TYPE, IG_FALLBACK_ARGUMENTS;
    if (c->rcount < 0)
        return c->hard_error = MPI_ERR_COUNT, IG_FALLBACK_ARGUMENTS;
    if (c->sbuf == MPI_IN_PLACE || c->rbuf == MPI_IN_PLACE)
        return c->hard_error = MPI_ERR_ARG, IG_FALLBACK_IN_PLACE;
    return IG_FALLBACK_NONE;
}

/* A usable type's layout and order, or 0 (MPI_ERR_TYPE): from what
 * type_order.h keeps for named types, else asked of the MPI library (and
 * kept if named).  Not kept without the probe, which is then not asked. */
static int type_facts_of(MPI_Datatype type, MPI_Comm probe, ig_type_facts *f)
{
    if (ig_type_facts_kept(type, f))
        return 1;
    if (!type_usable(type, probe) || !ig_type_layout_of(type, &f->layout))
        return 0;
    f->in_order = ig_type_in_order(type);
    if (probe != MPI_COMM_NULL)
        ig_type_facts_keep(type, f);
    return 1;
}

static ig_fallback check_send(ig_call *c, MPI_Comm probe)
{
    ig_type_facts f;
    if (c->sbuf == MPI_IN_PLACE)
        return c->hard_error = MPI_ERR_ARG, IG_FALLBACK_IN_PLACE;
    if (c->stype == MPI_DATATYPE_NULL)
        return c->hard_error = MPI_ERR_TYPE, IG_FALLBACK_ARGUMENTS;
    if (c->scount < 0)
        return c->hard_error = MPI_ERR_COUNT, IG_FALLBACK_ARGUMENTS;
    if (!type_facts_of(c->stype, probe, &f))
        return c->hard_error = MPI_ERR_TYPE, IG_FALLBACK_ARGUMENTS;
    c->send_bytes = (int64_t)c->scount * f.layout.size;
    c->send_overlaps = send_overlaps(c->scount, &f.layout, f.in_order) || join_scratch_sparse(c, &f.layout);
    c->scattered = !ig_layout_contiguous(c->scount, &f.layout, f.in_order);
    /* NULL is also MPI_BOTTOM, legal with absolute addresses: leave it to
     * the MPI library, which knows which one the program meant. */
    if (c->sbuf == NULL && c->send_bytes > 0)
        return IG_FALLBACK_ARGUMENTS;
    return IG_FALLBACK_NONE;
}

/* A receive type that was never committed.  Open MPI's collectives do not
 * check a receive type's commit (mpi_identity.h), so such a call completes
 * natively, while the point-to-point receives of intergather's algorithms
 * would fail with MPI_ERR_TYPE: the call is served with a committed
 * duplicate of the type instead, the same type map.  Where the MPI library
 * checks (MPICH), the type stays unusable, and the call reports
 * MPI_ERR_TYPE as natively.  COPY_FAILED: the MPI library could not make
 * or commit the duplicate for want of memory (MPI_ERR_NO_MEM); any other
 * failure (a handle that is no type at all) is not applicable, and the
 * call reports MPI_ERR_TYPE. */
typedef enum { COPY_MADE, COPY_NOT_APPLICABLE, COPY_FAILED } receive_copy;

static receive_copy copy_failure(int rc)
{
    int cls = MPI_ERR_OTHER;
    PMPI_Error_class(rc, &cls);
    return cls == MPI_ERR_NO_MEM ? COPY_FAILED : COPY_NOT_APPLICABLE;
}

static receive_copy receive_with_committed_copy(ig_call *c)
{
    MPI_Datatype copy;
    if (ig_mpi_collectives_check_receive_commit() || c->rtype == MPI_DATATYPE_NULL)
        return COPY_NOT_APPLICABLE;
    int rc = PMPI_Type_dup(c->rtype, &copy);
    if (rc != MPI_SUCCESS)
        return copy_failure(rc);
    rc = PMPI_Type_commit(&copy);
    if (rc != MPI_SUCCESS) {
        PMPI_Type_free(&copy);
        return copy_failure(rc);
    }
    c->program_rtype = c->rtype;
    c->rtype = copy;
    c->rtype_is_copy = 1;
    return COPY_MADE;
}

/* The receive type's layout and order.  A type the MPI library's
 * collectives take but intergather's receives would not (never committed,
 * above) is received through its committed duplicate.  Where that cannot
 * be made (out of memory), the process reports MPI_ERR_NO_MEM, as a
 * process whose arguments cannot be used reports their error (opening.c:
 * its block is not sent, and its peers report an error).  Any other
 * unusable type: MPI_ERR_TYPE, as natively. */
static ig_fallback receive_type_facts(ig_call *c, MPI_Comm probe, ig_type_facts *f)
{
    if (type_facts_of(c->rtype, probe, f))
        return IG_FALLBACK_NONE;
    receive_copy copy = probe != MPI_COMM_NULL ? receive_with_committed_copy(c) : COPY_NOT_APPLICABLE;
    if (copy == COPY_MADE && type_facts_of(c->rtype, probe, f))
        return IG_FALLBACK_NONE;
    if (copy == COPY_FAILED)
        return c->hard_error = MPI_ERR_NO_MEM, IG_FALLBACK_NO_MEMORY;
    return c->hard_error = MPI_ERR_TYPE, IG_FALLBACK_ARGUMENTS;
}

void ig_call_release(ig_call *c)
{
    if (c->rtype_is_copy) {
        PMPI_Type_free(&c->rtype);
        c->rtype = c->program_rtype;
        c->rtype_is_copy = 0;
    }
}

/* Receive side.  Blocks are placed at multiples of the type's extent, so a
 * non-positive extent (legal, blocks laid out downwards or on top of each
 * other) is left to the MPI library: jointly, through the agreement. */
static ig_fallback check_recv(ig_call *c, MPI_Comm probe)
{
    ig_type_facts f;
    int64_t elements = 0;
    int largest = 0; /* the largest block's count: contiguous at it, contiguous at every smaller one */
    if (c->rbuf == MPI_IN_PLACE)
        return c->hard_error = MPI_ERR_ARG, IG_FALLBACK_IN_PLACE;
    if (c->op == IG_OP_ALLGATHER) {
        if (c->rcount < 0)
            return c->hard_error = MPI_ERR_COUNT, IG_FALLBACK_ARGUMENTS;
        elements = largest = c->rcount;
    } else {
        /* Unusable point to point too (the opening round would have to
         * read them): NULL displacements are Open MPI 4.1's MPI_ERR_BUFFER
         * (the process's peers then wait for it there); with NULL counts
         * it crashes, and it takes negative ones without a word: an error
         * class instead, the one MPI_Allgather's negative count has. */
        if (c->rcounts == NULL || c->rdispls == NULL)
            return c->hard_error = c->rcounts == NULL ? MPI_ERR_ARG : MPI_ERR_BUFFER, IG_FALLBACK_ARGUMENTS;
        for (int i = 0; i < c->remote_size; i++) {
            if (c->rcounts[i] < 0)
                return c->hard_error = MPI_ERR_COUNT, IG_FALLBACK_ARGUMENTS;
            elements += c->rcounts[i];
            largest = c->rcounts[i] > largest ? c->rcounts[i] : largest;
        }
    }
    ig_fallback type_reason = receive_type_facts(c, probe, &f);
    if (type_reason != IG_FALLBACK_NONE)
        return type_reason;
    c->rtype_size = f.layout.size;
    c->rtype_extent = f.layout.extent;
    c->scattered |= !ig_layout_contiguous(largest, &f.layout, f.in_order);
    c->expect_bytes = c->op == IG_OP_ALLGATHER ? (int64_t)c->rcount * f.layout.size : 0;
    c->sparse_receive = c->op == IG_OP_ALLGATHER &&
                        ig_shape_span_sparse(c->remote_size, (double)c->rcount * (double)f.layout.extent,
                                                (double)c->expect_bytes);
    if (elements > 0 && f.layout.size > 0 && (c->rbuf == NULL || f.layout.extent <= 0))
        return IG_FALLBACK_ARGUMENTS;
    return IG_FALLBACK_NONE;
}

int ig_call_classify(ig_call *c)
{
    int inter = 0;
    if (!ig_mpi_identity_matches())
        return 0; /* another MPI's handles: touch nothing, count nothing */
    /* Started and not finished is running (lifecycle.h), without asking
     * the MPI library twice per call. */
    if (!ig_lifecycle_running() && !ig_mpi_is_running())
        return go_native(IG_FALLBACK_NOT_INITIALIZED);
    if (c->comm == MPI_COMM_NULL)
        return go_native(IG_FALLBACK_COMM_NULL);
    /* The inter-communicator of the last call needs no asking (comm_cache.h). */
    int known = ig_comm_cache_recall_remote_size(c->comm, &c->remote_size);
    if (!known && (PMPI_Comm_test_inter(c->comm, &inter) != MPI_SUCCESS || !inter))
        return go_native(IG_FALLBACK_INTRA);
    if (ig_lifecycle_finished())
        return go_native(IG_FALLBACK_NOT_INITIALIZED); /* its state released (lifecycle.h) */
    int started = ig_lifecycle_start() == MPI_SUCCESS;
    MPI_Comm probe = ig_lifecycle_probe_comm();
    if (!known)
        PMPI_Comm_remote_size(c->comm, &c->remote_size);
    c->hard_error = MPI_SUCCESS;
    /* The receive side is checked too when the send side is left to the
     * MPI library but usable point to point: the opening round
     * (opening_plan.h) needs what such a process expects. */
    ig_fallback send_reason = check_allgather_receive_first(c);
    if (send_reason == IG_FALLBACK_NONE)
        send_reason = check_send(c, probe);
    ig_fallback recv_reason = c->hard_error == MPI_SUCCESS ? check_recv(c, probe) : IG_FALLBACK_NONE;
    c->local_reason = send_reason != IG_FALLBACK_NONE ? send_reason : recv_reason;
    /* Without its hook or probe (no memory at start-up) this process is not
     * served, jointly, as when it cannot build its receive type. */
    if (!started && c->local_reason == IG_FALLBACK_NONE)
        c->local_reason = IG_FALLBACK_NO_MEMORY;
    return 1;
}
