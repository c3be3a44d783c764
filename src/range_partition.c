#include "range_partition.h"

int ig_range_first(int n_src, int n_dst, int d)
{
    return (int)((long long)d * n_src / n_dst);
}

/* The largest d with first(d) <= block: first(d) <= b  <=>  d * n_src <
 * (b + 1) * n_dst. */
int ig_range_owner(int n_src, int n_dst, int block)
{
    return (int)(((long long)(block + 1) * n_dst - 1) / n_src);
}

int ig_range_crossings(int n_first, int n_second, int turn)
{
    int crossing = 0;
    for (int b = 0; b < n_second; b++) {
        int a = (ig_range_owner(n_second, n_first, b) + turn) % n_first;
        crossing += ig_range_owner(n_first, n_second, a) == b;
    }
    return crossing;
}

int ig_range_turn(int n_first, int n_second)
{
    if (n_first < 2)
        return 0;
    return ig_range_crossings(n_first, n_second, 1) < ig_range_crossings(n_first, n_second, 0);
}
