#include "blocks.h"

#include "tags.h"
#include "type_order.h"

#include <stdlib.h>

int ig_block_make(int count, MPI_Datatype elem, ig_block *b)
{
    MPI_Aint lb;
    int rc = PMPI_Type_contiguous(count, elem, &b->type);
    if (rc != MPI_SUCCESS) {
        b->type = MPI_DATATYPE_NULL; /* ig_block_free stays safe */
        return rc;
    }
    rc = PMPI_Type_commit(&b->type);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_get_extent(b->type, &lb, &b->extent);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_get_true_extent(b->type, &b->true_lb, &b->true_extent);
    if (rc != MPI_SUCCESS)
        PMPI_Type_free(&b->type);
    return rc;
}

/* Element i of contiguous(count, elem) starts i extents on, so the lowest
 * byte is element 0's, or the last element's when the extent is negative. */
int ig_block_true_lb(int count, MPI_Datatype elem, MPI_Aint *true_lb)
{
    MPI_Aint lb, extent, true_extent;
    int rc = PMPI_Type_get_extent(elem, &lb, &extent);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_get_true_extent(elem, true_lb, &true_extent);
    if (rc == MPI_SUCCESS && count > 1 && extent < 0)
        *true_lb += (MPI_Aint)(count - 1) * extent;
    return rc;
}

int ig_type_contiguous(int count, MPI_Datatype type)
{
    ig_type_layout l;
    if (count == 0)
        return 1;
    return ig_type_layout_of(type, &l) && ig_layout_contiguous(count, &l, ig_type_in_order(type));
}

void ig_block_free(ig_block *b)
{
    if (b->type != MPI_DATATYPE_NULL)
        PMPI_Type_free(&b->type);
}

int ig_block_scratch(const ig_block *b, int n, void **base, void **raw)
{
    size_t bytes = (size_t)((MPI_Aint)(n - 1) * b->extent + b->true_extent);
    *raw = malloc(bytes > 0 ? bytes : 1);
    if (*raw == NULL)
        return MPI_ERR_NO_MEM;
    *base = (char *)*raw - b->true_lb;
    return MPI_SUCCESS;
}

void ig_block_scratch_free(void *raw)
{
    free(raw);
}

/* A send to self on one of intergather's private communicators: purely
 * local in effect, works for blocks of any size (MPI_Pack_size is limited to
 * int), and no receive the user posted can match it. */
int ig_copy_to_self(const void *src, int scount, MPI_Datatype stype, void *dst, int rcount, MPI_Datatype rtype,
                    MPI_Comm private_comm, int self)
{
    return PMPI_Sendrecv(src, scount, stype, self, IG_TAG_LOCAL_COPY, dst, rcount, rtype, self, IG_TAG_LOCAL_COPY,
                         private_comm, MPI_STATUS_IGNORE);
}

int ig_block_copy(const void *src, void *dst, const ig_block *b, MPI_Comm private_comm, int self)
{
    return ig_copy_to_self(src, 1, b->type, dst, 1, b->type, private_comm, self);
}
