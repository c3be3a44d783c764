#include "blocks.h"

#include "tags.h"
#include "type_order.h"

#include <stdlib.h>

int ig_block_make(int count, MPI_Datatype elem, ig_block *b)
{
    MPI_Aint lb;
    int rc = PMPI_Type_contiguous(count, elem, &b->type);
    if (rc != MPI_SUCCESS)
        return rc;
    rc = PMPI_Type_commit(&b->type);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_get_extent(b->type, &lb, &b->extent);
    if (rc == MPI_SUCCESS)
        rc = PMPI_Type_get_true_extent(b->type, &b->true_lb, &b->true_extent);
    if (rc != MPI_SUCCESS)
        PMPI_Type_free(&b->type);
    return rc;
}

/* The bounds rule out gaps (the data fill the true extent) and, for several
 * elements, spacing other than back to back; the type map's order
 * (type_order.h) rules out bytes read twice or out of order, which have the
 * same bounds. */
int ig_type_contiguous(int count, MPI_Datatype type)
{
    MPI_Count size;
    MPI_Aint lb, extent, true_lb, true_extent;
    if (count == 0)
        return 1;
    if (PMPI_Type_size_x(type, &size) != MPI_SUCCESS || PMPI_Type_get_extent(type, &lb, &extent) != MPI_SUCCESS ||
        PMPI_Type_get_true_extent(type, &true_lb, &true_extent) != MPI_SUCCESS)
        return 0;
    if (size == 0)
        return 1;
    return true_extent == (MPI_Aint)size && (count == 1 || extent == true_extent) && ig_type_in_order(type);
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
int ig_block_copy(const void *src, void *dst, const ig_block *b, MPI_Comm private_comm, int self)
{
    return PMPI_Sendrecv(src, 1, b->type, self, IG_TAG_LOCAL_COPY, dst, 1, b->type, self,
                         IG_TAG_LOCAL_COPY, private_comm, MPI_STATUS_IGNORE);
}
