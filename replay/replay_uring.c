// SPDX-License-Identifier: GPL-2.0
/*
 * replay_uring.c - the io_uring side of one replay thread.
 *
 * Operations and what the block layer sees (Q on the target):
 *   read          READ_FIXED into the read buffer                 R
 *   write         WRITE_FIXED from the write buffer               WS
 *   write + FUA   the same with RWF_DSYNC (blkdev sets REQ_FUA)  WFS
 *   flush         FSYNC of the device (blkdev_issue_flush)        FWS, 0 bytes
 *   write+PREFLUSH  a FSYNC linked (IOSQE_IO_LINK) before the write:
 *                 userspace cannot ask for PREFLUSH on a data bio,
 *                 so it becomes a flush followed by the write
 *   discard       URING_CMD BLOCK_URING_CMD_DISCARD (Linux 6.12+) D
 *   write-zeroes  FALLOCATE ZERO_RANGE|KEEP_SIZE (blkdev_issue_zeroout)
 * Flushes, write-zeroes run in io_uring's workers (they block); reads,
 * writes and discards are issued from the submitting thread.
 */
#include <errno.h>
#include <fcntl.h>
#include <linux/fs.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include "bs_alloc.h"
#include "bs_stream.h"
#include "replay_uring.h"

#ifndef BLOCK_URING_CMD_DISCARD
#define BLOCK_URING_CMD_DISCARD	_IO(0x12, 0)	/* linux/blkdev.h, Linux 6.12 */
#endif
#ifndef RWF_DSYNC
#define RWF_DSYNC	0x00000002
#endif

#define REPLAY_BUF_MAX	(1u << 30)	/* a registered buffer's limit */

/* A page-aligned buffer of len bytes (at least a page), or NULL. */
static void *buf_alloc(size_t *len)
{
	void *p;

	*len = (*len + 4095) / 4096 * 4096;
	if (!*len)
		*len = 4096;
	p = mmap(NULL, *len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	return p == MAP_FAILED ? NULL : p;
}

/* What is written: incompressible bytes (xorshift), so that no device dedups or compresses it. */
static void fill_random(void *buf, size_t len)
{
	uint64_t x = 0x9e3779b97f4a7c15ull, *w = buf;

	for (size_t i = 0; i < len / 8; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		w[i] = x;
	}
}

static int ring_setup(struct replay_ring *r, unsigned int depth)
{
	struct io_uring_params prm;
	int rc;

	/* one thread submits and reaps: let the kernel skip what that allows */
	memset(&prm, 0, sizeof(prm));
	prm.flags = IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_COOP_TASKRUN;
	rc = io_uring_queue_init_params(depth, &r->ring, &prm);
	if (rc == -EINVAL) {	/* before Linux 6.0 */
		memset(&prm, 0, sizeof(prm));
		rc = io_uring_queue_init_params(depth, &r->ring, &prm);
	}
	if (rc < 0) {
		fprintf(stderr, "%s: io_uring setup (%u entries): %s\n", bs_progname(), depth,
			strerror(-rc));
		return -1;
	}
	r->ready = true;
	if (!(prm.features & IORING_FEAT_EXT_ARG)) {
		fprintf(stderr, "%s: io_uring: this kernel cannot wait with a timeout (Linux 5.11+ "
			"needed)\n", bs_progname());
		return -1;
	}
	return 0;
}

int replay_ring_init(struct replay_ring *r, unsigned int depth, const struct replay_plan *p)
{
	struct iovec iov[2];
	int rc;

	memset(r, 0, sizeof(*r));
	if (p->max_read > REPLAY_BUF_MAX || p->max_write > REPLAY_BUF_MAX) {
		fprintf(stderr, "%s: an I/O of more than 1 GiB cannot be replayed\n",
			bs_progname());
		return -1;
	}
	r->rlen = p->max_read;
	r->wlen = p->max_write;
	r->rbuf = buf_alloc(&r->rlen);
	r->wbuf = buf_alloc(&r->wlen);
	if (!r->rbuf || !r->wbuf) {
		fprintf(stderr, "%s: no memory for the I/O buffers (%zu + %zu bytes)\n",
			bs_progname(), r->rlen, r->wlen);
		return -1;
	}
	fill_random(r->wbuf, r->wlen);
	if (ring_setup(r, depth))
		return -1;
	iov[0] = (struct iovec){ r->rbuf, r->rlen };
	iov[1] = (struct iovec){ r->wbuf, r->wlen };
	rc = io_uring_register_buffers(&r->ring, iov, 2);
	if (rc < 0) {
		fprintf(stderr, "%s: io_uring: registering the buffers (%zu + %zu bytes): %s\n",
			bs_progname(), r->rlen, r->wlen, strerror(-rc));
		return -1;
	}
	return 0;
}

void replay_ring_exit(struct replay_ring *r)
{
	if (r->ready) {
		io_uring_unregister_buffers(&r->ring);
		io_uring_queue_exit(&r->ring);
	}
	if (r->rbuf)
		munmap(r->rbuf, r->rlen);
	if (r->wbuf)
		munmap(r->wbuf, r->wlen);
	memset(r, 0, sizeof(*r));
}

static void prep_discard(struct io_uring_sqe *sqe, int fd, uint64_t offset, uint32_t bytes)
{
	io_uring_prep_rw(IORING_OP_URING_CMD, sqe, fd, NULL, 0, 0);
	sqe->cmd_op = BLOCK_URING_CMD_DISCARD;	/* shares its word with off: after prep_rw */
	sqe->__pad1 = 0;
	sqe->addr = offset;
	sqe->addr3 = bytes;
}

unsigned int replay_ring_prep(struct replay_ring *r, const struct replay_io *io, int fd,
			      uint64_t offset, uint32_t slot, bool blocking)
{
	bool pre = io->op == REPLAY_WRITE && (io->flags & REPLAY_F_PREFLUSH);
	struct io_uring_sqe *sqe;

	if (io_uring_sq_space_left(&r->ring) < (pre ? 2u : 1u))
		return 0;
	if (pre) {
		sqe = io_uring_get_sqe(&r->ring);
		io_uring_prep_fsync(sqe, fd, 0);
		sqe->flags |= IOSQE_IO_LINK;
		sqe->user_data = slot;
	}
	sqe = io_uring_get_sqe(&r->ring);
	switch (io->op) {
	case REPLAY_READ:
		io_uring_prep_read_fixed(sqe, fd, r->rbuf, io->bytes, offset, 0);
		break;
	case REPLAY_WRITE:
		io_uring_prep_write_fixed(sqe, fd, r->wbuf, io->bytes, offset, 1);
		if (io->flags & REPLAY_F_FUA)
			sqe->rw_flags = RWF_DSYNC;
		break;
	case REPLAY_FLUSH:
		io_uring_prep_fsync(sqe, fd, 0);
		break;
	case REPLAY_DISCARD:
		prep_discard(sqe, fd, offset, io->bytes);
		break;
	default:	/* REPLAY_WZEROES */
		io_uring_prep_fallocate(sqe, fd, FALLOC_FL_ZERO_RANGE | FALLOC_FL_KEEP_SIZE,
					(off_t)offset, (off_t)io->bytes);
		break;
	}
	sqe->flags |= blocking ? IOSQE_ASYNC : 0;
	sqe->user_data = slot | REPLAY_UD_DATA;
	return pre ? 2 : 1;
}
