/*
 * Is the MPI library this process actually runs on the one intergather was
 * built for?  A shim built against Open MPI and preloaded into an MPICH
 * program (or the reverse) sees handles and constants of a different ABI:
 * touching any of them crashes or corrupts.  The answer lets every entry
 * point step aside and hand the call, unchanged, to PMPI_*.
 */
#ifndef IG_MPI_IDENTITY_H
#define IG_MPI_IDENTITY_H

/* 1 if the running MPI is of the family configure built for (IG_MPI_IMPL:
 * "openmpi", "mpich"; an "unknown" build always answers 1), else 0 after one
 * warning on stderr from one process of the job.  Computed once, thread-safe,
 * callable before MPI_Init and after MPI_Finalize.  Uses no MPI handle or
 * constant: only MPI_Get_library_version, which takes none. */
int ig_mpi_identity_matches(void);

/* Whether a process may complete a non-blocking receive that was
 * truncated (an erroneous call) and get the error back: 1 for Open MPI.
 * MPICH 4.0.2 raises that error through MPI_COMM_WORLD's error handler
 * whatever the request's communicator says, aborting the job; so does any
 * build for an MPI configure could not name, to be safe.  From the build,
 * not the running library (which ig_mpi_identity_matches checks). */
int ig_mpi_truncated_receive_returns(void);

/* Whether the MPI library's intra-communicator MPI_Allgatherv delivers
 * the right data when its members' receive types differ in size or extent
 * with matching signatures: 1 for Open MPI (4.1.4 checked); 0 for MPICH
 * (4.0.2 returns MPI_ERR_TRUNCATE or wrong data, or hangs: settings.h says
 * why) and for any build for an MPI configure could not name, to be safe.
 * From the build. */
int ig_mpi_allgatherv_takes_mixed_types(void);

/* Whether the MPI library's collectives refuse a receive type that was
 * never committed: 0 for Open MPI (4.1.4's MPI_Allgather and
 * MPI_Allgatherv check the receive type only against MPI_DATATYPE_NULL,
 * and complete the call); 1 for MPICH (which reports MPI_ERR_TYPE) and for
 * any build for an MPI configure could not name.  From the build. */
int ig_mpi_collectives_check_receive_commit(void);

/* The family a version string names: "openmpi", "mpich" (MPICH and its
 * ABI-compatible derivatives) or "unknown".  Pure; for tests. */
const char *ig_mpi_identity_family(const char *library_version);

#endif
