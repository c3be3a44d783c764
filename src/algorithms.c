/* The table's functions: dispatch on the decided algorithm. */
#include "algorithms.h"

typedef int (*algorithm_fn)(ig_pair *, const ig_xfer *, const ig_step *);

static const algorithm_fn functions[IG_ALG_COUNT] = {
#define IG_ALGORITHM(id, name, function) [IG_ALG_##id] = function,
#include "algorithms.def"
#undef IG_ALGORITHM
};

int ig_algorithm_run(ig_pair *pair, const ig_xfer *x, const ig_step *step)
{
    return functions[step->algorithm](pair, x, step);
}
