#include "cost_model.h"

#include <math.h>

const ig_cost_params ig_cost_default = { 5e-6, 1e-10, 1e-6, 0 };
const ig_cost_params ig_cost_shared_memory = { 1e-6, 2e-10, 3e-7, 1 };

int ig_ceil_log2(int n)
{
    int l = 0;
    while ((1LL << l) < n)
        l++;
    return l;
}

static double max2(double a, double b) { return a > b ? a : b; }
static double min2(double a, double b) { return a < b ? a : b; }

ig_cost_params ig_cost_fit(double round_trip, double large, double bytes, double burst_extra, int burst_count)
{
    ig_cost_params c = { 0 };
    c.to = burst_count > 1 ? min2(max2(0, burst_extra / (burst_count - 1)), round_trip / 2) : 0;
    c.tw = bytes > 1 ? max2(0, (large - round_trip) / (bytes - 1)) : 0;
    c.ts = max2(0, round_trip / 2 - c.to);
    return c;
}

/* One round of dependent messages. */
static double round_cost(const ig_cost_params *c) { return c->ts + c->to; }

/* Section III and README: p = q and p > q: (1 + log p) t_s + p k t_w;
 * p < q: (log p + 2 log(q/p + 1)) t_s + (p + 1) k t_w for the s p
 * receivers of the groups; with r = q mod p leftover receivers, a sender
 * sends them its block after its broadcast (fc_plan.h), r messages on its
 * link, each a t_o, the last's latency after them: never the slower path
 * while r < p and the broadcast's bandwidth term is the paper's 2 k t_w,
 * but priced all the same. */
double ig_cost_fc_half(int p, int q, double k, const ig_cost_params *c)
{
    if (p >= q)
        return (1 + ig_ceil_log2(p)) * round_cost(c) + p * k * c->tw;
    int s = q / p, r = q % p;
    double bcast = 2 * ig_ceil_log2(s + 1) * round_cost(c) + 2 * k * c->tw;
    double groups = bcast + ig_ceil_log2(p) * round_cost(c) + (p - 1) * k * c->tw;
    double leftovers = r > 0 ? bcast + c->ts + r * (c->to + k * c->tw) : 0;
    return max2(groups, leftovers);
}

/* Gather to a root (log p, (p-1)k), root to root (1, pk), broadcast of pk
 * bytes (2 log(q+1), 2pk): section III-A. */
double ig_cost_root_gathering(int p, int q, double k, const ig_cost_params *c)
{
    return (ig_ceil_log2(p) + 1 + 2 * ig_ceil_log2(q + 1)) * round_cost(c) + (4.0 * p - 1) * k * c->tw;
}

/* One group's side of the full-duplex algorithm: it receives up to
 * ceil(n_remote / n_local) remote blocks while sending its own (stage 1),
 * then gathers the rest of the n_remote blocks among its n_local processes. */
static double fd_side(int n_local, double k_local, int n_remote, double k_remote, const ig_cost_params *c)
{
    int owned = (n_remote + n_local - 1) / n_local;
    double stage1 = (1 + owned) * round_cost(c) + max2(k_local, owned * k_remote) * c->tw;
    double stage2 = n_local > 1 ? ig_ceil_log2(n_local) * round_cost(c) + (n_remote - n_remote / n_local) * k_remote * c->tw : 0;
    return stage1 + stage2;
}

double ig_cost_fd(int na, double ka, int nb, double kb, const ig_cost_params *c)
{
    return max2(fd_side(na, ka, nb, kb, c), fd_side(nb, kb, na, ka, c));
}

/* Open MPI's inter-communicator allgather, full duplex: both groups gather
 * to their roots at once, the roots exchange both groups' data, then each
 * root broadcasts the remote data to its own group. */
double ig_cost_root_gathering_full(int na, double ka, int nb, double kb, const ig_cost_params *c)
{
    double gather = max2(ig_ceil_log2(na) * round_cost(c) + (na - 1) * ka * c->tw,
                         ig_ceil_log2(nb) * round_cost(c) + (nb - 1) * kb * c->tw);
    double exchange = round_cost(c) + max2(na * ka, nb * kb) * c->tw;
    double bcast = max2(2 * ig_ceil_log2(na + 1) * round_cost(c) + 2 * nb * kb * c->tw,
                        2 * ig_ceil_log2(nb + 1) * round_cost(c) + 2 * na * ka * c->tw);
    return gather + exchange + bcast;
}

/* Messages posted at once, whose host costs (t_o each) add up to `host`
 * and whose link times (k_tw each) to `link`.  Over a
 * network the two are a pipeline: the host readies one message while the
 * link carries another, so the slower stage sets the pace, and only the
 * first message's faster stage adds to it.  That is n (t_o + k t_w) where
 * either cost is 0, and less where both are not: charging both in full
 * made the model prefer spread's fewer messages to direct at 12+4 with
 * 4 MiB blocks whenever a measured t_o came out at tens of microseconds
 * (hidden behind 330 ms of wire time per block), where spread measured 7
 * to 10 % slower (docs/performance.md, seventeenth session).  Within a
 * node one processor does both, and they add up. */
static double posted_at_once(double host, double link, double k_tw, const ig_cost_params *c)
{
    if (c->copies_on_host)
        return host + link;
    return max2(host, link) + min2(c->to, k_tw);
}

double ig_cost_direct_half_blocks(int p, int q, double k, double k_max, const ig_cost_params *c)
{
    int most = p > q ? p : q; /* a sender sends q blocks, a receiver receives p */
    /* Within a node a receiver copies what it takes (the kernel's single
     * copy, or from shared buffers): its p blocks pace the call whatever
     * their sizes. */
    double link = (c->copies_on_host ? most * k : max2(q * k_max, p * k)) * c->tw;
    return c->ts + posted_at_once(most * c->to, link, k_max * c->tw, c);
}

double ig_cost_direct_half(int p, int q, double k, const ig_cost_params *c)
{
    return ig_cost_direct_half_blocks(p, q, k, k, c);
}

/* A process of group A sends its block to each of the n_b processes of B
 * and receives theirs (links carry both directions at once). */
double ig_cost_direct_full(int na, double ka, int nb, double kb, const ig_cost_params *c)
{
    double k_tw = max2(ka, kb) * c->tw;
    double a = c->ts + posted_at_once(2.0 * nb * c->to, nb * k_tw, k_tw, c);
    double b = c->ts + posted_at_once(2.0 * na * c->to, na * k_tw, k_tw, c);
    return max2(a, b);
}

double ig_cost_chain_half(int p, int q, double k, double seg, const ig_cost_params *c)
{
    if (seg <= 0 || seg > k)
        seg = k;
    double segments = seg > 0 ? (double)(long long)((k + seg - 1) / seg) : 1;
    return c->ts + (q - 1) * (c->ts + seg * c->tw) + p * k * c->tw + 2.0 * p * segments * c->to;
}

/* d/dseg [(q - 1) seg t_w + 2 p (k / seg) t_o] = 0. */
double ig_chain_segment(int p, int q, double k, double floor, const ig_cost_params *c)
{
    double seg = q > 1 && c->tw > 0 ? sqrt(2.0 * p * k * c->to / ((q - 1) * c->tw)) : k;
    seg = seg < floor ? floor : seg;
    return seg > k ? k : seg;
}

double ig_cost_relay_half(int p, int q, double k, double part, const ig_cost_params *c)
{
    double piece = k / q;
    if (part <= 0 || part > piece)
        part = piece;
    double parts = part > 0 ? ceil(piece / part) : 1;
    return 2 * round_cost(c) + (p * k + part) * c->tw + (2.0 * p * q - p) * parts * c->to;
}

double ig_cost_spread_half(int p, int q, double k, const ig_cost_params *c)
{
    int owned = (p + q - 1) / q;
    double stage1 = c->ts + posted_at_once(owned * c->to, owned * k * c->tw, k * c->tw, c);
    double stage2 = q > 1 ? ig_ceil_log2(q) * round_cost(c) + (p - p / q) * k * c->tw : 0;
    return stage1 + stage2;
}

double ig_cost_star_half(int p, int q, double k, const ig_cost_params *c)
{
    if (p >= q)
        return HUGE_VAL; /* no teams: the star plans p < q only */
    int s = q / p, extras = (q % p + s - 1) / s, on = p - 1 + extras;
    double first = c->ts + posted_at_once(s * c->to, s * k * c->tw, k * c->tw, c);
    /* A member receives p - 1 blocks while it sends p - 1 + e. */
    double second = c->ts + posted_at_once((on + p - 1) * c->to, on * k * c->tw, k * c->tw, c);
    return first + second;
}
