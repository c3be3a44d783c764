#include "opening.h"
#include "opening_round.h"

#include "blocks.h"
#include "decide.h"
#include "lifecycle.h"
#include "log.h"
#include "mpi_identity.h"
#include "opening_plan.h"
#include "p2p.h"
#include "stats.h"

#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

int ig_opening_applies(const ig_call *c, ig_comm_cache *cache, const ig_settings *s)
{
    int n[2];
    (void)c; /* both operations (opening_plan.h) */
    ig_comm_cache_group_sizes(cache, n);
    return ig_decide_opening_applies(s, n[0], n[1], ig_mpi_truncated_receive_returns());
}

/* What this process expects from peer j: the same from every peer in an
 * MPI_Allgather, its receive count for j in an MPI_Allgatherv; nothing
 * where its arguments are unusable. */
int64_t ig_opening_expects_from(const ig_opening_round *o, int j)
{
    return o->self.hard ? 0 : ig_call_expected_from(o->c, j);
}

/* This process as peer j sees it (opening_plan.h): what it expects from j. */
static ig_opening_self self_toward(const ig_opening_round *o, int j)
{
    ig_opening_self view = o->self;
    view.expect = ig_opening_expects_from(o, j);
    return view;
}

/* Where peer j's block lands and how many receive elements it takes, as
 * the MPI library places it: at j blocks of rcount elements in an
 * MPI_Allgather, at displacement rdispls[j] in an MPI_Allgatherv. */
void *ig_opening_slot_of(const ig_opening_round *o, int j, int *count)
{
    const ig_call *c = o->c;
    MPI_Aint elements = c->op == IG_OP_ALLGATHER ? (MPI_Aint)j * c->rcount : c->rdispls[j];
    *count = c->op == IG_OP_ALLGATHER ? c->rcount : c->rcounts[j];
    return (char *)c->rbuf + elements * c->rtype_extent;
}

/* PMPI_Waitall with every status's MPI_ERROR set (the standard leaves them
 * unset when the call succeeds). */
static int wait_statuses(int n, MPI_Request *reqs, MPI_Status *stats)
{
    int rc = ig_waitall_status(n, reqs, stats);
    if (rc == MPI_SUCCESS)
        for (int i = 0; i < n; i++)
            stats[i].MPI_ERROR = MPI_SUCCESS;
    return rc;
}

static int post_receive(ig_opening_round *o, int j, int tag, MPI_Request *req)
{
    int count;
    if (o->self.hard)
        return ig_irecv_sink(o->sink[j], j, tag, o->comm, req);
    void *slot = ig_opening_slot_of(o, j, &count);
    return PMPI_Irecv(slot, count, o->c->rtype, j, tag, o->comm, req);
}

/* Sends start at the remote rank of this process's own rank and walk
 * round, so that not every process sends to remote rank 0 first, as
 * MPI_Iallgather does (the direct algorithm staggers likewise).  Measured
 * on the emulated cluster (docs/performance.md, twenty-fourth session):
 * with rank order instead, calls of 8 and 16 KiB blocks took 1.3x to 1.6x
 * as long at 4+4 and 8+8; at 4 KiB full duplex rank order was 2 to 13 %
 * faster, too little and too narrow a range to switch orders by size. */
static int peer_of(const ig_opening_round *o, int k)
{
    return (o->local_rank + k) % o->remote;
}

/* The remote ranks this process's round-one message goes to, in order:
 * every peer, from peer_of; a root of the trees, its children in its own
 * tree only, the rest passing it on (opening_tree.c). */
static int round_one_targets(const ig_opening_round *o, int *targets)
{
    if (o->tree == IG_TREE_ROOT)
        return ig_opening_root_targets(o, targets);
    for (int k = 0; k < o->remote; k++)
        targets[k] = peer_of(o, k);
    return o->remote;
}

/* Piece i of a block of `bytes` bytes (opening_plan.h): the block's
 * parts of IG_OPENING_PIECE_BYTES, cut as every part is (byte_pieces.h). */
static ig_piece piece_of(int64_t bytes, int64_t i)
{
    return ig_byte_part((ig_piece){ .offset = 0, .length = (uint64_t)bytes }, IG_OPENING_PIECE_BYTES, (int)i);
}

/* Where a piece lies in the block that starts at `base`. */
static char *piece_at(const void *base, ig_piece pc)
{
    return (char *)base + (MPI_Aint)pc.offset;
}

/* Whether a process that leaves early cuts its block into eager pieces:
 * where the decision says so (ig_decide_opening_pieces) and its send
 * type's data are the block's bytes in order, so that piece i is bytes
 * [i E, (i + 1) E). */
static int cuts_into_pieces(ig_opening_round *o, const ig_settings *s, int nodes)
{
    const ig_call *c = o->c;
    MPI_Aint true_lb;
    /* Not in the tree, which passes whole messages on. */
    if (o->tree != IG_TREE_NONE || !ig_opening_self_leaves_early(&o->self) ||
        !ig_decide_opening_pieces(o->self.send, nodes, s) ||
        !ig_type_contiguous(c->scount, c->stype) || ig_block_true_lb(c->scount, c->stype, &true_lb) != MPI_SUCCESS)
        return 0;
    o->send_bytes_at = (const char *)c->sbuf + true_lb;
    return 1;
}

/* Post the sends of a process that leaves early: to every peer (in the
 * trees, a root's children in its tree: round_one_targets) its block,
 * in pieces if o->self.pieces (the first with the round-one tag), piece by
 * piece across the peers, each piece copied into `copy` just before it
 * goes (so the first leaves without waiting for the whole copy).  sends
 * holds remote * pieces requests, peer j's pieces at j * pieces. */
static int post_early_sends(ig_opening_round *o, int64_t pieces, char *copy, MPI_Request *sends)
{
    const ig_call *c = o->c;
    int rc = MPI_SUCCESS, tag = ig_opening_tag(&o->self, o->max_bytes), targets[IG_OPENING_MAX_REMOTE];
    int n_targets = round_one_targets(o, targets);
    for (int64_t i = 0; i < pieces; i++) {
        ig_piece pc = piece_of(o->self.send, i);
        if (o->self.pieces)
            memcpy(piece_at(copy, pc), piece_at(o->send_bytes_at, pc), (size_t)pc.length);
        for (int k = 0; k < n_targets; k++) {
            int j = targets[k];
            MPI_Request *req = &sends[(int64_t)j * pieces + i];
            if (!o->self.pieces)
                ig_err_keep(&rc, PMPI_Isend(c->sbuf, c->scount, c->stype, j, tag, o->comm, req));
            else
                ig_err_keep(&rc, PMPI_Isend(piece_at(copy, pc), (int)pc.length, MPI_BYTE, j,
                                            i == 0 ? tag : IG_OPENING_TAG_PIECE, o->comm, req));
        }
    }
    return rc;
}

/* A sender in pieces waits until each peer has taken its pieces, or has
 * said that it takes them later (opening_left.h: it settles them after
 * the call).  Returns whether some sends are still open.  A failed send
 * ends the wait for its peer, its error kept in *rc; that peer's other
 * sends are kept open like those taken later (the copy they read stays). */
static int wait_for_takers(ig_opening_round *o, ig_opening_left *left, int64_t pieces, MPI_Request *sends, int *rc)
{
    char settled[IG_OPENING_MAX_REMOTE] = { 0 };
    int open = o->remote, later = 0, tag[IG_OPENING_MAX_REMOTE];
    for (int j = 0; j < o->remote; j++)
        tag[j] = -1; /* until its message comes (stays so if its receive could not be posted) */
    while (open > 0) {
        open = 0;
        for (int j = 0; j < o->remote; j++) {
            int taken = 0, failed;
            if (settled[j])
                continue;
            failed = PMPI_Testall((int)pieces, &sends[(int64_t)j * pieces], &taken, MPI_STATUSES_IGNORE);
            ig_err_keep(rc, failed);
            if (taken)
                settled[j] = 1;
            else if (failed != MPI_SUCCESS) /* its other pieces may still read the copy: kept, as below */
                later = settled[j] = 1;
            else if (ig_opening_left_settle_peer(left, j, o->comm, 0, &tag[j]) && ig_opening_tag_leaves_early(tag[j]))
                later = settled[j] = 1;
            else
                open++;
        }
    }
    return later;
}

/* A process that leaves early (opening_plan.h): its blocks sent, its
 * receives left to complete on their own.  They take their messages into
 * a sink (p2p.h: it expects nothing, and a block sent to it in an
 * erroneous call is cut and dropped there), no buffer of the call's, and
 * each matches the one round-one message its peer sends
 * on this communicator in this call: posted before this process's later
 * receives, it meets that message first.  They are kept in `left` until
 * settled (opening_left.h: before the next opening on the communicator
 * posts anything, at its free and at MPI_Finalize); so are the sends of
 * pieces that peers take later.  It leaves without testing them (a sender
 * in pieces tests them only while it waits for takers): a test runs MPI's
 * progress, which where processes outnumber cores yields the processor
 * (mpi_yield_when_idle), and on the emulated cluster such tests held a 4+4
 * half-duplex sender of 4 KiB for 90 to 145 microseconds instead of 36
 * (docs/performance.md, twenty-fifth session). */
static int leave_early(ig_opening_round *o, ig_opening_left *left)
{
    MPI_Request one_each[IG_OPENING_MAX_REMOTE], *sends = one_each;
    char *copy = NULL;
    int64_t pieces = o->self.pieces ? ig_opening_piece_count(o->self.send) : 1;
    if (pieces > 1 && ((copy = ig_opening_left_copy_room(left, (size_t)o->self.send)) == NULL ||
                       (sends = malloc(sizeof *sends * (size_t)(pieces * o->remote))) == NULL)) {
        sends = one_each; /* no room for the pieces: the block goes whole, as the tag then says */
        copy = NULL;
        o->self.pieces = 0;
        pieces = 1;
    }
    int rc = MPI_SUCCESS, n_sends = (int)(pieces * o->remote);
    for (int i = 0; i < n_sends; i++)
        sends[i] = MPI_REQUEST_NULL;
    ig_err_keep(&rc, post_early_sends(o, pieces, copy, sends));
    /* After the sends, which its peers wait for: the receives wait for
     * nothing, and a message that comes first waits for its receive. */
    left->n = o->remote;
    left->peer_not_small = 0;
    for (int j = 0; j < o->remote; j++) {
        left->recv[j] = MPI_REQUEST_NULL;
        ig_err_keep(&rc, ig_irecv_sink(left->sink[j], j, MPI_ANY_TAG, o->comm, &left->recv[j]));
    }
    if (copy == NULL) {
        ig_err_keep(&rc, ig_waitall(n_sends, sends)); /* one message per peer: its kept receive takes it */
    } else if (wait_for_takers(o, left, pieces, sends, &rc)) {
        ig_stats_opening(IG_OPENING_STAT_TAKEN_LATER);
        left->sends = sends;
        left->n_sends = n_sends;
    } else {
        free(sends);
    }
    ig_opening_left_trim_copy(left); /* a large copy no send reads (or that the pieces could not use) */
    if (o->self.pieces)
        ig_stats_opening(IG_OPENING_STAT_IN_PIECES);
    return rc;
}

/* The piece of `whole` bytes from peer j across the end of what this
 * process expects: its first `fits` bytes to `to`.  Taken whole into
 * scratch, not by a receive cut short, whose buffer MPI leaves undefined
 * (Open MPI's UCX layer writes nothing there, its ob1 layer may write
 * the whole piece: p2p.h).  Without scratch it is dropped and what fits
 * stays unwritten; the call is reported truncated either way. */
static int receive_piece_cut(ig_opening_round *o, int j, int whole, int fits, char *to)
{
    char *scratch = malloc((size_t)whole);
    if (scratch == NULL) {
        ig_recv_sink(j, IG_OPENING_TAG_PIECE, o->comm, MPI_STATUS_IGNORE);
        return MPI_SUCCESS;
    }
    int rc = PMPI_Recv(scratch, whole, MPI_BYTE, j, IG_OPENING_TAG_PIECE, o->comm, MPI_STATUS_IGNORE);
    if (rc == MPI_SUCCESS)
        memcpy(to, scratch, (size_t)fits);
    free(scratch);
    return rc;
}

/* The pieces after the first from peer j, which sends its block of
 * heard[j].got bytes in pieces: into the block's place (directly where
 * the receive type's data are bytes in order, else through a packed copy
 * of the slot) as far as this process expects, each matched by exactly
 * one receive, as opening_plan.h requires.  A block longer than expected
 * (an erroneous call, already reported truncated) leaves its first
 * `expect` bytes in place, as the agreed path does (algo_direct.c): the
 * piece across that end cut (receive_piece_cut), the pieces after it
 * dropped. */
static int receive_rest_of_pieces(ig_opening_round *o, int j)
{
    const ig_call *c = o->c;
    int64_t bytes = o->heard[j].got, pieces = ig_opening_piece_count(bytes), expect = ig_opening_expects_from(o, j);
    int64_t room = bytes < expect ? bytes : expect;
    int count = 0;
    void *slot = o->self.hard ? NULL : ig_opening_slot_of(o, j, &count), *staging = NULL, *base = NULL;
    int wanted = room > IG_OPENING_PIECE_BYTES, contiguous = wanted && ig_type_contiguous(count, c->rtype);
    int rc = MPI_SUCCESS, packed = 0, position = 0;
    MPI_Aint true_lb = 0;
    if (contiguous && ig_block_true_lb(count, c->rtype, &true_lb) == MPI_SUCCESS) {
        base = (char *)slot + true_lb;
    } else if (wanted && PMPI_Pack_size(count, c->rtype, o->comm, &packed) == MPI_SUCCESS &&
               (staging = malloc(packed > 0 ? (size_t)packed : 1)) != NULL) {
        /* The first piece is already in the slot: pack it with the rest of
         * the slot, receive the other pieces behind it, unpack it all. */
        ig_err_keep(&rc, PMPI_Pack(slot, count, c->rtype, staging, packed, &position, o->comm));
        base = staging;
    } else if (wanted) {
        rc = MPI_ERR_NO_MEM;
    }
    for (int64_t i = 1; i < pieces; i++) {
        ig_piece pc = piece_of(bytes, i);
        int64_t fits = room - (int64_t)pc.offset; /* what fits of piece i */
        int whole = (int)pc.length;
        if (base != NULL && rc == MPI_SUCCESS && fits >= whole)
            ig_err_keep(&rc, PMPI_Recv(piece_at(base, pc), whole, MPI_BYTE, j, IG_OPENING_TAG_PIECE, o->comm,
                                       MPI_STATUS_IGNORE));
        else if (base != NULL && rc == MPI_SUCCESS && fits > 0)
            ig_err_keep(&rc, receive_piece_cut(o, j, whole, (int)fits, piece_at(base, pc)));
        else /* dropped: the pair is already judged (truncated, or not done) */
            ig_recv_sink(j, IG_OPENING_TAG_PIECE, o->comm, MPI_STATUS_IGNORE);
    }
    if (staging != NULL) {
        position = 0;
        if (rc == MPI_SUCCESS)
            rc = PMPI_Unpack(staging, packed, &position, slot, count, c->rtype, o->comm);
        free(staging);
    }
    return rc;
}

static int round_one(ig_opening_round *o)
{
    MPI_Request reqs[2 * IG_OPENING_MAX_REMOTE + IG_OPENING_TREE_MAX_ROOTS * IG_OPENING_TREE_MAX_CHILDREN];
    MPI_Status stats[2 * IG_OPENING_MAX_REMOTE + IG_OPENING_TREE_MAX_ROOTS * IG_OPENING_TREE_MAX_CHILDREN];
    MPI_Status relayed[IG_OPENING_TREE_MAX_ROOTS];
    const ig_call *c = o->c;
    int rc = MPI_SUCCESS, per_peer = c->op == IG_OP_ALLGATHERV, tag = ig_opening_tag(&o->self, o->max_bytes);
    int targets[IG_OPENING_MAX_REMOTE], n_targets = round_one_targets(o, targets), n_fwd = 0;
    for (int i = 0; i < 2 * o->remote + IG_OPENING_TREE_MAX_ROOTS * IG_OPENING_TREE_MAX_CHILDREN; i++)
        reqs[i] = MPI_REQUEST_NULL;
    for (int j = 0; j < o->remote && o->tree != IG_TREE_MEMBER; j++)
        ig_err_keep(&rc, post_receive(o, j, MPI_ANY_TAG, &reqs[j]));
    for (int k = 0; k < n_targets; k++) {
        int j = targets[k];
        if (per_peer) { /* an MPI_Allgather's tag is the same for every peer */
            ig_opening_self toward = self_toward(o, j);
            tag = ig_opening_tag(&toward, o->max_bytes);
        }
        MPI_Request *req = &reqs[o->remote + j];
        if (o->self.small)
            ig_err_keep(&rc, PMPI_Isend(c->sbuf, c->scount, c->stype, j, tag, o->comm, req));
        else
            ig_err_keep(&rc, PMPI_Isend(NULL, 0, MPI_BYTE, j, tag, o->comm, req));
    }
    /* In the trees, each root's message comes from the parent, after this
     * process's own messages to the roots have gone. */
    if (o->tree == IG_TREE_MEMBER)
        ig_err_keep(&rc, ig_opening_relay_all(o, &reqs[2 * o->remote], &n_fwd, relayed));
    /* Each operation's own error is in its status; a truncated receive is
     * no failure of the round (the pair is simply not done). */
    wait_statuses(2 * o->remote + n_fwd, reqs, stats);
    for (int i = o->remote; i < 2 * o->remote + n_fwd; i++)
        ig_err_keep(&rc, stats[i].MPI_ERROR);
    for (int t = 0; t < o->remote && o->tree == IG_TREE_MEMBER; t++)
        stats[t] = relayed[t];
    for (int j = 0; j < o->remote; j++) {
        int bytes = 0, truncated = ig_is_truncation(stats[j].MPI_ERROR);
        ig_opening_self toward = self_toward(o, j);
        int64_t room = toward.expect;
        PMPI_Get_count(&stats[j], MPI_BYTE, &bytes);
        truncated |= stats[j].MPI_ERROR == MPI_SUCCESS && bytes > room; /* a sink (hard) takes a few bytes whole */
        o->heard[j] = ig_opening_heard_from(stats[j].MPI_TAG, bytes, truncated, room);
        /* A receive that failed otherwise says nothing: the pair is not
         * done, and no late block is expected from that peer. */
        if (stats[j].MPI_ERROR != MPI_SUCCESS && !truncated) {
            ig_err_keep(&rc, stats[j].MPI_ERROR);
            o->heard[j] = (ig_opening_heard){ .hard = 1 };
        }
        o->done[j] = ig_opening_pair_done(&toward, &o->heard[j]);
        o->n_done += o->done[j];
        o->peer_hard |= o->heard[j].hard;
        o->mismatch |= !o->heard[j].hard && o->heard[j].expect != ig_opening_named(o->self.send, o->max_bytes);
        o->mismatch |= o->heard[j].small && (truncated || o->heard[j].got != room);
        o->truncated |= o->heard[j].truncated;
    }
    for (int j = 0; j < o->remote; j++)
        if (o->heard[j].pieces && (stats[j].MPI_ERROR == MPI_SUCCESS || ig_is_truncation(stats[j].MPI_ERROR)))
            ig_err_keep(&rc, receive_rest_of_pieces(o, j));
    return rc;
}

/* With every peer whose pair is not done: whether one would go on
 * (ig_opening_verdict).  Returns whether every process goes on. */
static int verdicts(ig_opening_round *o, int *rc)
{
    MPI_Request reqs[2 * IG_OPENING_MAX_REMOTE];
    int64_t mine = ig_opening_verdict(&o->self, o->n_done, o->remote, o->heard), theirs[IG_OPENING_MAX_REMOTE];
    int n = 0;
    for (int j = 0; j < o->remote; j++) {
        if (!ig_opening_talks_on(o->done[j], &o->heard[j]))
            continue;
        theirs[n] = 0;
        reqs[2 * n] = reqs[2 * n + 1] = MPI_REQUEST_NULL;
        ig_err_keep(rc, PMPI_Irecv(&theirs[n], 1, MPI_INT64_T, j, IG_OPENING_TAG_VERDICT, o->comm, &reqs[2 * n]));
        ig_err_keep(rc, PMPI_Isend(&mine, 1, MPI_INT64_T, j, IG_OPENING_TAG_VERDICT, o->comm, &reqs[2 * n + 1]));
        n++;
    }
    ig_err_keep(rc, ig_waitall(2 * n, reqs));
    return ig_opening_all_go_on((int)mine, n, theirs);
}

/* Pair by pair: the blocks round one did not carry (opening_plan.h). */
static int late_blocks(ig_opening_round *o)
{
    MPI_Request reqs[2 * IG_OPENING_MAX_REMOTE];
    MPI_Status stats[2 * IG_OPENING_MAX_REMOTE];
    const ig_call *c = o->c;
    int rc = MPI_SUCCESS, n = 0;
    for (int j = 0; j < o->remote; j++)
        if (ig_opening_receives_late(&o->heard[j])) {
            reqs[n] = MPI_REQUEST_NULL;
            ig_err_keep(&rc, post_receive(o, j, IG_OPENING_TAG_LATE, &reqs[n++]));
        }
    for (int k = 0; k < o->remote; k++) {
        int j = peer_of(o, k);
        if (!ig_opening_sends_late(&o->self, &o->heard[j]))
            continue;
        reqs[n] = MPI_REQUEST_NULL;
        ig_err_keep(&rc, PMPI_Isend(c->sbuf, c->scount, c->stype, j, IG_OPENING_TAG_LATE, o->comm, &reqs[n++]));
    }
    wait_statuses(n, reqs, stats);
    for (int i = 0; i < n; i++) {
        int cut = ig_is_truncation(stats[i].MPI_ERROR);
        o->truncated |= cut;
        if (!cut)
            ig_err_keep(&rc, stats[i].MPI_ERROR);
    }
    return rc;
}

/* Empty where no group sends data, full duplex where both do: whether the
 * other group sends is what this process expects; whether its own does,
 * in an MPI_Allgather what this process sends, in an MPI_Allgatherv also
 * whether a peer expects data from its group (the peers' tags).  (A
 * process that left early heard nothing, and needs not: it sends data, an
 * MPI_Allgatherv's learnt leaver included.)  Exact in a correct call, as
 * the agreed path counts it from the agreed shape. */
static void count_served(const ig_opening_round *o)
{
    const ig_call *c = o->c;
    int own_group_sends = o->self.send > 0, other_group_sends = o->self.expect > 0;
    for (int j = 0; j < o->remote && o->self.stays && !own_group_sends; j++)
        own_group_sends = o->heard[j].expects_any;
    if (!own_group_sends && !other_group_sends) {
        ig_stats_empty();
        return;
    }
    ig_stats_served(0);
    ig_stats_algorithm(IG_ALG_DIRECT);
    ig_stats_kinds(own_group_sends && other_group_sends, c->op == IG_OP_ALLGATHERV, c->from_fortran);
}

/* An erroneous call ended pair by pair, explained once per process. */
static void explain(const ig_opening_round *o)
{
    static atomic_int told;
    if (atomic_exchange(&told, 1))
        return;
    const char *v = o->c->op == IG_OP_ALLGATHERV ? "v" : "";
    ig_log("MPI_Allgather%s: the groups' sizes disagree (an erroneous program): this process sends %lld bytes and "
           "expects %s%lld from each remote process, and some remote process differs; served point to point%s "
           "(world rank %d)",
           v, (long long)o->self.send, *v ? "up to " : "", (long long)o->self.expect,
           o->truncated ? "; receives that expect less than is sent fail with MPI_ERR_TRUNCATE" : "",
           ig_world_rank());
}

/* The outcome of a call that ended pair by pair. */
static int pair_by_pair_outcome(const ig_opening_round *o, int rc)
{
    if (o->self.hard)
        return o->c->hard_error;
    if (rc != MPI_SUCCESS)
        return rc;
    if (o->truncated)
        return MPI_ERR_TRUNCATE;
    /* A peer whose arguments could not be used sent no block. */
    return o->peer_hard ? MPI_ERR_OTHER : MPI_SUCCESS;
}

/* ig_decide_opening_sends (or _v), remembered for the communicator's last
 * sizes (its other inputs are the communicator's own: the settings, the
 * group sizes, the nodes; a whole decision per call cost about a
 * microsecond).  `self` holds the largest expected block; expect_total
 * the sum over the peers. */
static int judged_small(ig_comm_cache *cache, const ig_settings *s, const ig_opening_self *self,
                        int64_t expect_total, int allgatherv)
{
    ig_opening_memo *m = ig_comm_cache_opening_memo(cache);
    if (m->send == self->send && m->expect == self->expect && m->expect_total == expect_total &&
        m->allgatherv == allgatherv)
        return m->small;
    int n[2], group = ig_comm_cache_group_sizes(cache, n), nodes = ig_comm_cache_nodes(cache);
    int over = ig_comm_cache_oversubscribed(cache);
    int64_t max_bytes = ig_comm_cache_opening_max_bytes(cache);
    if (allgatherv)
        m->small = ig_decide_opening_sends_v(group, self->send, self->expect, expect_total, n[0], n[1], nodes, over,
                                             max_bytes, s);
    else
        m->small = ig_decide_opening_sends(group, self->send, self->expect, n[0], n[1], nodes, over, max_bytes, s);
    m->send = self->send;
    m->expect = self->expect;
    m->expect_total = expect_total;
    m->allgatherv = allgatherv;
    return m->small;
}

/* What this process brings to the round (opening_plan.h), with `expect`
 * the most it expects from any peer: the size it is judged small by, as
 * the agreed decision judges a call by its largest block (round_one views
 * it per peer, self_toward). */
static ig_opening_self what_it_brings(const ig_call *c, ig_comm_cache *cache, const ig_settings *s)
{
    ig_opening_self self = { .hard = c->hard_error != MPI_SUCCESS, .stays = c->op == IG_OP_ALLGATHERV };
    int64_t total = 0;
    const ig_opening_memo *m = ig_comm_cache_opening_memo(cache);
    if (self.hard)
        return self;
    self.send = c->send_bytes;
    self.expect = c->expect_bytes; /* an MPI_Allgather's, from every peer */
    total = c->expect_bytes * c->remote_size;
    for (int j = 0; j < c->remote_size && c->op == IG_OP_ALLGATHERV; j++) {
        int64_t bytes = ig_call_expected_from(c, j);
        total += bytes;
        self.expect = bytes > self.expect ? bytes : self.expect;
    }
    self.expects_any = self.expect > 0;
    /* An MPI_Allgatherv process that sends and expects nothing takes no
     * part in the data: small, so that its pairs end in the one round
     * (the model, asked about empty sizes, answers with an empty call). */
    int empty = self.stays && self.send == 0 && self.expect == 0;
    self.small = c->local_reason == IG_FALLBACK_NONE &&
                 (empty || judged_small(cache, s, &self, total, c->op == IG_OP_ALLGATHERV));
    /* An MPI_Allgatherv sender that expects nothing leaves early after all
     * where it has learnt that its receivers are small with this block
     * (ig_decide_opening_learnt_early): a program calling with the same
     * sizes again, small, pays its receivers' arrival only twice.  Its tag
     * then names what it expects from every peer: nothing. */
    if (c->local_reason == IG_FALLBACK_NONE &&
        ig_decide_opening_learnt_early(&m->receivers, &self, ig_comm_cache_opening_max_bytes(cache))) {
        self.small = 1;
        self.stays = 0;
    }
    return self;
}

/* What an MPI_Allgatherv sender that expects nothing learns of its
 * receivers in this round (ig_decide_opening_learnt_early): heard when it
 * stayed; when it left, read from their messages when it settles them
 * (ig_opening_run). */
static void remember_receivers(const ig_opening_round *o, ig_comm_cache *cache, int left_early)
{
    ig_opening_memo *m = ig_comm_cache_opening_memo(cache);
    int all_small = 1;
    if (o->c->op != IG_OP_ALLGATHERV || o->self.hard || o->c->local_reason != IG_FALLBACK_NONE ||
        o->self.expect != 0 || o->self.send == 0)
        return;
    if (left_early) {
        m->early_pending = 1;
        ig_stats_opening(IG_OPENING_STAT_LEARNT_EARLY);
        return;
    }
    for (int j = 0; j < o->remote; j++)
        all_small &= o->heard[j].small && !o->heard[j].hard;
    ig_decide_opening_observe_receivers(&m->receivers, o->self.send, all_small);
}

/* The round itself, once what an earlier call left is settled. */
static ig_opening_outcome run_round(const ig_call *c, ig_comm_cache *cache, const ig_settings *s, int *rc)
{
    ig_opening_heard heard[IG_OPENING_MAX_REMOTE];
    char done[IG_OPENING_MAX_REMOTE], sink[IG_OPENING_MAX_REMOTE][IG_SINK_BYTES];
    ig_opening_round o = { .c = c, .comm = ig_comm_cache_opening(cache), .remote = c->remote_size,
                  .max_bytes = ig_comm_cache_opening_max_bytes(cache), .heard = heard, .done = done, .sink = sink };
    ig_opening_left *left = ig_comm_cache_opening_left(cache);
    o.local_rank = ig_comm_cache_local_rank(cache);
    o.self = what_it_brings(c, cache, s);
    ig_opening_join_tree(&o, cache, s);
    o.self.pieces = cuts_into_pieces(&o, s, ig_comm_cache_nodes(cache));
    int early = ig_opening_self_leaves_early(&o.self);
    *rc = early ? leave_early(&o, left) : round_one(&o);
    remember_receivers(&o, cache, early);
    if (early || o.n_done == o.remote) {
        ig_stats_opening(IG_OPENING_STAT_ENDED);
        count_served(&o);
        ig_lifecycle_announce(ig_algorithm_info_of(IG_ALG_DIRECT)->name);
        return IG_OPENING_ENDED;
    }
    /* Whether to go on is decided by the verdicts alone, which every
     * process that asks reads alike; a local error goes on with it (the
     * agreement and the path after it report their own). */
    if (verdicts(&o, rc)) {
        ig_stats_opening(IG_OPENING_STAT_WENT_ON);
        return IG_OPENING_GO_ON;
    }
    ig_err_keep(rc, late_blocks(&o));
    *rc = pair_by_pair_outcome(&o, *rc);
    ig_stats_opening(IG_OPENING_STAT_PAIR_BY_PAIR);
    if (o.mismatch && !o.self.hard && !o.peer_hard) {
        ig_stats_erroneous();
        explain(&o);
    } else if (*rc == MPI_SUCCESS) {
        count_served(&o);
    }
    return IG_OPENING_ENDED;
}

ig_opening_outcome ig_opening_run(const ig_call *c, ig_comm_cache *cache, const ig_settings *s, int *rc)
{
    /* Before any receive of this call, what an earlier call left; where
     * it left early, whether its receivers were small (what_it_brings). */
    ig_opening_left *left = ig_comm_cache_opening_left(cache);
    ig_opening_memo *m = ig_comm_cache_opening_memo(cache);
    ig_opening_left_settle(left, ig_comm_cache_opening(cache));
    if (m->early_pending)
        ig_decide_opening_observe_receivers(&m->receivers, m->receivers.send, !left->peer_not_small);
    m->early_pending = 0;
    /* The last calls' classes predict that this round would not end this
     * call (observed below and by ig_opening_agreed, alike on every
     * process). */
    ig_opening_history *history = &m->history;
    if (ig_decide_opening_predict_skip(history)) {
        ig_stats_opening(IG_OPENING_STAT_SKIPPED);
        return IG_OPENING_SKIPPED;
    }
    ig_opening_outcome outcome = run_round(c, cache, s, rc);
    if (outcome == IG_OPENING_ENDED)
        ig_decide_opening_observe(history, 0);
    return outcome;
}

void ig_opening_agreed(const ig_call *c, ig_comm_cache *cache, const ig_settings *s, const ig_shape *shape)
{
    if (ig_opening_applies(c, cache, s))
        ig_decide_opening_observe(&ig_comm_cache_opening_memo(cache)->history,
                                  ig_decide_opening_call_is_large(shape, c->op == IG_OP_ALLGATHERV,
                                                                  ig_comm_cache_opening_max_bytes(cache), s));
}

ig_opening_outcome ig_opening_after_all(const ig_call *c, ig_comm_cache *cache, const ig_settings *s,
                                        const ig_shape *shape, int *rc)
{
    if (shape->reason == IG_FALLBACK_NONE)
        return IG_OPENING_GO_ON;
    return run_round(c, cache, s, rc);
}
