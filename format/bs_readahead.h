/* SPDX-License-Identifier: GPL-2.0 */
/*
 * bs_readahead.h - one thread that reads the next chunk of each stream's
 * file while the current one is parsed.
 *
 * Reading a trace is mostly the kernel copying the file into the read
 * buffer; where nothing else runs beside the parsing thread (`parse -O -d`
 * to /dev/null), that copy is a sixth of the work, and a second CPU can
 * take it.  A stream that reads ahead (bs_stream_read_ahead()) keeps a
 * spare buffer: while it parses one, this thread fills the other, and a
 * refill swaps them instead of calling read().  The thread serves the
 * streams' requests in the order they come; a stream waits only when it
 * needs the chunk while it is being read.
 */
#ifndef BLKSCOPE_BS_READAHEAD_H
#define BLKSCOPE_BS_READAHEAD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct bs_readahead;

/* One stream's request: read up to len bytes of fd into dst. */
struct bs_readahead_req {
	int fd;
	uint8_t *dst;
	size_t len;
	ssize_t got;			/* bytes read (len unless the file ended), -1 on error */
	int err;			/* errno of the failed read */
	bool busy;			/* queued or being read */
	struct bs_readahead_req *next;	/* the queue */
};

/*
 * With thread, a thread of its own serves the requests (NULL with one CPU
 * or no thread); without, bs_readahead_serve() does, called by a thread
 * that has other work (the dump's writer thread, between its writes).
 * Either way a stream that needs a chunk nobody has started reads it
 * itself, so no request waits for a busy server.
 */
struct bs_readahead *bs_readahead_new(bool thread);
/* Stops the thread; every request must be finished (bs_readahead_wait()). */
void bs_readahead_free(struct bs_readahead *ra);

/* Queue r (fd, dst and len set; not busy). */
void bs_readahead_submit(struct bs_readahead *ra, struct bs_readahead_req *r);
/* Wait until r is read: r->got as above (errno set when -1). */
ssize_t bs_readahead_wait(struct bs_readahead *ra, struct bs_readahead_req *r);
/* Drop r if nobody has started it, else wait for it (a stream closing). */
void bs_readahead_cancel(struct bs_readahead *ra, struct bs_readahead_req *r);
/* Read the oldest queued request, if any: false if there was none. */
bool bs_readahead_serve(struct bs_readahead *ra);

/* read() until len bytes or the end of the input: bytes read, or -1 (errno). */
ssize_t bs_read_full(int fd, uint8_t *p, size_t len);

#endif /* BLKSCOPE_BS_READAHEAD_H */
