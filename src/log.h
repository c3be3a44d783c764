/* One logging path for the whole library: quiet by default, every line
 * prefixed so users can grep for it. */
#ifndef IG_LOG_H
#define IG_LOG_H

#define IG_LOG_PREFIX "intergather: "

/* Print from this process unconditionally (stderr, one line). */
void ig_log(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Print from world rank 0 only, so a job of a thousand processes shows one
 * line rather than a thousand. */
void ig_log_rank0(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Whether MPI is initialized and not yet finalized. */
int ig_mpi_is_running(void);

/* This process's rank in MPI_COMM_WORLD, or -1 before MPI_Init. */
int ig_world_rank(void);

#endif
