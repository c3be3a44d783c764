#include "relay_plan.h"

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

void ig_relay_arrival_order(int p, int q, int owner, int *order)
{
    /* Sender i reaches `owner` at place (owner - first(i)) mod q, which
     * grows as first(i) walks down from `owner`, round past 0 to q - 1.  So:
     * senders by decreasing first owner, from the last one whose first owner
     * is at most `owner`; senders that share a first owner (p > q) in
     * increasing order.  O(p). */
    int n = 0, i = (int)(((long long)(owner + 1) * p - 1) / q);
    while (n < p) {
        int lo = i, f = first_owner(p, q, i);
        while (lo > 0 && first_owner(p, q, lo - 1) == f)
            lo--;
        for (int k = lo; k <= i; k++)
            order[n++] = k;
        i = lo > 0 ? lo - 1 : p - 1;
    }
}
