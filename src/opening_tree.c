/*
 * The opening's trees (opening_plan.h, "The tree"): where one group has
 * one to three processes (the roots) and the other at least four times as
 * many, each root's round-one message goes down its own tree over the
 * other group, whose processes pass it on unchanged.  Who is whose parent
 * and child, and in which order a process takes the trees, is
 * opening_plan.c's (pure); this file carries it out on the round's state
 * (opening_round.h), and opening.c's round_one calls it.
 */
#include "opening_round.h"

#include "stats.h"

void ig_opening_join_tree(ig_opening_round *o, ig_comm_cache *cache, const ig_settings *s)
{
    int n[2], group = ig_comm_cache_group_sizes(cache, n);
    if (!ig_decide_opening_tree(o->c->op == IG_OP_ALLGATHERV, n[0], n[1], ig_comm_cache_nodes(cache), s))
        return;
    o->tree = n[group] > o->remote ? IG_TREE_MEMBER : IG_TREE_ROOT;
    o->roots = o->tree == IG_TREE_MEMBER ? o->remote : n[group];
    o->others = o->tree == IG_TREE_MEMBER ? n[group] : o->remote;
    o->merged = ig_comm_cache_merged(cache);
    int others_group = o->tree == IG_TREE_MEMBER ? group : 1 - group;
    o->merged_first = others_group == 0 ? 0 : n[0];
    if (o->tree == IG_TREE_MEMBER)
        o->self.stays = 1;
    ig_stats_opening(IG_OPENING_STAT_TREE);
}

int ig_opening_root_targets(const ig_opening_round *o, int *targets)
{
    int children[IG_OPENING_TREE_MAX_CHILDREN];
    int n = ig_opening_tree_children(o->others + 1, 0, children);
    for (int i = 0; i < n; i++)
        targets[i] = ig_opening_tree_rank_of_node(children[i], o->local_rank, o->roots, o->others);
    return n;
}

/* The tree's relay (opening_plan.h, "The tree"): a process of the larger
 * group takes a root's round-one message from its parent in that root's
 * tree -- the root itself on the opening's communicator, or a process of
 * its own group on the merged one, which passes on the root's tag -- and sends
 * it on unchanged to its children, whatever its own arguments.  *st is
 * what a direct receive of that message would have said: its tag, and as
 * count the bytes of the whole message, so that round_one judges a block
 * longer than expected truncated as it would the direct one. */
typedef struct {
    MPI_Message msg;
    int root, source, tag, bytes, children[IG_OPENING_TREE_MAX_CHILDREN], n_children;
    MPI_Comm from;
} relayed;

/* Merged rank of node `node` of root t's tree. */
static int merged_rank_of_node(const ig_opening_round *o, int t, int node)
{
    return o->merged_first + ig_opening_tree_rank_of_node(node, t, o->roots, o->others);
}

static int forward_all(const ig_opening_round *o, const relayed *r, const void *buf, int count, MPI_Datatype type,
                       MPI_Request *fwd)
{
    int rc = MPI_SUCCESS;
    for (int i = 0; i < r->n_children; i++)
        ig_err_keep(&rc, PMPI_Isend(buf, count, type, merged_rank_of_node(o, r->root, r->children[i]), r->tag,
                                    o->merged, &fwd[i]));
    return rc;
}

/* A message of the size this process expects, to usable arguments (every
 * correct call): received into place, passed on from there. */
static int relay_in_place(ig_opening_round *o, relayed *r, MPI_Request *fwd)
{
    int count;
    void *slot = ig_opening_slot_of(o, r->root, &count);
    int rc = PMPI_Mrecv(slot, count, o->c->rtype, &r->msg, MPI_STATUS_IGNORE);
    ig_err_keep(&rc, forward_all(o, r, slot, count, o->c->rtype, fwd));
    return rc;
}

/* Any other message (an erroneous call, or arguments this process cannot
 * use): taken whole as bytes and passed on from there, then as much of it
 * as fits placed (whole elements; nothing where the arguments are
 * unusable).  It is at most one eager piece (relay makes sure: a root
 * sends a block down the tree only then, ig_decide_opening_sends), so it
 * fits on the stack and nothing can fail to be allocated; the sends on
 * are completed here. */
static int relay_as_bytes(ig_opening_round *o, relayed *r)
{
    char bytes[IG_OPENING_PIECE_BYTES];
    MPI_Request fwd[IG_OPENING_TREE_MAX_CHILDREN];
    int rc, count, type_size = 0;
    for (int i = 0; i < r->n_children; i++)
        fwd[i] = MPI_REQUEST_NULL;
    rc = PMPI_Mrecv(bytes, r->bytes, MPI_BYTE, &r->msg, MPI_STATUS_IGNORE);
    ig_err_keep(&rc, forward_all(o, r, bytes, r->bytes, MPI_BYTE, fwd));
    if (rc == MPI_SUCCESS && !o->self.hard) {
        void *slot = ig_opening_slot_of(o, r->root, &count);
        int64_t expect = ig_opening_expects_from(o, r->root);
        int position = 0, fits = r->bytes < expect ? r->bytes : (int)expect;
        ig_err_keep(&rc, PMPI_Type_size(o->c->rtype, &type_size));
        if (rc == MPI_SUCCESS && type_size > 0 && fits / type_size > 0)
            ig_err_keep(&rc, PMPI_Unpack(bytes, r->bytes, &position, slot, fits / type_size, o->c->rtype, o->merged));
    }
    ig_err_keep(&rc, ig_waitall(r->n_children, fwd));
    return rc;
}

/* Root t's message, in t's tree. */
static int relay(ig_opening_round *o, int t, MPI_Request *fwd, int *n_fwd, MPI_Status *st)
{
    int node = ig_opening_tree_node_of_rank(o->local_rank, t, o->roots, o->others), rc;
    int parent = ig_opening_tree_parent(node);
    relayed r = { .msg = MPI_MESSAGE_NULL, .root = t, .tag = IG_OPENING_TAG_VERDICT };
    r.from = parent == 0 ? o->comm : o->merged;
    r.source = parent == 0 ? t : merged_rank_of_node(o, t, parent);
    r.n_children = ig_opening_tree_children(o->others + 1, node, r.children);
    *n_fwd = 0;
    MPI_Status probe;
    rc = PMPI_Mprobe(r.source, MPI_ANY_TAG, r.from, &r.msg, &probe);
    if (rc == MPI_SUCCESS) {
        r.tag = probe.MPI_TAG;
        rc = PMPI_Get_count(&probe, MPI_BYTE, &r.bytes);
    }
    int in_place = !o->self.hard && r.tag >= IG_OPENING_TAG_FIRST && r.bytes == ig_opening_expects_from(o, t);
    if (rc == MPI_SUCCESS && !in_place && r.bytes > IG_OPENING_PIECE_BYTES)
        rc = MPI_ERR_INTERN; /* more than relay_as_bytes holds: only from a root of another build */
    if (rc != MPI_SUCCESS) { /* nothing known: dropped, and the children hear a tag that says so */
        if (r.msg != MPI_MESSAGE_NULL)
            PMPI_Mrecv(NULL, 0, MPI_BYTE, &r.msg, MPI_STATUS_IGNORE);
        r.tag = IG_OPENING_TAG_VERDICT;
        r.bytes = 0;
        *n_fwd = r.n_children;
        ig_err_keep(&rc, forward_all(o, &r, NULL, 0, MPI_BYTE, fwd));
    } else if (in_place) {
        *n_fwd = r.n_children;
        rc = relay_in_place(o, &r, fwd);
    } else {
        rc = relay_as_bytes(o, &r);
    }
    /* A tag below the round-one tags: the parent knew nothing; said as a
     * failed receive, which round_one takes as "nothing known". */
    st->MPI_SOURCE = t;
    st->MPI_TAG = r.tag;
    st->MPI_ERROR = rc != MPI_SUCCESS ? rc : r.tag < IG_OPENING_TAG_FIRST ? MPI_ERR_OTHER : MPI_SUCCESS;
    PMPI_Status_set_elements(st, MPI_BYTE, r.bytes);
    return rc;
}

int ig_opening_relay_all(ig_opening_round *o, MPI_Request *fwd, int *n_fwd, MPI_Status *heard)
{
    int order[IG_OPENING_TREE_MAX_ROOTS], n_trees = ig_opening_tree_order(o->local_rank, o->roots, o->others, order);
    int rc = MPI_SUCCESS;
    *n_fwd = 0;
    for (int i = 0; i < n_trees; i++) {
        int n = 0, t = order[i];
        ig_err_keep(&rc, relay(o, t, &fwd[*n_fwd], &n, &heard[t]));
        *n_fwd += n;
    }
    return rc;
}
