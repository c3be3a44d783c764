#include "relay_plan.h"

#include <limits.h>

ig_piece ig_relay_piece(uint64_t block_bytes, int q, int j)
{
    uint64_t base = block_bytes / (uint64_t)q, extra = block_bytes % (uint64_t)q, uj = (uint64_t)j;
    /* The first `extra` pieces are one byte longer. */
    ig_piece pc = { .offset = uj * base + (uj < extra ? uj : extra), .length = base + (uj < extra ? 1 : 0) };
    return pc;
}

int ig_relay_part_count(uint64_t piece_bytes, uint64_t part_bytes)
{
    if (part_bytes == 0 || piece_bytes <= part_bytes)
        return 1;
    return (int)((piece_bytes + part_bytes - 1) / part_bytes);
}

ig_piece ig_relay_part(ig_piece piece, uint64_t part_bytes, int u)
{
    if (part_bytes == 0 || piece.length <= part_bytes)
        return piece;
    uint64_t start = (uint64_t)u * part_bytes, rest = piece.length - start;
    return (ig_piece){ .offset = piece.offset + start, .length = rest < part_bytes ? rest : part_bytes };
}

static int first_owner(int p, int q, int sender)
{
    return (int)((long long)sender * q / p);
}

int ig_relay_owner_at(int p, int q, int sender, int t)
{
    return (first_owner(p, q, sender) + t) % q;
}

int ig_relay_member_place(int p, int q, int d, int sender, int r)
{
    int t = ((r - first_owner(p, q, sender)) % q + q) % q;
    return t < d ? t : -1;
}

int ig_relay_most_memberships(int p, int q, int d)
{
    return (int)(((long long)p * d + q - 1) / q);
}

/* Loads as fractions num / den of a block's bytes K; a < b exactly. */
typedef struct {
    long long num, den;
} load;

static int lighter(load a, load b)
{
    return a.num * b.den < b.num * a.den;
}

static load heavier_of(load a, load b)
{
    return lighter(a, b) ? b : a;
}

int ig_relay_members_for(int p, int q)
{
    /* Loads below p q and denominators below q: their cross products fit
     * 64 bits while p q does 31. */
    if (p >= q || (long long)p * q > INT_MAX)
        return 0;
    load best = heavier_of((load){ 1, 1 }, (load){ (long long)p * (q - 1), q });
    int members = 0;
    for (int d = 1; d <= p && d < q; d++) {
        load sender = { d, 1 }, member = { (long long)ig_relay_most_memberships(p, q, d) * (q - d), d };
        load busiest = heavier_of(sender, member);
        if (lighter(busiest, best)) {
            best = busiest;
            members = d;
        }
    }
    return members;
}
