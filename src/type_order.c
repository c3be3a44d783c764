#include "type_order.h"

#include <stdatomic.h>
#include <stdlib.h>

/* The end (one past the last byte) of what has been laid out so far. */
typedef struct {
    int any;
    MPI_Aint end;
} cursor;

int ig_type_layout_of(MPI_Datatype type, ig_type_layout *l)
{
    return PMPI_Type_size_x(type, &l->size) == MPI_SUCCESS &&
           PMPI_Type_get_extent(type, &l->lb, &l->extent) == MPI_SUCCESS &&
           PMPI_Type_get_true_extent(type, &l->true_lb, &l->true_extent) == MPI_SUCCESS && l->size >= 0;
}

static int in_order(MPI_Datatype type, int depth);

/* `n` consecutive elements of `old` (in order itself, `old_ok`) placed at
 * byte displacement `disp`, after everything the cursor has seen.
 * Elements of size 0 hold no bytes and never break the order. */
static int place_run(cursor *cur, MPI_Aint disp, MPI_Aint n, const ig_type_layout *old, int old_ok)
{
    if (n <= 0 || old->size == 0)
        return 1;
    if (!old_ok || (n > 1 && old->extent < old->true_extent))
        return 0;
    MPI_Aint start = disp + old->true_lb;
    if (cur->any && start < cur->end)
        return 0;
    cur->any = 1;
    cur->end = start + (n - 1) * old->extent + old->true_extent;
    return 1;
}

/* The decoded arguments of one constructor (MPI_Type_get_contents). */
typedef struct {
    int ni, na, nt, combiner;
    int *ints;
    MPI_Aint *addrs;
    MPI_Datatype *types;
} contents;

/* Predefined types come back as themselves and must not be freed; so do
 * the MPI_Type_create_f90_* types, which MPI counts as predefined although
 * their combiner is not MPI_COMBINER_NAMED. */
static int predefined(int combiner)
{
    return combiner == MPI_COMBINER_NAMED || combiner == MPI_COMBINER_F90_REAL ||
           combiner == MPI_COMBINER_F90_COMPLEX || combiner == MPI_COMBINER_F90_INTEGER;
}

static void contents_free(contents *c)
{
    for (int i = 0; c->types != NULL && i < c->nt; i++) {
        int ni, na, nt, combiner;
        if (PMPI_Type_get_envelope(c->types[i], &ni, &na, &nt, &combiner) == MPI_SUCCESS && !predefined(combiner))
            PMPI_Type_free(&c->types[i]);
    }
    free(c->ints);
    free(c->addrs);
    free(c->types);
}

static int contents_of(MPI_Datatype type, contents *c)
{
    *c = (contents){ 0 };
    if (PMPI_Type_get_envelope(type, &c->ni, &c->na, &c->nt, &c->combiner) != MPI_SUCCESS)
        return 0;
    if (predefined(c->combiner))
        return 1; /* nothing to decode, nothing to free */
    c->ints = malloc((size_t)(c->ni > 0 ? c->ni : 1) * sizeof *c->ints);
    c->addrs = malloc((size_t)(c->na > 0 ? c->na : 1) * sizeof *c->addrs);
    c->types = calloc((size_t)(c->nt > 0 ? c->nt : 1), sizeof *c->types);
    if (c->ints == NULL || c->addrs == NULL || c->types == NULL ||
        PMPI_Type_get_contents(type, c->ni, c->na, c->nt, c->ints, c->addrs, c->types) != MPI_SUCCESS) {
        free(c->types); /* nothing to free inside: the call failed or never ran */
        c->types = NULL;
        contents_free(c);
        return 0;
    }
    return 1;
}

/* Runs at displacements given in bytes (`addrs`) or in extents of the old
 * type (`ints`), `blocklens[i]` elements each (or `blocklen` for all). */
static int place_runs(int count, const int *blocklens, int blocklen, const int *disp_in_extents,
                      const MPI_Aint *disp_in_bytes, MPI_Datatype old, int depth)
{
    ig_type_layout l;
    cursor cur = { 0, 0 };
    if (!ig_type_layout_of(old, &l))
        return 0;
    int old_ok = in_order(old, depth + 1);
    for (int i = 0; i < count; i++) {
        MPI_Aint disp = disp_in_bytes != NULL ? disp_in_bytes[i] : (MPI_Aint)disp_in_extents[i] * l.extent;
        if (!place_run(&cur, disp, blocklens != NULL ? blocklens[i] : blocklen, &l, old_ok))
            return 0;
    }
    return 1;
}

/* A vector's blocks as runs: the first two decide, every later one
 * repeats their spacing. */
static int vector_blocks(int count)
{
    return count < 2 ? count : 2;
}

static int struct_in_order(const contents *c, int depth)
{
    cursor cur = { 0, 0 };
    for (int i = 0; i < c->ints[0]; i++) {
        ig_type_layout l;
        if (!ig_type_layout_of(c->types[i], &l) ||
            !place_run(&cur, c->addrs[i], c->ints[1 + i], &l, l.size == 0 || in_order(c->types[i], depth + 1)))
            return 0;
    }
    return 1;
}

static int decoded_in_order(const contents *c, int depth)
{
    const int *in = c->ints;
    switch (c->combiner) {
    case MPI_COMBINER_DUP:
    case MPI_COMBINER_RESIZED: /* bounds move, the type map does not */
        return in_order(c->types[0], depth + 1);
    case MPI_COMBINER_CONTIGUOUS:
        return place_runs(1, NULL, in[0], (const int[]){ 0 }, NULL, c->types[0], depth);
    case MPI_COMBINER_VECTOR: /* stride in extents of the old type */
        return place_runs(vector_blocks(in[0]), NULL, in[1], (const int[]){ 0, in[2] }, NULL, c->types[0], depth);
    case MPI_COMBINER_HVECTOR: /* stride in bytes */
        return place_runs(vector_blocks(in[0]), NULL, in[1], NULL, (const MPI_Aint[]){ 0, c->addrs[0] }, c->types[0],
                          depth);
    case MPI_COMBINER_INDEXED:
        return place_runs(in[0], in + 1, 0, in + 1 + in[0], NULL, c->types[0], depth);
    case MPI_COMBINER_HINDEXED:
        return place_runs(in[0], in + 1, 0, NULL, c->addrs, c->types[0], depth);
    case MPI_COMBINER_INDEXED_BLOCK:
        return place_runs(in[0], NULL, in[1], in + 2, NULL, c->types[0], depth);
    case MPI_COMBINER_HINDEXED_BLOCK:
        return place_runs(in[0], NULL, in[1], NULL, c->addrs, c->types[0], depth);
    case MPI_COMBINER_STRUCT:
        return struct_in_order(c, depth);
    default:
        return 0;
    }
}

/* Deeper nesting than any program builds is answered "cannot tell". */
#define MAX_DEPTH 64

static int in_order(MPI_Datatype type, int depth)
{
    contents c;
    if (depth > MAX_DEPTH || !contents_of(type, &c))
        return 0;
    if (predefined(c.combiner))
        return 1; /* one element (a number of a chosen kind for F90), or a pair in order */
    int ok = decoded_in_order(&c, depth);
    contents_free(&c);
    return ok;
}

int ig_type_in_order(MPI_Datatype type)
{
    return in_order(type, 0);
}

/* Named types' facts.  A slot goes EMPTY -> FILLING (one writer wins the
 * exchange) -> READY (the release store publishes type and facts, which
 * readers see after their acquire load); it never changes after. */
enum { SLOT_EMPTY, SLOT_FILLING, SLOT_READY, NAMED_KEPT = 16 };
static struct {
    atomic_int state;
    MPI_Datatype type;
    ig_type_facts facts;
} named[NAMED_KEPT];

int ig_type_facts_kept(MPI_Datatype type, ig_type_facts *f)
{
    for (int i = 0; i < NAMED_KEPT; i++) {
        int state = atomic_load_explicit(&named[i].state, memory_order_acquire);
        if (state == SLOT_EMPTY)
            return 0; /* slots fill in order: none further is ready */
        if (state == SLOT_READY && named[i].type == type) {
            *f = named[i].facts;
            return 1;
        }
    }
    return 0;
}

void ig_type_facts_keep(MPI_Datatype type, const ig_type_facts *f)
{
    int ni, na, nt, combiner;
    if (PMPI_Type_get_envelope(type, &ni, &na, &nt, &combiner) != MPI_SUCCESS || combiner != MPI_COMBINER_NAMED)
        return;
    for (int i = 0; i < NAMED_KEPT; i++) {
        int state = atomic_load_explicit(&named[i].state, memory_order_acquire);
        if (state == SLOT_READY && named[i].type == type)
            return; /* another thread kept it */
        int expected = SLOT_EMPTY;
        if (state == SLOT_EMPTY &&
            atomic_compare_exchange_strong_explicit(&named[i].state, &expected, SLOT_FILLING, memory_order_acquire,
                                                    memory_order_relaxed)) {
            named[i].type = type;
            named[i].facts = *f;
            atomic_store_explicit(&named[i].state, SLOT_READY, memory_order_release);
            return;
        }
    }
}
