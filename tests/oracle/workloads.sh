# SPDX-License-Identifier: GPL-2.0
# workloads.sh - the I/O the fidelity tests record (sourced by run-workload).
#
# Each wl_* function does I/O on $WL_DEV (the traced block device: a loop
# device, or a partition of one for wl_partition) and returns once all of
# it has completed, so that nothing is in flight when the recorders stop.
# Offsets stay inside the first 16 MiB: the partition tests use 2048..34815.

wl_direct_rw() {	# 4 KiB direct writes and reads
	dd if=/dev/zero of="$WL_DEV" bs=4k count=2 seek=100 oflag=direct status=none
	dd if="$WL_DEV" of=/dev/null bs=4k count=2 skip=100 iflag=direct status=none
}

wl_buffered_fsync() {	# page-cache writes, then fsync: writeback + a PREFLUSH
	dd if=/dev/urandom of="$WL_DEV" bs=64k count=4 seek=8 conv=fsync,notrunc status=none
}

# Two cgroups ($WL_CG_WRITE, $WL_CG_READ: directories of the io hierarchy):
# 1 MiB of page-cache writes + fsync from one, 128 KiB of direct reads from
# the other, each from a subshell that moved itself into its cgroup first.
wl_cgroups() {
	(echo "$BASHPID" >"$WL_CG_WRITE/cgroup.procs"
	 exec dd if=/dev/urandom of="$WL_DEV" bs=64k count=16 seek=16 conv=fsync,notrunc status=none)
	(echo "$BASHPID" >"$WL_CG_READ/cgroup.procs"
	 exec dd if="$WL_DEV" of=/dev/null bs=4k count=32 skip=2048 iflag=direct status=none)
}

wl_dsync() {		# O_DSYNC|O_DIRECT: FUA on the bio, post-flush on loop
	dd if=/dev/zero of="$WL_DEV" bs=4k count=2 seek=400 oflag=direct,dsync status=none
}

wl_large_split() {	# 4 MiB direct write: bios over max_sectors_kb (1280) split
	dd if=/dev/zero of="$WL_DEV" bs=4M count=1 seek=1 oflag=direct status=none
}

wl_discard() {		# REQ_OP_DISCARD (punch hole in the tmpfs file)
	blkdiscard -f -o 1M -l 1M "$WL_DEV"
}

wl_write_zeroes() {	# REQ_OP_WRITE_ZEROES; tmpfs refuses it once (C err 65441), then
			# the kernel falls back to writing zero pages
	blkdiscard -f -z -o 2M -l 256K "$WL_DEV" 2>/dev/null || true
	blkdiscard -f -z -o 3M -l 256K "$WL_DEV" 2>/dev/null || true
}

wl_readahead() {	# buffered read after dropping the bdev's page cache: RA bios
	blockdev --flushbufs "$WL_DEV"
	dd if="$WL_DEV" of=/dev/null bs=4k count=64 skip=256 status=none
}

wl_partition() {	# I/O to a partition: A (remap) events, partition dev_t
	dd if=/dev/zero of="$WL_DEV" bs=4k count=2 seek=2 oflag=direct status=none
	dd if="$WL_DEV" of=/dev/null bs=4k count=2 skip=2 iflag=direct status=none
}

wl_fio_merge() {	# concurrent io_uring writers, sequential 4 KiB: plug merges
	fio --name=merge --filename="$WL_DEV" --ioengine=io_uring --direct=1 \
		--rw=write --bs=4k --size=512k --numjobs=3 --offset_increment=1M \
		--iodepth=32 --iodepth_batch_submit=32 --iodepth_batch_complete_min=1 \
		--group_reporting --output=/dev/null
}

wl_scheduler() {	# through an elevator: I events, and merges in the scheduler
	dd if=/dev/urandom of="$WL_DEV" bs=4k count=64 seek=1024 conv=fsync,notrunc status=none
	dd if=/dev/zero of="$WL_DEV" bs=4k count=4 seek=2048 oflag=direct status=none
	blockdev --flushbufs "$WL_DEV"
	dd if="$WL_DEV" of=/dev/null bs=4k count=32 skip=1024 status=none
}

wl_lba_edges() {	# 4 KiB direct writes at sectors 792, 800, 808, 816 (LBA filter edges)
	dd if=/dev/zero of="$WL_DEV" bs=4k count=4 seek=99 oflag=direct status=none
}

wl_stress() {		# 0.5 s of random 4 KiB I/O at QD 32 from two jobs: volume, both CPUs busy
	fio --name=stress --filename="$WL_DEV" --ioengine=io_uring --direct=1 \
		--rw=randrw --bs=4k --size=48m --numjobs=2 --iodepth=32 \
		--time_based --runtime=500ms --group_reporting --output=/dev/null
}
