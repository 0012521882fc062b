/* SPDX-License-Identifier: GPL-2.0 */
/*
 * replay_uring.h - one thread's io_uring: the ring, two registered
 * buffers (every read lands in one, every write is
 * taken from the other: what is read is thrown away and what is written
 * only needs to be incompressible, so no I/O allocates or copies), and
 * the SQEs of each operation (replay_uring.c).
 */
#ifndef BLKSCOPE_REPLAY_URING_H
#define BLKSCOPE_REPLAY_URING_H

#include <liburing.h>
#include "replay.h"

struct replay_ring {
	struct io_uring ring;
	bool ready;
	void *rbuf, *wbuf;
	size_t rlen, wlen;
};

/*
 * Set up a ring of `depth` slots for the plan's largest I/Os: 0, or -1
 * with one line (names what failed).  The targets are not registered
 * files: a ring's teardown is asynchronous, and files it held would keep
 * the devices claimed (O_EXCL) for a while after the replay exits (a mount
 * right after it would fail); a plain fd is held only while an I/O is.
 */
int replay_ring_init(struct replay_ring *r, unsigned int depth, const struct replay_plan *p);
void replay_ring_exit(struct replay_ring *r);

/*
 * Queue the SQE(s) of one I/O (a write with PREFLUSH: a flush linked
 * before it); user_data is `slot`, with REPLAY_UD_DATA on the one whose
 * length is checked.  Returns how many CQEs will come (1 or 2), or 0 when
 * the SQ is full (submit, then call again).  blocking: submitted from
 * io_uring's workers, not non-blocking (IOSQE_ASYNC: replay_target_splits()).
 */
#define REPLAY_UD_DATA	(1ull << 32)
unsigned int replay_ring_prep(struct replay_ring *r, const struct replay_io *io, int fd,
			      uint64_t offset, uint32_t slot, bool blocking);

#endif /* BLKSCOPE_REPLAY_URING_H */
