#include "p2p.h"

#include "byte_pieces.h"
#include "stats.h"

#include <stddef.h>
#include <stdint.h>

/* After MPI_ERR_IN_STATUS the requests marked MPI_ERR_PENDING are still
 * running (their buffers are still in use): complete them before anything
 * returns, then report the first real error. */
int ig_waitall_status(int n, MPI_Request *reqs, MPI_Status *stats)
{
    int rc = PMPI_Waitall(n, reqs, stats);
    if (rc != MPI_ERR_IN_STATUS)
        return rc;
    for (int i = 0; i < n; i++)
        if (stats[i].MPI_ERROR == MPI_ERR_PENDING)
            stats[i].MPI_ERROR = PMPI_Wait(&reqs[i], &stats[i]);
    for (int i = 0; i < n; i++)
        if (stats[i].MPI_ERROR != MPI_SUCCESS)
            return stats[i].MPI_ERROR;
    return MPI_SUCCESS;
}

/* Real statuses rather than MPI_STATUSES_IGNORE: the failed operation's
 * own error is in its status.  (With MPICH's mpi.h, gcc also takes the
 * sentinel for a zero-sized array and warns.)  They live on the stack, and
 * the requests are completed a chunk at a time: nothing is allocated, so
 * no process stops here for lack of memory while its peers wait.  Waiting
 * on one chunk holds up none of the others: MPI progresses every pending
 * operation, not only those waited on. */
int ig_waitall(int n, MPI_Request *reqs)
{
    enum { CHUNK = 16 };
    MPI_Status stats[CHUNK];
    int rc = MPI_SUCCESS;
    for (int first = 0; first < n; first += CHUNK)
        ig_err_keep(&rc, ig_waitall_status(n - first < CHUNK ? n - first : CHUNK, reqs + first, stats));
    return rc;
}

int ig_window_slot(MPI_Request *slots, int window, int posted, int *slot)
{
    int rc = MPI_SUCCESS;
    *slot = posted;
    if (posted < window)
        return rc;
    *slot = MPI_UNDEFINED;
    rc = PMPI_Waitany(window, slots, slot, MPI_STATUS_IGNORE);
    if (*slot < 0 || *slot >= window)
        *slot = posted % window;
    return rc;
}

/* The next part into *slot (MPI_REQUEST_NULL once every part is posted). */
static int paced_post(ig_paced_send *ps, MPI_Request *slot)
{
    *slot = MPI_REQUEST_NULL;
    if (ps->next >= ps->parts)
        return MPI_SUCCESS;
    ig_piece part = ig_byte_piece((uint64_t)ps->bytes, ps->parts, ps->next++);
    int err = PMPI_Issend(ps->base + part.offset, (int)part.length, MPI_BYTE, ps->dest, ps->tag, ps->comm, slot);
    if (err != MPI_SUCCESS)
        *slot = MPI_REQUEST_NULL;
    return err;
}

int ig_paced_start(ig_paced_send *ps, const void *base, MPI_Count bytes, int parts, int window, int dest, int tag,
                   MPI_Comm comm)
{
    window = window < 1 ? 1 : window > IG_PACED_MAX_WINDOW ? IG_PACED_MAX_WINDOW : window;
    *ps = (ig_paced_send){ base, bytes, parts, 0, window, dest, tag, comm, { MPI_REQUEST_NULL } };
    ig_stats_paced_send();
    int rc = MPI_SUCCESS;
    for (int w = 0; w < window; w++)
        ig_err_keep(&rc, paced_post(ps, &ps->slots[w]));
    return rc;
}

static int paced_active(const ig_paced_send *ps)
{
    if (ps == NULL)
        return 0;
    for (int w = 0; w < ps->window; w++)
        if (ps->slots[w] != MPI_REQUEST_NULL)
            return 1;
    return ps->next < ps->parts;
}

/* One wait for whichever completes first of *req (if req is not NULL) and
 * ps's slots, a completed slot refilled: whether *req has completed. */
static int paced_step(MPI_Request *req, ig_paced_send *ps, int *rc)
{
    MPI_Request all[1 + IG_PACED_MAX_WINDOW];
    all[0] = req != NULL ? *req : MPI_REQUEST_NULL;
    for (int w = 0; w < ps->window; w++)
        all[1 + w] = ps->slots[w];
    int index = MPI_UNDEFINED;
    ig_err_keep(rc, PMPI_Waitany(1 + ps->window, all, &index, MPI_STATUS_IGNORE));
    if (req != NULL)
        *req = all[0];
    for (int w = 0; w < ps->window; w++)
        ps->slots[w] = all[1 + w];
    if (index == 0)
        return 1;
    if (index == MPI_UNDEFINED) { /* nothing active (req is NULL or done): refill, or all sent */
        int posted = 0;
        for (int w = 0; w < ps->window && ps->next < ps->parts; w++) {
            ig_err_keep(rc, paced_post(ps, &ps->slots[w]));
            posted = 1;
        }
        return !posted;
    }
    if (ps->slots[index - 1] == MPI_REQUEST_NULL)
        ig_err_keep(rc, paced_post(ps, &ps->slots[index - 1]));
    return 0;
}

int ig_paced_wait(MPI_Request *req, ig_paced_send *ps)
{
    int rc = MPI_SUCCESS;
    while (*req != MPI_REQUEST_NULL && paced_active(ps))
        if (paced_step(req, ps, &rc))
            return rc;
    ig_err_keep(&rc, PMPI_Wait(req, MPI_STATUS_IGNORE));
    return rc;
}

int ig_paced_finish(ig_paced_send *ps)
{
    int rc = MPI_SUCCESS;
    while (paced_active(ps))
        if (paced_step(NULL, ps, &rc))
            break;
    return rc;
}

/* Rank r's parent is r without its lowest set bit; its children are r +
 * 2^i for every 2^i below that bit (all 2^i < n for the root). */
int ig_bcast_binomial(void *buf, int count, MPI_Datatype type, int tag, MPI_Comm comm)
{
    int rank, n, rc, mask = 1, children = 0;
    MPI_Request sends[8 * sizeof(int)];
    rc = PMPI_Comm_rank(comm, &rank);
    ig_err_keep(&rc, PMPI_Comm_size(comm, &n));
    if (rc != MPI_SUCCESS)
        return rc;
    while (mask < n && !(rank & mask))
        mask <<= 1;
    if (rank != 0)
        rc = PMPI_Recv(buf, count, type, rank - mask, tag, comm, MPI_STATUS_IGNORE);
    for (mask >>= 1; mask > 0; mask >>= 1)
        if (rank + mask < n) {
            sends[children] = MPI_REQUEST_NULL; /* a post that fails leaves nothing to wait on (p2p.h) */
            ig_err_keep(&rc, PMPI_Isend(buf, count, type, rank + mask, tag, comm, &sends[children++]));
        }
    ig_err_keep(&rc, ig_waitall(children, sends));
    return rc;
}

int ig_err_joint(MPI_Comm comm, int rc)
{
    int ok = rc == MPI_SUCCESS, all_ok = 0;
    int reduced = PMPI_Allreduce(&ok, &all_ok, 1, MPI_INT, MPI_MIN, comm);
    if (rc != MPI_SUCCESS)
        return rc;
    if (reduced != MPI_SUCCESS)
        return reduced;
    return all_ok ? MPI_SUCCESS : MPI_ERR_OTHER;
}

static MPI_Datatype sink_type = MPI_DATATYPE_NULL;

int ig_sink_start(void)
{
    if (sink_type != MPI_DATATYPE_NULL)
        return MPI_SUCCESS; /* made by an earlier start whose later steps failed */
    int lengths[2] = { 1, 1 };
    MPI_Aint at[2] = { 0, IG_SINK_BYTES - 1 };
    MPI_Datatype bytes[2] = { MPI_BYTE, MPI_BYTE };
    MPI_Datatype made;
    int rc = PMPI_Type_create_struct(2, lengths, at, bytes, &made);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = PMPI_Type_commit(&made);
    if (rc == MPI_SUCCESS)
        sink_type = made;
    else
        PMPI_Type_free(&made);
    return rc;
}

/* Where start-up failed (no memory for the type; the MPI library
 * reported it to MPI_COMM_WORLD's handler, which returned), a process
 * still takes part in calls (call.c: jointly not served), and what it
 * drops must still be received, so that it meets no later receive.  A
 * receive of count 0 would crash it as before the sink, so it receives
 * into one MPI_SHORT_INT: predefined (nothing to make), laid out as
 * struct { short; int; } with two bytes of padding between the members,
 * so ob1 unpacks through its type map as for the sink (measured: at most
 * its 8 bytes written, MPI_ERR_TRUNCATE beyond 6, over TCP and shared
 * memory's single copy; MPICH writes nothing past them either; not every
 * pair type holds so: MPI_LONG_DOUBLE_INT was written past).  Its type
 * signature does not match the MPI_BYTE sent, which the standard calls
 * erroneous; no MPI library here checks it, and the bytes are dropped.
 * Tested by tests/mpi/test_nomem.sh. */
static MPI_Datatype sink_datatype(void)
{
    _Static_assert(sizeof(struct { short s; int i; }) <= IG_SINK_BYTES, "MPI_SHORT_INT fits the sink's room");
    return sink_type != MPI_DATATYPE_NULL ? sink_type : MPI_SHORT_INT;
}

void ig_sink_end(void)
{
    if (sink_type != MPI_DATATYPE_NULL)
        PMPI_Type_free(&sink_type);
}

int ig_irecv_sink(char *room, int source, int tag, MPI_Comm comm, MPI_Request *req)
{
    return PMPI_Irecv(room, 1, sink_datatype(), source, tag, comm, req);
}

int ig_recv_sink(int source, int tag, MPI_Comm comm, MPI_Status *status)
{
    char room[IG_SINK_BYTES];
    return PMPI_Recv(room, 1, sink_datatype(), source, tag, comm, status);
}

int ig_mrecv_sink(MPI_Message *message)
{
    char room[IG_SINK_BYTES];
    return PMPI_Mrecv(room, 1, sink_datatype(), message, MPI_STATUS_IGNORE);
}

int ig_is_truncation(int rc)
{
    int class = MPI_SUCCESS;
    return rc != MPI_SUCCESS && PMPI_Error_class(rc, &class) == MPI_SUCCESS && class == MPI_ERR_TRUNCATE;
}

int ig_sink_took_data(int rc, const MPI_Status *status)
{
    int bytes = 0;
    if (ig_is_truncation(rc))
        return 1;
    return rc == MPI_SUCCESS && PMPI_Get_count(status, MPI_BYTE, &bytes) == MPI_SUCCESS && bytes != 0;
}
