#include "errors.h"

#include "log.h"

#include <stdio.h>

/* MPI_Comm_call_errhandler would report the error as raised by
 * MPI_Comm_call_errhandler; for the fatal handler, whose only effect is the
 * message and the abort, say what the MPI library would say itself. */
static void abort_fatally(MPI_Comm comm, const char *function, int rc)
{
    char what[MPI_MAX_ERROR_STRING], name[MPI_MAX_OBJECT_NAME];
    int len = 0, name_len = 0;
    if (PMPI_Error_string(rc, what, &len) != MPI_SUCCESS)
        what[0] = '\0';
    if (PMPI_Comm_get_name(comm, name, &name_len) != MPI_SUCCESS || name_len == 0)
        snprintf(name, sizeof name, "an inter-communicator");
    ig_log("*** An error occurred in %s (served by intergather)\n"
           "*** reported by world rank %d on communicator %s\n*** %s\n"
           "*** MPI_ERRORS_ARE_FATAL (processes in this communicator will now abort,\n"
           "***    and potentially your MPI job)",
           function, ig_world_rank(), name, what);
    PMPI_Abort(comm, rc);
}

int ig_error_report(MPI_Comm comm, const char *function, int rc)
{
    MPI_Errhandler handler = MPI_ERRHANDLER_NULL;
    if (rc == MPI_SUCCESS)
        return rc;
    int fatal = PMPI_Comm_get_errhandler(comm, &handler) == MPI_SUCCESS && handler == MPI_ERRORS_ARE_FATAL;
    if (handler != MPI_ERRHANDLER_NULL)
        PMPI_Errhandler_free(&handler);
    if (fatal)
        abort_fatally(comm, function, rc);
    else
        PMPI_Comm_call_errhandler(comm, rc);
    return rc;
}
