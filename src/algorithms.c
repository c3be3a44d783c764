/* The table's functions: dispatch on the decided algorithm. */
#include "algorithms.h"

typedef int (*algorithm_fn)(ig_pair *, const ig_xfer *, const ig_step *);

static const algorithm_fn functions[IG_ALG_COUNT] = {
#define IG_ALGORITHM(id, name, function) [IG_ALG_##id] = function,
#include "algorithms.def"
#undef IG_ALGORITHM
};

/* The step's arrays come from the pair's room, grown jointly first where
 * the step needs more (a forced chain's segments, a forced relay beyond
 * the model's messages: the decision says how much, step->room_*), so
 * that no process runs short of them alone. */
int ig_algorithm_run(ig_pair *pair, const ig_xfer *x, const ig_step *step)
{
    int rc = ig_pair_fit_room(pair, step->room_requests, step->room_ints);
    return rc != MPI_SUCCESS ? rc : functions[step->algorithm](pair, x, step);
}
