! An inter-communicator MPI_Allgather inside a delete callback of an
! attribute the program set on MPI_COMM_SELF, which MPI runs at the start
! of MPI_Finalize (newest attribute first).  The program initialises from
! Fortran (MPI_INIT does not go through the C MPI_Init) and sets its
! attribute before its first inter-communicator call; intergather must
! still be serving when the callback runs (src/lifecycle.h).  Each process
! checks the callback's blocks and the group of the world agrees on the
! outcome inside the callback; world rank 0 prints "PASS finalize_hook".
module finalize_hook_state
  use mpi
  implicit none
  integer :: inter = MPI_COMM_NULL, wrank = -1, left = 0, rsize = 0
contains
  subroutine at_finalize(comm, keyval, attr, extra, ierr)
    integer :: comm, keyval, ierr, e, bad, all_bad, j
    integer(kind=MPI_ADDRESS_KIND) :: attr, extra
    integer :: sbuf(3), rbuf(3 * 16), first
    sbuf = (/ wrank, 2 * wrank, 3 * wrank /)
    rbuf = -1
    call MPI_Allgather(sbuf, 3, MPI_INTEGER, rbuf, 3, MPI_INTEGER, inter, e)
    bad = 0
    if (e /= MPI_SUCCESS) bad = 1
    first = merge(left, 0, wrank < left) ! the world rank of remote rank 0
    do j = 0, rsize - 1
      if (rbuf(3 * j + 1) /= first + j .or. rbuf(3 * j + 3) /= 3 * (first + j)) bad = bad + 1
    end do
    call MPI_Allreduce(bad, all_bad, 1, MPI_INTEGER, MPI_SUM, MPI_COMM_WORLD, e)
    if (wrank == 0) then
      if (all_bad == 0) then
        print '(a)', 'PASS finalize_hook'
      else
        print '(a,i0)', 'FAIL finalize_hook: wrong blocks or errors: ', all_bad
      end if
    end if
    ierr = MPI_SUCCESS
  end subroutine
end module

program finalize_hook
  use mpi
  use finalize_hook_state
  implicit none
  integer :: ierr, wsize, color, local, kv, sbuf(1), rbuf(16)
  integer(kind=MPI_ADDRESS_KIND) :: extra = 0, val = 1
  call MPI_Init(ierr)
  call MPI_Comm_create_keyval(MPI_COMM_NULL_COPY_FN, at_finalize, kv, extra, ierr)
  call MPI_Comm_set_attr(MPI_COMM_SELF, kv, val, ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, wrank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, wsize, ierr)
  left = wsize / 2
  color = merge(0, 1, wrank < left)
  call MPI_Comm_split(MPI_COMM_WORLD, color, wrank, local, ierr)
  call MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, merge(left, 0, wrank < left), 7, inter, ierr)
  call MPI_Comm_remote_size(inter, rsize, ierr)
  sbuf = wrank
  call MPI_Allgather(sbuf, 1, MPI_INTEGER, rbuf, 1, MPI_INTEGER, inter, ierr)
  call MPI_Finalize(ierr)
end program
