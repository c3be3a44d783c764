/*
 * The paper's ring schedules (IG_RING_PAPER): Algorithm 1 (p = q),
 * Algorithm 3 (p < q, corrected) and the p > q variant of section IV-E, on a
 * virtual ring with p, q rounded up to even; odd sizes through hosted dummy
 * processes.  Every departure from the printed paper is commented where it
 * is implemented.  Steps are 0-based.
 */
#include "ring_schedule_internal.h"

/* ============================================================================
 * IG_RING_PAPER: the paper's algorithms on a virtual ring
 * ============================================================================
 *
 * The virtual ring has P = p + (p odd) senders and Q = q + (q odd) receivers,
 * nv = P + Q, T' = P + Q/2 steps.  Let h = P/2, H = Q/2 and
 * S = min(P, Q)/2: messages m_0..m_{S-1} travel on sequences #2 and #3, the
 * others m_S..m_{P-1} on sequence #1 (and, for P < Q, #4).  This is Algorithm
 * 1 for P = Q (S = p/2), Algorithm 3 for P < Q (S = p/2) and the section IV-E
 * variant for P > Q (S = q/2, "sequence #1 over m_{q/2}..m_{p-1}").
 *
 * The paper writes each sequence as stage loops "for i ... for j: rank(i, j)
 * sends m_j".  Stage 1 is steps [0, S), stage 3 is [T' - S, T'), stage 2 is
 * in between, and with t the global step every sequence's rank formula turns
 * out to be one expression in (t, j) across all stages.  To stay O(1) we
 * invert that expression: given (rank, t), solve for the j that would involve
 * this rank and check that j is in range.
 *
 * Each virtual process sends at most one message per step (the paper's
 * section IV-B; checked by the tests), either to the right (#1, #3) or to
 * the left (#2, #4).  Nothing is ever sent rightwards from nv-1 to 0.
 */

typedef struct {
    int p, q, n;       /* real sizes */
    int P, Q, nv;      /* padded (even) sizes, nv = P + Q */
    int h, H, S;       /* P/2, Q/2, min(P, Q)/2 */
    int T;             /* virtual steps P + Q/2 */
    int stage3;        /* first step of stage 3: T - S */
    int dummy_sender;  /* p odd: virtual P-1 is a dummy sender */
    int dummy_recv;    /* q odd: virtual nv-1 is a dummy receiver */
    int seq3;          /* sequence #3 runs (all cases but q == 1) */
} paper_geom;

static paper_geom paper_make(int p, int q)
{
    paper_geom g;
    g.p = p;
    g.q = q;
    g.n = p + q;
    g.P = p + (p & 1);
    g.Q = q + (q & 1);
    g.nv = g.P + g.Q;
    g.h = g.P / 2;
    g.H = g.Q / 2;
    g.S = (g.P < g.Q ? g.P : g.Q) / 2;
    g.T = g.P + g.H;
    g.stage3 = g.T - g.S;
    g.dummy_sender = p & 1;
    g.dummy_recv = q & 1;
    /* q == 1 (Q == 2): #3 only carries m_0, and the #2 copy of m_0 reaches the
     * dummy receiver -- hosted by the only real receiver -- in step 0 already,
     * so every #3 transfer would move m_0 towards a process that has it.  We
     * drop #3 instead of letting it run p useless steps. */
    g.seq3 = q != 1;
    return g;
}

/* ---- the four sequences: which message virtual v sends at step t ----- */

/* #1 -- Alg. 1 lines 3-4, 17-18, 27-30; Alg. 3 lines 3-4, 21-22, 47-50.
 * m_j (S <= j < P) starts at sender j and moves right one hop per step: at
 * step t it goes from j + t to j + t + 1, as long as the target is < nv.
 * The paper guards only stage 3 ("p + j + i + 1 < 2p", "j + i + 1 < p/2 +
 * q/2", both meaning target < nv); for P < Q and P = Q the guard always holds
 * earlier.  Deviation for P > Q: section IV-E gives no guard, but there the
 * leading copies already reach nv-1 in stage 2, so the "target < nv" stop is
 * needed in stage 2 too -- without it m_j would wrap to sender 0.  We apply
 * the stop at every step. */
static int seq1_send_right(const paper_geom *g, int v, int t)
{
    int j = v - t;
    return (j >= g->S && j < g->P && v + 1 < g->nv) ? j : -1;
}

/* #3 -- Alg. 1 lines 11-12, 21-22, 37-38; Alg. 3 lines 11-12, 31-32, 57-58.
 * m_c (c < S) is sent from 2c - S + t to the right at every step
 * t >= S - c (stage 1: "p/2 - i + 2j sends m_{p/2-i+j}", i.e. the train
 * leaves sender c at step S - c and spreads out to every other rank;
 * stages 2 and 3: "2j + i", "p/2 + i + 2j" = 2j - S + t).
 * Deviation: Alg. 3 line 58 prints "p/2 + i + 2j send m_j to q/2 + i + 2j + 1";
 * those are not neighbours when p != q.  The sender must be q/2 + i + 2j
 * (= 2j - S + t with i = t - p/2 - q/2), which continues stage 2. */
static int seq3_send_right(const paper_geom *g, int v, int t)
{
    int c;
    if (!g->seq3 || !even_half(v + g->S - t, &c))
        return -1;
    return (c >= 0 && c < g->S && t >= g->S - c) ? c : -1;
}

/* #2 -- Alg. 1 lines 7-8 and 33-34; Alg. 3 lines 7-8, 25-28 and 53-54.
 * m_j (j < S) moves left from sender j, wrapping from 0 to nv-1, one hop per
 * step while t < Q/2 (stage 1, plus stage 2 for P < Q: Alg. 3's guard
 * "i < q/2 - p/2" is t < Q/2).  It pauses, and in stage 3 ("q/2 + p - i +
 * 2j - 1 sends m_{j-1}", j <= i) it unpacks leftwards again: m_j is sent from
 * nv + P - S + 2j + 1 - t at steps t > stage3 + j. */
static int seq2_send_left(const paper_geom *g, int v, int t)
{
    int j;
    if (t < g->H) {
        j = mod_n(v + t, g->nv);
        if (j < g->S)
            return j;
    }
    if (t >= g->stage3 && even_half(v + t - g->nv - g->P + g->S - 1, &j) &&
        j >= 0 && j <= t - g->stage3 - 1)
        return j;
    return -1;
}

/* #4 (P < Q only) -- Alg. 3 lines 15-16, 35-36 (#4-1) and 39-42 (#4-2).
 * m_j (h <= j < P) leaves sender j at step j - h + 1 and moves left one hop
 * per step during stages 1 and 2 (t < h + H): it is sent from
 * u = 2j - h + 1 - t ("2j - i - p/2 + 1", "2j - i - p + 1").  Once u <= 0 the
 * position wraps to u + nv (#4-2: "2j - i + q + 1"; u = 0 is sender 0
 * sending to nv-1).
 * Deviation: the printed #4-2 guard "2j > 2i + p/2" stops the wrapped copies
 * too early: receivers then miss messages, for even p < q <= 40 exactly when
 * 2q >= 3p + 4 (e.g. p = 2, q = 6).  We keep a wrapped copy moving while
 * "i <= j + q/2 - p - 1" (i = t - h), i.e. until it sits right next to
 * j + P + H, where the #1 copy of m_j stops.
 * Note: only copies with j <= H - 2 ever wrap; the others just walk over
 * senders, which do not need them.  We keep those transfers as the paper has
 * them (they cost no step); the tests count them as "dead ends". */
static int seq4_send_left(const paper_geom *g, int v, int t)
{
    int j;
    if (g->P >= g->Q || t >= g->h + g->H)
        return -1;
    /* unwrapped: u = v >= 1 */
    if (v >= 1 && even_half(v + g->h - 1 + t, &j) && j >= g->h && j < g->P && t >= j - g->h + 1)
        return j;
    /* wrapped: u = v - nv <= 0 (u = 0 for v = 0) */
    int u = v == 0 ? 0 : v - g->nv;
    if (even_half(u + g->h - 1 + t, &j) && j >= g->h && j < g->P && t >= j - g->h + 1 &&
        t <= j + g->H - g->h - 1)
        return j;
    return -1;
}

static int virt_send_right(const paper_geom *g, int v, int t)
{
    int m = seq1_send_right(g, v, t);
    return m >= 0 ? m : seq3_send_right(g, v, t);
}

static int virt_send_left(const paper_geom *g, int v, int t)
{
    int m = seq2_send_left(g, v, t);
    return m >= 0 ? m : seq4_send_left(g, v, t);
}

/* ---- first arrival: the step in which virtual v first receives m ------ */

static int earliest(int a, int b)
{
    return a < b ? a : b;
}

/* Each message travels on exactly two sequences (#2/#3 or #1/#4), so the
 * first arrival is the earlier of two closed forms (the inverses of the send
 * formulas above, evaluated at the receiving position).  -1: v holds m from
 * the start; NEVER: v never receives m. */
static int first_arrival(const paper_geom *g, int v, int m)
{
    int best = NEVER, t;
    if (v == m)
        return -1;
    if (m >= g->S) {
        t = v - m - 1; /* #1: received at v = m + t + 1 */
        if (v > m && t < g->T)
            best = t;
        if (g->P < g->Q) {
            int last = earliest(g->h + g->H - 1, m + g->H - g->h - 1);
            t = 2 * m - g->h - v; /* #4 unwrapped: received at u - 1 = 2m - h - t */
            if (t >= m - g->h + 1 && t < g->h + g->H)
                best = earliest(best, t);
            t = 2 * m - g->h - v + g->nv; /* #4 wrapped: received at u - 1 + nv */
            if (t >= m - g->h + 1 && t >= 2 * m - g->h + 1 && t <= last)
                best = earliest(best, t);
        }
    } else {
        if (g->seq3) {
            t = v - 2 * m + g->S - 1; /* #3: received at 2m - S + t + 1 */
            if (t >= g->S - m && t < g->T)
                best = t;
        }
        t = mod_n(m - 1 - v, g->nv); /* #2 moving: received at m - t - 1 */
        if (t < g->H)
            best = earliest(best, t);
        t = g->nv + g->P - g->S + 2 * m - v; /* #2 stage 3: sender minus one */
        if (t > g->stage3 + m && t < g->T)
            best = earliest(best, t);
    }
    return best;
}

/* ---- dummies and their hosts ------------------------------------------
 *
 * Placement (the paper only says "a dummy process can be used"):
 *
 *  - p odd: the dummy sender is virtual P-1, the last sender, so its message
 *    "m_p" is the one that does not exist and real messages keep their
 *    indices.  It is hosted by real receiver p (virtual P), its right
 *    neighbour.  The dummy sender only receives from the left (#1, #3) and
 *    only ever sends its own, non-existent message leftwards; virtual P never
 *    receives from its right (no leftward stream reaches P).  So the host
 *    still does at most one send and one receive per step, and needs no relay
 *    slot: a receiver keeps every message in its receive buffer anyway.
 *
 *  - q odd: the dummy receiver is virtual nv-1, after the last receiver,
 *    hosted by real receiver N-1 (virtual nv-2), its left neighbour.  Nothing
 *    is sent rightwards from nv-1, and its leftward sends go to its host, so
 *    the host's sends are its own.  Its receives: rightward streams into nv-2
 *    (#1 arrives at step nv-3-j >= Q-2, #3 only in the last step) and the
 *    leftward streams from sender 0 into nv-1 (#2 at step j <= S-1, #4 at
 *    step 2j-h+1 <= Q-h-3).  For q >= 3 these steps are disjoint: no extra
 *    traffic.
 *
 *  - q == 1: virtual P (real p) and nv-1 = P+1 are both hosted by the single
 *    real receiver, which in step 0 receives m_0 from sender 0 (for the
 *    dummy) and the first #1 message from the left.  That one extra receive
 *    (p >= 2) is the only extra traffic of any host.
 *
 * Real rank of virtual v: senders keep their index (virtual P-1 = real p is
 * the host of the dummy sender when p is odd), receivers shift down by
 * P - p, and the dummy receiver maps onto real N-1.
 *
 * Transfers on behalf of a dummy are rewritten as follows: host <-> dummy
 * transfers are local and disappear; a dummy's transfer with its other
 * neighbour becomes a transfer between the host and that neighbour (a real
 * ring neighbour of the host).  Transfers of the dummy sender's message are
 * dropped on both ends.  Finally, because one real process now stands for two
 * (or three) virtual ones, a message can reach it twice, where the paper lets
 * two copies meet at adjacent ranks (q odd: the copies of one message meet at
 * nv-2 / nv-1 in the last step).  Such a transfer into a host that already
 * holds the message is dropped on both ends; both ends evaluate the same O(1)
 * predicate.  Without it the host would receive into a buffer it already
 * filled, and for q == 1 the schedule would run extra steps for nothing.
 */

static int real_of_virtual(const paper_geom *g, int v)
{
    if (v < g->P)
        return v;
    int r = v - (g->P - g->p);
    return r < g->n ? r : g->n - 1;
}

/* Virtual processes played by real process r (at most 3: q == 1, p odd). */
static int virtual_identities(const paper_geom *g, int r, int ids[3])
{
    int k = 0;
    if (r < g->p) {
        ids[k++] = r;
        return k;
    }
    if (g->dummy_sender && r == g->p)
        ids[k++] = g->P - 1;
    ids[k++] = r + (g->P - g->p);
    if (g->dummy_recv && r == g->n - 1)
        ids[k++] = g->nv - 1;
    return k;
}

/* 1 when the virtual transfer of m into w at step t carries nothing new for
 * the real process hosting w, i.e. when that process hosts a dummy and one of
 * its virtual identities received m in an earlier step (see "Finally"
 * above).  The earliest arrival into a host is never dropped, so what a host
 * holds is always the union of what its identities hold in the virtual
 * schedule, and the dropped transfers change nothing else.  Two arrivals of
 * one message into a host in the same step (from its two sides) do not occur
 * with this placement: for q >= 3 the two sides receive in disjoint steps,
 * for q == 1 the right side only gets m_0 and the left side never does. */
static int arrival_is_redundant(const paper_geom *g, int w, int m, int t)
{
    int ids[3];
    int k = virtual_identities(g, real_of_virtual(g, w), ids);
    if (k == 1) /* not a host: the paper's schedule never repeats a message */
        return 0;
    for (int a = 0; a < k; a++)
        if (first_arrival(g, ids[a], m) < t)
            return 1;
    return 0;
}

/* Whether the virtual transfer from -> to of m at step t is a real transfer. */
static int transfer_is_real(const paper_geom *g, int from, int to, int m, int t)
{
    if (m < 0 || m >= g->p) /* nothing, or the dummy sender's message */
        return 0;
    if (real_of_virtual(g, from) == real_of_virtual(g, to)) /* inside one host */
        return 0;
    return !arrival_is_redundant(g, to, m, t);
}

static void paper_ops(const paper_geom *g, int rank, int t, op_list *snd, op_list *rcv)
{
    int ids[3];
    int k = virtual_identities(g, rank, ids);
    for (int a = 0; a < k; a++) {
        int v = ids[a];
        int right = mod_n(v + 1, g->nv), left = mod_n(v - 1, g->nv);
        int m;
        m = virt_send_right(g, v, t);
        if (transfer_is_real(g, v, right, m, t))
            push_op(snd, real_of_virtual(g, right), m);
        m = virt_send_left(g, v, t);
        if (transfer_is_real(g, v, left, m, t))
            push_op(snd, real_of_virtual(g, left), m);
        m = virt_send_right(g, left, t);
        if (transfer_is_real(g, left, v, m, t))
            push_op(rcv, real_of_virtual(g, left), m);
        m = virt_send_left(g, right, t);
        if (transfer_is_real(g, right, v, m, t))
            push_op(rcv, real_of_virtual(g, right), m);
    }
}

/* Real steps.  P + Q/2 in general; the exceptions are the cases where the
 * trailing virtual steps carry only local or dummy transfers:
 *  - q == 2, p odd: stage 3 is one step that only moves m_0 from the dummy
 *    sender to its host, so the schedule ends after P = p + 1 steps;
 *  - q == 1: without #3 (see paper_make), #2 delivers m_0 in step 0 and #1
 *    brings m_j to the host at step p - 1 - j (j >= 1), so max(1, p - 1). */
static int paper_steps(const paper_geom *g)
{
    if (g->q == 1)
        return g->p > 1 ? g->p - 1 : 1;
    if (g->q == 2 && g->dummy_sender)
        return g->p + 1;
    return g->T;
}

int ig_paper_steps(int p, int q)
{
    paper_geom g = paper_make(p, q);
    return paper_steps(&g);
}

void ig_paper_ops(int p, int q, int rank, int step, op_list *snd, op_list *rcv)
{
    paper_geom g = paper_make(p, q);
    paper_ops(&g, rank, step, snd, rcv);
}

/* Real senders are virtual senders with the same index, and they never host
 * a dummy, so the virtual first arrival is the real one. */
int ig_paper_sender_arrival(int p, int q, int rank, int msg)
{
    paper_geom g = paper_make(p, q);
    return first_arrival(&g, rank, msg);
}
