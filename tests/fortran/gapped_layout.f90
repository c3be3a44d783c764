! The layout both Fortran programs (allgather_f77.f90, allgather_f08.f90)
! give their native MPI_Allgatherv on MPI_COMM_WORLD: process r sends
! sent_by(r) = mod(r, 5) + 1 elements, received in reverse rank order,
! `slot` apart, so that counts and displacements differ and a gap stays
! after each block.  No MPI here: both bindings use it.
module gapped_layout
  implicit none
  integer, parameter :: slot = 6
contains
  integer function sent_by(rank)
    integer, intent(in) :: rank
    sent_by = mod(rank, 5) + 1
  end function sent_by

  subroutine reverse_gapped(nprocs, counts, displs)
    integer, intent(in) :: nprocs
    integer, intent(out) :: counts(nprocs), displs(nprocs)
    integer :: i
    do i = 1, nprocs
      counts(i) = sent_by(i - 1)
      displs(i) = slot * (nprocs - i)
    end do
  end subroutine reverse_gapped
end module gapped_layout
