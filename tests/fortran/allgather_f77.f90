! Fortran 77-style bindings (include 'mpif.h'): an inter-communicator
! MPI_Allgather in both half-duplex directions and full duplex, compared with
! PMPI_Allgather on the same communicator; MPI_BOTTOM with datatypes of
! absolute addresses on both sides of a half-duplex call, and MPI_IN_PLACE on
! an intra-communicator (each sentinel must reach the C library as C's); an
! MPI_Allgatherv on an intra-communicator (native, its arrays passed on).
program allgather_f77
  use gapped_layout
  implicit none
  include 'mpif.h'
  integer, parameter :: n = 50000
  integer :: ierr, wrank, wsize, left, color, local, inter, rsize, dir, i, served
  integer :: scount, rcount, pos, abs_send, abs_recv, blen(1), j, want
  integer(kind=MPI_ADDRESS_KIND) :: addr(1)
  integer, allocatable :: counts(:), displs(:)
  integer, allocatable :: sbuf(:), got(:), ref(:), inplace(:), vgot(:)
  logical :: is_left

  call MPI_Init(ierr)
  call MPI_Comm_rank(MPI_COMM_WORLD, wrank, ierr)
  call MPI_Comm_size(MPI_COMM_WORLD, wsize, ierr)
  left = wsize / 2
  is_left = wrank < left
  color = merge(0, 1, is_left)
  call MPI_Comm_split(MPI_COMM_WORLD, color, wrank, local, ierr)
  call MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, merge(left, 0, is_left), 5, inter, ierr)
  call MPI_Comm_remote_size(inter, rsize, ierr)
  allocate(sbuf(n), got(n * rsize), ref(n * rsize))
  do i = 1, n
    sbuf(i) = wrank * 100003 + i
  end do

  served = 0
  do dir = 0, 2
    ! dir 0: left sends; 1: right sends; 2: both send
    scount = 0
    rcount = 0
    if (dir == 2 .or. (dir == 0 .eqv. is_left)) scount = n
    if (dir == 2 .or. (dir == 0 .neqv. is_left)) rcount = n
    got = -1
    ref = -1
    call MPI_Allgather(sbuf, scount, MPI_INTEGER, got, rcount, MPI_INTEGER, inter, ierr)
    if (ierr /= MPI_SUCCESS) stop 2
    call PMPI_Allgather(sbuf, scount, MPI_INTEGER, ref, rcount, MPI_INTEGER, inter, ierr)
    if (any(got /= ref)) then
      print *, 'TEST FAILURE: mpif.h MPI_Allgather differs from native, case', dir
      call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
    served = served + 1
  end do

  ! MPI_BOTTOM, left group sending: the left sends one element of a type
  ! that holds sbuf's absolute address; the right receives each block as
  ! one element of a type that holds got's (block i at got(i n + 1)) in
  ! case 1, into got as usual in case 2.  Such calls go to the MPI
  ! library, jointly (not counted as served); without the sentinel's
  ! mapping the library would take the Fortran variable MPI_BOTTOM for a
  ! buffer and read and write relative to it.
  blen(1) = n
  call MPI_Get_address(sbuf, addr(1), ierr)
  call MPI_Type_create_hindexed(1, blen, addr, MPI_INTEGER, abs_send, ierr)
  call MPI_Type_commit(abs_send, ierr)
  call MPI_Get_address(got, addr(1), ierr)
  call MPI_Type_create_hindexed(1, blen, addr, MPI_INTEGER, abs_recv, ierr)
  call MPI_Type_commit(abs_recv, ierr)
  do dir = 1, 2
    got = -1
    ref = -1
    if (is_left) then
      call MPI_Allgather(MPI_BOTTOM, 1, abs_send, got, 0, MPI_INTEGER, inter, ierr)
      if (ierr /= MPI_SUCCESS) stop 3
      call PMPI_Allgather(sbuf, n, MPI_INTEGER, ref, 0, MPI_INTEGER, inter, ierr)
    else if (dir == 1) then
      call MPI_Allgather(sbuf, 0, MPI_INTEGER, MPI_BOTTOM, 1, abs_recv, inter, ierr)
      if (ierr /= MPI_SUCCESS) stop 3
      call PMPI_Allgather(sbuf, 0, MPI_INTEGER, ref, n, MPI_INTEGER, inter, ierr)
    else
      call MPI_Allgather(sbuf, 0, MPI_INTEGER, got, n, MPI_INTEGER, inter, ierr)
      if (ierr /= MPI_SUCCESS) stop 3
      call PMPI_Allgather(sbuf, 0, MPI_INTEGER, ref, n, MPI_INTEGER, inter, ierr)
    end if
    ! got was written through an address the compiler cannot see.
    call MPI_F_sync_reg(got)
    if (any(got /= ref)) then
      print *, 'TEST FAILURE: mpif.h MPI_Allgather with MPI_BOTTOM differs from native, case', dir
      call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
  end do
  call MPI_Type_free(abs_send, ierr)
  call MPI_Type_free(abs_recv, ierr)

  ! MPI_Allgatherv, left group sending: counts differ per process (the first
  ! sends nothing), displacements in reverse order with gaps.
  allocate(counts(rsize), displs(rsize))
  scount = 0
  if (is_left) scount = mod(wrank, 3) * 1000
  counts = 0
  displs = 0
  if (.not. is_left) then
    pos = 2
    do i = rsize, 1, -1
      counts(i) = mod(i - 1, 3) * 1000
      displs(i) = pos
      pos = pos + counts(i) + 5
    end do
  end if
  got = -1
  ref = -1
  call MPI_Allgatherv(sbuf, scount, MPI_INTEGER, got, counts, displs, MPI_INTEGER, inter, ierr)
  call PMPI_Allgatherv(sbuf, scount, MPI_INTEGER, ref, counts, displs, MPI_INTEGER, inter, ierr)
  if (any(got /= ref)) then
    print *, 'TEST FAILURE: MPI_Allgatherv differs from native'
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  served = served + 1

  ! MPI_IN_PLACE on the intra-communicator MPI_COMM_WORLD (goes native).
  allocate(inplace(wsize))
  inplace = -1
  inplace(wrank + 1) = wrank * 7
  call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, inplace, 1, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  do i = 1, wsize
    if (inplace(i) /= (i - 1) * 7) then
      print *, 'TEST FAILURE: MPI_IN_PLACE from Fortran, slot', i, inplace(i)
      call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
    end if
  end do

  ! MPI_Allgatherv on the intra-communicator MPI_COMM_WORLD (goes native
  ! through the Fortran entry point's own call of PMPI_Allgatherv), in
  ! gapped_layout's layout (a gap of -1 stays after each block).
  deallocate(counts, displs)
  allocate(counts(wsize), displs(wsize), vgot(slot * wsize))
  call reverse_gapped(wsize, counts, displs)
  vgot = -1
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN, ierr)
  call MPI_Allgatherv(sbuf, sent_by(wrank), MPI_INTEGER, vgot, counts, displs, MPI_INTEGER, MPI_COMM_WORLD, ierr)
  if (ierr /= MPI_SUCCESS) then
    print *, 'TEST FAILURE: mpif.h MPI_Allgatherv on MPI_COMM_WORLD (native) returned error', ierr
    call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
  end if
  do i = 1, wsize
    do j = 1, slot
      want = -1
      if (j <= counts(i)) want = (i - 1) * 100003 + j
      if (vgot(displs(i) + j) /= want) then
        print *, 'TEST FAILURE: mpif.h MPI_Allgatherv on MPI_COMM_WORLD (native), block', i, 'int', j, &
          ':', vgot(displs(i) + j), 'expected', want
        call MPI_Abort(MPI_COMM_WORLD, 1, ierr)
      end if
    end do
  end do

  if (wrank == 0) then
    print '(a,i0,a,i0,a)', 'expect served moved=', served, ' full=1 allgatherv=1 fortran=', served, ' bottom=2'
    print '(a)', 'PASS allgather_f77'
  end if
  call MPI_Comm_free(inter, ierr)
  call MPI_Comm_free(local, ierr)
  call MPI_Finalize(ierr)
end program allgather_f77
