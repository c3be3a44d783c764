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
