/*
 * Relay (half duplex; not in the paper): every block is cut into q byte
 * pieces; each sender sends piece j of its block to receiver j, one piece
 * after another, and receiver j relays each piece it gets to the other
 * q - 1 receivers at once (relay_plan.h has the plan and its orders).
 * Every receiver's link takes the p k bytes it must receive, each sender's
 * only its k, in two hops whose stages overlap piece by piece: about
 * (p + 1/q) k t_w.  The paper's fully connected algorithm runs a broadcast
 * and an allgather one after the other (for p < q its tree also leaves
 * links idle): at 4+12 on the emulated cluster it reached about half the
 * receiver-link bound at 4 MiB (docs/performance.md).  The chain overlaps
 * the stages too, but through q - 1 hops, each a process that must be
 * scheduled before a segment moves on: with 16 processes on 2 cores it was
 * slower than fc.  Relay's data depend on one process between sender and
 * receiver.
 *
 * Members (step->relay_members = d > 0, p < q with blocks of one size,
 * decide.c): each sender sends its whole block to d receivers, its
 * members, each member's own piece ahead of the rest (send_to_members
 * says by how much, and why); member t relays piece t of d to the
 * receivers that are not members.  A member's own piece comes with tag
 * IG_TAG_DIRECT, the rest of its block with the block's relay tag (from
 * the sender, where relays come from owners), so that each of the two
 * streams matches its receives in order however the sender interleaves
 * them.  Sender and owner links then carry
 * about q / (p + q) of the bound each, where the plain relay loads the
 * owners' to (q - 1) / q (relay_plan.h): at 4+12 with 4 MiB blocks a
 * prototype took 0.91x to 0.93x the plain relay's time, and the library
 * reached 76 to 83 % of the bound against 70 to 78 % (forty-first session,
 * docs/performance.md).
 *
 * Parts (step->relay_part_bytes, decide.c): a piece larger than that travels,
 * on both hops, in parts of at most that many bytes, one message each
 * (relay_plan.h), and an owner relays each part as soon as it has come,
 * whichever block it belongs to: the relays of block b carry tag
 * IG_TAG_RELAY_FIRST + b, so that an owner may relay its blocks in the
 * order their parts come (each block's parts in order, as its receivers
 * post them).  Not in the first versions: with whole pieces an owner
 * relayed nothing until a whole piece (350 KiB at 4+12 with 4 MiB blocks)
 * had come through a link shared with the other owners' relays; and
 * relaying in the order parts were due rather than came cost 5 to 8 % at
 * 4+12 with 1 MiB blocks on the emulated cluster (docs/performance.md,
 * fortieth and forty-first sessions).
 *
 * Pieces are byte ranges, so every block must be one contiguous piece of
 * memory on every process (agreed, shape.h: the decision runs the fully
 * connected family otherwise).  Each block is cut by its own size, which
 * its sender knows from its send arguments and every receiver from its
 * receive count for it: blocks may differ (MPI_Allgatherv), and the
 * agreement has checked that the two sides' sizes match (shape.h), so
 * both cut a block at the same offsets, and its pieces into the same parts.
 * Messages: each receiver takes p q pieces (with members p d), each in its
 * parts, which the decision bounds (decide.c); senders keep
 * step->piece_window parts in flight, receivers step->window relays.
 */
#include "algorithms.h"
#include "blocks.h"
#include "p2p.h"
#include "relay_plan.h"
#include "stats.h"
#include "tags.h"

#include <stdlib.h>

typedef struct {
    ig_pair *pair;
    const ig_xfer *x;
    int p, q;
    int members;          /* 0: q pieces a block, one per receiver; d > 0: d members a block */
    uint64_t part_bytes;  /* the most bytes of a piece in one message (0: the whole piece) */
    MPI_Count rtype_size; /* receivers: bytes of one element of x->rtype */
    MPI_Aint rtrue_lb;    /* receivers: where a block's bytes start, from its slot */
} relay_ctx;

/* Pieces a block is cut into. */
static int pieces_of_block(const relay_ctx *c)
{
    return c->members > 0 ? c->members : c->q;
}

/* The receiver that owns piece j of block b: its member j, or receiver j. */
static int owner_of(const relay_ctx *c, int b, int j)
{
    return c->members > 0 ? ig_relay_owner_at(c->p, c->q, b, j) : j;
}

/* The piece of block b receiver r owns, or -1. */
static int piece_owned(const relay_ctx *c, int b, int r)
{
    return c->members > 0 ? ig_relay_member_place(c->p, c->q, c->members, b, r) : r;
}

/* Whether receiver r takes block b whole from its sender. */
static int is_member(const relay_ctx *c, int b, int r)
{
    return c->members > 0 && piece_owned(c, b, r) >= 0;
}

/* Sends with at most `window` in flight (senders' pieces, and receivers'
 * relays, direct's window): p2p.h's ig_window_slot.  A sender's pieces go
 * synchronous (MPI_Issend: done once the receiver has matched them) where
 * the step says so (step->relay_sync_pieces, decide.c says why), so that
 * its window bounds what is in the network, not only what the MPI
 * library holds; relays stay eager. */
typedef struct {
    MPI_Request *slots;
    int window, posted, synchronous;
} windowed_sends;

static int send_windowed(const relay_ctx *c, windowed_sends *ws, const void *buf, ig_piece pc, int dest, int tag)
{
    int (*post)(const void *, int, MPI_Datatype, int, int, MPI_Comm, MPI_Request *) =
        ws->synchronous ? PMPI_Issend : PMPI_Isend;
    int slot, rc = ig_window_slot(ws->slots, ws->window, ws->posted++, &slot);
    ig_err_keep(&rc, post(buf, (int)pc.length, MPI_BYTE, dest, tag, c->pair->comm, &ws->slots[slot]));
    return rc;
}

/* Parts of a piece. */
static int parts_in(const relay_ctx *c, ig_piece pc)
{
    return ig_byte_part_count(pc.length, c->part_bytes);
}

/* Plain relay: the sender's pieces go out one after another, so that the
 * first owners can relay while the last pieces still travel. */
static int send_pieces(const relay_ctx *c, windowed_sends *ws, const char *base, uint64_t block_bytes)
{
    int rc = MPI_SUCCESS, me = c->pair->rank;
    for (int t = 0; t < c->q; t++) {
        int owner = ig_relay_owner_at(c->p, c->q, me, t);
        ig_piece pc = ig_byte_piece(block_bytes, c->q, owner);
        for (int u = 0, parts = parts_in(c, pc); u < parts; u++) {
            ig_piece part = ig_byte_part(pc, c->part_bytes, u);
            ig_err_keep(&rc, send_windowed(c, ws, base + part.offset, part, c->p + owner, IG_TAG_DIRECT));
        }
    }
    return rc;
}

/* The tag of block b's relays, and of the pieces of b its sender sends a
 * member besides the member's own (tags.h). */
static int relay_tag(int b)
{
    return IG_TAG_RELAY_FIRST + b;
}

/* Part u of a member's piece `shift` round the block from its own (shift
 * 0: its own piece, which it relays; the others with the block's relay
 * tag, the order post_member_rest posts them), if the piece has a part u. */
static int send_member_part(const relay_ctx *c, windowed_sends *ws, const char *base, uint64_t block_bytes, int t,
                            int shift, int u)
{
    int me = c->pair->rank, d = c->members;
    ig_piece pc = ig_byte_piece(block_bytes, d, (t + shift) % d);
    if (u < 0 || u >= parts_in(c, pc))
        return MPI_SUCCESS;
    ig_piece part = ig_byte_part(pc, c->part_bytes, u);
    return send_windowed(c, ws, base + part.offset, part, c->p + ig_relay_owner_at(c->p, c->q, me, t),
                         shift == 0 ? IG_TAG_DIRECT : relay_tag(me));
}

/* Members: the whole block to each member, the members fed side by side
 * part by part.  A member's own piece leads the rest of its block by half
 * of its parts, then goes one part to each part of the other pieces: its
 * relays (q - d flows into every member, from as many owners) then cannot
 * run far ahead of its sender's stream.  With the own piece first (the
 * forty-first session's order) the relays took all but one flow's fair
 * share of each member's link, and the rest of the block came last, at
 * its sender's link split d ways, after the relays were done: at 4+12
 * with 4 MiB blocks 78 to 80 % of the receiver-link bound against 85 to 86 %
 * interleaved; with no lead the last own part is relayed after the
 * stream has ended (docs/performance.md, forty-fifth session).  A lead of
 * half rather than a third: its slow calls are those in which one
 * member's own piece came late (forty-seventh session), and in three A/B
 * runs at 4+12 with 4 MiB blocks the median call was 0.2 to 0.7 % shorter
 * with it (level at 1 MiB; forty-eighth session). */
static int send_to_members(const relay_ctx *c, windowed_sends *ws, const char *base, uint64_t block_bytes)
{
    int rc = MPI_SUCCESS, d = c->members;
    int most_parts = parts_in(c, ig_byte_piece(block_bytes, d, 0)); /* the first pieces are the longest */
    int lead = (most_parts + 1) / 2; /* half of the parts, rounded up */
    for (int round = 0; round < most_parts + lead; round++) {
        for (int t = 0; t < d; t++)
            ig_err_keep(&rc, send_member_part(c, ws, base, block_bytes, t, 0, round));
        for (int shift = 1; shift < d; shift++)
            for (int t = 0; t < d; t++)
                ig_err_keep(&rc, send_member_part(c, ws, base, block_bytes, t, shift, round - lead));
    }
    return rc;
}

static int relay_sender(const relay_ctx *c, const ig_step *step)
{
    const ig_xfer *x = c->x;
    int window = step->piece_window > 0 ? step->piece_window : 1;
    MPI_Aint true_lb;
    MPI_Count type_size = 0;
    int rc = ig_block_true_lb(x->scount, x->stype, &true_lb);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_size_x(x->stype, &type_size);
    if (rc != MPI_SUCCESS)
        return rc;
    uint64_t block_bytes = (uint64_t)x->scount * (uint64_t)type_size;
    MPI_Request *reqs = ig_pair_requests(c->pair, window);
    if (reqs == NULL)
        return MPI_ERR_NO_MEM;
    const char *base = (const char *)x->sbuf + true_lb;
    windowed_sends ws = { .slots = reqs, .window = window, .synchronous = step->relay_sync_pieces };
    if (ws.synchronous)
        ig_stats_paced_send();
    rc = c->members > 0 ? send_to_members(c, &ws, base, block_bytes) : send_pieces(c, &ws, base, block_bytes);
    ig_err_keep(&rc, ig_waitall(window, reqs));
    ig_pair_requests_done(c->pair, reqs);
    return rc;
}

/* Bytes of block b, as a receiver counts them. */
static uint64_t received_bytes(const relay_ctx *c, int b)
{
    return (uint64_t)ig_xfer_rcount(c->x, b) * (uint64_t)c->rtype_size;
}

/* Piece j of block b. */
static ig_piece piece_of(const relay_ctx *c, int b, int j)
{
    return ig_byte_piece(received_bytes(c, b), pieces_of_block(c), j);
}

/* A part of block b in this receiver's buffer. */
static char *part_at(const relay_ctx *c, int b, ig_piece part)
{
    return (char *)ig_xfer_rptr(c->x, b) + c->rtrue_lb + (MPI_Aint)part.offset;
}

/* The parts of one block's piece that a receiver owns: their receives
 * are requests first .. first + parts - 1, of which the first `next` have
 * been relayed.  Kept in the pair's ints (four each: the room the decision
 * reserves, decide_room.c's relay_ints). */
typedef struct {
    int block, first, parts, next;
} owned_run;
_Static_assert(sizeof(owned_run) == 4 * sizeof(int), "a run is the four ints decide_room.c reserves for it");

/* The receiver's messages, posted before any relay: first the parts of
 * the pieces it owns, from their senders, one run per block; then every
 * other piece, from its sender (a member's other pieces, in the order its
 * sender sends them) or relayed by its owner. */
typedef struct {
    MPI_Request *reqs;
    int posted, owned; /* owned: the receives of owned parts, reqs[0..owned) */
    owned_run *runs;
    int n_runs;
} receives;

/* Part u of piece pc of block b, from source, into the next request. */
static int post_part(const relay_ctx *c, receives *r, int b, ig_piece pc, int u, int source, int tag)
{
    ig_piece part = ig_byte_part(pc, c->part_bytes, u);
    return PMPI_Irecv(part_at(c, b, part), (int)part.length, MPI_BYTE, source, tag, c->pair->comm,
                      &r->reqs[r->posted++]);
}

static int post_piece(const relay_ctx *c, receives *r, int b, int j, int source, int tag)
{
    int rc = MPI_SUCCESS;
    ig_piece pc = piece_of(c, b, j);
    for (int u = 0, parts = parts_in(c, pc); u < parts; u++)
        ig_err_keep(&rc, post_part(c, r, b, pc, u, source, tag));
    return rc;
}

/* A member's pieces of block b other than its own, from b's sender, in
 * the order send_to_members sends them: part u of each, round the block
 * from the own piece. */
static int post_member_rest(const relay_ctx *c, receives *r, int b, int own)
{
    int rc = MPI_SUCCESS, d = c->members, most_parts = parts_in(c, piece_of(c, b, 0));
    for (int u = 0; u < most_parts; u++)
        for (int shift = 1; shift < d; shift++) {
            ig_piece pc = piece_of(c, b, (own + shift) % d);
            if (u < parts_in(c, pc))
                ig_err_keep(&rc, post_part(c, r, b, pc, u, b, relay_tag(b)));
        }
    return rc;
}

static int post_receives(const relay_ctx *c, receives *r)
{
    int rc = MPI_SUCCESS, me = c->pair->rank - c->p, m = pieces_of_block(c);
    for (int b = 0; b < c->p; b++) {
        int own = piece_owned(c, b, me);
        if (own < 0)
            continue;
        owned_run *run = &r->runs[r->n_runs++];
        run->block = b;
        run->first = r->posted;
        run->next = 0;
        ig_err_keep(&rc, post_piece(c, r, b, own, b, IG_TAG_DIRECT));
        run->parts = r->posted - run->first;
    }
    r->owned = r->posted;
    for (int b = 0; b < c->p; b++) {
        if (is_member(c, b, me)) {
            ig_err_keep(&rc, post_member_rest(c, r, b, piece_owned(c, b, me)));
            continue;
        }
        /* The pieces after the owned one round the block, or all of them. */
        int own = piece_owned(c, b, me), start = own >= 0 ? own : 0;
        for (int shift = own >= 0; shift < m; shift++) {
            int j = (start + shift) % m;
            ig_err_keep(&rc, post_piece(c, r, b, j, c->p + owner_of(c, b, j), relay_tag(b)));
        }
    }
    return rc;
}

/* The run that request `index` belongs to (runs are in request order). */
static owned_run *run_of(receives *r, int index)
{
    int lo = 0, hi = r->n_runs - 1;
    while (lo < hi) {
        int mid = (lo + hi + 1) / 2;
        if (r->runs[mid].first <= index)
            lo = mid;
        else
            hi = mid - 1;
    }
    return &r->runs[lo];
}

/* Relay the parts of a run that have come, in order, to every receiver
 * that does not have them: j + 1, j + 2, ... round the group, like
 * direct's senders, so that owners reach any one receiver a few at a time. */
static int relay_run(const relay_ctx *c, receives *r, owned_run *run, windowed_sends *ws)
{
    int rc = MPI_SUCCESS, me = c->pair->rank - c->p, b = run->block, own = piece_owned(c, b, me);
    ig_piece pc = piece_of(c, b, own);
    for (; run->next < run->parts && r->reqs[run->first + run->next] == MPI_REQUEST_NULL; run->next++) {
        ig_piece part = ig_byte_part(pc, c->part_bytes, run->next);
        for (int d = 1; d < c->q; d++) {
            int to = (me + d) % c->q;
            if (!is_member(c, b, to))
                ig_err_keep(&rc, send_windowed(c, ws, part_at(c, b, part), part, c->p + to, relay_tag(b)));
        }
    }
    return rc;
}

static int relay_receiver(const relay_ctx *c, const ig_step *step)
{
    int p = c->p, m = pieces_of_block(c), rc = MPI_SUCCESS;
    int window = step->window > 0 ? step->window : 1, n_recv = 0;
    for (int b = 0; b < p; b++)
        for (int j = 0; j < m; j++)
            n_recv += parts_in(c, piece_of(c, b, j));
    /* A run in four of the pair's ints (allocated memory, which may hold
     * runs as well as ints). */
    owned_run *runs = (owned_run *)ig_pair_ints(c->pair, 4 * p);
    MPI_Request *reqs = ig_pair_requests(c->pair, n_recv + window);
    if (runs == NULL || reqs == NULL) {
        ig_pair_ints_done(c->pair, (int *)runs);
        ig_pair_requests_done(c->pair, reqs);
        return MPI_ERR_NO_MEM;
    }
    receives r = { .reqs = reqs, .runs = runs };
    rc = post_receives(c, &r);
    /* Relay each owned part once it is here, whichever comes first. */
    int n_own = r.owned;
    windowed_sends ws = { .slots = reqs + n_recv, .window = window };
    for (int done = 0; done < n_own; done++) {
        int index = MPI_UNDEFINED;
        int err = PMPI_Waitany(n_own, reqs, &index, MPI_STATUS_IGNORE);
        ig_err_keep(&rc, err);
        if (index < 0 || index >= n_own)
            break; /* none left active (a post failed), or the wait named none */
        if (err != MPI_SUCCESS)
            reqs[index] = MPI_REQUEST_NULL; /* done, in error: not to be named again, and relayed as it is */
        ig_err_keep(&rc, relay_run(c, &r, run_of(&r, index), &ws));
    }
    /* After a failure the loop may end early: complete every owned receive,
     * then relay what is left (after a failed receive or post, whatever the
     * buffer holds), so that no receiver waits for a relay that never
     * comes (MPICH's errflag). */
    ig_err_keep(&rc, ig_waitall(n_own, reqs));
    for (int k = 0; k < r.n_runs; k++)
        ig_err_keep(&rc, relay_run(c, &r, &r.runs[k], &ws));
    ig_err_keep(&rc, ig_waitall(n_recv + window, reqs));
    ig_pair_requests_done(c->pair, reqs);
    ig_pair_ints_done(c->pair, (int *)runs);
    return rc;
}

int ig_alg_relay(ig_pair *pair, const ig_xfer *x, const ig_step *step)
{
    relay_ctx c = { .pair = pair,
                    .x = x,
                    .p = pair->p,
                    .q = pair->q,
                    .members = step->relay_members,
                    .part_bytes = step->relay_part_bytes };
    if (ig_pair_is_sender(pair))
        return relay_sender(&c, step);
    MPI_Aint true_extent;
    int rc = PMPI_Type_get_true_extent(x->rtype, &c.rtrue_lb, &true_extent);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_size_x(x->rtype, &c.rtype_size);
    return rc != MPI_SUCCESS ? rc : relay_receiver(&c, step);
}
