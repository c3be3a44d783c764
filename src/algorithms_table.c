/* The table's names (pure: also for the unit tests). */
#define IG_ALGORITHMS_PURE
#include "algorithms.h"

static const ig_algorithm_info table[IG_ALG_COUNT] = {
#define IG_ALGORITHM(id, name, function) [IG_ALG_##id] = { name },
#include "algorithms.def"
#undef IG_ALGORITHM
};

const ig_algorithm_info *ig_algorithm_info_of(ig_algorithm a)
{
    return &table[a];
}
