#include "decide.h"

#include "cost_model.h"
#include "decide_limits.h"
#include "relay_plan.h"
#include "tags.h"

#include <limits.h>
#include <math.h>

/* The chain algorithm's smallest segment: below this a TCP link does not
 * reach its rate per message (and shared memory copies lose to the
 * per-message cost). */
#define IG_CHAIN_MIN_SEGMENT 65536.0

/* The relay's senders keep two pieces in flight: pieces leave one after
 * another, so that the first owners relay while the rest still travel
 * (all at once they would all arrive at the end), and a second message
 * keeps the link busy across the first one's completion.  Its receivers
 * relay with direct's window, for direct's reason.  With members
 * (relay_plan.h) a sender feeds d members at once, each its own piece
 * ahead of the rest (algo_relay.c), with direct's window (the prototype
 * measured in the forty-first session, docs/performance.md). */
#define IG_RELAY_PIECE_WINDOW 2

/* The relay's part size for blocks of at most `largest` bytes: 0 (whole
 * pieces) where a piece fits one part, else the piece cut into as many
 * parts of at most IG_EAGER_PART_BYTES as the cap allows, evenly.  With
 * members a block has d pieces, not q, and a receiver takes p d of them:
 * the same message budget (p q pieces of at most the cap's parts) allows
 * q / d times the parts a piece. */
static uint64_t relay_part_bytes(uint64_t largest, int p, int q, int members)
{
    int pieces = ig_relay_pieces(q, members);
    uint64_t piece = ig_byte_piece(largest, pieces, 0).length; /* the first pieces are the longest */
    int parts = ig_byte_part_count(piece, IG_EAGER_PART_BYTES);
    int64_t cap = (int64_t)ig_relay_parts_cap(p, q) * q / pieces;
    parts = parts < cap ? parts : (int)cap;
    return parts > 1 ? (piece + (uint64_t)parts - 1) / (uint64_t)parts : 0;
}

/* Between nodes the model weighs direct only up to this many messages per
 * call (p q).  For p >= q the model gives direct and the fc family the
 * same bandwidth term, so latency terms of microseconds decide between
 * them, while on a network of several switches direct's all-to-all
 * flows (up to a window of 16 per process at once) contend for the links
 * between switches, which a model measured between two processes cannot
 * see.  In SimGrid on the Figure 4 dragonfly (256 processes, p q = 16384
 * and 12288; docs/simulation.md) direct was 26 % and 31 % slower than fc
 * at 128+128 with 256 KiB and 4 MiB blocks, and 10 % to 22 % slower than
 * spread at 192+64, yet as fast as the bound on a contention-free
 * crossbar of the same size; with the model the library measures there
 * (t_o near 0) the decision chose it at every p >= q point.  On the
 * emulated cluster (one switch, p q <= 144) it is the fastest plan for
 * p >= q.  Groups of thousands of messages span several switches on
 * real machines, so the message count stands in for the topology: the
 * same bound as the relay's, between the two measured regimes. */
#define IG_DIRECT_MAX_MESSAGES 4096

/* Whether cost a is no more than b, up to rounding.  Direct and fc cost
 * the same in exact arithmetic where they send the same messages (p = q =
 * 1: one block from the sender to the receiver), but the two formulas round
 * differently, and fc won such ties at some block sizes: it cannot be
 * posted before the agreement (speculate.h), so the call took the
 * agreement and the data one after the other, about twice the time. */
static int no_dearer(double a, double b)
{
    return a <= b + fabs(b) * 1e-9;
}

/* Whether the model weighs a plan of p q messages (see above). */
static int few_messages(const ig_shape *sh, int p, int q, long long bound)
{
    return sh->nodes <= 1 || (long long)p * q <= bound;
}

ig_fallback ig_decide_active(int settings_agree, const ig_settings *s)
{
    if (!settings_agree)
        return IG_FALLBACK_SETTINGS_DIFFER;
    if (s->topology == IG_TOPOLOGY_NATIVE || s->algorithm == IG_ALGORITHM_NATIVE)
        return IG_FALLBACK_DISABLED;
    return IG_FALLBACK_NONE;
}

int ig_decide_uses_model(const ig_settings *s)
{
    /* The chain, forced, cuts its segments to the model's best size; the
     * relay, forced, asks it whether parts pay. */
    return ig_decide_active(1, s) == IG_FALLBACK_NONE &&
           (s->algorithm == IG_ALG_CHAIN || s->algorithm == IG_ALG_RELAY ||
            (s->algorithm == IG_ALGORITHM_AUTO && s->topology == IG_TOPOLOGY_FULLY_CONNECTED));
}

/* INTERGATHER_OVERSUBSCRIBED, with "auto" read from the count of nodes
 * with more processes than CPUs (decide.h). */
int ig_decide_oversubscribed(const ig_settings *s, int nodes_over)
{
    return s->oversubscribed == IG_OVERSUBSCRIBED_AUTO ? nodes_over > 0 : s->oversubscribed == IG_OVERSUBSCRIBED_YES;
}

/* One node with more processes than CPUs (comm_cache.c): there every stage
 * of a staged algorithm waits for the scheduler, which the model, pricing
 * each process's work as if it had a core of its own, does not see; with
 * 16 processes on 2 cores it chose the fc family and the full-duplex
 * algorithm at 2+6, 4+12 and 12+4 where one stage was several times faster
 * (docs/performance.md, twenty-sixth session).  So where the model would
 * decide, the direct algorithm, one stage, serves every call there, as
 * MPI_Iallgather would. */
int ig_decide_oversubscribed_direct(const ig_settings *s, int nodes, int oversubscribed)
{
    return oversubscribed && nodes <= 1 && s->algorithm == IG_ALGORITHM_AUTO &&
           s->topology == IG_TOPOLOGY_FULLY_CONNECTED;
}

static void decide_native(ig_choice *c, ig_fallback why)
{
    c->kind = IG_DECISION_NATIVE;
    c->native_reason = why;
}

/* The group stage for members that contribute `bytes_per_member` each on
 * average (settings.h, IG_GROUP_RING_MIN_BYTES, says why AUTO switches). */
static ig_group_stage stage_for(ig_group_stage setting, uint64_t bytes_per_member)
{
    if (setting != IG_GROUP_STAGE_AUTO)
        return setting;
    return bytes_per_member >= IG_GROUP_RING_MIN_BYTES ? IG_GROUP_STAGE_RING : IG_GROUP_STAGE_MPI;
}

/* The group stage of a call: the stage hands MPI each member's own types
 * (an MPI_Allgatherv's counts in the user's receive type, an
 * MPI_Allgather's in block types whose extents follow the user's), which an
 * MPI library whose allgatherv cannot take members' types of different size
 * or extent gets wrong (settings.h, mpi_allgatherv_mixed_types): there
 * intergather's ring runs it, whatever the setting, since it sends every
 * member's part whole.  The ring also runs it, whatever the setting,
 * where some receive buffer is sparse (shape.h): the MPI library's
 * allgather could allocate scratch as large as the buffer's span, and
 * fail for want of memory in one process; the ring allocates nothing. */
static ig_group_stage call_stage_for(const ig_settings *s, const ig_shape *sh, uint64_t bytes_per_member)
{
    if (!s->mpi_allgatherv_mixed_types || sh->sparse)
        return IG_GROUP_STAGE_RING;
    return stage_for(s->group_stage, bytes_per_member);
}

static uint64_t per_member(uint64_t total, int members)
{
    return members > 0 ? total / (uint64_t)members : 0;
}

static const ig_cost_params *model_of(const ig_shape *sh, const ig_settings *s)
{
    return sh->nodes <= 1 ? &s->shm_model : &s->net_model;
}

static double average_block(const ig_shape *sh, int g)
{
    return (double)sh->total[g] / sh->n[g];
}

static ig_step step_of(ig_algorithm a, int sender, const ig_shape *sh, const ig_settings *s)
{
    return (ig_step){ .algorithm = a, .sender = sender, .ring_schedule = s->ring_schedule,
                      .stage = { IG_GROUP_STAGE_MPI, IG_GROUP_STAGE_MPI },
                      .max_block_bytes = sender >= 0 ? sh->max_block[sender] : 0, .window = IG_DIRECT_WINDOW };
}

/* The fully connected family's plan for one direction: the paper's fc,
 * or for p > q spread (default) or the paper's join plan.  Join has extra
 * senders receive blocks into scratch described by their own send type,
 * which needs a type one can receive into and, for MPI_Allgatherv, sizes
 * they do not know; spread needs neither.  Both groups know both facts
 * (shape.h). */
static ig_step fc_family_step(const ig_shape *sh, int sender, int allgatherv, const ig_settings *s)
{
    int p = sh->n[sender], q = sh->n[1 - sender];
    int join = s->many_senders == IG_MANY_SENDERS_JOIN && !allgatherv && !sh->send_overlaps[sender];
    ig_step st = step_of(p > q && !join ? IG_ALG_SPREAD : IG_ALG_FC, sender, sh, s);
    st.stage[1] = call_stage_for(s, sh, per_member(sh->total[sender], st.algorithm == IG_ALG_SPREAD ? q : p));
    /* In bytes only where every block is contiguous (algo_fc.c); never for
     * MPI_Allgatherv, as before its blocks could be contiguous (not
     * measured otherwise). */
    st.bcast_in_bytes = !sh->scattered && !allgatherv && sh->max_block[sender] <= INT_MAX;
    return st;
}

static double half_cost(ig_algorithm a, int p, int q, double k, const ig_cost_params *m)
{
    switch (a) {
    case IG_ALG_DIRECT: return ig_cost_direct_half(p, q, k, m);
    case IG_ALG_SPREAD: return ig_cost_spread_half(p, q, k, m);
    case IG_ALG_STAR: return ig_cost_star_half(p, q, k, m);
    default: return ig_cost_fc_half(p, q, k, m);
    }
}

/* The chain's step: segments only where every process's block is one
 * contiguous piece of memory (agreed, shape.h) and every block of the group
 * the same size (MPI_Allgather: segments cut every block at the same
 * offsets), of the model's best size. */
static ig_step chain_step(const ig_shape *sh, int sender, int allgatherv, const ig_settings *s, double *cost)
{
    int p = sh->n[sender], q = sh->n[1 - sender];
    double k = average_block(sh, sender);
    const ig_cost_params *m = model_of(sh, s);
    ig_step st = step_of(IG_ALG_CHAIN, sender, sh, s);
    double seg = sh->scattered || allgatherv ? 0 : ig_chain_segment(p, q, (double)sh->max_block[sender], IG_CHAIN_MIN_SEGMENT, m);
    /* A segment is one message, counted in an int. */
    seg = seg < INT_MAX ? seg : INT_MAX;
    st.chain_segment_bytes = seg >= (double)sh->max_block[sender] ? 0 : (uint64_t)seg;
    *cost = ig_cost_chain_half(p, q, k, (double)st.chain_segment_bytes, m);
    return st;
}

/* Whether the relay can serve this direction: its pieces are byte ranges
 * of blocks that must be contiguous on every process, and counted in an int.
 * Blocks may differ in size (MPI_Allgatherv): each is cut by its own. */
static int relay_fits(const ig_shape *sh, int sender)
{
    return !sh->scattered && sh->max_block[sender] / (uint64_t)sh->n[1 - sender] < INT_MAX &&
           sh->n[sender] <= IG_TAG_UB_MIN - IG_TAG_RELAY_FIRST + 1; /* a tag per block (tags.h) */
}

/* Whether every block the sending group sends has one size (always for
 * MPI_Allgather): members balance their links only then. */
static int blocks_alike(const ig_shape *sh, int sender)
{
    return sh->total[sender] == (uint64_t)sh->n[sender] * sh->max_block[sender];
}

/* Where pieces go whole, a relay sender's sends are synchronous
 * (MPI_Issend: done once the receiver has matched them), so that its
 * window bounds what is in the network, not only what the MPI library
 * holds.  TCP takes an eager Isend into the socket at once, so with a
 * window of 2 the plain relay's q pieces still left side by side, each
 * owner's at 1/q of the sender's link, and no owner could relay until all
 * were nearly through; synchronous, they leave one after another, as
 * algo_relay.c's send_pieces means them to.  At 4+12 half duplex on the
 * emulated cluster this took 256 KiB blocks (pieces of 21 KiB) from 103.6
 * to 92.0 ms and 64 KiB blocks from 23.0 to 22.2 ms.  Not in parts (with
 * members, and the plain relay from about 720 KiB blocks at 4+12): at 4+12
 * with 4 MiB blocks one run of three calls in six took 1.83 to 1.90 s
 * against 1.43 to 1.65 s, with the relays synchronous too or not (likely
 * cause, not traced: a synchronous send ends once its acknowledgement has
 * come back through the receiver's uplink, queued behind the receiver's
 * relays).  Relays stay eager: synchronous, they cost 14 % at 64 KiB
 * and 2 % at 1 MiB.  Fiftieth session, docs/performance.md. */
static int relay_sync_pieces(uint64_t part_bytes) { return part_bytes == 0; }

/* The relay with `members` members a block (0: the plain relay), its
 * parts where the model says they pay: the first part ahead saves more
 * link time than their messages cost (on a network whose t_o is large
 * against its t_w, whole pieces). */
static ig_step relay_plan_step(const ig_shape *sh, int sender, const ig_settings *s, int members, double *cost)
{
    int p = sh->n[sender], q = sh->n[1 - sender];
    ig_step st = step_of(IG_ALG_RELAY, sender, sh, s);
    st.relay_members = members;
    st.piece_window = members > 0 ? IG_DIRECT_WINDOW : IG_RELAY_PIECE_WINDOW;
    double k = average_block(sh, sender), whole = ig_cost_relay_half(p, q, k, 0, model_of(sh, s));
    st.relay_part_bytes = relay_part_bytes(sh->max_block[sender], p, q, members);
    *cost = ig_cost_relay_half(p, q, k, (double)st.relay_part_bytes, model_of(sh, s));
    if (*cost > whole) {
        st.relay_part_bytes = 0;
        *cost = whole;
    }
    st.relay_sync_pieces = relay_sync_pieces(st.relay_part_bytes);
    return st;
}

/* Members relay nothing until each has a part, and a sender feeds its d
 * members side by side: d parts leave before the first relay.  Worth it
 * only in parts, with those d parts within 1/20 of the p k every
 * receiving link takes.  On the emulated cluster at 4+12 members were
 * 1.1x to 1.2x slower than the plain relay with 64 and 256 KiB blocks
 * (3 whole pieces of 22 KiB, 3 parts of 44 KiB: 12 % of p k) and as fast
 * or faster from 1 MiB (3 parts of 58 KiB: 4 %; at 4 MiB 1 %),
 * forty-first session. */
static int members_start_soon(int p, int d, double k, uint64_t part_bytes)
{
    return part_bytes > 0 && 20.0 * d * (double)part_bytes <= p * k;
}

static ig_step relay_step(const ig_shape *sh, int sender, const ig_settings *s, double *cost)
{
    int p = sh->n[sender], q = sh->n[1 - sender];
    /* Members where they lighten the busiest link (relay_plan.h) and start
     * soon enough.  The model's cost is the same for both plans: both put
     * p k on every receiving link, and the model sees no link's other
     * direction; the emulated cluster does (4+12, forty-first session,
     * docs/performance.md). */
    int members = blocks_alike(sh, sender) ? ig_relay_members_for(p, q) : 0;
    if (members > 0) {
        ig_step st = relay_plan_step(sh, sender, s, members, cost);
        /* A part is one message, counted in an int. */
        if (members_start_soon(p, members, average_block(sh, sender), st.relay_part_bytes) &&
            st.relay_part_bytes <= INT_MAX)
            return st;
    }
    return relay_plan_step(sh, sender, s, 0, cost);
}

/* Where the model weighs the star (p < q): between nodes, for groups of
 * at most IG_DIRECT_MAX_MESSAGES messages, and only against fc (half_step
 * weighs it where fc, not direct, is the choice so far).  Its two rounds
 * of messages posted at once are direct's kind of traffic (each team
 * member sends to p - 1 + e others at once), so it takes direct's bound;
 * within a node it was not measured, and the decision there stays as it
 * was.  Never over direct: where direct is the choice, a small call's
 * opening round can end it before any agreement (decide_opening.c), a
 * saving the model does not price, and the star, like fc, must wait for
 * the agreement; in the model the star displaced direct at 1 KiB on the
 * emulated cluster's measured networks (4+12, 2+14).  On the
 * emulated cluster at 4+12 half duplex with 4 KiB blocks fc's six
 * dependent rounds trailed the merge workaround by about 10 % in three
 * sweeps (docs/performance.md, sixty-ninth session); the star, two
 * rounds, is the model's choice there (seventieth session). */
static int star_weighed(const ig_shape *sh, int p, int q)
{
    return p < q && sh->nodes > 1 && few_messages(sh, p, q, IG_DIRECT_MAX_MESSAGES);
}

/* One direction, group `sender` to the other.  *cost: the model's time. */
static ig_step half_step(const ig_shape *sh, int sender, int allgatherv, const ig_settings *s, double *cost)
{
    int p = sh->n[sender], q = sh->n[1 - sender];
    double k = average_block(sh, sender);
    const ig_cost_params *m = model_of(sh, s);
    /* Blocks of different sizes (MPI_Allgatherv) over a network: direct's
     * largest sender sends its block q times, which may pace the call
     * (cost_model.h); the fully connected family moves blocks in rounds
     * (a broadcast, a ring or MPI's allgatherv), each as long as its largest
     * block, so it is costed at the largest; the relay balances every
     * block's pieces over the q owners, so at the average.  Measured at
     * 8+8 with blocks of 1/8 to 8/8 of 1 and 4 MiB (docs/performance.md,
     * thirty-seventh session): direct 95 % of its largest sender's link,
     * fc 1.07x to 1.12x direct, the relay 0.69x to 0.72x.  Within a node
     * receivers copy what they take, and the average stands for all. */
    double k_max = (double)sh->max_block[sender], k_rounds = m->copies_on_host ? k : k_max;
    double direct = ig_cost_direct_half_blocks(p, q, k, k_max, m), relay;
    if (s->algorithm == IG_ALG_RING || (s->algorithm == IG_ALGORITHM_AUTO && s->topology == IG_TOPOLOGY_RING)) {
        *cost = 0;
        return step_of(IG_ALG_RING, sender, sh, s);
    }
    if (s->algorithm == IG_ALG_DIRECT) {
        *cost = direct;
        return step_of(IG_ALG_DIRECT, sender, sh, s);
    }
    if (s->algorithm == IG_ALG_CHAIN)
        return chain_step(sh, sender, allgatherv, s, cost);
    if (s->algorithm == IG_ALG_RELAY && relay_fits(sh, sender))
        return relay_step(sh, sender, s, cost);
    if (s->algorithm == IG_ALG_STAR && p < q) {
        *cost = half_cost(IG_ALG_STAR, p, q, k_rounds, m);
        return step_of(IG_ALG_STAR, sender, sh, s);
    }
    ig_step best = fc_family_step(sh, sender, allgatherv, s);
    *cost = half_cost(best.algorithm, p, q, k_rounds, m);
    if (s->algorithm != IG_ALGORITHM_AUTO)
        return best;
    /* The model's choice: the fc family, direct where it costs no more
     * (between nodes, for groups of at most IG_DIRECT_MAX_MESSAGES
     * messages), the star over fc where it costs less (star_weighed), the
     * relay where it costs less than all of them.  The chain is not a
     * candidate: its model promises p k t_w for large blocks, but measured
     * it was 1.5x to 1.8x slower than fc at 1 and 4 MiB with 4+12 on the
     * emulated cluster and 2.3x to 6.9x in SimGrid (docs/performance.md);
     * it runs only when forced. */
    if (few_messages(sh, p, q, IG_DIRECT_MAX_MESSAGES) && no_dearer(direct, *cost)) {
        *cost = direct;
        best = step_of(IG_ALG_DIRECT, sender, sh, s);
    }
    if (best.algorithm == IG_ALG_FC && star_weighed(sh, p, q)) {
        double star = half_cost(IG_ALG_STAR, p, q, k_rounds, m);
        if (star < *cost) {
            *cost = star;
            best = step_of(IG_ALG_STAR, sender, sh, s);
        }
    }
    if (relay_fits(sh, sender) && sh->nodes > 1 && k / q >= IG_RELAY_MIN_PIECE &&
        few_messages(sh, p, q, IG_RELAY_MAX_MESSAGES)) {
        ig_step st = relay_step(sh, sender, s, &relay);
        if (relay < *cost) {
            *cost = relay;
            best = st;
        }
    }
    return best;
}

/* The parts each of the other group's blocks is cut into for group g's
 * ring stage (the full-duplex algorithm's, IG_STAGE_WINDOW in
 * decide_limits.h says why), in the exchange that brings them as in the
 * ring: where that stage is the ring (g has two or more members), the
 * blocks are MPI_Allgather's (one size) and contiguous on every process,
 * and a block is more than one part; as many parts of at most
 * IG_EAGER_PART_BYTES as ig_stage_parts_cap allows, and at least two; else
 * 0, whole blocks.  From the agreed shape alone: every process of both
 * groups cuts alike. */
static int stage_parts_for(const ig_shape *sh, int g, int allgatherv, ig_group_stage stage)
{
    uint64_t block = sh->max_block[1 - g];
    if (stage != IG_GROUP_STAGE_RING || allgatherv || sh->scattered || sh->n[g] < 2 || block <= IG_EAGER_PART_BYTES)
        return 0;
    uint64_t parts = (block + IG_EAGER_PART_BYTES - 1) / IG_EAGER_PART_BYTES, cap = (uint64_t)ig_stage_parts_cap(sh->n[1 - g]);
    parts = parts < cap ? parts : cap;
    return parts >= 2 && (block + parts - 1) / parts <= INT_MAX ? (int)parts : 0;
}

ig_step ig_decide_one_exchange(const ig_shape *sh, int allgatherv, const ig_settings *s)
{
    ig_step st = step_of(IG_ALG_FULL_DUPLEX, -1, sh, s);
    st.window = IG_STAGE_WINDOW;
    /* Group g assembles the other group's blocks among its own members. */
    for (int g = 0; g < 2; g++) {
        st.stage[g] = call_stage_for(s, sh, per_member(sh->total[1 - g], sh->n[g]));
        st.stage_parts[g] = stage_parts_for(sh, g, allgatherv, st.stage[g]);
    }
    return st;
}

/* Each step's room (ig_decide_step_room) on its pair: the sending group's
 * first, the low group's where both send (comm_cache.h). */
static void set_rooms(const ig_shape *sh, ig_choice *c)
{
    for (int i = 0; i < c->nsteps; i++) {
        ig_step *st = &c->steps[i];
        int first = st->sender < 0 ? 0 : st->sender;
        ig_decide_step_room(st, sh->n[first], sh->n[1 - first], &st->room_requests, &st->room_ints);
    }
}

void ig_decide_on_one_pair(const ig_shape *sh, const ig_settings *s, ig_choice *c)
{
    if (c->kind != IG_DECISION_SERVE || (c->nsteps == 1 && c->steps[0].sender != 1))
        return;
    /* The direct algorithm runs both ways in one step; every other
     * algorithm's passes become the full-duplex algorithm's exchange. */
    int direct = c->nsteps == 1 && c->steps[0].algorithm == IG_ALG_DIRECT;
    c->nsteps = 1;
    c->steps[0] = direct ? step_of(IG_ALG_DIRECT, -1, sh, s) : ig_decide_one_exchange(sh, 0, s);
    set_rooms(sh, c);
}

/* Where the direct algorithm both ways at once is weighed (decide_full):
 * within a node, and between nodes for blocks of at most
 * IG_DIRECT_FULL_NET_MAX_BYTES.  At 4 and 16 KiB on the emulated cluster
 * forced direct was level with fc and the one exchange (within 10 %, at
 * 4+4, 8+8, 4+12 and 12+4, docs/data/cluster-full-direct-s9.csv) while
 * still paying the agreement, which the opening round (opening_plan.h)
 * saves a direct call alone; from 64 KiB the one exchange was faster. */
#define IG_DIRECT_FULL_NET_MAX_BYTES 16384
int ig_decide_direct_full_weighed(const ig_shape *sh)
{
    return sh->nodes <= 1 ||
           (sh->max_block[0] <= IG_DIRECT_FULL_NET_MAX_BYTES && sh->max_block[1] <= IG_DIRECT_FULL_NET_MAX_BYTES);
}

/* Both groups send: the cheapest of one exchange (full-duplex algorithm),
 * the direct algorithm both ways at once, two half-duplex passes (the only
 * way for the ring, which runs its schedule once per direction) and the MPI
 * library.  A forced algorithm runs where it can. */
static void decide_full(const ig_shape *sh, int allgatherv, const ig_settings *s, ig_choice *c, double native)
{
    const ig_cost_params *m = model_of(sh, s);
    double k0 = average_block(sh, 0), k1 = average_block(sh, 1), pass0, pass1;
    ig_step first = half_step(sh, 0, allgatherv, s, &pass0), second = half_step(sh, 1, allgatherv, s, &pass1);
    /* The direct algorithm both ways at once is weighed within a node, and
     * between nodes only for small blocks (ig_decide_direct_full_weighed).
     * Between nodes its bandwidth term equals the one exchange's in the
     * model, but on the emulated cluster it was slower at 13 of 16
     * full-duplex points (4+4, 4+12; up to 1.4x at 4 MiB): n concurrent
     * flows each way on every link, where the one exchange moves one block
     * per peer and then runs a neighbour ring.  In shared memory, one stage
     * of copies beats relaying: MPI_Iallgather, the same exchange, was 1.4x
     * to 7x faster than the one exchange at 2+2 and 4+4 on the 2-core
     * machine (docs/performance.md).  Forced, it runs anywhere. */
    double one = ig_cost_fd(sh->n[0], k0, sh->n[1], k1, m),
           direct = ig_decide_direct_full_weighed(sh) ? ig_cost_direct_full(sh->n[0], k0, sh->n[1], k1, m) : HUGE_VAL;
    int two_passes = first.algorithm == IG_ALG_RING || (s->algorithm != IG_ALGORITHM_AUTO &&
                                                        s->algorithm != IG_ALG_FULL_DUPLEX &&
                                                        s->algorithm != IG_ALG_DIRECT);
    if (s->algorithm == IG_ALGORITHM_AUTO && !two_passes) {
        double best = one < direct ? one : direct;
        best = best < pass0 + pass1 ? best : pass0 + pass1;
        if (native < best)
            return decide_native(c, IG_FALLBACK_MODEL);
        two_passes = best == pass0 + pass1 && best < one && best < direct;
        if (!two_passes) {
            c->steps[c->nsteps++] = one <= direct ? ig_decide_one_exchange(sh, allgatherv, s) : step_of(IG_ALG_DIRECT, -1, sh, s);
            return;
        }
    } else if (!two_passes) {
        c->steps[c->nsteps++] =
            s->algorithm == IG_ALG_DIRECT ? step_of(IG_ALG_DIRECT, -1, sh, s) : ig_decide_one_exchange(sh, allgatherv, s);
        return;
    }
    c->steps[c->nsteps++] = first;
    c->steps[c->nsteps++] = second;
}

static void decide_call(const ig_shape *sh, int allgatherv, const ig_settings *s, ig_choice *c)
{
    if (sh->reason != IG_FALLBACK_NONE)
        return decide_native(c, sh->reason);
    /* An erroneous program whose groups disagree on sizes: every process
     * sends its block (of whatever size) to every remote process and
     * receives with its own counts, point to point, nothing relayed.  Every
     * message is matched (the group sizes are agreed), so nothing waits:
     * receives that expect at least what is sent complete, those that
     * expect less fail with MPI_ERR_TRUNCATE on the receiving process, as
     * a native receive would.  The MPI library's own algorithm can hang on
     * such calls (root gathering strands a group when its root fails). */
    if (sh->sizes != IG_SIZES_AGREE) {
        c->kind = IG_DECISION_ERRONEOUS;
        c->nsteps = 1;
        c->steps[0] = step_of(IG_ALG_DIRECT, -1, sh, s);
        /* Both ways the pair's first group is the low one (group 0).  A
         * block beyond INT_MAX bytes cannot be received whole (an int
         * count): such receives stay in place. */
        for (int g = 0; g < 2 && sh->sizes == IG_SIZES_TRUNCATE; g++) {
            int whole = sh->send_max[g] > 0 && sh->send_max[g] <= INT_MAX;
            c->steps[0].largest_sent[g] = whole ? (uint64_t)sh->send_max[g] : 0;
        }
        return;
    }
    int sends0 = sh->total[0] > 0, sends1 = sh->total[1] > 0;
    if (!sends0 && !sends1) {
        c->kind = IG_DECISION_EMPTY;
        return;
    }
    /* Both groups see the same two maxima. */
    uint64_t largest = sh->max_block[0] > sh->max_block[1] ? sh->max_block[0] : sh->max_block[1];
    if (largest < s->min_bytes)
        return decide_native(c, IG_FALLBACK_SMALL);
    int ring = s->algorithm == IG_ALG_RING || (s->algorithm == IG_ALGORITHM_AUTO && s->topology == IG_TOPOLOGY_RING);
    /* Ring relays are counted in bytes (MPI_PACKED), in an int. */
    if (ring && largest > INT_MAX)
        return decide_native(c, IG_FALLBACK_ARGUMENTS);
    if (ig_decide_oversubscribed_direct(s, sh->nodes, sh->oversubscribed)) {
        c->nsteps = 1;
        c->steps[0] = step_of(IG_ALG_DIRECT, sends0 && sends1 ? -1 : sends0 ? 0 : 1, sh, s);
        return;
    }
    const ig_cost_params *m = model_of(sh, s);
    double k0 = average_block(sh, 0), k1 = average_block(sh, 1);
    if (sends0 && sends1)
        return decide_full(sh, allgatherv, s, c, ig_cost_root_gathering_full(sh->n[0], k0, sh->n[1], k1, m));
    int sender = sends0 ? 0 : 1;
    double cost, native = ig_cost_root_gathering(sh->n[sender], sh->n[1 - sender], sender ? k1 : k0, m);
    ig_step st = half_step(sh, sender, allgatherv, s, &cost);
    /* The model may send a call to the MPI library, never a forced or ring one. */
    if (s->algorithm == IG_ALGORITHM_AUTO && !ring && native < cost)
        return decide_native(c, IG_FALLBACK_MODEL);
    c->nsteps = 1;
    c->steps[0] = st;
}

void ig_decide(const ig_shape *sh, int allgatherv, const ig_settings *s, ig_choice *c)
{
    *c = (ig_choice){ .kind = IG_DECISION_SERVE, .native_reason = IG_FALLBACK_NONE };
    decide_call(sh, allgatherv, s, c);
    /* The summary counts a call under the family of what runs, whatever
     * the topology hint said (a forced algorithm may differ from it). */
    c->served_as = c->nsteps > 0 && c->steps[0].algorithm == IG_ALG_RING ? IG_TOPOLOGY_RING
                                                                          : IG_TOPOLOGY_FULLY_CONNECTED;
    set_rooms(sh, c);
}

/* Direct: 1 (both groups send), 2 or 3 (group 0 or 1 sends); the star: 4
 * or 5 (its sending group 0 or 1). */
enum { IG_POSTED_DIRECT = 2, IG_POSTED_STAR = 4 };

int64_t ig_decide_posted_code(const ig_step *st)
{
    switch (st->algorithm) {
    case IG_ALG_DIRECT: return IG_POSTED_DIRECT + st->sender;
    case IG_ALG_STAR: return IG_POSTED_STAR + st->sender;
    default: return 0;
    }
}

int ig_decide_posted_step(int64_t code, ig_step *st)
{
    *st = (ig_step){ .algorithm = IG_ALG_DIRECT, .sender = -1 };
    if (code >= IG_POSTED_DIRECT - 1 && code <= IG_POSTED_DIRECT + 1) {
        st->sender = (int)(code - IG_POSTED_DIRECT);
        return 1;
    }
    if (code == IG_POSTED_STAR || code == IG_POSTED_STAR + 1) {
        st->algorithm = IG_ALG_STAR;
        st->sender = (int)(code - IG_POSTED_STAR);
        return 1;
    }
    return 0;
}

int ig_decide_posted_stand(const int64_t *posted, int nprocs, const ig_choice *c)
{
    int served = c->kind == IG_DECISION_SERVE || c->kind == IG_DECISION_ERRONEOUS;
    /* Blocks received whole (a truncating erroneous call) are not what any
     * process posted early, in place: those early steps are withdrawn. */
    int whole = c->nsteps == 1 && (c->steps[0].largest_sent[0] > 0 || c->steps[0].largest_sent[1] > 0);
    int64_t agreed = served && c->nsteps == 1 && !whole ? ig_decide_posted_code(&c->steps[0]) : 0;
    for (int r = 0; r < nprocs; r++)
        if (posted[r] != 0 && posted[r] != agreed)
            return 0;
    return 1;
}
