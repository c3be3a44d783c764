! mpi_f08 bindings: inter-communicator MPI_Allgather (half duplex both ways
! and full duplex) compared with PMPI_Allgather, ierror omitted on purpose
! (it is OPTIONAL in mpi_f08), MPI_BOTTOM with datatypes of absolute
! addresses on both sides of a half-duplex call, and MPI_IN_PLACE on an
! intra-communicator; an MPI_Allgatherv on an intra-communicator (native,
! its arrays passed on).
program allgather_f08
  use mpi_f08
  use gapped_layout
  implicit none
  integer, parameter :: n = 40000
  integer :: wrank, wsize, left, color, rsize, dir, i, j, served, scount, rcount, pos, ierror
  integer, allocatable :: counts(:), displs(:)
  type(MPI_Comm) :: local, inter
  type(MPI_Datatype) :: abs_send, abs_recv
  integer :: blen(1)
  integer(kind=MPI_ADDRESS_KIND) :: addr(1)
  double precision, allocatable :: sbuf(:), got(:), ref(:), vgot(:)
  double precision :: want
  integer, allocatable :: inplace(:)
  logical :: is_left

  call MPI_Init()
  call MPI_Comm_rank(MPI_COMM_WORLD, wrank)
  call MPI_Comm_size(MPI_COMM_WORLD, wsize)
  left = wsize / 2
  is_left = wrank < left
  color = merge(0, 1, is_left)
  call MPI_Comm_split(MPI_COMM_WORLD, color, wrank, local)
  call MPI_Intercomm_create(local, 0, MPI_COMM_WORLD, merge(left, 0, is_left), 6, inter)
  call MPI_Comm_remote_size(inter, rsize)
  allocate(sbuf(n), got(n * rsize), ref(n * rsize))
  do i = 1, n
    sbuf(i) = wrank + i * 0.25d0
  end do

  served = 0
  do dir = 0, 2
    scount = 0
    rcount = 0
    if (dir == 2 .or. (dir == 0 .eqv. is_left)) scount = n
    if (dir == 2 .or. (dir == 0 .neqv. is_left)) rcount = n
    got = -1
    ref = -1
    call MPI_Allgather(sbuf, scount, MPI_DOUBLE_PRECISION, got, rcount, MPI_DOUBLE_PRECISION, inter)
    call PMPI_Allgather(sbuf, scount, MPI_DOUBLE_PRECISION, ref, rcount, MPI_DOUBLE_PRECISION, inter)
    if (any(got /= ref)) then
      print *, 'TEST FAILURE: mpi_f08 MPI_Allgather differs from native, case', dir
      call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
    served = served + 1
  end do

  ! MPI_BOTTOM, left group sending: as in allgather_f77.f90 (case 1 both
  ! sides at MPI_BOTTOM, case 2 the sender only; native, jointly).
  blen(1) = n
  call MPI_Get_address(sbuf, addr(1))
  call MPI_Type_create_hindexed(1, blen, addr, MPI_DOUBLE_PRECISION, abs_send)
  call MPI_Type_commit(abs_send)
  call MPI_Get_address(got, addr(1))
  call MPI_Type_create_hindexed(1, blen, addr, MPI_DOUBLE_PRECISION, abs_recv)
  call MPI_Type_commit(abs_recv)
  do dir = 1, 2
    got = -1
    ref = -1
    if (is_left) then
      call MPI_Allgather(MPI_BOTTOM, 1, abs_send, got, 0, MPI_DOUBLE_PRECISION, inter)
      call PMPI_Allgather(sbuf, n, MPI_DOUBLE_PRECISION, ref, 0, MPI_DOUBLE_PRECISION, inter)
    else if (dir == 1) then
      call MPI_Allgather(sbuf, 0, MPI_DOUBLE_PRECISION, MPI_BOTTOM, 1, abs_recv, inter)
      call PMPI_Allgather(sbuf, 0, MPI_DOUBLE_PRECISION, ref, n, MPI_DOUBLE_PRECISION, inter)
    else
      call MPI_Allgather(sbuf, 0, MPI_DOUBLE_PRECISION, got, n, MPI_DOUBLE_PRECISION, inter)
      call PMPI_Allgather(sbuf, 0, MPI_DOUBLE_PRECISION, ref, n, MPI_DOUBLE_PRECISION, inter)
    end if
    ! got was written through an address the compiler cannot see.
    call MPI_F_sync_reg(got)
    if (any(got /= ref)) then
      print *, 'TEST FAILURE: mpi_f08 MPI_Allgather with MPI_BOTTOM differs from native, case', dir
      call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
  end do
  call MPI_Type_free(abs_send)
  call MPI_Type_free(abs_recv)

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
  call MPI_Allgatherv(sbuf, scount, MPI_DOUBLE_PRECISION, got, counts, displs, MPI_DOUBLE_PRECISION, inter)
  call PMPI_Allgatherv(sbuf, scount, MPI_DOUBLE_PRECISION, ref, counts, displs, MPI_DOUBLE_PRECISION, inter)
  if (any(got /= ref)) then
    print *, 'TEST FAILURE: MPI_Allgatherv differs from native'
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end if
  served = served + 1

  allocate(inplace(wsize))
  inplace = -1
  inplace(wrank + 1) = wrank * 3
  call MPI_Allgather(MPI_IN_PLACE, 0, MPI_DATATYPE_NULL, inplace, 1, MPI_INTEGER, MPI_COMM_WORLD)
  do i = 1, wsize
    if (inplace(i) /= (i - 1) * 3) then
      print *, 'TEST FAILURE: MPI_IN_PLACE from mpi_f08, slot', i, inplace(i)
      call MPI_Abort(MPI_COMM_WORLD, 1)
    end if
  end do

  ! MPI_Allgatherv on the intra-communicator MPI_COMM_WORLD (goes native
  ! through the Fortran entry point's own call of PMPI_Allgatherv), in
  ! gapped_layout's layout (a gap of -1 stays after each block).
  deallocate(counts, displs)
  allocate(counts(wsize), displs(wsize), vgot(slot * wsize))
  call reverse_gapped(wsize, counts, displs)
  vgot = -1
  call MPI_Comm_set_errhandler(MPI_COMM_WORLD, MPI_ERRORS_RETURN)
  call MPI_Allgatherv(sbuf, sent_by(wrank), MPI_DOUBLE_PRECISION, vgot, counts, displs, MPI_DOUBLE_PRECISION, &
                      MPI_COMM_WORLD, ierror)
  if (ierror /= MPI_SUCCESS) then
    print *, 'TEST FAILURE: mpi_f08 MPI_Allgatherv on MPI_COMM_WORLD (native) returned error', ierror
    call MPI_Abort(MPI_COMM_WORLD, 1)
  end if
  do i = 1, wsize
    do j = 1, slot
      want = -1
      if (j <= counts(i)) want = (i - 1) + j * 0.25d0
      if (vgot(displs(i) + j) /= want) then
        print *, 'TEST FAILURE: mpi_f08 MPI_Allgatherv on MPI_COMM_WORLD (native), block', i, 'value', j, &
          ':', vgot(displs(i) + j), 'expected', want
        call MPI_Abort(MPI_COMM_WORLD, 1)
      end if
    end do
  end do

  if (wrank == 0) then
    print '(a,i0,a,i0,a)', 'expect served moved=', served, ' full=1 allgatherv=1 fortran=', served, ' bottom=2'
    print '(a)', 'PASS allgather_f08'
  end if
  call MPI_Comm_free(inter)
  call MPI_Comm_free(local)
  call MPI_Finalize()
end program allgather_f08
