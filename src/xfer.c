#include "xfer.h"

int ig_xfer_uniform_make(ig_xfer *x, ig_block *rblk, const void *sbuf, int scount, MPI_Datatype stype,
                         void *rbuf, int rcount, MPI_Datatype rtype)
{
    rblk->type = MPI_DATATYPE_NULL;
    rblk->extent = 0;
    if (rcount > 0) {
        int rc = ig_block_make(rcount, rtype, rblk);
        if (rc != MPI_SUCCESS)
            return rc;
    }
    /* With nothing to receive a receive still has a valid type: MPI_BYTE,
     * zero of them (only an erroneous call posts one, decide.c). */
    *x = (ig_xfer){ sbuf, scount, stype, rbuf, rcount > 0 ? rblk->type : MPI_BYTE, rblk->extent, rcount > 0, NULL,
                    NULL };
    return MPI_SUCCESS;
}

int ig_xfer_varying_make(ig_xfer *x, const void *sbuf, int scount, MPI_Datatype stype, void *rbuf,
                         const int *rcounts, const int *rdispls, MPI_Datatype rtype, int receives)
{
    MPI_Aint lb = 0, extent = 0;
    int rc = receives ? PMPI_Type_get_extent(rtype, &lb, &extent) : MPI_SUCCESS;
    *x = (ig_xfer){ sbuf, scount, stype, rbuf, rtype, extent, 1, rcounts, rdispls };
    return rc;
}
